/// Why bytes are not valid JSON (RFC 8259), and where: the strict reader's one error.
///
/// The position is a byte offset; each reader turns it into its own words (a column of a line of
/// records, a line and column of a rules file), with ``detail(input:)`` for what was wrong.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    /// What is wrong.
    public enum Problem: Equatable, Sendable {
        /// Something the grammar does not allow here. `found` is `'x'` for a visible ASCII
        /// character, `byte 0xNN` otherwise.
        case unexpected(found: String, expected: String)
        /// The input ends where `expected` was needed.
        case endsEarly(expected: String)
        /// A raw control character (below U+0020) inside a string.
        case controlCharacterInString
        /// A string whose closing quote never comes; the offset is its opening quote.
        case unclosedString
        /// A backslash followed by something that is not a JSON escape.
        case unknownEscape
        /// A `\u` escape of a low surrogate with no high surrogate before it.
        case loneLowSurrogate
        /// A `\u` escape of a high surrogate with no low surrogate after it.
        case loneHighSurrogate
        /// A `\u` escape without four hexadecimal digits.
        case shortUnicodeEscape
        /// Bytes that are not well-formed UTF-8.
        case invalidUTF8
        /// Arrays and objects nested deeper than `limit`.
        case nestedTooDeep(limit: Int)
    }

    /// The byte offset of the problem in the input (the input's length when it ends early).
    public let offset: Int
    /// What is wrong.
    public let problem: Problem

    /// An error at `offset`.
    public init(offset: Int, _ problem: Problem) {
        self.offset = offset
        self.problem = problem
    }

    /// The problem in words, without its position; `input` names what is being read ("line",
    /// "file") for the problems that are about its end.
    ///
    /// ```swift
    /// JSONSyntaxError(offset: 3, .unexpected(found: "'}'", expected: "a key in double quotes"))
    ///     .detail(input: "file")  // "found '}', expected a key in double quotes"
    /// ```
    public func detail(input: String) -> String {
        switch problem {
        case .unexpected(let found, let expected): "found \(found), expected \(expected)"
        case .endsEarly(let expected): "the \(input) ends early; expected \(expected)"
        case .controlCharacterInString:
            "a control character inside a string; write it as an escape such as \\n or \\u001B"
        case .unclosedString: "a string is not closed; the \(input) ends before its closing quote"
        case .unknownEscape: "unknown escape; accepted: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"
        case .loneLowSurrogate: "\\u escape of a low surrogate without a high one before it"
        case .loneHighSurrogate: "\\u escape of a high surrogate without a low one after it"
        case .shortUnicodeEscape: "\\u needs four hexadecimal digits"
        case .invalidUTF8: "invalid UTF-8"
        case .nestedTooDeep(let limit): "values are nested more than \(limit) levels deep; not accepted"
        }
    }
}
