import Foundation
import PlayerFormScores
import PlayerFormTerminalTesting
import Synchronization
import Testing

@testable import PlayerFormTerminal

/// Records "Player 1" with 1 point to "Player N" with N points, one each.
func numberedRecords(_ count: Int, from first: Int = 1) -> [ScoreRecord] {
    (first..<first + count).map {
        ScoreRecord(
            id: UUID(), name: "Player \($0)", points: Double($0), uploadedAt: Date(timeIntervalSince1970: 0))
    }
}

/// A store of a million players, "Player 1" to "Player 1000000"; made once, copied by each spec.
private let millionStore = Task { InMemoryScoreStore(records: numberedRecords(1_000_000)) }

/// An in-memory store that remembers how it was asked for players.
final class PagedReadsStore: ScoreStore {
    let base: InMemoryScoreStore
    /// The `limit` of every `players(from:limit:)` call, and whether every record was read.
    let asked = Mutex<(limits: [Int], readEverything: Bool)>(([], false))
    /// Called with the offset of every `players(from:limit:)` call, before it is answered.
    let onRead: @Sendable (_ offset: Int) async -> Void
    /// The offset whose read fails as a damaged page would; nil for none.
    let failingAt: Int?

    init(
        _ base: InMemoryScoreStore, failingAt: Int? = nil,
        onRead: @escaping @Sendable (_ offset: Int) async -> Void = { _ in }
    ) {
        self.base = base
        self.failingAt = failingAt
        self.onRead = onRead
    }

    func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
        try await base.upload(name: name, points: points)
    }
    func records() async throws(ScoreStoreError) -> [ScoreRecord] {
        asked.withLock { $0.readEverything = true }
        return try await base.records()
    }
    func playerCount() async throws(ScoreStoreError) -> Int { try await base.playerCount() }
    func players(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player] {
        asked.withLock { $0.limits.append(limit) }
        await onRead(offset)
        if offset == failingAt { throw .corrupt(.database(path: "scores.sqlite"), reason: "a damaged page") }
        return try await base.players(from: offset, limit: limit)
    }
    func player(named name: String) async throws(ScoreStoreError) -> (index: Int, player: Player)? {
        try await base.player(named: name)
    }
    func players(startingWith text: String, limit: Int) async throws(ScoreStoreError) -> [(
        index: Int, player: Player
    )] {
        try await base.players(startingWith: text, limit: limit)
    }
    func deletePlayer(named name: String) async throws(ScoreStoreError) -> Player? {
        try await base.deletePlayer(named: name)
    }
    func revision() async throws(ScoreStoreError) -> UInt64 { try await base.revision() }
}

/// A reader whose lines the spec gives one at a time; it says when the session waits for a line,
/// and keeps what was shown above its prompt.
final class StepReader: LineReader, @unchecked Sendable {
    // @unchecked: read by one session from one task; the streams and the mutex are safe.
    let isInteractive: Bool
    private let lines = AsyncStream<LineInput>.makeStream()
    private var next: AsyncStream<LineInput>.Iterator
    let waiting = AsyncStream<Void>.makeStream()
    let shown = AsyncStream<[String]>.makeStream()

    init(interactive: Bool) {
        isInteractive = interactive
        next = lines.stream.makeAsyncIterator()
    }

    func read(prompt: String) async -> LineInput {
        waiting.continuation.yield()
        return await next.next() ?? .end
    }

    func send(_ line: String) { lines.continuation.yield(.line(Array(line.utf8))) }

    func showAbovePrompt(_ lines: [String]) -> Bool {
        shown.continuation.yield(lines)
        return true
    }
}

@Suite("REPLSession: the roster a page at a time")
struct RosterPagingTests {
    let output = CapturedOutput()

    func session(_ store: any ScoreStore, reader: any LineReader, idleTicks: AsyncStream<Void>? = nil)
        -> REPLSession
    {
        let (form, roster) = sessionViewModels(rules: .defaults, store: store, uploadDelay: .zero)
        let ticks = idleTicks.map { ticks in { @Sendable in ticks } }
        return REPLSession(
            form: form, roster: roster, reader: reader, output: output,
            terminal: REPLSession.Terminal(pageSize: 40, idleTicks: ticks))
    }

