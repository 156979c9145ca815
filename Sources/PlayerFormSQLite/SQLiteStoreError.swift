/// Why the score database could not be opened, read or written.
///
/// Every case names the file and says what was wrong; ``exitStatus`` is the status a command ends
/// with because of it.
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

    /// The exit status of a command that fails with this error, from sysexits.h: 65 (EX_DATAERR)
    /// for a file that is not a score database or a conflicting record, 66 (EX_NOINPUT) for a
    /// path that is not a regular file or cannot be opened, 73 (EX_CANTCREAT) for a folder that
    /// cannot be made, 74 (EX_IOERR) for a full disk or an I/O error, 75 (EX_TEMPFAIL) for a
    /// database another process keeps locked.
    public var exitStatus: Int32 {
        switch self {
        case .scoreFile, .notADatabase, .foreignDatabase, .newerSchema, .corrupt,
            .conflictingRecord, .notFinite:
            65
        case .notAFile, .cannotOpen: 66
        case .cannotCreateDirectory: 73
        case .diskFull, .ioError, .sqlite: 74
        case .busy: 75
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
