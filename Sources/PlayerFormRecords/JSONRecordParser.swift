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
    public static let maximumNesting = 512

    private var text: [UInt8] = []
    private var nesting: [UInt8] = []

    /// A parser; reuse it for every line to reuse its scratch storage.
    public init() {
        text.reserveCapacity(256)
        nesting.reserveCapacity(64)
    }

    /// The record on `line`, which holds no line break.
    public mutating func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedRecord {
        do {
            return try parseRecord(line)
        } catch {
            return .malformed(error.message)
        }
    }

    private enum Key { case name, points, other }

    private mutating func parseRecord(_ line: UnsafeBufferPointer<UInt8>) throws(MalformedRecord)
        -> ParsedRecord
    {
        var cursor = JSONCursor(line)
        cursor.skipWhitespace()
        guard cursor.peek == UInt8(ascii: "{") else {
            throw cursor.isAtEnd
                ? MalformedRecord("the line is not a JSON object; expected {\"name\": ..., \"points\": ...}")
                : cursor.unexpected("a JSON object starting with {")
        }
        cursor.advance()
        var name: String?
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
                    guard name == nil else { throw MalformedRecord("the key \"name\" appears twice") }
                    guard cursor.peek == UInt8(ascii: "\"") else {
                        throw try mistyped("name", "a string", &cursor)
                    }
                    let start = cursor.index + 1
                    let plain = try cursor.scanString(into: &text)
                    name =
                        plain
                        ? String(
                            decoding: UnsafeBufferPointer(rebasing: line[start..<(cursor.index - 1)]),
                            as: UTF8.self)
                        : String(decoding: text, as: UTF8.self)
                case .points:
                    guard points == nil else { throw MalformedRecord("the key \"points\" appears twice") }
                    guard cursor.isAtNumber else { throw try mistyped("points", "a number", &cursor) }
                    let start = cursor.index
                    try cursor.scanNumber()
                    points = NumberText.value(of: UnsafeBufferPointer(rebasing: line[start..<cursor.index]))
                case .other:
                    try cursor.skipValue(nesting: &nesting, scratch: &text)
                }
                cursor.skipWhitespace()
                if cursor.peek == UInt8(ascii: ",") {
                    cursor.advance()
                    cursor.skipWhitespace()
                    continue
                }
                guard cursor.peek == UInt8(ascii: "}") else {
                    throw cursor.unexpected("',' or '}' after a value")
                }
                cursor.advance()
                break
            }
        }
        cursor.skipWhitespace()
        guard cursor.isAtEnd else { throw cursor.unexpected("the end of the line after the object") }
        guard let name else { throw MalformedRecord("the key \"name\" is missing") }
        guard let points else { throw MalformedRecord("the key \"points\" is missing") }
        return .record(name: name, points: points)
    }

    private mutating func readKey(_ cursor: inout JSONCursor) throws(MalformedRecord) -> Key {
        let start = cursor.index + 1
        if try cursor.scanString(into: &text) {
            return Self.key(UnsafeBufferPointer(rebasing: cursor.bytes[start..<(cursor.index - 1)]))
        }
        return text.withUnsafeBufferPointer { Self.key($0) }
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

    /// The error for a value of the wrong type; the value must still be valid JSON to say what it is.
    private mutating func mistyped(
        _ key: String, _ expected: String, _ cursor: inout JSONCursor
    ) throws(MalformedRecord) -> MalformedRecord {
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
        return MalformedRecord("\"\(key)\" must be \(expected), not \(kind)")
    }
}

/// Why a record cannot be read.
struct MalformedRecord: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