    func run(_ store: any ScoreStore, _ script: String) async -> REPLSession.Outcome {
        await session(store, reader: ScriptedLineReader(text: script)).run()
    }

    /// The lines of rows `range` (numbered from 1) as `players` draws them.
    func rows(_ range: ClosedRange<Int>, selected: Set<Int> = []) -> [CapturedOutput.Line] {
        tableLines(range.map { ($0, "Player \($0)", "\($0)", selected.contains($0)) }).map { .out($0) }
    }

    @Test(
        "players draws the first page; players N and --page N move to page N; past the end says which pages exist"
    )
    func pages() async {
        let store = InMemoryScoreStore(records: numberedRecords(100))
        #expect(await run(store, "players\nplayers 3\nplayers --page 2\nplayers\nplayers 4\n") == .failed)
        #expect(
            output.lines
                == [.out("Players: rows 1-40 of 100 (page 1 of 3)")] + rows(1...40)
                + [.out("Players: rows 81-100 of 100 (page 3 of 3)")] + rows(81...100)
                + [.out("Players: rows 41-80 of 100 (page 2 of 3)")] + rows(41...80)
                + [.out("Players: rows 41-80 of 100 (page 2 of 3)")] + rows(41...80)
                + [
                    .error(
                        "line 5: There is no page 4: the roster has 100 players on 3 pages (players 1 to players 3)."
                    )
                ])
    }

    @Test("past the end of an empty roster, players N says it is empty")
    func emptyRosterPage() async {
        #expect(await run(InMemoryScoreStore(), "players 2\n") == .failed)
        #expect(output.lines == [.error("line 1: There is no page 2: the roster is empty.")])
    }

    @Test("players --all writes every row, reading the store a page at a time")
    func all() async {
        let store = PagedReadsStore(InMemoryScoreStore(records: numberedRecords(100)))
        #expect(await run(store, "players --all\n") == .succeeded)
        let expected = (1...100).map {
            PlayerTable.Row(
                number: $0, name: "Player \($0)", points: "\($0)", uploadedAt: Date(timeIntervalSince1970: 0),
                selected: false)
        }
        // One header; every page in the columns of the first, with room for the longest name.
        #expect(
            output.lines
                == [.out("Players: all 100")]
                + PlayerTable.lines(expected, widths: .init(number: 3, name: 30, points: 6)).map { .out($0) })
        #expect(output.results[2] == "    1  Player 1                             1  1970-01-01 00:00:00")
        let asked = store.asked.withLock { $0 }
        #expect(!asked.readEverything)
        #expect(asked.limits.allSatisfy { $0 == 40 })
    }

    /// A session that runs `command` over `store`, 40 rows a page, with Ctrl-C pressed through
    /// `interrupts`, and its output.
    func listing(_ command: String, over store: any ScoreStore, interrupts: ManualInterrupts)
        -> (REPLSession, CapturedOutput)
    {
        let output = CapturedOutput()
        let (form, roster) = sessionViewModels(rules: .defaults, store: store, uploadDelay: .zero)
        let session = REPLSession(
            form: form, roster: roster, reader: ScriptedLineReader(text: command + "\n"), output: output,
            terminal: REPLSession.Terminal(interrupts: interrupts, pageSize: 40))
        return (session, output)
    }

    @Test(
        "Ctrl-C stops players --all, --csv and --json before their next page, with a note of how far they got"
    )
    func ctrlCStopsListings() async {
        // The command, the offset whose read Ctrl-C comes during, what the note says was written,
        // and how many pages the listing read.
        let cases = [
            ("players --all", 40, "80", 2), ("players --csv", 1_000, "2,000", 2),
            ("players --json", 1_000, "2,000", 2),
        ]
        for (command, pressAt, written, pages) in cases {
            let interrupts = ManualInterrupts()
            let store = PagedReadsStore(InMemoryScoreStore(records: numberedRecords(2_500))) { offset in
                if offset == pressAt { interrupts.press() }
            }
            let (session, output) = listing(command, over: store, interrupts: interrupts)
            #expect(await session.run() == .failed, "\(command)")
            #expect(
                output.errors == ["note: Ctrl-C stopped the listing after \(written) of 2,500 players."],
                "\(command)")
            // The page being read when Ctrl-C came is written; no later page is read.
            let listingReads = store.asked.withLock { $0.limits }.dropFirst().count
            #expect(listingReads == pages, "\(command)")
            #expect(!interrupts.press(), "Ctrl-C is let go once the listing ends")
        }
    }

    @Test(
        "a Ctrl-C while the last page is read leaves the listing whole, with no note, also when that page is full",
        arguments: [("players --all", 100, 80), ("players --all", 80, 40), ("players --json", 2_000, 1_000)]
            + [("players --csv", 2_000, 1_000)])
    func ctrlCAfterLastPage(command: String, players: Int, pressAt: Int) async {
        let interrupts = ManualInterrupts()
        let store = PagedReadsStore(InMemoryScoreStore(records: numberedRecords(players))) { offset in
            if offset == pressAt { interrupts.press() }
        }
        let (session, output) = listing(command, over: store, interrupts: interrupts)
        #expect(await session.run() == .succeeded)
        #expect(output.errors.isEmpty)
        switch command {
        case "players --all":
            #expect(output.results.count == players + 2, "the title, the header and every row")
        case "players --csv": #expect(output.results.count == players + 1, "the header and every record")
        default: #expect(output.results.last?.hasSuffix("}]") == true, "the array is closed")
        }
    }

    @Test("Ctrl-C stops a listing whose last page seemed full, when others have added players since")
    func ctrlCAfterOthersAdded() async {
        let interrupts = ManualInterrupts()
        let base = InMemoryScoreStore(records: numberedRecords(80))
        let store = PagedReadsStore(base) { offset in
            guard offset == 40 else { return }
            // Another session adds 100 players while the second page is read.
            for number in 81...180 { _ = try? await base.upload(name: "Player \(number)", points: 1) }
            interrupts.press()
        }
        let (session, output) = listing("players --all", over: store, interrupts: interrupts)
        #expect(await session.run() == .failed)
        #expect(output.errors == ["note: Ctrl-C stopped the listing after 80 of 180 players."])
    }

    @Test("once the pager is quit, players --all stops reading the store", .timeLimit(.minutes(5)))
    func quitPagerStopsListing() async {
        let store = PagedReadsStore(InMemoryScoreStore(records: numberedRecords(100_000)))
        let output = CapturedOutput()
        let (form, roster) = sessionViewModels(rules: .defaults, store: store, uploadDelay: .zero)
        // A pager that reads the first screen and is quit.
        let session = REPLSession(
            form: form, roster: roster, reader: PlaybackReader(lines: ["players --all"], interactive: true),
            output: output,
            terminal: REPLSession.Terminal(
                pageSize: 40, pager: PagerSettings(command: "head -n 10 >/dev/null", rows: { 10 })))
        #expect(await session.run() == .succeeded)
        // 2,500 pages make the whole listing; what fills the pipe before the pager is gone is a
        // few dozen.
        let reads = store.asked.withLock { $0.limits.count }
        #expect(reads < 100, "\(reads) pages read")
        #expect(output.errors.isEmpty)
    }

    @Test("players --json over several pages is one array with the keys name, points, uploadedAt, selected")
    func json() async throws {
        let store = PagedReadsStore(InMemoryScoreStore(records: numberedRecords(100)))
        #expect(await run(store, "select 2\nselect 45\nplayers --json\n") == .succeeded)
        #expect(output.results.count == 3)
        let line = try #require(output.results.last)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]])
        #expect(array.count == 100)
        #expect(array.allSatisfy { Set($0.keys) == ["name", "points", "uploadedAt", "selected"] })
        #expect(array.map { $0["name"] as? String } == (1...100).map { "Player \($0)" })
        #expect(
            array.compactMap { $0["selected"] as? Bool == true ? $0["name"] as? String : nil } == [
                "Player 2", "Player 45",
            ])
        #expect(
            line.hasPrefix(
                #"[{"name":"Player 1","points":1,"uploadedAt":"1970-01-01T00:00:00.000Z","selected":false},"#)
        )
        let asked = store.asked.withLock { $0 }
        // The window reads its page; the listing reads a thousand players at a time.
        #expect(!asked.readEverything)
        #expect(asked.limits.filter { $0 > 1 } == [40, 1_000])
    }

    @Test(
        "players --json that fails after a page ends its line, says why on standard error, and the next output starts a line"
    )
    func jsonFailingMidway() async throws {
        let store = PagedReadsStore(InMemoryScoreStore(records: numberedRecords(2_500)), failingAt: 1_000)
        #expect(await run(store, "players --json\nrules --json\n") == .failed)
        let results = output.results
        #expect(results.count == 2)
        let array = try #require(results.first)
        #expect(
            array.hasPrefix("[{") && !array.hasSuffix("]"), "the array is left open: it reads as incomplete")
        #expect(results.last?.hasPrefix("{") == true, "the rules' JSON starts its own line: \(results)")
        #expect(output.errors.count == 1)
    }

    @Test("a page read while another session deletes players before it is read again, and skips no one")
    func pageReadWhileDeleting() async throws {
        let base = InMemoryScoreStore(records: numberedRecords(9))
        let deleted = Mutex(false)
        // Just before the second page is read, two players of the first go.
        let store = PagedReadsStore(base) { offset in
            guard offset == 3, !deleted.withLock({ $0 }) else { return }
            deleted.withLock { $0 = true }
            _ = try? await base.deletePlayer(named: "Player 1")
            _ = try? await base.deletePlayer(named: "Player 2")
        }
        let (_, roster) = sessionViewModels(rules: .defaults, store: store, uploadDelay: .zero)
        let listing = roster.listing(pageSize: 3, withRecordIDs: true)
        var names: [String] = []
        while true {
            let page = try await listing.next()
            names += page.players.map(\.name)
            if page.players.count < 3 { break }
        }
        #expect(names == (1...9).map { "Player \($0)" })
    }

    @Test("select N and delete N take row numbers of the whole roster, on any page")
    func selectAndDeleteOutOfView() async throws {
        let store = await InMemoryScoreStore(copying: millionStore.value)
        let script = "select 700000\ndelete 800000 --yes\nplayers 17500\nselect 1\n"
        #expect(await run(store, script) == .succeeded)
        #expect(
            output.lines
                == [
                    .out("selected row 700,000: Player 700000"),
                    .out("deleted row 800,000: Player 800000"),
                    .out("Players: rows 699,961-700,000 of 999,999 (page 17,500 of 25,000)"),
                ] + rows(699_961...700_000, selected: [700_000]) + [.out("selected row 1: Player 1")])
        #expect(try await store.player(named: "Player 800000") == nil)
    }

    @Test(
        "in a script, each upload of a player out of view is followed by the count it changed, however fast")
    func uploadsOutOfViewInAScript() async {
        let store = InMemoryScoreStore(records: numberedRecords(100))
        let script = (1...3).map { "name New \($0)\npoints 5\nupload\n" }.joined()
        #expect(await run(store, script) == .succeeded)
        // Each upload's lines end with the count, before the next command's.
        let ends = output.results.filter { $0.hasPrefix("uploads:") || $0.hasPrefix("players:") }
        #expect(
            ends == [
                "uploads: 1 done, 4 left", "players: 101 (1 added out of view)",
                "uploads: 2 done, 3 left", "players: 102 (1 added out of view)",
                "uploads: 3 done, 2 left", "players: 103 (1 added out of view)",
            ])
        #expect(output.results.last == "players: 103 (1 added out of view)")
    }

    @Test(
        "an add out of view says so: the count for a new player (also when the page was full), a line for new points",
        arguments: [40, 100])
    func addsOutOfViewInAScript(count: Int) async {
        let store = InMemoryScoreStore(records: numberedRecords(count))
        let script =
            "add New 1 5\nadd New 2 6\nadd player 3 7\nadd new 1 8\nname Zed\npoints 5\nupload\nrefresh\n"
        #expect(await run(store, script) == .succeeded)
        let ends = output.results.filter {
            $0.hasPrefix("players:") || $0.hasPrefix("~") || $0.hasPrefix("updated")
        }
        #expect(
            ends.map(timeless) == [
                "players: \(count + 1) (1 added out of view)", "players: \(count + 2) (1 added out of view)",
                "~ 3 player 3 7", "updated out of view: new 1 8",
                "players: \(count + 3) (1 added out of view)",
            ])
    }

    @Test(
        "a page follows the terminal's height as it is when players runs, from the page of the first row shown"
    )
    func pageFollowsResize() async {
        let store = InMemoryScoreStore(records: numberedRecords(100))
        let sizes = Mutex([26, 26, 8, 50])
        let (form, roster) = sessionViewModels(rules: .defaults, store: store, uploadDelay: .zero)
        let session = REPLSession(
            form: form, roster: roster,
            reader: ScriptedLineReader(text: "players\nplayers 2\nplayers\nplayers\n"),
            output: output,
            terminal: REPLSession.Terminal(pageSize: 26, pageSizeNow: { sizes.withLock { $0.removeFirst() } })
        )
        #expect(await session.run() == .succeeded)
        let titles = output.results.filter { $0.hasPrefix("Players:") }
        #expect(
            titles == [
                "Players: rows 1-26 of 100 (page 1 of 4)", "Players: rows 27-52 of 100 (page 2 of 4)",
                "Players: rows 25-32 of 100 (page 4 of 13)", "Players: rows 1-50 of 100 (page 1 of 2)",
            ])
    }

    @Test("changes by another session show before the next command, without refresh", .timeLimit(.minutes(5)))
    func otherSessionBeforeNextCommand() async throws {
        let shared = InMemoryScoreStore(records: numberedRecords(3))
        let reader = StepReader(interactive: false)
        let running = Task { await session(shared, reader: reader).run() }
        var waiting = reader.waiting.stream.makeAsyncIterator()
        await waiting.next()

        let other = CapturedOutput()
        let (form, roster) = sessionViewModels(rules: .defaults, store: shared, uploadDelay: .zero)
        let script = "add Zed 9\ndelete 1 --yes\n" + (1...40).map { "add Extra \($0) 1\n" }.joined()
        _ = await REPLSession(
            form: form, roster: roster, reader: ScriptedLineReader(text: script), output: other
        )
        .run()

        reader.send("players")
        await waiting.next()
        reader.send("quit")
        #expect(await running.value == .succeeded)
        #expect(
            output.results.map(timeless) == [
                "- 1 Player 1", "+ 3 Zed 9", "+ 4 Extra 1 1",
            ] + (2...37).map { "+ \($0 + 3) Extra \($0) 1" } + [
                "players: 43 (3 added out of view)",
                "Players: rows 1-40 of 43 (page 1 of 2)",
            ]
                + tableLines(
                    [(1, "Player 2", "2", false), (2, "Player 3", "3", false), (3, "Zed", "9", false)]
                        + (1...37).map { ($0 + 3, "Extra \($0)", "1", false) }))
    }

    @Test(
        "at an idle prompt, another session's change is shown above the prompt at the next tick",
        .timeLimit(.minutes(5)))
    func otherSessionWhileIdle() async throws {
        let shared = InMemoryScoreStore(records: numberedRecords(3))
        let reader = StepReader(interactive: true)
        let ticks = AsyncStream<Void>.makeStream()
        let running = Task { await session(shared, reader: reader, idleTicks: ticks.stream).run() }
        var waiting = reader.waiting.stream.makeAsyncIterator()
        await waiting.next()

        // Nothing changed: a tick shows nothing.
        ticks.continuation.yield()
        _ = try await shared.upload(name: "Zed", points: 9)
        ticks.continuation.yield()
        var shown = reader.shown.stream.makeAsyncIterator()
        #expect(await shown.next() == ["+ 4 Zed 9"])

        _ = try await shared.deletePlayer(named: "player 2")
        ticks.continuation.yield()
        #expect(await shown.next() == ["- 2 Player 2"])

        reader.send("quit")
        #expect(await running.value == .succeeded)
        // Shown above the prompt, not written again.
        #expect(output.lines == [])
    }
}
