import Foundation
import Testing

@testable import PlayerFormTerminal
@testable import PlayerFormText

@Suite("Text measured in the columns a terminal draws")
struct TerminalWidthTests {
    @Test("ideographs, kana, Hangul, fullwidth forms and emoji pictures take two columns; marks alone none")
    func characterWidths() {
        let cases: [(Character, Int)] = [
            ("a", 1), ("é", 1), ("e\u{301}", 1), ("Ж", 1), ("α", 1), ("\u{301}", 0), ("\u{20DD}", 0),
            ("名", 2), ("あ", 2), ("ア", 2), ("한", 2), ("\u{1100}\u{1161}", 2), ("Ａ", 2), ("！", 2),
            ("\u{20000}", 2), ("\u{3134A}", 2), ("👍", 2), ("👍🏽", 2), ("👨‍👩‍👧", 2), ("🇬🇧", 2),
            ("❤\u{FE0F}", 2), ("❤", 1), ("☺", 1), ("…", 1), ("ｱ", 1),
        ]
        for (character, columns) in cases {
            #expect(
                TerminalText.width(of: character) == columns,
                "\(character.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(TerminalText.width("名前 Bob") == 8)
        #expect(TerminalText.width("") == 0)
    }

    @Test("the wide runs are in order and apart, and the lookup finds each end and nothing beside")
    func wideRuns() {
        let runs = TerminalText.wideRuns
        for (earlier, later) in zip(runs, runs.dropFirst()) {
            #expect(earlier.first <= earlier.last && earlier.last + 1 < later.first)
        }
        for run in runs {
            #expect(TerminalText.isWide(run.first) && TerminalText.isWide(run.last))
            #expect(!TerminalText.isWide(run.first - 1) && !TerminalText.isWide(run.last + 1))
        }
        #expect(!TerminalText.isWide(0x41) && !TerminalText.isWide(0x10FFFF))
    }

    @Test("a name is cut to a width in columns, never inside a wide character or an escape")
    func cutToColumns() {
        let ideographs = String(repeating: "名前", count: 20)
        let cut = TerminalText.escaped(ideographs, maxWidth: 30)
        #expect(cut == String(repeating: "名前", count: 7) + "…")
        #expect(TerminalText.width(cut) == 29)
        #expect(TerminalText.escaped("名前太郎", maxWidth: 8) == "名前太郎")
        #expect(TerminalText.escaped("名前太郎", maxWidth: 7) == "名前太…")
        #expect(TerminalText.escaped("a名\u{200B}b", maxWidth: 4) == "a名…")
    }

    @Test("the table's columns line up in the terminal's columns whatever the names' widths")
    func tableAligned() {
        let names = [
            "名前太郎", "Bob", "👍🏽 Ann", "Zoe\u{301}", "❤\u{FE0F} x", "ｱｲｳ", String(repeating: "名", count: 40),
        ]
        let lines = PlayerTable.lines(
            names.enumerated().map { index, name in
                PlayerTable.Row(
                    number: index + 1, name: name, points: "100", uploadedAt: Date(timeIntervalSince1970: 0),
                    selected: false)
            })
        #expect(lines.count == names.count + 1)
        // Where the upload time starts, in columns: the same on every line, header included.
        let starts = lines.map { line in
            let start = line.range(of: "1970-") ?? line.range(of: "uploaded")!
            return TerminalText.width(line[..<start.lowerBound])
        }
        #expect(Set(starts).count == 1, "\(starts)")
        #expect(lines.last!.contains(String(repeating: "名", count: 14) + "…"))
    }

    @Test("a wide character that does not fit at the end of a row wraps to the next one")
    func wideRows() {
        #expect(PagerSettings.rows(of: String(repeating: "名", count: 40), columns: 80) == 1)
        #expect(PagerSettings.rows(of: String(repeating: "名", count: 41), columns: 80) == 2)
        #expect(PagerSettings.rows(of: "x" + String(repeating: "名", count: 40), columns: 80) == 2)
        #expect(PagerSettings.rows(of: String(repeating: "名", count: 5), columns: 9) == 2)
        #expect(
            PagerSettings.rows(
                of: "\u{1B}[36m" + String(repeating: "名", count: 40) + "\u{1B}[0m", columns: 80) == 1)
        #expect(PagerSettings.rows(of: "名名", columns: 1) == 2)
        // Combining marks take no column: 80 letters each with an accent fill one row.
        #expect(PagerSettings.rows(of: String(repeating: "e\u{301}", count: 80), columns: 80) == 1)
        #expect(PagerSettings.rows(of: String(repeating: "e\u{301}", count: 81), columns: 80) == 2)
    }
    @Test(
        "a table wider than the terminal is made to fit: sel for selected, names cut, then a short time, as far as 4 columns of name"
    )
    func fitsTheWidth() {
        let rows = ["Ann Lee Longname Of Great Length", "Bob ", "日本語の名前"].enumerated().map { index, name in
            PlayerTable.Row(
                number: index + 1, name: name, points: "5",
                uploadedAt: Date(timeIntervalSince1970: 1_790_000_000),
                selected: index == 0)
        }
        #expect(
            PlayerTable.lines(rows, maxWidth: 40) == [
                "  row  name     points  uploaded     sel",
                "    1  Ann Le…       5  09-21 14:13  *",
                #"    2  "Bob "        5  09-21 14:13"#,
                "    3  日本語…       5  09-21 14:13",
            ])
        #expect(
            PlayerTable.lines(rows, maxWidth: 60) == [
                "  row  name                 points  uploaded (UTC)       sel",
                "    1  Ann Lee Longname O…       5  2026-09-21 14:13:20  *",
                #"    2  "Bob "                    5  2026-09-21 14:13:20"#,
                "    3  日本語の名前              5  2026-09-21 14:13:20",
            ])
        // Wide enough, or no width: as wide as the cells.
        #expect(PlayerTable.lines(rows, maxWidth: 80) == PlayerTable.lines(rows))
        #expect(
            PlayerTable.lines(rows)[0]
                == "  row  name                            points  uploaded (UTC)       selected")
        // Below 37 columns the narrowest table does not fit, and lines wrap.
        for width in 37...100 {
            let lines = PlayerTable.lines(rows, maxWidth: width)
            #expect(lines.allSatisfy { TerminalText.width($0) <= width }, "\(width): \(lines)")
        }
    }

    @Test("a name with a space at either end is shown in quotes, which are kept within the column")
    func spacesAtTheEnds() {
        #expect(PlayerTable.shownName("Bob ", maxWidth: 30) == #""Bob ""#)
        #expect(PlayerTable.shownName(" Ann", maxWidth: 30) == #"" Ann""#)
        #expect(PlayerTable.shownName("Bob", maxWidth: 30) == "Bob")
        #expect(PlayerTable.shownName(" Annabelle ", maxWidth: 8) == #"" Annab…"#)
    }
}
