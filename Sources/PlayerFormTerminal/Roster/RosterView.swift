import Foundation
import PlayerForm
import PlayerFormRules
import PlayerFormScores
import PlayerFormText
import ReactiveCore
import ReactiveTable
import Synchronization

/// The REPL's view of the roster: a page of players bound to a table of lines, whose changes are
/// written as they happen (`+ 3 Bob 120`, `~ 1 Colin 105`, `- 2 Alice`, numbered in the whole
/// roster), and the roster's alerts, written as errors.
///
/// Only the page in view is bound: the roster's window is one page, so a roster of a million
/// players costs a page of rows. Nothing is redrawn in full: ``tableLines()`` draws the page once,
/// when `players` asks; `players --all` and `players --json` read the store a page at a time.
final class RosterView: Sendable {
    private struct State {
        /// Whether changes are written; off while the roster is first read.
        var showsChanges = false
        /// Whether an alert was written since ``takeAlerts()`` was last called.
        var alerted = false
        /// How many rows a page holds.
        var pageSize = 1
        /// Where change lines go instead of the output, while they are collected.
        var collected: [String]?
        /// When the store was last read, by the first reading or a catching up.
        var lastRead: Date?
        /// Whether the last catching up failed: the page is as of ``lastRead``.
        var unreachable = false
    }

    /// The clock of ``State/lastRead``.
    private let now: @Sendable () -> Date

    /// The roster this view shows.
    let roster: RosterViewModel
    /// The table of the rows in view; its selection action is the roster's.
    let table: TableBinding<PlayerRowTemplate>
    /// How many rows a page holds: at a terminal, its height less four rows when last asked
    /// (``follow(pageSize:)``).
    var pageSize: Int { state.withLock { $0.pageSize } }
    /// How many players `players --csv` and `--json` ask the store for at a time: enough that
    /// a million players take a thousand reads, few enough that memory stays small.
    static let exportReadSize = 1_000
    private let output: any TerminalOutput
    /// At a terminal, its width now, which tables are made to fit; nil leaves them as wide as
    /// their cells.
    let fitWidth: (@Sendable () -> Int)?
    private let state = Mutex(State())
    private let bindings = DisposeBag()

    init(
        roster: RosterViewModel, output: any TerminalOutput, log: FormEventLog, pageSize: Int,
        fitWidth: (@Sendable () -> Int)? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.roster = roster
        self.output = output
        self.fitWidth = fitWidth
        self.now = now
        let pageSize = max(1, pageSize)
        state.withLock { $0.pageSize = pageSize }
        roster.windowSizeChanged(to: pageSize)
        table = TableBinding<PlayerRowTemplate>(window: roster.window, selection: roster.rowSelected)
        table.changes.observeValues(in: bindings) { [weak self] change in
            self?.writeChange(change)
        }
        roster.alerts.observeValues(in: bindings) { [weak self] alert in
            self?.state.withLock { $0.alerted = true }
            log.error(TerminalText.escaped(TerminalWords.text(alert)))
        }
    }

    /// Reads the store for the first time without writing its players as changes; alerts are
    /// still written.
    func load() async {
        let read = (try? await roster.refresh.apply(())) != nil
        let time = now()
        state.withLock {
            $0.showsChanges = true
            if read { $0.lastRead = time }
        }
    }

    /// Whether an alert was written since the last call; resets the flag.
    func takeAlerts() -> Bool {
        state.withLock { state in
            defer { state.alerted = false }
            return state.alerted
        }
    }

    /// Reads the page again when the store changed (by this session or another); returns the
    /// lines to show: the changes of rows in view, then a line with the count when players were
    /// added or removed out of view, and the notes about the store.
    ///
    /// A store that cannot be read (a league whose server is down) is said once, with the time
    /// the page is as of, and once more when it can be read again; ``tableLines()`` says it too
    /// meanwhile.
    func catchUp() async -> CatchUp {
        state.withLock { $0.collected = [] }
        var found: RosterCatchUp?
        var failure: ScoreStoreError?
        do {
            found = try await roster.refreshIfStoreChanged()
        } catch {
            failure = error
        }
        let time = now()
        var caught = state.withLock { state in
            defer { state.collected = nil }
            var caught = CatchUp(lines: state.collected ?? [])
            if let failure {
                if !state.unreachable {
                    state.unreachable = true
                    caught.notes.append(
                        "note: " + TerminalText.escaped(TerminalWords.text(failure))
                            + "; the roster is as of "
                            + Self.asOf(state.lastRead))
                }
            } else {
                if state.unreachable {
                    state.unreachable = false
                    caught.notes.append("note: the score store can be read again; the roster is up to date")
                }
                state.lastRead = time
            }
            return caught
        }
        if let found, found.changedOutOfView != 0 {
            caught.lines.append(
                Self.countLine(count: found.countAfter, changedOutOfView: found.changedOutOfView))
        }
        return caught
    }

