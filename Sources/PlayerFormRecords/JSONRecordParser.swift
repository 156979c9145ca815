import PlayerFormJSON

/// Reads one line of JSON Lines as a player record: an object with a string `name` and a number
/// `points`, keys in any order, other keys ignored whatever their value.
///
/// The parser is strict JSON (RFC 8259) working on bytes: string escapes including `\uXXXX` and
/// surrogate pairs, numbers with fractions and exponents, nested values, whitespace. Anything
/// else, including invalid UTF-8, a lone surrogate escape, or a second `name` or `points` key, is
/// malformed; the parser never guesses. Only the name is turned into a String.
///
/// ```swift
/// var parser = JSONRecordParser()
/// Array(#"{"points": 1e2, "name": "Zo\u00eb"}"#.utf8).withUnsafeBufferPointer { parser.parse($0) }
/// // .record(name: "Zoë", points: 100)
/// ```
public struct JSONRecordParser {
    /// The deepest nesting of arrays and objects accepted in an ignored value.
    public static let maximumNesting = JSONCursor.maximumNesting

    private var text = LineScratch(capacity: 256)
    /// The last name that had escapes, unescaped.
    private var unescapedName = LineScratch(capacity: 256)
    private var nesting: [UInt8] = []

    /// A parser; reuse it for every line to reuse its scratch storage.
    public init() {
        nesting.reserveCapacity(64)
    }

    /// The record on `line`, which holds no line break.
    public mutating func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedRecord {
        parse(
            line,
            record: { name, points in .record(name: String(decoding: name, as: UTF8.self), points: points) },
            malformed: { .malformed($0) })
    }

    /// What ``parse(_:)`` finds on `line`, without making the name a String: a record is handed to
    /// `record` with its name's UTF-8 bytes (valid UTF-8, escapes decoded), which live only
    /// during the call; a line that is not a player record hands `malformed` the same message.
    public mutating func parse<Answer>(
        _ line: UnsafeBufferPointer<UInt8>, record: (UnsafeBufferPointer<UInt8>, Double) -> Answer,
        malformed: (String) -> Answer
    ) -> Answer {
        let found: Found
        do {
            found = try parseRecord(line)
        } catch {
            return malformed(Self.message(error, in: line))
        }
        switch found {
        case .malformed(let reason):
            return malformed(reason)
        case .record(.inLine(let range), let points):
            return record(UnsafeBufferPointer(rebasing: line[range]), points)
        case .record(.unescaped, let points):
            return record(unescapedName.bytes, points)
        }
    }

    /// Where the bytes of a name are: a range of the line, or `unescapedName`.
    private enum NameBytes {
        case inLine(Range<Int>)
        case unescaped
    }

    private enum Found {
        case record(name: NameBytes, points: Double)
        case malformed(String)
    }

    /// A syntax error in the words of a record: positions are columns of `line`, counted in code
    /// points as in the rules file.
    private static func message(_ error: JSONSyntaxError, in line: UnsafeBufferPointer<UInt8>) -> String {
        let detail = error.detail(input: "line")
        let column =
            UTF8Text.codePoints(UnsafeBufferPointer(rebasing: line[..<min(error.offset, line.count)])) + 1
        switch error.problem {
        case .endsEarly, .unclosedString: return "bad JSON: " + detail
        case .invalidUTF8:
            let note = error.offset < line.count ? " " + EncodingHints.byteNote(line[error.offset]) : ""
            return "invalid UTF-8 at column \(column)\(note); " + EncodingHints.convert
        case .nestedTooDeep: return detail
        default: return "bad JSON at column \(column): " + detail
        }
    }

    enum Key { case name, points, other }

