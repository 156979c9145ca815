/// Why a score file could not be read, naming the file.
public enum ScoreFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file may not be read.
    case permissionDenied(path: String)
    /// The file could not be read, with the operating system's reason.
    case unreadable(path: String, reason: String)

    /// What went wrong, naming the file.
    public var description: String {
        switch self {
        case .permissionDenied(let path): "\(path): permission denied: the file may not be read"
        case .unreadable(let path, let reason): "\(path): cannot read the file: \(reason)"
        }
    }
}
