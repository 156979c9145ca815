/// Makes text from a user safe to print on a terminal.
///
/// Control characters (C0, DEL, C1), escape sequences, bidirectional overrides and line
/// separators are shown as visible escapes instead of reaching the terminal, so a name such as
/// `"\u{1B}[2J"` cannot clear the screen or move the cursor.
///
/// ```swift
/// TerminalText.escaped("a\u{1B}[31mb")  // "a\u{1B}[31mb" shown literally as a\u{1B}[31mb
/// TerminalText.escaped(bytes: [0x41, 0xFF])  // "A\xFF"
/// ```
public enum TerminalText {
    /// `text` with every character that could control a terminal replaced by a visible escape:
    /// `\t`, `\n`, `\r`, or `\u{XX}`.
    public static func escaped(_ text: String) -> String {
        if text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            append(scalar, to: &result, quoting: false)
        }
        return result
    }

    /// `text` in double quotes, escaped as ``escaped(_:)`` and with `"` and `\` escaped too, so it
    /// reads back unchanged when typed after a command such as `name`.
    public static func quoted(_ text: String) -> String {
        let plain = text.utf8.allSatisfy {
            (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
        }
        if plain { return "\"" + text + "\"" }
        var result = "\""
        for scalar in text.unicodeScalars {
            append(scalar, to: &result, quoting: true)
        }
        result.append("\"")
        return result
    }

    /// Bytes that may not be valid UTF-8, escaped: valid characters as ``escaped(_:)`` does, each
    /// byte that is not part of a valid character as `\xNN`.
    public static func escaped(bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var result = ""
        var index = 0
        while index < bytes.count {
            let length = validSequenceLength(bytes, at: index)
            if length == 0 {
                result += "\\x" + hex(bytes[index])
                index += 1
            } else {
                let character = String(decoding: bytes[index..<index + length], as: UTF8.self)
                for scalar in character.unicodeScalars { append(scalar, to: &result, quoting: false) }
                index += length
            }
        }
        return result
    }

    /// The length of the well-formed UTF-8 sequence starting at `index`, or 0 when there is none.
    static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF4: length = 4; second = 0x80...0x8F
        case 0xF1...0xF3: length = 4
        default: return 0
        }
        guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return 0 }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) { return 0 }
        return length
    }

    /// Whether `scalar` must not reach a terminal as it is.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        // Line and paragraph separators, and the bidirectional embeddings, overrides and isolates
        // that can make text display in a different order than it is stored.
        case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }

    private static func append(_ scalar: Unicode.Scalar, to result: inout String, quoting: Bool) {
        switch scalar {
        case "\t": result += "\\t"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\"" where quoting: result += "\\\""
        case "\\" where quoting: result += "\\\\"
        default:
            if needsEscape(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}