    /// What catching up shows: results (the changes and the count) and notes about the store,
    /// which go where errors go in a script, so that a listing on standard output stays whole.
    struct CatchUp: Equatable {
        var lines: [String] = []
        var notes: [String] = []
    }

    /// The line that says players were added (`changedOutOfView` above 0) or removed out of view:
    /// `players: 1,000,001 (1 added out of view)`.
    static func countLine(count: Int, changedOutOfView: Int) -> String {
        "players: \(grouped(count)) (\(grouped(abs(changedOutOfView))) "
            + (changedOutOfView > 0 ? "added" : "removed") + " out of view)"
    }

    /// Writes `change`'s line, escaped, unless changes are not shown now; a change not shown
    /// costs no work on its text, whose length is the name's.
    private func writeChange(_ change: TableChange) {
        let written = state.withLock { state -> Bool in
            guard state.showsChanges else { return true }
            guard state.collected != nil else { return false }
            state.collected!.append(TerminalText.escaped(change.description))
            return true
        }
        if !written { output.write(TerminalText.escaped(change.description)) }
    }

    // MARK: Drawing

    /// The page in view as `mode` writes it: the table of ``tableLines()``, or as
    /// ``lines(of:mode:headers:)`` writes rows; without `headers`, the table and the CSV have no
    /// title or header row.
    func pageLines(mode: OutputMode, headers: Bool) -> [String] {
        guard mode == .table else {
            let first = table.firstIndex
            let rows = roster.rows.value.enumerated().map { index, row in
                Listed(number: first + index + 1, player: row.player, selected: row.isSelected.value)
            }
            return Self.lines(of: rows, mode: mode, headers: headers, maxWidth: fitWidth?())
        }
        let lines = tableLines()
        if headers { return lines }
        // The rows alone; but a title that says the rows are old is kept.
        let unreachable = state.withLock { $0.unreachable }
        return roster.rows.value.isEmpty ? [] : (unreachable ? [lines[0]] : []) + lines.dropFirst(2)
    }

    /// A player as a listing writes it, numbered in the whole roster from 1.
    struct Listed {
        let number: Int
        let player: Player
        let selected: Bool
    }

    /// `rows` as `mode` writes them: a table with a header row (see ``PlayerTable``), CSV with a
    /// header row, one JSON array on one line, or `column = value` lines with a blank line
    /// between players; without `headers`, the table and the CSV have no header row.
    static func lines(of rows: [Listed], mode: OutputMode, headers: Bool, maxWidth: Int? = nil) -> [String] {
        switch mode {
        case .table:
            let cells = rows.map { row in
                PlayerTable.Row(
                    number: row.number, name: row.player.name, points: PointsFormat.text(row.player.points),
                    uploadedAt: row.player.uploadedAt, selected: row.selected)
            }
            return cells.isEmpty ? [] : PlayerTable.lines(cells, header: headers, maxWidth: maxWidth)
        case .csv, .unaligned:
            let (header, record) =
                mode == .csv
                ? (PlayerTable.csvHeader, PlayerTable.csvRecord)
                : (PlayerTable.unalignedHeader, PlayerTable.unalignedRecord)
            let records = rows.map { row in
                record(row.player.name, row.player.points, row.player.uploadedAt, row.selected)
            }
            return (headers ? [header] : []) + records
        case .json:
            let objects = rows.map { row in
                "{\"name\":" + JSONText.quoted(row.player.name) + ",\"points\":"
                    + FormRenderer.jsonNumber(row.player.points) + ",\"uploadedAt\":\""
                    + Timestamp.text(row.player.uploadedAt) + "\",\"selected\":"
                    + String(row.selected) + "}"
            }
            return ["[" + objects.joined(separator: ",") + "]"]
        case .line:
            var lines: [String] = []
            for (index, row) in rows.enumerated() {
                if index > 0 { lines.append("") }
                lines += [
                    "      name = " + PlayerTable.shownName(row.player.name, maxWidth: .max),
                    "    points = " + PointsFormat.text(row.player.points),
                    "uploadedAt = " + PlayerTable.isoTime(row.player.uploadedAt),
                    "  selected = " + String(row.selected),
                ]
            }
            return lines
        }
    }

