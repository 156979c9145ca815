import Foundation
import Glibc
import PlayerFormText

/// The roster drawn as a table, a page at a time, and as CSV.
///
/// ```
///   row  name     points  uploaded (UTC)       selected
///     1  Bob         130  2026-09-21 14:13:20
///     2  Ann Lee     7.5  2026-09-21 14:13:20  *
/// ```
///
/// The columns are as wide as the widest cell of the page (never of the whole roster, which is
/// not read at once), in the columns a terminal draws (an ideograph takes two); a name wider than
/// ``nameWidth`` columns is cut with a final `…`. Names are escaped as everywhere else on the
/// terminal.
enum PlayerTable {
    /// One row of the table.
    struct Row {
        /// The row number in the whole roster, from 1.
        let number: Int
        /// The name as the row shows it (with the upload's progress while one runs).
        let name: String
        /// The points as the form shows them.
        let points: String
        /// When the player's points were uploaded.
        let uploadedAt: Date
        /// Whether the player is selected.
        let selected: Bool
    }

    /// The widest a name column gets, in columns.
    static let nameWidth = 30

    private static let headers = (row: "row", name: "name", points: "points", when: "uploaded (UTC)")

    /// How wide the columns are, in the columns of the terminal.
    struct Widths: Equatable {
        var number: Int
        var name: Int
        var points: Int
    }

    /// Widths for a table whose rows are all numbered at most `lastRow`, whose points are as
    /// wide as `rows`' and whose names may take up to ``nameWidth``: for `players --all`, which
    /// draws every page in the columns of the first.
    static func boundedWidths(lastRow: Int, rows: [Row]) -> Widths {
        Widths(
            number: max(headers.row.count, RosterView.grouped(lastRow).count), name: nameWidth,
            points: max(headers.points.count, rows.map { $0.points.count }.max() ?? 0))
    }

    /// The header (unless `header` is false) and the rows, aligned in columns of `widths`, or as
    /// wide as the widest cell of `rows`; no line ends in spaces.
    ///
    /// With `maxWidth` (a terminal's width), a table wider than that is made narrower, as far as
    /// it goes: the last column's header becomes `sel`, names are cut shorter (to 8 columns), the
    /// time loses its year and seconds (`11-28 14:06`), then names are cut to 4 columns.
    static func lines(_ rows: [Row], widths: Widths? = nil, header: Bool = true, maxWidth: Int? = nil)
        -> [String]
    {
        let numbers = rows.map { RosterView.grouped($0.number) }
        var widths =
            widths
            ?? Widths(
                number: max(headers.row.count, numbers.map { $0.count }.max() ?? 0),
                name: max(
                    headers.name.count,
                    rows.map { TerminalText.width(shownName($0.name, maxWidth: Self.nameWidth)) }.max() ?? 0),
                points: max(headers.points.count, rows.map { $0.points.count }.max() ?? 0))
        var short = false
        var selectedHeader = "selected"
        func timeWidth() -> Int { short ? 11 : 19 }
        func total() -> Int {
            2 + widths.number + 2 + widths.name + 2 + widths.points + 2 + timeWidth() + 2
                + selectedHeader.count
        }
        if let maxWidth, total() > maxWidth {
            selectedHeader = "sel"
            for (cut, minimum) in [(false, 8), (true, 8), (true, 4)] where total() > maxWidth {
                short = cut
                widths.name = max(min(minimum, widths.name), widths.name - (total() - maxWidth))
            }
        }
        let names = rows.map { shownName($0.name, maxWidth: widths.name) }
        let times = rows.map { short ? shortTime($0.uploadedAt) : time($0.uploadedAt) }
        let timeHeader = short ? "uploaded" : headers.when
        let timeWidth = max(timeHeader.count, times.map { $0.count }.max() ?? 0)
        func line(_ cells: [String]) -> String {
            let text =
                "  " + pad(cells[0], widths.number, left: true) + "  "
                + pad(cells[1], widths.name, left: false)
                + "  " + pad(cells[2], widths.points, left: true) + "  "
                + pad(cells[3], timeWidth, left: false)
                + "  " + cells[4]
            return String(text.reversed().drop { $0 == " " }.reversed())
        }
        let body = rows.indices.map { index in
            line([
                numbers[index], names[index], rows[index].points, times[index],
                rows[index].selected ? "*" : "",
            ])
        }
        guard header else { return body }
        return [line([headers.row, headers.name, headers.points, timeHeader, selectedHeader])] + body
    }

