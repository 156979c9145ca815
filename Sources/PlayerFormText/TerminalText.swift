/// Shows text from a user on a terminal: the one escaping rule of every front end.
///
/// A character is shown as it is when it is visible on its own. Everything else is shown as an
/// escape, and a backslash is itself escaped, so the shown form is unambiguous: two different
/// texts never show the same, and ``quoted(_:)`` reads back unchanged when typed after `name`.
///
/// Shown as escapes (see ``isShownAsIs(_:at:)``):
/// - a backslash, as `\\` (and, in ``quoted(_:)``, a double quote, as `\"`);
/// - tab, line feed and carriage return, as `\t`, `\n`, `\r`;
/// - the other control characters (C0, DEL, C1), default-ignorable code points (zero-width
///   spaces and joiners, the word joiner, the soft hyphen, the byte-order mark, variation
///   selectors, bidirectional controls, tags), the other format characters, line and paragraph
///   separators, spaces other than U+0020, private-use and unassigned code points (including
///   noncharacters), as `\u{HEX}` in upper-case hexadecimal;
/// - in ``escaped(bytes:)``, each byte that is not part of valid UTF-8, as `\xHH`.
///
/// Combining marks are shown as they are. Inside an emoji sequence, where they are part of one
/// visible picture, a zero-width joiner between two emoji, a variation selector 15 or 16 after an
/// emoji, and the tag characters of an emoji tag sequence (flags such as England's) are shown as
/// they are; anywhere else they are escaped like every other default-ignorable code point.
///
/// ```swift
/// TerminalText.escaped("a\u{1B}[31mb")     // a\u{1B}[31mb
/// TerminalText.escaped("tab\there")        // tab\there
/// TerminalText.escaped(#"tab\there"#)      // tab\\there
/// TerminalText.escaped("d\u{200B}arn")     // d\u{200B}arn
/// TerminalText.quoted(#"say "hi""#)        // "say \"hi\""
/// TerminalText.escaped(bytes: [0x41, 0xFF])  // A\xFF
/// ```
public enum TerminalText {
    /// `text` as it is shown on a terminal: every character that is not visible on its own, and
    /// every backslash, replaced by an escape (see ``TerminalText``).
    public static func escaped(_ text: String) -> String {
        var result = ""
        TextEscaping.append(text, notation: .terminal, to: &result)
        return result
    }

    /// `text` escaped as ``escaped(_:)``, shortened to at most `maxWidth` columns (at least 1) with
    /// a final `…` when it is wider (see ``width(_:)``).
    ///
    /// An escape is kept whole or left out with what follows, and so is a wide character. Reads
    /// `text` only as far as `maxWidth` columns reach, however long it is.
    public static func escaped(_ text: String, maxWidth: Int) -> String {
        var result = ""
        var used = 0
        // The part that leaves a column for the `…`, should the rest not fit.
        var cut = ""
        for character in text {
            var piece = ""
            TextEscaping.append(String(character), notation: .terminal, to: &piece)
            let pieceWidth = width(piece)
            if used + pieceWidth > maxWidth { return cut + "…" }
            result += piece
            used += pieceWidth
            if used < maxWidth { cut = result }
        }
        return result
    }

    /// How many columns a terminal takes to show `text`, shown as it is (escape it first).
    ///
    /// Each character (grapheme cluster) is counted as ``width(of:)`` counts it.
    public static func width(_ text: some StringProtocol) -> Int {
        var columns = 0
        for character in text { columns += width(of: character) }
        return columns
    }