    /// The record on `line`; a record that is valid JSON but not a player record is returned as
    /// `.malformed`, a line that is not valid JSON throws.
    private mutating func parseRecord(_ line: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> Found {
        // No string of the line decodes to more bytes than the line has.
        text.reserve(line.count)
        unescapedName.reserve(line.count)
        var cursor = JSONCursor(line)
        cursor.skipWhitespace()
        guard cursor.peek == UInt8(ascii: "{") else {
            if cursor.isAtEnd {
                return .malformed("the line is not a JSON object; expected {\"name\": ..., \"points\": ...}")
            }
            throw cursor.unexpected("a JSON object starting with {")
        }
        cursor.advance()
        var name: NameBytes?
        var points: Double?
        cursor.skipWhitespace()
        if cursor.peek == UInt8(ascii: "}") {
            cursor.advance()
        } else {
            while true {
                guard cursor.peek == UInt8(ascii: "\"") else {
                    throw cursor.unexpected("a key in double quotes")
                }
                let key = try readKey(&cursor)
                cursor.skipWhitespace()
                guard cursor.peek == UInt8(ascii: ":") else { throw cursor.unexpected("':' after a key") }
                cursor.advance()
                cursor.skipWhitespace()
                switch key {
                case .name:
                    guard name == nil else { return .malformed("the key \"name\" appears twice") }
                    guard cursor.peek == UInt8(ascii: "\"") else {
                        return .malformed(try mistyped("name", "a string", &cursor))
                    }
                    let start = cursor.index + 1
                    if try cursor.scanString(into: &text) {
                        name = .inLine(start..<(cursor.index - 1))
                    } else {
                        // Kept apart from the scratch text, which the keys and values after it reuse.
                        swap(&text, &unescapedName)
                        name = .unescaped
                    }
                case .points:
                    guard points == nil else { return .malformed("the key \"points\" appears twice") }
                    guard cursor.isAtNumber else {
                        return .malformed(try mistyped("points", "a number", &cursor))
                    }
                    points = try NumberText.scanJSON(&cursor)
                case .other:
                    try cursor.skipValue(nesting: &nesting, scratch: &text)
                }
                if try cursor.endOfMember() == nil { break }
            }
        }
        cursor.skipWhitespace()
        guard cursor.isAtEnd else { throw cursor.unexpected("the end of the line after the object") }
        guard let name else { return .malformed("the key \"name\" is missing") }
        guard let points else { return .malformed("the key \"points\" is missing") }
        return .record(name: name, points: points)
    }

    /// Reads the key in quotes at the cursor: `"name"` and `"points"` written plainly are told
    /// from their bytes at once, any other key is scanned as a string.
    mutating func readKey(_ cursor: inout JSONCursor) throws(JSONSyntaxError) -> Key {
        if let key = Self.plainKey(cursor.bytes, at: cursor.index) {
            cursor.index += key == .name ? 6 : 8
            return key
        }
        return try scanKey(&cursor)
    }

    /// Reads the key in quotes at the cursor as a string, the general way.
    mutating func scanKey(_ cursor: inout JSONCursor) throws(JSONSyntaxError) -> Key {
        let start = cursor.index + 1
        if try cursor.scanString(into: &text) {
            return Self.key(UnsafeBufferPointer(rebasing: cursor.bytes[start..<(cursor.index - 1)]))
        }
        return Self.key(text.bytes)
    }

    /// `.name` or `.points` when the bytes at `start` are `"name"` or `"points"` with their quotes,
    /// else nil.
    @inline(__always)
    static func plainKey(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Key? {
        guard let base = bytes.baseAddress, start >= 0, bytes.count - start >= 6 else { return nil }
        let word = UnsafeRawPointer(base + start)
        // The words are the bytes as a little-endian load gives them: `"nam`, then `e"`.
        if UInt32(littleEndian: word.loadUnaligned(as: UInt32.self)) == 0x6D61_6E22
            && UInt16(littleEndian: word.loadUnaligned(fromByteOffset: 4, as: UInt16.self)) == 0x2265
        {
            return .name
        }
        // `"points"`.
        if bytes.count - start >= 8
            && UInt64(littleEndian: word.loadUnaligned(as: UInt64.self)) == 0x2273_746E_696F_7022
        {
            return .points
        }
        return nil
    }

    private static func key(_ raw: UnsafeBufferPointer<UInt8>) -> Key {
        switch raw.count {
        case 4:
            return raw[0] == UInt8(ascii: "n") && raw[1] == UInt8(ascii: "a") && raw[2] == UInt8(ascii: "m")
                && raw[3] == UInt8(ascii: "e") ? .name : .other
        case 6:
            return raw[0] == UInt8(ascii: "p") && raw[1] == UInt8(ascii: "o") && raw[2] == UInt8(ascii: "i")
                && raw[3] == UInt8(ascii: "n") && raw[4] == UInt8(ascii: "t") && raw[5] == UInt8(ascii: "s")
                ? .points : .other
        default:
            return .other
        }
    }

    /// The message for a value of the wrong type; the value must still be valid JSON to say what it is.
    private mutating func mistyped(
        _ key: String, _ expected: String, _ cursor: inout JSONCursor
    ) throws(JSONSyntaxError) -> String {
        let kind: String
        switch cursor.peek ?? 0 {
        case UInt8(ascii: "\""): kind = "a string"
        case UInt8(ascii: "{"): kind = "an object"
        case UInt8(ascii: "["): kind = "an array"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): kind = "a boolean"
        case UInt8(ascii: "n"): kind = "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): kind = "a number"
        default: throw cursor.unexpected("a value for \"\(key)\"")
        }
        try cursor.skipValue(nesting: &nesting, scratch: &text)
        return "\"\(key)\" must be \(expected), not \(kind)"
    }
}
