/// What one record of an input holds: a name and points, or the reason it cannot be read.
public enum ParsedRecord: Equatable, Sendable {
    /// A readable record.
    case record(name: String, points: Double)
    /// A record that cannot be read: bad JSON or CSV, a missing or mistyped field, a wrong number
    /// of columns, invalid UTF-8. The message says what was wrong and what is accepted.
    case malformed(String)
}

/// Where a record starts in its input.
public struct RecordPlace: Equatable, Sendable {
    /// The line the record starts on, counting from 1.
    public let line: Int
    /// The record's first byte, counting from 0 at the start of the input.
    public let offset: Int

    /// The place of a record starting on `line`, `offset` bytes into the input.
    public init(line: Int, offset: Int) {
        self.line = line
        self.offset = offset
    }
}

/// A record with the place it starts at.
public struct NumberedRecord: Equatable, Sendable {
    /// Where the record starts.
    public let place: RecordPlace
    /// The record's content.
    public let content: ParsedRecord

    /// A record found at `place`.
    public init(place: RecordPlace, content: ParsedRecord) {
        self.place = place
        self.content = content
    }

    /// The line the record starts on, counting from 1.
    public var line: Int { place.line }
}
