/// A position in one line of JSON, with the scanners of the JSON grammar (RFC 8259).
struct JSONCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool { index >= bytes.count }

    /// The byte at the cursor, or nil at the end of the line.
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    var isAtNumber: Bool {
        guard let byte = peek else { return false }
        return byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    mutating func advance() { index += 1 }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// The error for finding something other than `expected` at the cursor.
    func unexpected(_ expected: String) -> MalformedRecord {
        guard let byte = peek else {
            return MalformedRecord("bad JSON: the line ends early; expected \(expected)")
        }
        let found =
            byte >= 0x21 && byte < 0x7F
            ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
        return MalformedRecord("bad JSON at column \(index + 1): found \(found), expected \(expected)")
    }

    /// Scans the string starting at the opening quote under the cursor and leaves the cursor after
    /// its closing quote. Returns true when the string has no escapes: its content is then exactly
    /// the bytes between the quotes, and `text` is left alone. Otherwise `text` is replaced by the
    /// decoded content.
    mutating func scanString(into text: inout [UInt8]) throws(MalformedRecord) -> Bool {
        index += 1
        let start = index
        var plain = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return plain
            }
            if byte == UInt8(ascii: "\\") {
                if plain {
                    text.removeAll(keepingCapacity: true)
                    text.append(contentsOf: bytes[start..<index])
                    plain = false
                }
                try decodeEscape(into: &text)
            } else if byte < 0x20 {
                throw MalformedRecord(
                    "bad JSON at column \(index + 1): a control character inside a string; "
                        + "write it as an escape such as \\n or \\u001B")
            } else if byte < 0x80 {
                if !plain { text.append(byte) }
                index += 1
            } else {
                let length = try utf8SequenceLength()
                if !plain { text.append(contentsOf: bytes[index..<(index + length)]) }
                index += length
            }
        }
        throw MalformedRecord("bad JSON: a string is not closed; the line ends before its closing quote")
    }

    private mutating func decodeEscape(into text: inout [UInt8]) throws(MalformedRecord) {
        guard index + 1 < bytes.count else { throw unexpectedEscape() }
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
            let escapeColumn = index + 1
            var scalar = try hexQuad(at: index + 2)
            index += 6
            if scalar >= 0xDC00 && scalar <= 0xDFFF {
                throw MalformedRecord(
                    "bad JSON at column \(escapeColumn): \\u escape of a low surrogate without a high one before it"
                )
            }
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                else {
                    throw MalformedRecord(
                        "bad JSON at column \(escapeColumn): \\u escape of a high surrogate without a low one after it"
                    )
                }
                let low = try hexQuad(at: index + 2)
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw MalformedRecord(
                        "bad JSON at column \(escapeColumn): \\u escape of a high surrogate without a low one after it"
                    )
                }
                index += 6
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            text.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
            return
        default:
            throw unexpectedEscape()
        }
        text.append(decoded)
        index += 2
    }

    private func unexpectedEscape() -> MalformedRecord {
        MalformedRecord(
            "bad JSON at column \(index + 1): unknown escape; accepted: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"
        )
    }

    private func hexQuad(at start: Int) throws(MalformedRecord) -> UInt32 {
        guard start + 4 <= bytes.count else {
            throw MalformedRecord("bad JSON at column \(start - 1): \\u needs four hexadecimal digits")
        }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[start + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw MalformedRecord("bad JSON at column \(start - 1): \\u needs four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence at the cursor, whose first byte is 0x80 or more.
    private func utf8SequenceLength() throws(MalformedRecord) -> Int {
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
        guard valid else {
            throw MalformedRecord("invalid UTF-8 at column \(index + 1); records must be UTF-8")
        }
        return length
    }

    /// Scans a number per the JSON grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func scanNumber() throws(MalformedRecord) {
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

    private var isAtDigit: Bool {
        guard let byte = peek else { return false }
        return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while isAtDigit { index += 1 }
    }

    private mutating func skipLiteral(_ literal: StaticString) throws(MalformedRecord) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count,
            UnsafeBufferPointer(rebasing: bytes[index..<(index + count)]).elementsEqual(
                UnsafeBufferPointer(start: literal.utf8Start, count: count))
        else { throw unexpected("a JSON value") }
        index += count
    }

    /// Skips one value of any kind, checking that it is valid JSON. Arrays and objects are
    /// followed with an explicit stack, so deep nesting cannot overflow the call stack.
    mutating func skipValue(nesting: inout [UInt8], scratch: inout [UInt8]) throws(MalformedRecord) {
        nesting.removeAll(keepingCapacity: true)
        while true {
            // A value starts at the cursor.
            switch peek {
            case UInt8(ascii: "{"):
                index += 1
                skipWhitespace()
                if peek == UInt8(ascii: "}") {
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

    private func push(_ open: UInt8, _ nesting: inout [UInt8]) throws(MalformedRecord) {
        guard nesting.count < JSONRecordParser.maximumNesting else {
            throw MalformedRecord(
                "values are nested more than \(JSONRecordParser.maximumNesting) levels deep; not accepted")
        }
        nesting.append(open)
    }

    /// Skips `"key" :` and the whitespace after it, inside an object.
    private mutating func skipMemberKey(scratch: inout [UInt8]) throws(MalformedRecord) {
        guard peek == UInt8(ascii: "\"") else { throw unexpected("a key in double quotes") }
        _ = try scanString(into: &scratch)
        skipWhitespace()
        guard peek == UInt8(ascii: ":") else { throw unexpected("':' after a key") }
        index += 1
        skipWhitespace()
    }
}
