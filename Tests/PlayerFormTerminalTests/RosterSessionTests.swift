import Foundation
import PlayerForm
import PlayerFormScores
import PlayerFormTerminalTesting
import Testing

@testable import PlayerFormTerminal

/// A store that holds records already, and whose readings of the roster's window fail after the
/// first few.
actor HeldStore: ScoreStore {
    private var kept: [ScoreRecord]
    private let readsBeforeFailing: Int
    private var reads = 0

    /// A store holding `names`; every reading of a window after the first `readsBeforeFailing`
    /// fails.
    init(names: [(String, Double)], readsBeforeFailing: Int = .max) {
        self.readsBeforeFailing = readsBeforeFailing
        kept = names.map {
            ScoreRecord(id: UUID(), name: $0.0, points: $0.1, uploadedAt: Date(timeIntervalSince1970: 0))
        }
    }

    func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
        let record = ScoreRecord(
            id: UUID(), name: name, points: points, uploadedAt: Date(timeIntervalSince1970: 0))
        kept.append(record)
        return record
    }

    func records() async throws(ScoreStoreError) -> [ScoreRecord] { kept }

    /// Each refresh reads one window; the reading after the first `readsBeforeFailing` fails.
    func rosterWindow(from offset: Int, limit: Int) async throws(ScoreStoreError) -> RosterWindow {
        reads += 1
        if reads > readsBeforeFailing {
            throw .io(.database(path: "scores.sqlite"), access: .read, reason: "Input/output error")
        }
        let players = Player.roster(from: kept)
        return RosterWindow(
            revision: UInt64(kept.count), playerCount: players.count,
            players: Array(players.dropFirst(offset).prefix(limit)))
    }

    func delete(ids: [UUID]) async throws(ScoreStoreError) {
        kept.removeAll { ids.contains($0.id) }
    }
}

/// A store whose deletions are cancelled before they are kept.
struct CancellingStore: ScoreStore {
    func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
        ScoreRecord(id: UUID(), name: name, points: points, uploadedAt: Date(timeIntervalSince1970: 0))
    }

    func records() async throws(ScoreStoreError) -> [ScoreRecord] {
        [ScoreRecord(id: UUID(), name: "Ann", points: 5, uploadedAt: Date(timeIntervalSince1970: 0))]
    }

    func delete(ids: [UUID]) async throws(ScoreStoreError) {
        throw .cancelled
    }
}

@Suite("REPLSession with a roster")
struct RosterSessionTests {
    let output = CapturedOutput()

    func session(
        _ store: any ScoreStore, reader: any LineReader
    ) -> (session: REPLSession, roster: RosterViewModel) {
        let (form, roster) = sessionViewModels(rules: .defaults, store: store, uploadDelay: .zero)
        return (REPLSession(form: form, roster: roster, reader: reader, output: output), roster)
    }

    func run(_ store: any ScoreStore, _ script: String) async -> REPLSession.Outcome {
        await session(store, reader: ScriptedLineReader(text: script)).session.run()
    }

