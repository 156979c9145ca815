/// Makes text from a file safe to print on a terminal.
public enum TerminalText {
    /// `text` with control characters (C0, DEL, C1), bidirectional overrides and isolates, and
    /// line and paragraph separators written as escapes (`\n`, `\t`, `\r`, `\u{1B}`...), and
    /// backslashes doubled so that an escape cannot be faked. With `quoted`, double quotes are
    /// escaped too and the result is wrapped in them.
    ///
    /// ```swift
    /// TerminalText.escaped("a\u{1B}[31mb", quoted: true)
    /// // Prints "a\u{1B}[31mb" with the escape visible
    /// ```
    public static func escaped(_ text: String, quoted: Bool = false) -> String {
        if !text.unicodeScalars.contains(where: {
            needsEscape($0.value) || $0 == "\\" || (quoted && $0 == "\"")
        }) {
            return quoted ? "\"" + text + "\"" : text
        }
        var result = quoted ? "\"" : ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"" where quoted: result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if needsEscape(scalar.value) {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted ? result + "\"" : result
    }

    private static func needsEscape(_ value: UInt32) -> Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value) || value == 0x2028 || value == 0x2029 || value == 0x200E
            || value == 0x200F || value == 0x061C
    }
}

/// Writes strings as JSON.
public enum JSONText {
    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped.
    public static func quoted(_ text: String) -> String {
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
