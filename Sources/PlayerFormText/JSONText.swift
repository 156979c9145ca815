/// Writes strings as JSON string literals.
public enum JSONText {
    /// `text` as a JSON string literal.
    ///
    /// It escapes what JSON requires (quotes, backslashes, control characters) and every other
    /// character that ``TerminalText`` shows as an escape, as `\u` escapes (a surrogate pair beyond
    /// U+FFFF): the output is safe to print, decodes to `text` unchanged, and shows the same
    /// characters as they are as the terminal does.
    ///
    /// ```swift
    /// JSONText.quoted("a\"b\u{1B}")   // "a\"b\u001b"
    /// JSONText.quoted("d\u{200B}arn")  // "d\u200barn"
    /// ```
    public static func quoted(_ text: String) -> String {
        var result = "\""
        TextEscaping.append(text, notation: .json, to: &result)
        result.append("\"")
        return result
    }
}
