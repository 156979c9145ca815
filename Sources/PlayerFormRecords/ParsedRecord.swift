/// What one record of an input holds: a name and points, or the reason it cannot be read.
public enum ParsedRecord: Equatable, Sendable {
    /// A readable record.
    case record(name: String, points: Double)
    /// A record that cannot be read: bad JSON or CSV, a missing or mistyped field, a wrong number
    /// of columns, invalid UTF-8. The message says what was wrong and what is accepted.
    case malformed(String)
}

/// A record with the line it starts on.
public struct NumberedRecord: Equatable, Sendable {
    /// The line the record starts on, counting from 1.
    public let line: Int
    /// The record's content.
    public let content: ParsedRecord

    /// A record found at `line`.
    public init(line: Int, content: ParsedRecord) {
        self.line = line
        self.content = content
    }
}
