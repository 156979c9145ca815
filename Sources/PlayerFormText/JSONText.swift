/// Writes strings as JSON string literals.
public enum JSONText {
    /// `text` as a JSON string literal. Quotes, backslashes and control characters are escaped as
    /// JSON requires; the other characters that must not reach a terminal as they are (DEL, C1,
    /// bidirectional controls, line separators; see ``TerminalText/needsEscape(_:)``) are written
    /// as `\u` escapes too, so the output is safe to print and reads back unchanged.
    ///
    /// ```swift
    /// JSONText.quoted("a\"b\u{1B}")  // "\"a\\\"b\\u001b\""
    /// ```
    public static func quoted(_ text: String) -> String {
        let plain = text.utf8.allSatisfy {
            (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
        }
        if plain { return "\"" + text + "\"" }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if TerminalText.needsEscape(scalar) {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
