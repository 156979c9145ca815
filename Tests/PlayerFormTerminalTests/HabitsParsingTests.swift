import Foundation
import PlayerFormText
import Testing

@testable import PlayerFormTerminal

/// The commands and pieces that psql and sqlite3 users expect: rules, source, pager, players
/// --csv, word wrapping and CSV fields.
@Suite("CommandParser and helpers: rules, source, pager, CSV, wrapping")
struct HabitsParsingTests {
    @Test("rules, source and \\i, pager and players --csv parse; bad arguments say what is accepted")
    func parse() throws {
        #expect(try CommandParser.parse("rules") == .rules(json: false))
        #expect(try CommandParser.parse("RULES --json") == .rules(json: true))
        #expect(try CommandParser.parse("source setup.txt") == .source("setup.txt"))
        #expect(try CommandParser.parse("\\q") == .quit, "psql's way to leave")
        #expect(try CommandParser.parse(#"\i "my file.txt""#) == .source("my file.txt"))
        #expect(try CommandParser.parse("pager off") == .pager(false))
        #expect(try CommandParser.parse("pager ON") == .pager(true))
        #expect(try CommandParser.parse("pager") == .pager(nil))
        #expect(try CommandParser.parse("players --csv") == .players(.csv))
        #expect(try CommandParser.parse(#"help \i"#) == .help("source"))
        #expect(
            throws: CommandError("source needs the path of a file of commands, such as source setup.txt.")
        ) {
            try CommandParser.parse("source")
        }
        #expect(throws: CommandError(#"rules accepts only --json, not "--xml"."#)) {
            try CommandParser.parse("rules --xml")
        }
        #expect(
            throws: CommandError(
                #"pager takes on or off (or true, false, yes, no, 1, 0, as psql does), not "maybe"."#)
        ) {
            try CommandParser.parse("pager maybe")
        }
    }

    @Test("wrapping breaks between words, keeps the indent, and cuts only words longer than a line")
    func wrap() {
        let lines = WordWrap.lines("one two three four five six seven eight", width: 20, indent: "  ")
        #expect(lines == ["  one two three four", "  five six seven", "  eight"])
        #expect(lines.allSatisfy { $0.count <= 20 })
        #expect(
            WordWrap.lines(String(repeating: "x", count: 45), width: 20) == [
                String(repeating: "x", count: 20), String(repeating: "x", count: 20),
                String(repeating: "x", count: 5),
            ])
        #expect(WordWrap.lines("", width: 80) == [""])
    }

    @Test(
        "wrapping counts display columns: wide characters take two, and a wide word is cut between characters"
    )
    func wrapWide() {
        let wide = WordWrap.lines("名前 名前名前 名前名前名前 名前 ok", width: 20, indent: "  ")
        #expect(wide == ["  名前 名前名前", "  名前名前名前 名前", "  ok"])
        #expect(wide.allSatisfy { TerminalText.width($0) <= 20 }, "\(wide)")
        let long = WordWrap.lines(String(repeating: "字", count: 15), width: 20)
        #expect(long == [String(repeating: "字", count: 10), String(repeating: "字", count: 5)])
        #expect(WordWrap.lines("e\u{301}e\u{301}", width: 20) == ["e\u{301}e\u{301}"])
    }

    @Test("a CSV field is quoted only when it must be, with quotes doubled")
    func csvField() {
        #expect(PlayerTable.csvField("Bob") == "Bob")
        #expect(PlayerTable.csvField("Lee, Ann") == #""Lee, Ann""#)
        #expect(PlayerTable.csvField(#"say "hi""#) == #""say ""hi""""#)
        #expect(PlayerTable.csvField(" Ann") == #"" Ann""#)
        #expect(
            PlayerTable.csvRecord(
                name: "+1", points: -2.5, uploadedAt: Date(timeIntervalSince1970: 0), selected: true)
                == "'+1,-2.5,1970-01-01T00:00:00.000Z,true")
    }

    @Test("upload times are written in UTC with milliseconds, before 1970 too")
    func times() {
        #expect(
            PlayerTable.isoTime(Date(timeIntervalSince1970: 1_790_000_000.25)) == "2026-09-21T14:13:20.250Z")
        #expect(PlayerTable.isoTime(Date(timeIntervalSince1970: -1.5)) == "1969-12-31T23:59:58.500Z")
        #expect(PlayerTable.time(Date(timeIntervalSince1970: 0)) == "1970-01-01 00:00:00")
    }
}