    /// A name as the table shows it: escaped, and cut to `maxWidth` columns, as
    /// `TerminalText.escaped(_:maxWidth:)` does; in quotes when it has a space at either end,
    /// which would not be seen otherwise.
    static func shownName(_ name: String, maxWidth: Int) -> String {
        guard name.first == " " || name.last == " " else {
            return TerminalText.escaped(name, maxWidth: maxWidth)
        }
        let quoted = TerminalText.quoted(name)
        if TerminalText.width(quoted) <= maxWidth { return quoted }
        return "\"" + TerminalText.escaped(name, maxWidth: max(1, maxWidth - 1))
    }

    /// `11-28 14:06`: the time without its year and seconds, in UTC, for a narrow terminal.
    static func shortTime(_ date: Date) -> String {
        let full = time(date)
        return String(full.dropFirst(5).prefix(11))
    }

    /// The header row of the roster's CSV.
    static let csvHeader = "name,points,uploadedAt,selected"

    /// One CSV record (RFC 4180): the name as the terminal shows it (invisible characters and
    /// backslashes escaped, so a record is always one line), the points, the upload time in
    /// ISO 8601 (UTC, milliseconds) and `true`/`false`.
    ///
    /// A name that a spreadsheet would run as a formula (starting with `=`, `+`, `-` or `@`) gets a
    /// leading `'`; `players --json` keeps names exactly.
    static func csvRecord(name: String, points: Double, uploadedAt: Date, selected: Bool) -> String {
        var shown = TerminalText.escaped(name)
        if let first = shown.first, "=+-@".contains(first) { shown = "'" + shown }
        return csvField(shown) + "," + FormRenderer.jsonNumber(points) + "," + isoTime(uploadedAt) + ","
            + String(selected)
    }

    /// The header row of the roster in psql's unaligned format.
    static let unalignedHeader = "name|points|uploadedAt|selected"

    /// One row in psql's unaligned format: the fields of ``csvRecord(name:points:uploadedAt:selected:)``
    /// between `|`, the name escaped as on the terminal and neither quoted nor guarded against
    /// spreadsheets, as psql writes it.
    static func unalignedRecord(name: String, points: Double, uploadedAt: Date, selected: Bool) -> String {
        TerminalText.escaped(name) + "|" + FormRenderer.jsonNumber(points) + "|" + isoTime(uploadedAt) + "|"
            + String(selected)
    }

    /// A CSV field, quoted (with quotes doubled) when it holds a comma, a quote, a line break or
    /// spaces at either end.
    static func csvField(_ text: String) -> String {
        let needsQuotes =
            text.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || text.first == " " || text.last == " "
        guard needsQuotes else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func pad(_ text: String, _ width: Int, left: Bool) -> String {
        let room = String(repeating: " ", count: max(0, width - TerminalText.width(text)))
        return left ? room + text : text + room
    }

    /// `2026-09-21 14:13:20`, in UTC.
    static func time(_ date: Date) -> String {
        let iso = isoTime(date)
        return String(iso.prefix(19)).replacingOccurrences(of: "T", with: " ")
    }

    /// `2026-09-21T14:13:20.000Z`, as `players --json` writes it.
    static func isoTime(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        var seconds = time_t(exactly: (milliseconds / 1000).rounded(.down)) ?? 0
        let fraction = Int(milliseconds - Double(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(parts.tm_year + 1900)
        let paddedYear = String(repeating: "0", count: max(0, 4 - year.count)) + year
        let millis = String(fraction)
        return paddedYear + "-" + two(parts.tm_mon + 1) + "-" + two(parts.tm_mday) + "T" + two(parts.tm_hour)
            + ":"
            + two(parts.tm_min) + ":" + two(parts.tm_sec) + "."
            + String(repeating: "0", count: 3 - millis.count) + millis + "Z"
    }
}
