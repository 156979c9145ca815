/// A position in a buffer of JSON, with the scanners of the JSON grammar (RFC 8259): the strict
/// reader that both the record files and the rules file are read with.
///
/// The scanners check the grammar and move ``index``; they never guess. Every error is a
/// ``JSONSyntaxError`` with the byte offset of the problem. The hot paths are inlinable, so readers
/// in other modules scan as fast as they would in this one.
///
/// ```swift
/// Array(#"{"max": 5}"#.utf8).withUnsafeBufferPointer { bytes in
///     var cursor = JSONCursor(bytes)
///     var nesting: [UInt8] = []
///     var scratch: [UInt8] = []
///     try cursor.skipValue(nesting: &nesting, scratch: &scratch)  // cursor.index == 10
/// }
/// ```
public struct JSONCursor {
    /// The deepest nesting of arrays and objects ``skipValue(nesting:scratch:)`` accepts.
    public static let maximumNesting = 512

    /// The bytes being read.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read; the scanners move it.
    public var index = 0

    /// A cursor at the start of `bytes`.
    @inlinable
    public init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Whether every byte has been read.
    @inlinable
    public var isAtEnd: Bool { index >= bytes.count }

    /// The byte at the cursor, or nil at the end.
    @inlinable
    public var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Whether a number starts at the cursor (a minus sign or a digit).
    @inlinable
    public var isAtNumber: Bool {
        guard let byte = peek else { return false }
        return byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// Moves past the byte at the cursor.
    @inlinable
    public mutating func advance() { index += 1 }

    /// Moves past spaces, tabs, line feeds and carriage returns: JSON's whitespace.
    @inlinable
    public mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// The error for finding something other than `expected` at the cursor.
    @inlinable
    public func unexpected(_ expected: String) -> JSONSyntaxError {
        guard let byte = peek else { return JSONSyntaxError(offset: index, .endsEarly(expected: expected)) }
        return JSONSyntaxError(offset: index, .unexpected(found: Self.describe(byte), expected: expected))
    }

    /// Moves past what ends an object member's value: a `,` and the whitespace after it, or the
    /// object's closing `}`.
    ///
    /// Returns the offset of the `,` when another member follows; nil when the object ended.
    /// - Throws: `JSONSyntaxError` when neither follows the value.
    @inlinable
    public mutating func endOfMember() throws(JSONSyntaxError) -> Int? {
        skipWhitespace()
        switch peek {
        case UInt8(ascii: ","):
            let comma = index
            index += 1
            skipWhitespace()
            return comma
        case UInt8(ascii: "}"):
            index += 1
            return nil
        default:
            throw unexpected("',' or '}' after a value")
        }
    }

    /// How an error shows `byte`: `'x'` for a visible ASCII character, `byte 0xNN` otherwise.
    public static func describe(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F
            ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    /// Scans the string starting at the opening quote under the cursor and leaves the cursor after
    /// its closing quote.
    ///
    /// Returns true when the string has no escapes: its content is then exactly the bytes between
    /// the quotes, and `text` is left alone. Otherwise `text` is replaced by the decoded content.
    @inlinable
    public mutating func scanString(into text: inout some JSONDecodedText) throws(JSONSyntaxError) -> Bool {
        let quote = index
        index += 1
        let start = index
        var plain = true
        while index < bytes.count {
            // Runs of bytes that stand for themselves are passed eight at a time.
            let run = index
            index = Self.endOfPlainRun(bytes, from: index)
            if !plain && index > run {
                text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
            }
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return plain
            }
            if byte == UInt8(ascii: "\\") {
                if plain {
                    text.removeAllKeepingStorage()
                    text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                    plain = false
                }
                try decodeEscape(into: &text)
            } else if byte < 0x20 {
                throw JSONSyntaxError(offset: index, .controlCharacterInString)
            } else if byte < 0x80 {
                if !plain { text.append(byte) }
                index += 1
            } else {
                let length = try utf8SequenceLength()
                if !plain {
                    text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]))
                }
                index += length
            }
        }
        throw JSONSyntaxError(offset: quote, .unclosedString)
    }

    /// The offset of the first byte at or after `start` that is a quote, a backslash, a control
    /// character (below 0x20) or not ASCII (0x80 or above), or the offset of the last few bytes,
    /// fewer than eight, when none of the words before them holds one.
    ///
    /// Eight bytes are tested at once: for each kind, the high bit of a byte of a mask is set where
    /// the byte is of that kind; a borrow can set high bits above the first true one, never below
    /// it, so the lowest set bit of all the masks is the first byte that is of some kind.
    @inlinable
    static func endOfPlainRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        while bytes.count - index >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let quotes = word ^ (ones &* 0x22)
            let backslashes = word ^ (ones &* 0x5C)
            // Taking n (at most 0x80) from an ASCII byte sets its high bit exactly when the byte is
            // below n; a byte of 0x80 or more is found whatever the subtractions give.
            let found = ((word &- ones &* 0x20) | (quotes &- ones) | (backslashes &- ones) | word) & highs
            if found != 0 { return index + found.trailingZeroBitCount / 8 }
            index += 8
        }
        return index
    }

    @inlinable
    mutating func decodeEscape(into text: inout some JSONDecodedText) throws(JSONSyntaxError) {
        guard index + 1 < bytes.count else { throw JSONSyntaxError(offset: index, .unknownEscape) }
        let decoded: UInt8
        switch bytes[index + 1] {
        case UInt8(ascii: "\""): decoded = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): decoded = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): decoded = UInt8(ascii: "/")
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            let escape = index
            var scalar = try hexQuad(at: index + 2)
            index += 6
            if scalar >= 0xDC00 && scalar <= 0xDFFF {
                throw JSONSyntaxError(offset: escape, .loneLowSurrogate)
            }
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                else { throw JSONSyntaxError(offset: escape, .loneHighSurrogate) }
                let low = try hexQuad(at: index + 2)
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw JSONSyntaxError(offset: escape, .loneHighSurrogate)
                }
                index += 6
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            Self.appendUTF8(of: scalar, to: &text)
            return
        default:
            throw JSONSyntaxError(offset: index, .unknownEscape)
        }
        text.append(decoded)
        index += 2
    }

    /// Appends the UTF-8 encoding of `scalar`, a Unicode scalar value (never a surrogate).
    @inlinable
    static func appendUTF8(of scalar: UInt32, to text: inout some JSONDecodedText) {
        switch scalar {
        case ..<0x80:
            text.append(UInt8(truncatingIfNeeded: scalar))
        case ..<0x800:
            text.append(UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6))
            text.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        case ..<0x1_0000:
            text.append(UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12))
            text.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
            text.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        default:
            text.append(UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18))
            text.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F))
            text.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
            text.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        }
    }

    /// The value of the four hexadecimal digits at `start`, which follow the `\u` of an escape.
    @usableFromInline
    func hexQuad(at start: Int) throws(JSONSyntaxError) -> UInt32 {
        guard start + 4 <= bytes.count else { throw JSONSyntaxError(offset: start - 2, .shortUnicodeEscape) }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[start + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONSyntaxError(offset: start - 2, .shortUnicodeEscape)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence at the cursor, whose first byte is 0x80 or more.
    @usableFromInline
    func utf8SequenceLength() throws(JSONSyntaxError) -> Int {
        func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            index + offset < bytes.count && range.contains(bytes[index + offset])
        }
        let valid: Bool
        let length: Int
        switch bytes[index] {
        case 0xC2...0xDF: (valid, length) = (continuation(1), 2)
        case 0xE0: (valid, length) = (continuation(1, 0xA0...0xBF) && continuation(2), 3)
        case 0xE1...0xEC, 0xEE...0xEF: (valid, length) = (continuation(1) && continuation(2), 3)
        case 0xED: (valid, length) = (continuation(1, 0x80...0x9F) && continuation(2), 3)
        case 0xF0: (valid, length) = (continuation(1, 0x90...0xBF) && continuation(2) && continuation(3), 4)
        case 0xF1...0xF3: (valid, length) = (continuation(1) && continuation(2) && continuation(3), 4)
        case 0xF4: (valid, length) = (continuation(1, 0x80...0x8F) && continuation(2) && continuation(3), 4)
        default: (valid, length) = (false, 1)
        }
        guard valid else { throw JSONSyntaxError(offset: index, .invalidUTF8) }
        return length
    }

    /// Scans a number per the JSON grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    @inlinable
    public mutating func scanNumber() throws(JSONSyntaxError) {
        if peek == UInt8(ascii: "-") { index += 1 }
        guard let first = peek, first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") else {
            throw unexpected("a digit in a number")
        }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek == UInt8(ascii: ".") {
            index += 1
            guard isAtDigit else { throw unexpected("a digit after the decimal point") }
            skipDigits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard isAtDigit else { throw unexpected("a digit in the exponent") }
            skipDigits()
        }
    }

    @usableFromInline
    var isAtDigit: Bool {
        guard let byte = peek else { return false }
        return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    @usableFromInline
    mutating func skipDigits() {
        while isAtDigit { index += 1 }
    }

    @usableFromInline
    mutating func skipLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count,
            UnsafeBufferPointer(rebasing: bytes[index..<(index + count)]).elementsEqual(
                UnsafeBufferPointer(start: literal.utf8Start, count: count))
        else { throw unexpected("a JSON value") }
        index += count
    }

    /// Skips one value of any kind, checking that it is valid JSON.
    ///
    /// Arrays and objects are followed with an explicit stack, so deep nesting cannot overflow the
    /// call stack.
    @inlinable
    public mutating func skipValue(nesting: inout [UInt8], scratch: inout some JSONDecodedText)
        throws(JSONSyntaxError)
    {
        nesting.removeAll(keepingCapacity: true)
        while true {
            // A value starts at the cursor.
            switch peek {
            case UInt8(ascii: "{"):
                index += 1
                skipWhitespace()
                if peek == UInt8(ascii: "}") {
                    // An empty object is a level too, though nothing inside it needs the stack.
                    try checkRoom(nesting)
                    index += 1
                } else {
                    try push(UInt8(ascii: "{"), &nesting)
                    try skipMemberKey(scratch: &scratch)
                    continue
                }
            case UInt8(ascii: "["):
                index += 1
                skipWhitespace()
                if peek == UInt8(ascii: "]") {
                    try checkRoom(nesting)
                    index += 1
                } else {
                    try push(UInt8(ascii: "["), &nesting)
                    continue
                }
            case UInt8(ascii: "\""):
                _ = try scanString(into: &scratch)
            case UInt8(ascii: "t"): try skipLiteral("true")
            case UInt8(ascii: "f"): try skipLiteral("false")
            case UInt8(ascii: "n"): try skipLiteral("null")
            default:
                guard isAtNumber else { throw unexpected("a JSON value") }
                try scanNumber()
            }
            // The value is complete: close the containers it ends, or move to the next element.
            var nextValue = false
            while let open = nesting.last, !nextValue {
                skipWhitespace()
                let close = open == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if peek == UInt8(ascii: ",") {
                    index += 1
                    skipWhitespace()
                    if open == UInt8(ascii: "{") { try skipMemberKey(scratch: &scratch) }
                    nextValue = true
                } else if peek == close {
                    index += 1
                    nesting.removeLast()
                } else {
                    throw unexpected(
                        open == UInt8(ascii: "{") ? "',' or '}' in an object" : "',' or ']' in an array")
                }
            }
            if !nextValue { return }
        }
    }

    @usableFromInline
    func push(_ open: UInt8, _ nesting: inout [UInt8]) throws(JSONSyntaxError) {
        try checkRoom(nesting)
        nesting.append(open)
    }

    /// Throws when an array or object opened inside `nesting` would be nested more than
    /// ``maximumNesting`` levels deep.
    @usableFromInline
    func checkRoom(_ nesting: [UInt8]) throws(JSONSyntaxError) {
        guard nesting.count < Self.maximumNesting else {
            throw JSONSyntaxError(offset: index, .nestedTooDeep(limit: Self.maximumNesting))
        }
    }

    /// Skips `"key" :` and the whitespace after it, inside an object.
    @inlinable
    mutating func skipMemberKey(scratch: inout some JSONDecodedText) throws(JSONSyntaxError) {
        guard peek == UInt8(ascii: "\"") else { throw unexpected("a key in double quotes") }
        _ = try scanString(into: &scratch)
        skipWhitespace()
        guard peek == UInt8(ascii: ":") else { throw unexpected("':' after a key") }
        index += 1
        skipWhitespace()
    }
}