    /// The page as `players` draws it: a title with the rows shown and the count, then a table
    /// with a header, numbered in the whole roster (see ``PlayerTable``).
    func tableLines() -> [String] {
        let rows = roster.rows.value
        let total = table.totalCount
        guard total > 0 else { return [roster.title + ": none yet (add NAME POINTS, or upload)"] }
        let first = table.firstIndex
        let pages = pageCount(total)
        var title =
            rows.isEmpty
            ? "\(roster.title): \(Self.grouped(total))"
            : "\(roster.title): rows \(Self.grouped(first + 1))-\(Self.grouped(first + rows.count)) of "
                + Self.grouped(total)
        if pages > 1 { title += " (page \(Self.grouped(first / pageSize + 1)) of \(Self.grouped(pages)))" }
        let (unreachable, lastRead) = state.withLock { ($0.unreachable, $0.lastRead) }
        if unreachable { title += " as of \(Self.asOf(lastRead)): the score store cannot be read now" }
        let cells = rows.enumerated().map { index, row in
            PlayerTable.Row(
                number: first + index + 1, name: row.title.value, points: row.pointsText.value,
                uploadedAt: row.player.uploadedAt, selected: row.isSelected.value)
        }
        return [title] + (cells.isEmpty ? [] : PlayerTable.lines(cells, maxWidth: fitWidth?()))
    }

    /// Makes a page hold `size` rows (at least 1), as a terminal whose window was resized asks:
    /// the view moves to the page of that size that holds the first row it showed.
    /// - Throws: the roster's `ActionError` when the store cannot be read (the alert says why).
    func follow(pageSize size: Int) async throws {
        let size = max(1, size)
        let changed = state.withLock { state in
            defer { state.pageSize = size }
            return state.pageSize != size
        }
        guard changed else { return }
        let first = table.firstIndex
        roster.windowSizeChanged(to: size)
        _ = try await roster.moveWindow.apply(first / size * size)
    }

    /// How many pages `total` players fill.
    func pageCount(_ total: Int) -> Int {
        max(1, (total + pageSize - 1) / pageSize)
    }

    /// Moves the view to page `page` (from 1).
    /// - Throws: ``PageError`` when there is no such page; the roster's `ActionError` when the
    ///   store cannot be read (the alert says why).
    func show(page: Int) async throws {
        let total = roster.playerCount.value
        let pages = pageCount(total)
        guard page <= pages else { throw PageError(page: page, pages: pages, total: total) }
        let (first, overflow) = (page - 1).multipliedReportingOverflow(by: pageSize)
        _ = try await roster.moveWindow.apply(overflow ? Int.max : first)
    }

    /// Writes every row, a page at a time: the title, then a table with a header (see
    /// ``PlayerTable``) whose columns are set by the first page, with room for the longest name
    /// shown and the highest row number, so the roster is never read whole to measure it.
    ///
    /// Stops before reading the next page once `stopped` says so, or the output drops results
    /// (the pager was quit), unless every player is already written (see
    /// ``stops(after:_:)``). Returns nil when every row was written, else how many were.
    func writeAll(until stopped: () -> Bool, headers: Bool = true) async throws -> Int? {
        var widths: PlayerTable.Widths?
        var offset = 0
        var wroteTitle = false
        let listing = roster.listing(pageSize: pageSize, withRecordIDs: true)
        while true {
            if wroteTitle, await stops(after: offset, stopped) { return offset }
            let read = try await listing.next()
            let page = read.players
            if !wroteTitle {
                if headers {
                    output.write(
                        page.isEmpty
                            ? roster.title + ": none yet (add NAME POINTS, or upload)"
                            : "\(roster.title): all \(Self.grouped(roster.playerCount.value))")
                }
                wroteTitle = true
            }
            let cells = page.enumerated().map { index, player in
                PlayerTable.Row(
                    number: read.firstRow + index + 1, name: player.name,
                    points: PointsFormat.text(player.points),
                    uploadedAt: player.uploadedAt, selected: roster.isSelected(player.name))
            }
            if !cells.isEmpty {
                // The columns of the first page, as wide as any name may be, hold every page.
                let columns =
                    widths ?? PlayerTable.boundedWidths(lastRow: roster.playerCount.value, rows: cells)
                let lines = PlayerTable.lines(
                    cells, widths: columns, header: headers && offset == 0, maxWidth: fitWidth?())
                for line in lines {
                    output.write(line)
                }
                widths = columns
            }
            offset += page.count
            if page.count < pageSize { return nil }
        }
    }

    /// Whether a listing that has written `written` players stops before its next page: when
    /// `stopped` says so or the output drops results, unless the roster holds no more players
    /// than were written (counted now), so that a listing whose last page was full still ends as
    /// usual.
    private func stops(after written: Int, _ stopped: () -> Bool) async -> Bool {
        guard stopped() || output.dropsResults else { return false }
        // Counted again: the count last read is older than the listing, and others may have
        // added players since.
        let total = (try? await roster.playerCountNow()) ?? roster.playerCount.value
        return written < total
    }

