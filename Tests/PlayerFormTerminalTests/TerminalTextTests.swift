import PlayerFormText
import Testing

@testable import PlayerFormTerminal

@Suite("TerminalText")
struct TerminalTextTests {
    @Test("plain text, accents and emoji pass unchanged")
    func plain() {
        #expect(TerminalText.escaped("Zoë 🎲 ｄａｒｎ") == "Zoë 🎲 ｄａｒｎ")
    }

    @Test("escape sequences, C0 and C1 controls, DEL and NUL are shown, not sent")
    func controls() {
        #expect(TerminalText.escaped("a\u{1B}[2Jb") == #"a\u{1B}[2Jb"#)
        #expect(TerminalText.escaped("\u{0}\u{7}\u{7F}\u{9B}") == #"\u{0}\u{7}\u{7F}\u{9B}"#)
        #expect(TerminalText.escaped("a\tb\nc\rd") == #"a\tb\nc\rd"#)
    }

    @Test("bidirectional overrides and line separators are shown, not applied")
    func bidi() {
        #expect(TerminalText.escaped("a\u{202E}b\u{2028}c") == #"a\u{202E}b\u{2028}c"#)
    }

    @Test("bytes that are not UTF-8 are shown as \\xNN, valid characters around them kept")
    func invalidBytes() {
        #expect(TerminalText.escaped(bytes: [0x41, 0xFF, 0xC3, 0xA9, 0xC3]) == #"A\xFFé\xC3"#)
        #expect(TerminalText.escaped(bytes: [0xED, 0xA0, 0x80]) == #"\xED\xA0\x80"#)
        #expect(TerminalText.escaped(bytes: [0xF0, 0x9F, 0x8E, 0xB2, 0x1B]) == #"🎲\u{1B}"#)
    }

    @Test("quoting escapes quotes and backslashes as well")
    func quoting() {
        #expect(TerminalText.quoted(#"a"b\c"#) == #""a\"b\\c""#)
        #expect(TerminalText.quoted("\u{1B}") == #""\u{1B}""#)
    }
}
