import PlayerFormScores

/// Why the score database could not be opened, read or written, as this store finds it.
///
/// Internal: every public method throws it as a `ScoreStoreError`, through
/// `ScoreStoreError.translating(_:database:)`; the words are the front end's.
enum SQLiteStoreError: Error, Equatable, Sendable {
    /// The path holds something that is not a score database.
    case notAStore(path: String, holds: ScoreStoreContent)
    /// The database was made by a newer version of playerform, whose schema this one does not know.
    case newerSchema(path: String)
    /// The folder that should hold the database could not be made.
    case cannotCreateDirectory(path: String, reason: String)
    /// The database cannot be opened or created.
    case cannotOpen(path: String, reason: String)
    /// Another process kept the database locked for longer than the wait allows.
    case busy(path: String, waitedSeconds: Double)
    /// The disk (or the file system's quota) is full; nothing acknowledged was lost.
    case diskFull(path: String, reason: String)
    /// Reading or writing the file failed in the operating system.
    case ioError(path: String, reason: String)
    /// The database is damaged.
    case corrupt(path: String, reason: String)
    /// A record reuses the identifier of a stored record that differs from it.
    case conflictingRecord(id: String)
    /// Points that are not a finite number cannot be stored.
    case notFinite(points: Double)
    /// Any other failure of SQLite, with its message.
    case sqlite(path: String, message: String)
}

extension ScoreStoreError {
    /// `error` from the database at `path` (a ``SQLiteStoreError``, a cancellation, or anything
    /// else SQLite reported) as the error every score store throws: the SQLite store's one
    /// mapping to it.
    static func translating(_ error: any Error, database path: String) -> ScoreStoreError {
        let place = ScoreStorePlace.database(path: path)
        switch error {
        case let error as ScoreStoreError: return error
        case is CancellationError: return .cancelled
        case let error as SQLiteStoreError:
            switch error {
            case .notAStore(_, let content): return .notAStore(place, holds: content)
            case .newerSchema: return .newerSchema(place, version: nil)
            case .cannotCreateDirectory(let folder, let reason):
                return .cannotCreateFolder(path: folder, reason: reason)
            case .cannotOpen(_, let reason): return .cannotOpen(place, reason: reason)
            case .busy(_, let seconds): return .locked(place, waitedSeconds: seconds)
            case .diskFull(_, let reason): return .storageFull(place, reason: reason)
            case .ioError(_, let reason): return .io(place, access: .readWrite, reason: reason)
            case .corrupt(_, let reason): return .corrupt(place, reason: reason)
            case .conflictingRecord(let id): return .conflictingRecord(id: id)
            case .notFinite(let points): return .notFinite(points: points)
            case .sqlite(_, let message): return .failed(place, code: "", message: message)
            }
        default: return .failed(place, code: "", message: "\(error)")
        }
    }
}
