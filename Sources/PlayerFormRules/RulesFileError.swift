/// Why a rules file is not accepted: which file, where in it, what was found and what is accepted.
///
/// A value, not a sentence for a terminal: text taken from the file (a key as it was written) is
/// kept as it is in the ``message``, and each front end shows it in its own way, escaped.
///
/// ```swift
/// // rules.json:3:5: duplicate key "forbiddenNames"; each key may appear once
/// ```
public struct RulesFileError: Error, Equatable, Sendable {
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
    public let message: RulesFileMessage

    /// An error about `path`, at `line` and `column` when the problem has one place.
    public init(
        _ reason: Reason, path: String, line: Int? = nil, column: Int? = nil, message: RulesFileMessage
    ) {
        self.reason = reason
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// `PATH:LINE:COLUMN: message`, or `PATH: message`, or for a file that cannot be read
    /// `cannot read rules file PATH: reason`, with the path shown by `path` and each text from the
    /// file by `found`.
    ///
    /// A front end passes its own showing of text that came from a user: for a terminal, escaped.
    public func text(path showPath: (String) -> String, found: (String) -> String) -> String {
        let file = showPath(path)
        let words = message.text(found: found)
        if reason == .unreadable { return "cannot read rules file \(file): \(words)" }
        guard let line, let column else { return "\(file): \(words)" }
        return "\(file):\(line):\(column): \(words)"
    }
}

/// The words of a ``RulesFileError``, with the text taken from the file kept apart from them.
///
/// Written as a string literal; `\(found: text)` marks text from the file:
///
/// ```swift
/// let message: RulesFileMessage = "duplicate key \(found: key); each key may appear once"
/// message.text(found: { "\"\($0)\"" })  // duplicate key "max"; each key may appear once
/// ```
public struct RulesFileMessage: Equatable, Sendable, ExpressibleByStringInterpolation {
    /// A part of the message.
    public enum Part: Equatable, Sendable {
        /// The program's words.
        case words(String)
        /// Text from the file, as it is there.
        case found(String)
    }

    /// The parts, in order: the program's words and text from the file, never two words parts
    /// in a row.
    public private(set) var parts: [Part]

    /// A message of the program's words alone.
    public init(stringLiteral value: String) {
        parts = [.words(value)]
    }

    /// A message of the program's words alone, from a `String`.
    public init(words: String) {
        parts = [.words(words)]
    }

    /// A message written with interpolations.
    public init(stringInterpolation: StringInterpolation) {
        parts = stringInterpolation.parts
    }

    /// Builds a ``RulesFileMessage``: interpolated values are the program's words, except those
    /// marked `found:`.
    public struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var parts: [Part] = []

        /// An empty message, to which the literal's parts are appended.
        public init(literalCapacity: Int, interpolationCount: Int) {}

        /// The program's words, as written in the literal.
        public mutating func appendLiteral(_ literal: String) {
            parts.append(words: literal)
        }

        /// A value the program puts in its words, such as a limit.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            parts.append(words: value.description)
        }

        /// Text taken from the file: shown by the front end in its own way.
        public mutating func appendInterpolation(found text: String) {
            parts.append(.found(text))
        }
    }

    /// The message with each text from the file shown by `found`.
    public func text(found: (String) -> String) -> String {
        parts.map {
            switch $0 {
            case .words(let words): words
            case .found(let text): found(text)
            }
        }.joined()
    }

    /// The message followed by more words.
    static func + (message: RulesFileMessage, words: String) -> RulesFileMessage {
        var joined = message
        joined.parts.append(words: words)
        return joined
    }
}

extension [RulesFileMessage.Part] {
    /// Appends `words`, joined to the words before them: the parts alternate between the
    /// program's words and text from the file.
    fileprivate mutating func append(words: String) {
        guard !words.isEmpty else { return }
        if case .words(let before) = last {
            self[index(before: endIndex)] = .words(before + words)
        } else {
            append(.words(words))
        }
    }
}
