import PlayerFormScores

/// Why a score file could not be read or written, naming the file and, where it applies, the line.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Neither `XDG_DATA_HOME` nor `HOME` names an absolute folder, so there is no default place.
    case noDataDirectory
    /// The folder that should hold the file could not be made.
    case cannotCreateDirectory(path: String, reason: String)
    /// The file may not be read, or not be written.
    case permissionDenied(path: String, access: Access)
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// A record could not be written; nothing the store reported as kept was lost.
    case unwritable(path: String, reason: String)
    /// A complete line of the file is not a record; it is skipped.
    case corruptLine(path: String, line: Int, reason: String)
    /// The last line of the file ends part-way, as a crash in the middle of a write leaves it; it
    /// is skipped, and the next write starts on a new line.
    case tornLine(path: String, line: Int)
    /// Points that are not a finite number cannot be stored.
    case notFinite(points: Double)

    /// What was refused.
    public enum Access: Sendable, Equatable {
        /// Reading the file.
        case read
        /// Writing the file.
        case write
    }

    /// What went wrong, naming the file.
    public var description: String {
        switch self {
        case .noDataDirectory:
            "cannot tell where to keep scores: neither XDG_DATA_HOME nor HOME is an absolute path; "
                + "name a score file instead"
        case .cannotCreateDirectory(let path, let reason):
            "\(path): cannot create the folder: \(reason)"
        case .permissionDenied(let path, .read):
            "\(path): permission denied: the file may not be read"
        case .permissionDenied(let path, .write):
            "\(path): permission denied: the file may not be written"
        case .unreadable(let path, let reason):
            "\(path): cannot read the file: \(reason)"
        case .unwritable(let path, let reason):
            "\(path): cannot write the file: \(reason)"
        case .corruptLine(let path, let line, let reason):
            "\(path):\(line): not a score record (\(reason)); the line is skipped"
        case .tornLine(let path, let line):
            "\(path):\(line): the last line is incomplete, as a crash while writing leaves it; "
                + "it is skipped"
        case .notFinite(let points):
            "points must be a finite number to be stored, not \(points)"
        }
    }
}
