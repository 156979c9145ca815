import PlayerFormRules

/// One invalid or malformed record: where it is, its name when it could be read, and every reason.
public struct Finding: Equatable, Sendable {
    /// Why a record is not valid: a rule it breaks, or why it cannot be read.
    public enum Problem: Equatable, Sendable {
        /// A rule of `PlayerRules` that the record breaks.
        case issue(ValidationIssue)
        /// The same player (the same comparison key) is on `firstLine` of the file (`--unique`).
        case duplicate(firstLine: Int)
        /// Why the record cannot be read.
        case malformed(String)

        /// The stable code: a `ValidationIssue.Code` raw value, or `malformed`.
        public var code: String {
            switch self {
            case .issue(let issue): issue.code.rawValue
            case .duplicate: "duplicateName"
            case .malformed: "malformed"
            }
        }

        /// The words shown to the user: the form's own message for a rule, or what was wrong.
        public var message: String {
            switch self {
            case .issue(let issue): issue.message
            case .duplicate(let line): "The same player is on line \(line)."
            case .malformed(let reason): reason
            }
        }
    }

    /// The input's label: its path, or `<stdin>`.
    public let file: String
    /// The line the record starts on, counting from 1.
    public let line: Int
    /// The record's first byte in the input, counting from 0.
    public let offset: Int
    /// The record's name, or nil when the record cannot be read.
    public let name: String?
    /// Every reason, in the order the rules report them.
    public let problems: [Problem]

    /// A finding for the record at `place` in `file`.
    public init(file: String, place: RecordPlace, name: String?, problems: [Problem]) {
        self.file = file
        self.line = place.line
        self.offset = place.offset
        self.name = name
        self.problems = problems
    }
}
