import Glibc
import PlayerFormSystem

/// Where the REPL keeps its history, and how much.
///
/// By default `$XDG_STATE_HOME/playerform/history`, or `~/.local/state/playerform/history` when
/// `XDG_STATE_HOME` is unset, empty or relative (the XDG rule, `BaseDirectory.state`); off when
/// `HOME` is not an absolute path either. `/dev/null` turns history off.
public struct HistoryFile: Equatable, Sendable {
    /// The file, or nil when history is off.
    public let path: String?
    /// The most lines kept, in memory and in the file: 0 up to `Int32.max`, what readline holds.
    public let maxLines: Int

    /// Creates a history at `path`; nil or `/dev/null` turns it off.
    ///
    /// `maxLines` is kept within 0...`Int32.max`.
    public init(path: String?, maxLines: Int = 1000) {
        self.path = path == "/dev/null" ? nil : path
        self.maxLines = Swift.min(Swift.max(maxLines, 0), Int(Int32.max))
    }

    /// The history file given on the command line, or the default for `environment`.
    public static func resolve(option: String?, environment: [String: String]) -> HistoryFile {
        if let option { return HistoryFile(path: option) }
        guard let state = BaseDirectory.folder(.state, environment: environment) else {
            return HistoryFile(path: nil)
        }
        return HistoryFile(path: state + "/playerform/history")
    }

    /// Creates the file's folder (0700) and the file (0600) when they are missing.
    ///
    /// Only a regular file keeps history: a FIFO would hold the session until another process
    /// opened it, and a device such as `/dev/full` would refuse every line.
    /// - Returns: nil when ready, or why the file cannot be used.
    public func prepare() -> String? {
        guard let path else { return nil }
        do {
            try Folders.createParents(of: path, mode: 0o700)
        } catch {
            return "cannot create \(error.folder): \(error.reason)"
        }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            return "\(path) is not a regular file"
        }
        // Not waiting, should it have become a FIFO since.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else { return "cannot open \(path): \(SystemError.text(errno))" }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return "\(path) is not a regular file"
        }
        return nil
    }
}
