/// The store an error concerns, as its words name it.
public enum ScoreStorePlace: Sendable, Hashable {
    /// A SQLite score database at this path.
    case database(path: String)
    /// A PostgreSQL server at this endpoint (`host:port/database`, never a password).
    case server(endpoint: String)
}

/// Which way a store's file was being used when it failed.
public enum ScoreStoreAccess: Sendable, Hashable {
    /// Reading it.
    case read
    /// Writing it.
    case write
    /// Reading or writing it, where the layer below does not say which.
    case readWrite
}

/// What a place holds that is not a score store.
public enum ScoreStoreContent: Sendable, Hashable {
    /// A folder.
    case folder
    /// A name ending in `/`, which names a folder whether or not one is there.
    case folderName
    /// A FIFO (a named pipe).
    case fifo
    /// A device.
    case device
    /// A socket.
    case socket
    /// Some other kind of file that is not a regular file.
    case otherFile
    /// A file of score records (the JSON Lines of earlier versions, or an export): it is
    /// imported, not opened.
    case scoreRecords
    /// A file that is not a database this store reads.
    case notADatabase
    /// A database made by another program.
    case otherProgramsDatabase

    /// Whether the place is not a regular file at all, so nothing could be read from it.
    public var isNotAFile: Bool {
        switch self {
        case .folder, .folderName, .fifo, .device, .socket, .otherFile: true
        case .scoreRecords, .notADatabase, .otherProgramsDatabase: false
        }
    }
}

/// Why a score store could not do what it was asked: every `ScoreStore` method throws only this.
///
/// Each case says what kind of failure happened and carries the values a front end needs to say
/// so in its own words: the store (``ScoreStorePlace``), and the reason the layer below gave
/// (an operating system's text such as `No space left on device`, or a server's message). Each
/// store turns its own errors into these in one place; the words are the front end's.
public enum ScoreStoreError: Error, Hashable, Sendable {
    /// The store keeps records but cannot delete them.
    case deletionUnsupported
    /// The store keeps uploads but cannot keep records as they are (an import).
    case importUnsupported
    /// The operation was cancelled (Ctrl-C, a cancelled task) before it finished; nothing that
    /// was not already reported as kept is kept.
    case cancelled
    /// Points that are not a finite number cannot be stored.
    case notFinite(points: Double)
    /// A record reuses the identifier of a stored record that differs from it; it is not kept.
    case conflictingRecord(id: String)
    /// Another process kept the store locked for longer than the wait allows; nothing was changed.
    case locked(ScoreStorePlace, waitedSeconds: Double)
    /// The server stopped an operation that took longer than its timeout; nothing was changed.
    case timedOut(ScoreStorePlace, milliseconds: Int)
    /// No connection could be made to the store.
    case unreachable(ScoreStorePlace, reason: String)
    /// The connection was lost during the operation; the next operation connects again.
    case connectionLost(ScoreStorePlace)
    /// The store refused the user: a wrong password, or no permission.
    case refused(ScoreStorePlace, user: String, reason: String)
    /// The store asks for a password and none was given.
    case passwordRequired(ScoreStorePlace, user: String)
    /// The disk (or the file system's quota) is full; nothing acknowledged was lost.
    case storageFull(ScoreStorePlace, reason: String)
    /// Reading or writing failed in the operating system, with its reason.
    case io(ScoreStorePlace, access: ScoreStoreAccess, reason: String)
    /// The store may not be read, or not be written.
    case permissionDenied(ScoreStorePlace, access: ScoreStoreAccess)
    /// The store cannot be opened or created, with the reason.
    case cannotOpen(ScoreStorePlace, reason: String)
    /// The folder at `path`, which should hold the store, could not be made.
    case cannotCreateFolder(path: String, reason: String)
    /// What the place names is not a score store: it holds `content`.
    case notAStore(ScoreStorePlace, holds: ScoreStoreContent)
    /// The address of a store (a URL) is not one the store reads; `address` has any password
    /// masked, and `reason` says what is wrong with it.
    case invalidAddress(String, reason: String)
    /// The store is damaged, with what was found wrong.
    case corrupt(ScoreStorePlace, reason: String)
    /// The store was made by a newer version of playerform, with its schema version when known.
    case newerSchema(ScoreStorePlace, version: Int?)
    /// Any other failure the layer below reported: its code (a SQLSTATE; empty when it has none)
    /// and its message.
    case failed(ScoreStorePlace, code: String, message: String)
}
