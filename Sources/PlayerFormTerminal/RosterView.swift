import Foundation
import PlayerForm
import PlayerFormText
import ReactiveCore
import Synchronization

/// The REPL's view of the roster: the players bound to a table of lines, whose changes are
/// written as they happen (`+ 3 Bob 120`, `~ 1 Colin 105`, `- 2 Alice`), and the roster's alerts,
/// written as errors.
///
/// Nothing is redrawn in full: ``tableLines()`` draws the table once, when `players` asks.
final class RosterView: Sendable {
    private struct State {
        /// Whether changes are written; off while the roster is first read.
        var showsChanges = false
        /// Whether an alert was written since ``takeAlerts()`` was last called.
        var alerted = false
    }

    /// The roster this view shows.
    let roster: RosterViewModel
    /// The table of the roster's rows; its selection action is the roster's.
    let table: TableBinding<PlayerRowTemplate>
    private let state = Mutex(State())
    private let bindings = DisposeBag()

    init(roster: RosterViewModel, output: any TerminalOutput, log: FormEventLog) {
        self.roster = roster
        table = TableBinding<PlayerRowTemplate>(rows: roster.rows, selection: roster.rowSelected)
        table.changes.observeValues(in: bindings) { [weak self] change in
            guard self?.state.withLock({ $0.showsChanges }) == true else { return }
            output.write(TerminalText.escaped(change.description))
        }
        roster.alerts.observeValues(in: bindings) { [weak self] alert in
            self?.state.withLock { $0.alerted = true }
            log.error(TerminalText.escaped(alert.message))
        }
    }

    /// Reads the store for the first time without writing its players as changes; alerts are
    /// still written.
    func load() async {
        _ = try? await roster.refresh.apply(())
        state.withLock { $0.showsChanges = true }
    }

    /// Whether an alert was written since the last call; resets the flag.
    func takeAlerts() -> Bool {
        state.withLock { state in
            defer { state.alerted = false }
            return state.alerted
        }
    }

    /// The table as `players` draws it: a title with the count, then `  1 Colin 100 *`.
    func tableLines() -> [String] {
        let lines = table.lines
        let title =
            roster.title + (lines.isEmpty ? ": none yet (add NAME POINTS, or upload)" : " (\(lines.count))")
        return [title]
            + lines.enumerated().map { index, line in "  \(index + 1) " + TerminalText.escaped(line) }
    }

    /// The roster as one JSON array on one line: for each player, in table order, `name`,
    /// `points`, `uploadedAt` (ISO 8601 in UTC, with milliseconds) and `selected`.
    func json() -> String {
        let selected = roster.selectedNames.value
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        let objects = roster.players.value.map { player in
            "{\"name\":" + JSONText.quoted(player.name) + ",\"points\":"
                + FormRenderer.jsonNumber(player.points) + ",\"uploadedAt\":\""
                + formatter.string(from: player.uploadedAt) + "\",\"selected\":"
                + String(selected.contains(player.name)) + "}"
        }
        return "[" + objects.joined(separator: ",") + "]"
    }

    /// The name of the player in row `row` (counting from 1).
    /// - Throws: ``TableBindingError/noSuchRow(index:count:)`` when there is no such row.
    func name(inRow row: Int) throws(TableBindingError) -> String {
        let rows = roster.rows.value
        guard rows.indices.contains(row - 1) else {
            throw .noSuchRow(index: row - 1, count: rows.count)
        }
        return rows[row - 1].id
    }
}
