import PlayerFormScores

/// Why the score database could not be opened, read or written.
///
/// Every case names the file and says what was wrong. The `ScoreStore` methods throw it as a
/// `ScoreStoreError`; opening, importing and exporting throw it as it is.
public enum SQLiteStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path names something that is not a regular file: a folder, a FIFO, a device, a socket.
    case notAFile(path: String, kind: String)
    /// The file is a score file (the JSON Lines of earlier versions, or an export), which is
    /// imported, not opened.
    case scoreFile(path: String)
    /// The file is not a SQLite database.
    case notADatabase(path: String)
    /// The file is a SQLite database made by another program.
    case foreignDatabase(path: String)
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

    /// What went wrong, naming the database file.
    public var description: String {
        switch self {
        case .notAFile(let path, let kind):
            "\(path): is \(kind), not a score database; name a regular file"
        case .scoreFile(let path):
            "\(path): is a file of score records, not a score database; "
                + "import it with: playerform import \(path)"
        case .notADatabase(let path):
            "\(path): is not a SQLite database; name a score database or a new file"
        case .foreignDatabase(let path):
            "\(path): is a SQLite database of another program, not a playerform score database"
        case .newerSchema(let path):
            "\(path): was written by a newer version of playerform; use that version"
        case .cannotCreateDirectory(let path, let reason):
            "\(path): cannot create the folder: \(reason)"
        case .cannotOpen(let path, let reason):
            "\(path): cannot open the score database: \(reason)"
        case .busy(let path, let seconds):
            "\(path): another process kept the score database locked for \(Self.seconds(seconds)); "
                + "nothing was changed, try again"
        case .diskFull(let path, let reason):
            "\(path): cannot write the score database: \(reason); nothing was changed"
        case .ioError(let path, let reason):
            "\(path): cannot use the score database: \(reason)"
        case .corrupt(let path, let reason):
            "\(path): the score database is damaged: \(reason)"
        case .conflictingRecord(let id):
            "a different record with the id \(id) is already stored; the record is not kept"
        case .notFinite(let points):
            "points must be a finite number to be stored, not \(points)"
        case .sqlite(let path, let message):
            "\(path): \(message)"
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
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
            case .notAFile(let path, let kind):
                return .cannotOpen(.database(path: path), reason: "is \(kind)")
            case .scoreFile, .notADatabase, .foreignDatabase: return .notAStore(place)
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