    @Test("the roster is read once at start without printing it; players draws it")
    func silentStart() async {
        let store = HeldStore(names: [("Ann", 5), ("Bob", 120)])
        #expect(await run(store, "players\n") == .succeeded)
        #expect(
            output.lines.map(timeless)
                == [.out("Players: rows 1-2 of 2")]
                + tableLines([(1, "Ann", "5", false), (2, "Bob", "120", false)]).map { .out($0) })
    }

    @Test("an empty roster says how to fill it")
    func empty() async {
        #expect(await run(InMemoryScoreStore(), "players\n") == .succeeded)
        #expect(output.lines == [.out("Players: none yet (add NAME POINTS, or upload)")])
    }

    @Test("add, an upload of new points, select and delete are printed as change lines")
    func changeLines() async {
        let script = "add Bob 120\nupload\nup 5\nupload\nselect 1\ndelete 1 --yes\nplayers\n"
        #expect(await run(InMemoryScoreStore(), script) == .succeeded)
        #expect(
            output.results.map(timeless) == [
                "+ 1 Bob 120",
                "uploading...", "Updated Colin with 100 points", "+ 2 Colin 100", "uploads: 1 done, 4 left",
                "points: 105", "point updates left: 5",
                "uploading...", "Updated Colin with 105 points", "~ 2 Colin 105", "uploads: 2 done, 3 left",
                "~ 1 Bob 120 *",
                "- 1 Bob",
                "Players: rows 1-1 of 1",
            ] + tableLines([(1, "Colin", "105", false)]))
    }

    @Test("select runs the roster's selection action with the row's view model")
    func select() async {
        let store = HeldStore(names: [("Ann", 5), ("Bob", 120)])
        let (session, roster) = session(
            store, reader: ScriptedLineReader(text: "select 2\nselect 2\nselect 3\n"))
        #expect(await session.run() == .failed)
        #expect(roster.selectedNames.value.isEmpty)
        #expect(
            output.lines == [
                .out("~ 2 Bob 120 *"), .out("~ 2 Bob 120"),
                .error("line 3: There is no row 3: rows are numbered 1 to 2."),
            ])
    }

    @Test("add refusals print the roster's reasons and add nothing")
    func addRefused() async {
        #expect(await run(InMemoryScoreStore(), "add darn 5\nadd Bob 20000\nplayers\n") == .failed)
        #expect(
            output.lines == [
                .error("line 1: The name darn has been forbidden."),
                .error("line 2: Points 20000 are above the maximum of 10000."),
                .out("Players: none yet (add NAME POINTS, or upload)"),
            ])
    }

    @Test("in a script, delete without --yes is refused and deletes nothing")
    func scriptedDeleteNeedsYes() async {
        let store = HeldStore(names: [("Ann", 5)])
        #expect(await run(store, "delete 1\nplayers\n") == .failed)
        #expect(
            output.lines.map(timeless) == [
                .error(
                    "line 1: delete asks before deleting, and a script cannot answer; type delete 1 --yes."),
                .out("Players: rows 1-1 of 1"),
            ] + tableLines([(1, "Ann", "5", false)]).map { .out($0) })
    }

    @Test("at a terminal, delete asks Delete NAME? [y/N] and deletes only on yes")
    func interactiveDelete() async throws {
        let store = HeldStore(names: [("Ann", 5), ("Bob", 120)])
        let reader = PlaybackReader(
            lines: ["delete 1", "n", "delete 1", "", "delete 2", "Y"], interactive: true)
        #expect(await session(store, reader: reader).session.run() == .succeeded)
        #expect(output.lines == [.out("not deleted"), .out("not deleted"), .out("- 2 Bob")])
        #expect(
            reader.prompts.filter { $0.hasPrefix("Delete") } == Array(
                repeating: "Delete Ann? [y/N] ", count: 2) + ["Delete Bob? [y/N] "])
        #expect(try await store.records().map(\.name) == ["Ann"])
    }

    @Test("a store that cannot be read fails refresh with an error; the roster keeps what it shows")
    func unreadable() async {
        let store = HeldStore(names: [("Ann", 5)], readsBeforeFailing: 1)
        #expect(await run(store, "refresh\nplayers\nadd Bob 1\n") == .failed)
        let shown = output.lines.map { line -> CapturedOutput.Line in
            switch line {
            case .out(let text): .out(timeless(text))
            case .error(let text): .error(timeless(text))
            }
        }
        #expect(
            shown == [
                .error(
                    "note: scores.sqlite: cannot read the score database: Input/output error; the roster is as"
                        + " of 1970-01-01 00:00:00 UTC"),
                .error(
                    "line 1: Could not read the scores: scores.sqlite: cannot read the score database: Input/output error"
                ),
                .out(
                    "Players: rows 1-1 of 1 as of 1970-01-01 00:00:00 UTC: the score store cannot be read now"
                ),
            ] + tableLines([(1, "Ann", "5", false)]).map { .out($0) } + [.out("+ 2 Bob 1")])
    }

    @Test("a cancelled deletion, which raises no alert, still says that it did not happen")
    func cancelledDelete() async {
        #expect(await run(CancellingStore(), "delete 1 --yes\nplayers\n") == .failed)
        #expect(
            output.lines.map(timeless) == [
                .error("line 1: The change was cancelled."), .out("Players: rows 1-1 of 1"),
            ]
                + tableLines([(1, "Ann", "5", false)]).map { .out($0) })
    }

    @Test("names in change lines, the table and the question are escaped")
    func escaped() async {
        // A name with control characters cannot be added; a store written before may hold one.
        let store = HeldStore(names: [("a\u{1B}[2Jb", 5)])
        let reader = PlaybackReader(
            lines: ["add a\u{1B}[2Jc 5", "players", "delete 1", "y"], interactive: true)
        #expect(await session(store, reader: reader).session.run() == .succeeded)
        #expect(
            output.errors == [
                "error: The name contains control characters (\\u{1B}): a name is one line of visible text."
            ])
        #expect(
            output.results.map(timeless) == ["Players: rows 1-1 of 1"]
                + tableLines([(1, "a\u{1B}[2Jb", "5", false)]) + ["- 1 a\\u{1B}[2Jb"])
        #expect(output.results.contains { $0.hasPrefix("    1  a\\u{1B}[2Jb  ") })
        #expect(reader.prompts.contains("Delete a\\u{1B}[2Jb? [y/N] "))
    }

    @Test("players --json prints one array with name, points, uploadedAt and selected")
    func json() async {
        let store = HeldStore(names: [("Ann", 5), ("Zoë \"Z\"", 0.5)])
        #expect(await run(store, "select 2\nplayers --json\n") == .succeeded)
        #expect(
            output.results.last
                == #"[{"name":"Ann","points":5,"uploadedAt":"1970-01-01T00:00:00.000Z","selected":false},"#
                + #"{"name":"Zoë \"Z\"","points":0.5,"uploadedAt":"1970-01-01T00:00:00.000Z","selected":true}]"#
        )
    }

    @Test("without a roster, the roster commands say there is none")
    func noRoster() async {
        let session = REPLSession(
            form: PlayerViewModel(store: InMemoryScoreStore()), reader: ScriptedLineReader(text: "players\n"),
            output: output)
        #expect(await session.run() == .failed)
        #expect(output.lines == [.error("line 1: This session has no roster.")])
    }
}
