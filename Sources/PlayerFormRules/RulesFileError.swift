import PlayerFormText

/// Why a rules file is not accepted: which file, where in it, what was found and what is accepted.
///
/// ```swift
/// // rules.json:3:5: duplicate key "forbiddenNames"; each key may appear once
/// ```
public struct RulesFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Whether the file could be read at all.
    public enum Reason: Equatable, Sendable {
        /// The file cannot be opened or read: missing, a directory, no permission.
        case unreadable
        /// The file was read and its content is not accepted.
        case rejected
    }

    /// Whether the file could be read at all.
    public let reason: Reason
    /// The file as it was named.
    public let path: String
    /// The line (from 1) of the problem, when it has one place in the file.
    public let line: Int?
    /// The column (from 1, counted in Unicode code points) of the problem, when it has one place.
    public let column: Int?
    /// What was wrong and what is accepted.
    ///
    /// Text that came from the file is already escaped.
    public let message: String

    /// An error about `path`, at `line` and `column` when the problem has one place.
    public init(_ reason: Reason, path: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.reason = reason
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// `PATH:LINE:COLUMN: message`, or `PATH: message`, or for a file that cannot be read
    /// `cannot read rules file PATH: reason`; the path is escaped for the terminal.
    public var description: String {
        let file = TerminalText.escaped(path)
        if reason == .unreadable { return "cannot read rules file \(file): \(message)" }
        guard let line, let column else { return "\(file): \(message)" }
        return "\(file):\(line):\(column): \(message)"
    }
}
