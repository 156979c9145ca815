import Foundation
import PlayerFormText
import PropertyBased
import Testing

@testable import PlayerFormTerminal

/// One input and how every view shows it: on a terminal (``TerminalText/escaped(_:)``), quoted
/// (``TerminalText/quoted(_:)``) and in JSON (``JSONText/quoted(_:)``).
struct ShownForm: CustomStringConvertible, Sendable {
    let what: String
    let input: String
    let terminal: String
    let json: String

    var description: String { what }
}

/// The table of the escaping rule.
///
/// Raw strings (`#"..."#`) hold the shown forms exactly.
let shownForms: [ShownForm] = [
    ShownForm(what: "plain text", input: "Colin 100", terminal: "Colin 100", json: #""Colin 100""#),
    ShownForm(what: "accents, CJK and emoji", input: "Zoë 名前 🎲", terminal: "Zoë 名前 🎲", json: #""Zoë 名前 🎲""#),
    ShownForm(what: "a tab", input: "tab\there", terminal: #"tab\there"#, json: #""tab\there""#),
    ShownForm(what: "a backslash", input: #"tab\there"#, terminal: #"tab\\there"#, json: #""tab\\there""#),
    ShownForm(what: "quotes", input: #"say "hi""#, terminal: #"say "hi""#, json: #""say \"hi\"""#),
    ShownForm(what: "line breaks", input: "a\r\nb", terminal: #"a\r\nb"#, json: #""a\r\nb""#),
    ShownForm(
        what: "an ESC sequence", input: "a\u{1B}[2Jb\u{1B}]0;x\u{7}",
        terminal: #"a\u{1B}[2Jb\u{1B}]0;x\u{7}"#,
        json: #""a\u001b[2Jb\u001b]0;x\u0007""#),
    ShownForm(what: "NUL", input: "a\u{0}b", terminal: #"a\u{0}b"#, json: #""a\u0000b""#),
    ShownForm(what: "DEL", input: "a\u{7F}", terminal: #"a\u{7F}"#, json: #""a\u007f""#),
    ShownForm(
        what: "C1 controls", input: "\u{80}\u{9B}2J", terminal: #"\u{80}\u{9B}2J"#, json: #""\u0080\u009b2J""#
    ),
    ShownForm(
        what: "zero-width space", input: "d\u{200B}arn", terminal: #"d\u{200B}arn"#, json: #""d\u200barn""#),
    ShownForm(
        what: "byte-order mark", input: "\u{FEFF}darn", terminal: #"\u{FEFF}darn"#, json: #""\ufeffdarn""#),
    ShownForm(what: "soft hyphen", input: "da\u{AD}rn", terminal: #"da\u{AD}rn"#, json: #""da\u00adrn""#),
    ShownForm(
        what: "zero-width joiner between letters", input: "dar\u{200D}n", terminal: #"dar\u{200D}n"#,
        json: #""dar\u200dn""#),
    ShownForm(what: "word joiner", input: "p\u{2060}oop", terminal: #"p\u{2060}oop"#, json: #""p\u2060oop""#),
    ShownForm(
        what: "variation selector 16 after a letter", input: "a\u{FE0F}", terminal: #"a\u{FE0F}"#,
        json: #""a\ufe0f""#),
    ShownForm(
        what: "variation selector 16 after an emoji", input: "\u{2764}\u{FE0F}", terminal: "\u{2764}\u{FE0F}",
        json: "\"\u{2764}\u{FE0F}\""),
    ShownForm(
        what: "a keycap", input: "1\u{FE0F}\u{20E3}", terminal: "1\u{FE0F}\u{20E3}",
        json: "\"1\u{FE0F}\u{20E3}\""),
    ShownForm(
        what: "variation selector 16 after a digit that is no keycap", input: "1\u{FE0F}",
        terminal: #"1\u{FE0F}"#,
        json: #""1\ufe0f""#),
    ShownForm(
        what: "an emoji family (joiners between emoji)", input: "👨\u{200D}👩\u{200D}👧",
        terminal: "👨\u{200D}👩\u{200D}👧", json: "\"👨\u{200D}👩\u{200D}👧\""),
    ShownForm(
        what: "a heart on fire (joiner after a variation selector)", input: "\u{2764}\u{FE0F}\u{200D}🔥",
        terminal: "\u{2764}\u{FE0F}\u{200D}🔥", json: "\"\u{2764}\u{FE0F}\u{200D}🔥\""),
    ShownForm(
        what: "a joiner after an emoji with nothing to join", input: "👨\u{200D}x", terminal: #"👨\u{200D}x"#,
        json: #""👨\u200dx""#),
    ShownForm(
        what: "England's flag (an emoji tag sequence)",
        input: "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",
        terminal: "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",
        json: "\"🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}\""),
    ShownForm(
        what: "tag characters outside an emoji tag sequence", input: "a\u{E0067}\u{E007F}",
        terminal: #"a\u{E0067}\u{E007F}"#, json: #""a\udb40\udc67\udb40\udc7f""#),
    ShownForm(what: "a bidi override", input: "a\u{202E}b", terminal: #"a\u{202E}b"#, json: #""a\u202eb""#),
    ShownForm(
        what: "a bidi isolate", input: "a\u{2067}b\u{2069}", terminal: #"a\u{2067}b\u{2069}"#,
        json: #""a\u2067b\u2069""#),
    ShownForm(what: "a line separator", input: "a\u{2028}b", terminal: #"a\u{2028}b"#, json: #""a\u2028b""#),
    ShownForm(
        what: "a paragraph separator", input: "a\u{2029}", terminal: #"a\u{2029}"#, json: #""a\u2029""#),
    ShownForm(what: "a no-break space", input: "a\u{A0}b", terminal: #"a\u{A0}b"#, json: #""a\u00a0b""#),
    ShownForm(what: "an ideographic space", input: "\u{3000}名", terminal: #"\u{3000}名"#, json: #""\u3000名""#),
    ShownForm(
        what: "combining marks, shown as they are", input: "e\u{301}\u{323} Zo\u{308}",
        terminal: "e\u{301}\u{323} Zo\u{308}", json: "\"e\u{301}\u{323} Zo\u{308}\""),
    ShownForm(what: "private use", input: "a\u{E000}", terminal: #"a\u{E000}"#, json: #""a\ue000""#),
    ShownForm(what: "unassigned", input: "a\u{378}", terminal: #"a\u{378}"#, json: #""a\u0378""#),
    ShownForm(what: "a noncharacter", input: "a\u{FFFF}", terminal: #"a\u{FFFF}"#, json: #""a\uffff""#),
    ShownForm(
        what: "a Hangul filler and a Mongolian vowel separator", input: "\u{3164}\u{180E}",
        terminal: #"\u{3164}\u{180E}"#, json: #""\u3164\u180e""#),
    ShownForm(
        what: "an escape's own text, typed", input: #"\u{1B}"#, terminal: #"\\u{1B}"#, json: #""\\u{1B}""#),
]

@Suite("TerminalText: one escaping rule")
struct TerminalTextTests {
    @Test("the table: each input's terminal and JSON forms", arguments: shownForms)
    func table(_ form: ShownForm) {
        #expect(TerminalText.escaped(form.input) == form.terminal)
        #expect(JSONText.quoted(form.input) == form.json)
    }

    @Test("quoted is the terminal form in quotes, with quotes escaped", arguments: shownForms)
    func quotedForm(_ form: ShownForm) {
        let expected = "\"" + withQuotesEscaped(form.terminal) + "\""
        #expect(TerminalText.quoted(form.input) == expected)
    }

    @Test("the JSON form decodes to the input", arguments: shownForms)
    func jsonDecodes(_ form: ShownForm) throws {
        let decoded = try JSONDecoder().decode(String.self, from: Data(JSONText.quoted(form.input).utf8))
        #expect(Array(decoded.unicodeScalars) == Array(form.input.unicodeScalars))
    }

    @Test("invalid UTF-8 bytes show as \\xHH; the valid runs between them as escaped shows them")
    func invalidBytes() {
        #expect(TerminalText.escaped(bytes: [0x41, 0xFF, 0xC3, 0xA9, 0xC3]) == #"A\xFFé\xC3"#)
        #expect(TerminalText.escaped(bytes: [0xED, 0xA0, 0x80]) == #"\xED\xA0\x80"#)
        #expect(TerminalText.escaped(bytes: [0xF0, 0x9F, 0x8E, 0xB2, 0x1B]) == #"🎲\u{1B}"#)
        #expect(TerminalText.escaped(bytes: Array(#"a\xFF"#.utf8) + [0xFF]) == #"a\\xFF\xFF"#)
        #expect(TerminalText.escaped(bytes: Array("👨\u{200D}👩".utf8)) == "👨\u{200D}👩")
    }

    @Test("bytes in quotes: quotes and backslashes escaped, invalid UTF-8 as \\xHH")
    func quotedBytes() {
        #expect(TerminalText.quoted(bytes: [0x61, 0x22, 0x5C, 0xFF, 0x1B]) == #""a\"\\\xFF\u{1B}""#)
    }

    @Test("a message of the program's own keeps its backslashes and escapes what is not visible")
    func programMessage() {
        #expect(TerminalText.message(#"accepted: \" \\ \n"#) == #"accepted: \" \\ \n"#)
        #expect(TerminalText.message("a\u{1B}[2J\u{202E}b\\") == #"a\u{1B}[2J\u{202E}b\"#)
    }

    @Test(
        "no control, format, separator, private-use, unassigned or default-ignorable code point is shown as it is"
    )
    func everyInvisibleScalarIsEscaped() {
        var shownInvisible: [UInt32] = []
        for value in UInt32(0)...0x10_FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let properties = scalar.properties
            let invisible: Bool
            switch properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned:
                invisible = true
            case .spaceSeparator:
                invisible = value != 0x20
            default:
                invisible = properties.isDefaultIgnorableCodePoint
            }
            // Next to letters, where no emoji sequence can hold it.
            let text = "a" + String(Character(scalar)) + "b"
            if invisible && TerminalText.escaped(text).unicodeScalars.contains(scalar) {
                shownInvisible.append(value)
            }
        }
        #expect(shownInvisible.isEmpty, "\(shownInvisible.prefix(20).map { String($0, radix: 16) })")
    }

    @Test("the prompt form is shortened between escapes, never inside one")
    func shortened() {
        #expect(TerminalText.escaped("Colin", maxWidth: 24) == "Colin")
        let long = String(repeating: "a", count: 20) + "\u{200B}bcdef"
        #expect(TerminalText.escaped(long, maxWidth: 24) == String(repeating: "a", count: 20) + "…")
        #expect(TerminalText.escaped(String(repeating: "é", count: 30), maxWidth: 24).count == 24)
        // Exactly as wide as allowed: whole; one column more: cut, with room for the `…`.
        #expect(
            TerminalText.escaped(String(repeating: "b", count: 24), maxWidth: 24)
                == String(repeating: "b", count: 24))
        #expect(
            TerminalText.escaped(String(repeating: "b", count: 25), maxWidth: 24)
                == String(repeating: "b", count: 23) + "…")
        // A wide character that would pass the last column is left out with the rest.
        #expect(TerminalText.escaped("abc名前", maxWidth: 5) == "abc…")
        // An escape (six columns here) is kept whole or left out: it fills the width, so it goes.
        #expect(TerminalText.escaped("\u{1B}[31mred", maxWidth: 6) == "…")
        #expect(TerminalText.escaped("\u{1B}[31mred", maxWidth: 8) == TerminalText.escaped("\u{1B}[") + "…")
    }
}

/// Names from pieces that stress the notation: backslashes, quotes, escapes' own text, controls,
/// default-ignorable code points, emoji sequences, combining marks and separators.
private let namePieces: [String] = [
    "a", "Z", " ", "\\", "\"", "\\\"", "u", "{", "}", "1B", "\\u{", "\\t", "\t", "\n", "\r", "\u{0}",
    "\u{1B}",
    "\u{7F}", "\u{85}", "\u{9B}", "\u{200B}", "\u{200D}", "\u{FEFF}", "\u{AD}", "\u{2060}", "\u{FE0F}",
    "\u{202E}", "\u{2028}", "\u{A0}", "\u{E000}", "\u{378}", "\u{E0067}", "\u{E007F}", "👨", "🏴", "\u{2764}",
    "1", "\u{20E3}", "\u{301}", "é", "名", "\u{10FFFF}", "\u{FFFD}",
]

private let generatedNames = Gen.element(of: namePieces).map { $0 ?? "" }.array(of: 0...8).map { $0.joined() }

@Suite("TerminalText: the line being edited")
struct EditedLineTests {
    @Test(
        "a line being edited shows C1 controls, bidirectional overrides, escape characters and broken bytes escaped, and backslashes as typed"
    )
    func escapes() {
        let cases: [([UInt8], String)] = [
            (Array("name Zed\u{202E}evil".utf8), #"name Zed\u{202E}evil"#),
            (Array("name C1\u{9B}31m".utf8), #"name C1\u{9B}31m"#),
            (Array("name \u{1B}[2J".utf8), #"name \u{1B}[2J"#),
            (Array("\\i setup.txt".utf8), #"\i setup.txt"#),
            (Array(#"name "a\tb""#.utf8), #"name "a\tb""#),
            (Array("name a\tb".utf8), #"name a\tb"#),
            (Array("name café 日本".utf8), "name café 日本"),
            (Array("name 👩\u{200D}💻".utf8), "name 👩\u{200D}💻"),
            ([0x61, 0xFF, 0x62], #"a\xFFb"#),
        ]
        for (bytes, shown) in cases {
            let edited = TerminalText.editedLine(bytes, marks: [])
            #expect(String(decoding: edited.shown, as: UTF8.self) == shown)
        }
    }

    @Test("the cursor and the mark keep their places: an escape counts as one character")
    func marks() {
        let line = Array("a\u{202E}bc".utf8)  // a, 3 bytes, b, c
        let edited = TerminalText.editedLine(line, marks: [0, 1, 4, 5, 6])
        #expect(String(decoding: edited.shown, as: UTF8.self) == #"a\u{202E}bc"#)
        #expect(edited.marks == [0, 1, 9, 10, 11])
        let broken = TerminalText.editedLine([0xFF, 0x41], marks: [1, 2])
        #expect(broken.marks == [4, 5])
    }
}

@Suite("TerminalText: the shown form reads back")
struct ShownFormReadsBackTests {
    @Test("a quoted name typed after name reads back as the same name")
    func quotedReadsBack() async throws {
        await propertyCheck(count: 2000, input: generatedNames) { name in
            let parsed = try? CommandParser.parse("name " + TerminalText.quoted(name))
            #expect(
                parsed.map { Array($0.nameText.unicodeScalars) } == Array(name.unicodeScalars),
                "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test("two different names never show the same: the terminal form decodes to the name")
    func escapedIsUnambiguous() async {
        await propertyCheck(count: 2000, input: generatedNames) { name in
            let shown = TerminalText.escaped(name)
            let typed = "name \"" + withQuotesEscaped(shown) + "\""
            let parsed = try? CommandParser.parse(typed)
            #expect(
                parsed.map { Array($0.nameText.unicodeScalars) } == Array(name.unicodeScalars),
                "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test("the JSON form decodes to the name")
    func jsonDecodes() async {
        await propertyCheck(count: 1000, input: generatedNames) { name in
            let decoded = try? JSONDecoder().decode(String.self, from: Data(JSONText.quoted(name).utf8))
            #expect(decoded.map { Array($0.unicodeScalars) } == Array(name.unicodeScalars))
        }
    }
}

/// `text` with each `"` scalar written `\"` (scalar by scalar: a quote and a combining mark after it
/// are one character).
private func withQuotesEscaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
        if scalar == "\"" { result += #"\""# } else { result.unicodeScalars.append(scalar) }
    }
    return result
}

extension Command {
    /// The text of a `name` command; nil for every other command.
    fileprivate var nameText: String {
        if case .name(let text?) = self { return text }
        return "\u{FFFF}not a name command"
    }
}