    /// How many columns a terminal takes to show `character`: 2 for East Asian wide and fullwidth
    /// characters (ideographs, kana, Hangul syllables, fullwidth forms) and for emoji shown as
    /// pictures (with Emoji_Presentation, or followed by variation selector 16), 0 for a combining
    /// mark with nothing to combine with, 1 for the rest.
    ///
    /// A whole emoji sequence (skin tones, joiners, flags) is one character and takes 2, as
    /// terminals that draw it as one picture show it. Characters of ambiguous width (such as
    /// Greek and Cyrillic letters, which some East Asian fonts draw wide) count 1, as terminals
    /// outside East Asian locales draw them.
    public static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        let first = scalars.first!
        if first.value < 0x300 { return 1 }
        if isWide(first.value) || first.properties.isEmojiPresentation { return 2 }
        if first.properties.isEmoji && scalars.contains("\u{FE0F}") { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return 0
        default: return 1
        }
    }

    /// Whether `value` is in one of ``wideRuns``.
    static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        var low = 0
        var high = wideRuns.count
        while low < high {
            let middle = (low + high) / 2
            if wideRuns[middle].last < value {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low < wideRuns.count && wideRuns[low].first <= value
    }

    /// `text` in double quotes, escaped as ``escaped(_:)`` and with `"` escaped as `\"`, so it reads
    /// back unchanged when typed after a command such as `name`.
    public static func quoted(_ text: String) -> String {
        var result = ""
        appendQuoted(text, to: &result)
        return result
    }

    /// Appends `text` to `result` as ``quoted(_:)`` shows it, for messages built in one string.
    public static func appendQuoted(_ text: String, to result: inout String) {
        result.append("\"")
        TextEscaping.append(text, notation: .quotedTerminal, to: &result)
        result.append("\"")
    }

    /// A message of the program's own whose parts that came from users are already escaped (or
    /// quoted), as it is shown on a terminal: every character not visible on its own is escaped,
    /// as ``escaped(_:)`` does, but backslashes are left as written, since the message's own
    /// (`accepted: \" \\ \n`) mean what they say.
    public static func message(_ text: String) -> String {
        var result = ""
        TextEscaping.append(text, notation: .message, to: &result)
        return result
    }

    /// Bytes that may not be valid UTF-8 in double quotes, as ``quoted(_:)`` shows text, each byte
    /// that is not part of a valid character as `\xHH`.
    public static func quoted(bytes: some Collection<UInt8>) -> String {
        "\"" + escaped(bytes: bytes, notation: .quotedTerminal) + "\""
    }

    /// Bytes that may not be valid UTF-8, escaped: each run of valid UTF-8 as ``escaped(_:)``
    /// shows it, each byte that is not part of a valid character as `\xHH`.
    public static func escaped(bytes: some Collection<UInt8>) -> String {
        escaped(bytes: bytes, notation: .terminal)
    }

    private static func escaped(bytes: some Collection<UInt8>, notation: TextEscaping.Notation) -> String {
        var result = ""
        forEachRun(of: Array(bytes)) { run, _ in
            TextEscaping.append(String(decoding: run, as: UTF8.self), notation: notation, to: &result)
        } invalid: { byte, _ in
            result += "\\x" + TextEscaping.hex(UInt32(byte), digits: 2)
        }
        return result
    }

    /// Splits `bytes` into runs of well-formed UTF-8, handed to `valid` with the offset where each
    /// starts, and single bytes that are not part of a valid character, handed to `invalid`.
    private static func forEachRun(
        of bytes: [UInt8], valid: (ArraySlice<UInt8>, Int) -> Void, invalid: (UInt8, Int) -> Void
    ) {
        var index = 0
        while index < bytes.count {
            var end = index
            while end < bytes.count {
                let length = validSequenceLength(bytes, at: end)
                if length == 0 { break }
                end += length
            }
            if end > index {
                valid(bytes[index..<end], index)
                index = end
            } else {
                invalid(bytes[index], index)
                index += 1
            }
        }
    }

    /// A line being edited, as the line editor shows it: `bytes` escaped as ``message(_:)``
    /// shows text (backslashes as typed, since a command may hold them; every other character
    /// not visible on its own escaped), each byte that is not part of a valid character as
    /// `\xHH`; and where the positions `marks` (byte offsets of `bytes`, such as the cursor)
    /// are in it, an escape counting as one character.
    public static func editedLine(_ bytes: some Collection<UInt8>, marks: [Int]) -> (
        shown: [UInt8], marks: [Int]
    ) {
        let bytes = Array(bytes)
        var shown: [UInt8] = []
        shown.reserveCapacity(bytes.count + 16)
        var placed: [Int?] = Array(repeating: nil, count: marks.count)
        func place(at offset: Int) {
            for (index, mark) in marks.enumerated() where placed[index] == nil && mark <= offset {
                placed[index] = shown.count
            }
        }
        forEachRun(of: bytes) { run, start in
            let scalars = Array(String(decoding: run, as: UTF8.self).unicodeScalars)
            var offset = start
            for position in scalars.indices {
                place(at: offset)
                let scalar = scalars[position]
                if scalar == "\\" || TextEscaping.isShownAsIs(scalars, at: position) {
                    shown += Array(String(scalar).utf8)
                } else {
                    var escape = ""
                    TextEscaping.append(String(scalar), notation: .message, to: &escape)
                    shown += Array(escape.utf8)
                }
                offset += String(scalar).utf8.count
            }
        } invalid: { byte, offset in
            place(at: offset)
            shown += Array(("\\x" + TextEscaping.hex(UInt32(byte), digits: 2)).utf8)
        }
        place(at: bytes.count)
        return (shown, placed.map { $0 ?? shown.count })
    }

    /// Whether the scalar at `index` of `scalars` is shown as it is; when not, it is escaped.
    ///
    /// A scalar is shown when it is visible on its own: not a control, format, separator other
    /// than U+0020, private-use or unassigned code point, and not default-ignorable. The
    /// exceptions are the joiners, variation selectors and tags inside emoji sequences, which
    /// need their neighbours to be told apart. A backslash is shown as it is by this rule; the
    /// notations escape it.
    public static func isShownAsIs(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        TextEscaping.isShownAsIs(scalars, at: index)
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
}

/// The escaping rule and its two notations, terminal and JSON.
///
/// ``TerminalText`` and ``JSONText`` are written in terms of ``append(_:notation:to:)``.
enum TextEscaping {
    enum Notation {
        /// `\\`, `\t`, `\n`, `\r`, `\u{HEX}`.
        case terminal
        /// The same, and `\"`.
        case quotedTerminal
        /// JSON string escapes: `\\`, `\"`, `\t`, `\n`, `\r`, `\uxxxx` in lower-case hexadecimal
        /// (surrogate pairs beyond the Basic Multilingual Plane).
        case json
        /// The terminal's, but a backslash is left as it is: for messages whose parts from users
        /// are escaped already.
        case message
    }

    /// Appends `text` to `result` in `notation`.
    static func append(_ text: String, notation: Notation, to result: inout String) {
        let quotes = notation == .quotedTerminal || notation == .json
        let backslashes = notation != .message
        let plain = text.utf8.allSatisfy {
            (0x20...0x7E).contains($0) && (!backslashes || $0 != UInt8(ascii: "\\"))
                && (!quotes || $0 != UInt8(ascii: "\""))
        }
        if plain {
            result += text
            return
        }
        result.reserveCapacity(result.utf8.count + text.utf8.count + 8)
        let scalars = Array(text.unicodeScalars)
        for index in scalars.indices {
            let scalar = scalars[index]
            switch scalar {
            case "\\": result += backslashes ? "\\\\" : "\\"
            case "\"" where quotes: result += "\\\""
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            default:
                if isShownAsIs(scalars, at: index) {
                    result.unicodeScalars.append(scalar)
                } else if notation == .json {
                    appendJSONEscape(scalar, to: &result)
                } else {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                }
            }
        }
    }

    private static func appendJSONEscape(_ scalar: Unicode.Scalar, to result: inout String) {
        if scalar.value < 0x1_0000 {
            result += "\\u" + hex(scalar.value, digits: 4, uppercase: false)
        } else {
            let offset = scalar.value - 0x1_0000
            result += "\\u" + hex(0xD800 + (offset >> 10), digits: 4, uppercase: false)
            result += "\\u" + hex(0xDC00 + (offset & 0x3FF), digits: 4, uppercase: false)
        }
    }

    /// `value` in hexadecimal, at least `digits` long.
    static func hex(_ value: UInt32, digits: Int, uppercase: Bool = true) -> String {
        let text = String(value, radix: 16, uppercase: uppercase)
        return text.count >= digits ? text : String(repeating: "0", count: digits - text.count) + text
    }

    static func isShownAsIs(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        let scalar = scalars[index]
        if (0x20...0x7E).contains(scalar.value) { return true }
        if isVisibleAlone(scalar) { return true }
        switch scalar.value {
        case 0x200D:
            // A joiner between two emoji, after a shown variation selector or skin tone.
            guard index > 0, index + 1 < scalars.count, isEmoji(scalars[index + 1]) else { return false }
            let previous = scalars[index - 1]
            return isEmoji(previous) || (isVariationSelector(previous) && isShownAsIs(scalars, at: index - 1))
        case 0xFE0E, 0xFE0F:
            guard index > 0 else { return false }
            let previous = scalars[index - 1]
            if isEmoji(previous) { return true }
            // A keycap: a digit, # or * with a variation selector and U+20E3.
            let keycapBase = previous.isASCII && previous.properties.isEmoji
            return keycapBase && index + 1 < scalars.count && scalars[index + 1].value == 0x20E3
        case 0xE0020...0xE007F:
            return isInEmojiTagSequence(scalars, at: index)
        default:
            return false
        }
    }

    /// Whether `scalar` is visible on its own: see ``TerminalText/isShownAsIs(_:at:)``.
    private static func isVisibleAlone(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0xA0 { return (0x20...0x7E).contains(scalar.value) }
        let properties = scalar.properties
        if properties.isDefaultIgnorableCodePoint { return false }
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .privateUse,
            .unassigned, .surrogate:
            return false
        default:
            return true
        }
    }

    /// A pictographic emoji: not a digit, `#` or `*`, which are emoji only in keycaps.
    private static func isEmoji(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.isASCII && scalar.properties.isEmoji
    }

    private static func isVariationSelector(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0xFE0E || scalar.value == 0xFE0F
    }

    /// Whether the tag character at `index` belongs to an emoji tag sequence: an emoji, tag
    /// characters U+E0020...U+E007E, and the cancel tag U+E007F.
    private static func isInEmojiTagSequence(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        var start = index
        while start > 0 && (0xE0020...0xE007E).contains(scalars[start - 1].value) { start -= 1 }
        guard start > 0, isEmoji(scalars[start - 1]) else { return false }
        var end = index
        if scalars[index].value == 0xE007F {
            return end > start
        }
        while end < scalars.count && (0xE0020...0xE007E).contains(scalars[end].value) { end += 1 }
        return end < scalars.count && scalars[end].value == 0xE007F
    }
}