    /// Writes the roster as CSV (RFC 4180, lines ending in CRLF inside quoted fields only as the
    /// name has them), a page at a time: the header `name,points,uploadedAt,selected`, then a
    /// record for each player, in roster order (see ``PlayerTable/csvRecord(name:points:uploadedAt:selected:)``).
    ///
    /// Stops between pages as ``writeAll(until:)`` does, and answers as it does.
    func writeCSV(until stopped: () -> Bool, header: Bool = true, unaligned: Bool = false) async throws
        -> Int?
    {
        var offset = 0
        let listing = roster.listing(pageSize: Self.exportReadSize)
        // Read before writing, so that a failure of the first read leaves no header alone.
        var page = try await listing.next().players
        if header { output.write(unaligned ? PlayerTable.unalignedHeader : PlayerTable.csvHeader) }
        let record = unaligned ? PlayerTable.unalignedRecord : PlayerTable.csvRecord
        while true {
            for player in page {
                output.write(
                    record(player.name, player.points, player.uploadedAt, roster.isSelected(player.name)))
            }
            offset += page.count
            if page.count < Self.exportReadSize { return nil }
            if await stops(after: offset, stopped) { return offset }
            page = try await listing.next().players
        }
    }

    /// Writes the roster as one JSON array on one line, a page at a time: for each player, in
    /// roster order, `name`, `points`, `uploadedAt` (ISO 8601 in UTC, with milliseconds) and
    /// `selected`.
    ///
    /// Stops between pages as ``writeAll(until:)`` does, ending the line where the array stopped,
    /// without closing it; answers as ``writeAll(until:)`` does. A read that fails after a page
    /// was written ends the line the same way before the error goes on, so that what follows
    /// starts on a line of its own and the array, left open, reads as incomplete.
    func writeJSON(until stopped: () -> Bool) async throws -> Int? {
        var offset = 0
        var separator = "["
        let listing = roster.listing(pageSize: Self.exportReadSize)
        while true {
            if offset > 0, await stops(after: offset, stopped) {
                output.write("")
                return offset
            }
            // Read before writing, so that a failure of the first read writes nothing.
            let page: [Player]
            do {
                page = try await listing.next().players
            } catch {
                if offset > 0 { output.write("") }
                throw error
            }
            // One write per page: a million small writes cost more than the text they carry.
            var text = ""
            text.reserveCapacity(page.count * 96)
            for player in page {
                text += separator
                text += "{\"name\":"
                text += JSONText.quoted(player.name)
                text += ",\"points\":"
                text += FormRenderer.jsonNumber(player.points)
                text += ",\"uploadedAt\":\""
                text += Timestamp.text(player.uploadedAt)
                text += roster.isSelected(player.name) ? "\",\"selected\":true}" : "\",\"selected\":false}"
                separator = ","
            }
            if !text.isEmpty { output.writePart(text) }
            offset += page.count
            if page.count < Self.exportReadSize { break }
        }
        output.write(separator == "[" ? "[]" : "]")
        return nil
    }

    /// The name of the player in row `row` of the whole roster (counting from 1), in view or not.
    /// - Throws: `TableBindingError.noSuchRow(index:count:)` when there is no such row.
    func name(inRow row: Int) async throws -> String {
        if let player = try await roster.players(from: row - 1, limit: 1).first { return player.name }
        throw TableBindingError.noSuchRow(index: row - 1, count: try await roster.playerCountNow())
    }

    /// Whether row `row` of the whole roster (counting from 1) is in view.
    func isInView(row: Int) -> Bool {
        let first = table.firstIndex
        return (first..<first + table.count).contains(row - 1)
    }

    /// A time of the last reading as the roster's notes say it: `2026-11-27 20:07:10 UTC`.
    static func asOf(_ time: Date?) -> String {
        guard let time else { return "its start (it could not be read)" }
        return String(Timestamp.text(time).prefix(19)).replacingOccurrences(of: "T", with: " ") + " UTC"
    }

    /// `value` with thousands separated by commas: 1,000,000.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (value < 0 ? "-" : "") + result
    }
}

/// There is no page with this number.
struct PageError: Error, Equatable, CustomStringConvertible {
    let page: Int
    let pages: Int
    let total: Int

    var description: String {
        total == 0
            ? "There is no page \(RosterView.grouped(page)): the roster is empty."
            : "There is no page \(RosterView.grouped(page)): the roster has \(RosterView.grouped(total)) "
                + "players on \(RosterView.grouped(pages)) "
                + (pages == 1
                    ? "page (players 1)." : "pages (players 1 to players \(RosterView.grouped(pages))).")
    }
}
