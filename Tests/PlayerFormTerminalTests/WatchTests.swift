import Foundation
import PlayerForm
import PlayerFormScores
import PlayerFormTerminalTesting
import Synchronization
import Testing

@testable import PlayerFormTerminal

/// An output that keeps what is written and says when a drawing is done: `watch` flushes after
/// each.
private final class DrawingOutput: TerminalOutput {
    let captured = CapturedOutput()
    let drawings = AsyncStream<Void>.makeStream()

    func write(_ line: String) { captured.write(line) }
    func writePart(_ text: String) { captured.writePart(text) }
    func writeError(_ line: String) { captured.writeError(line) }
    func flush() { drawings.continuation.yield() }
}

/// A store in memory that says each time it is asked for its revision, as a roster catching up
/// does first: a spec knows then that a tick was taken.
private final class RevisionAskedStore: ScoreStore {
    let base: InMemoryScoreStore
    let asked = AsyncStream<Void>.makeStream()

    init(_ base: InMemoryScoreStore) { self.base = base }

    func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
        try await base.upload(name: name, points: points)
    }
    func records() async throws(ScoreStoreError) -> [ScoreRecord] { try await base.records() }
    func playerCount() async throws(ScoreStoreError) -> Int { try await base.playerCount() }
    func players(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player] {
        try await base.players(from: offset, limit: limit)
    }
    func player(named name: String) async throws(ScoreStoreError) -> (index: Int, player: Player)? {
        try await base.player(named: name)
    }
    func deletePlayer(named name: String) async throws(ScoreStoreError) -> Player? {
        try await base.deletePlayer(named: name)
    }
    func revision() async throws(ScoreStoreError) -> UInt64 {
        defer { asked.continuation.yield() }
        return try await base.revision()
    }
    func rosterWindow(from offset: Int, limit: Int) async throws(ScoreStoreError) -> RosterWindow {
        try await base.rosterWindow(from: offset, limit: limit)
    }
}

/// A clock a spec moves, and the waits asked of it.
private final class SpecClock: Sendable {
    let time = Mutex<UInt64>(0)
    let waits = Mutex<[Duration]>([])

    func nanoseconds() -> UInt64 { time.withLock { $0 } }
    func advance(seconds: UInt64) { time.withLock { $0 += seconds * 1_000_000_000 } }
    func sleep(_ duration: Duration) async throws {
        waits.withLock { $0.append(duration) }
        advance(seconds: UInt64(duration.components.seconds))
    }
}

@Suite("watch: the page drawn again as the roster changes", .timeLimit(.minutes(5)))
struct WatchTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    @Test("watch reads SECONDS and COUNT as words or as psql's i= and c=, with players or without")
    func parse() throws {
        let cases: [(String, WatchRequest)] = [
            ("watch", WatchRequest(seconds: 2)), ("\\watch", WatchRequest(seconds: 2)),
            ("watch players", WatchRequest(seconds: 2)), ("\\watch 1 5", WatchRequest(seconds: 1, count: 5)),
            ("watch players 0.5", WatchRequest(seconds: 0.5)),
            ("\\WATCH i=3 c=2", WatchRequest(seconds: 3, count: 2)),
            ("\\watch interval=0 count=1", WatchRequest(seconds: 0, count: 1)),
            ("\\watch c=4", WatchRequest(seconds: 2, count: 4)),
        ]
        for (line, request) in cases {
            #expect(try CommandParser.parse(line) == .watch(request), "\(line)")
        }
        for (line, message) in [
            (
                "\\watch x",
                #""x" is not a number of seconds; \watch takes 0 to 86400 seconds between drawings, such as \watch 2."#
            ),
            (
                "watch -1",
                #""-1" is not a number of seconds; watch takes 0 to 86400 seconds between drawings, such as watch 2."#
            ),
            (
                "watch 1 0",
                #""0" is not a count; watch draws the page COUNT times, a whole number from 1, such as watch 1 5."#
            ),
            (
                "watch 1 2 3",
                #"watch does not accept "3"; type watch [SECONDS [COUNT]], such as watch 2 or watch 1 5."#
            ),
            (
                "watch rows",
                #""rows" is not a number of seconds; watch takes 0 to 86400 seconds between drawings, such as watch 2."#
            ),
        ] {
            #expect(throws: CommandError(message), "\(line)") { try CommandParser.parse(line) }
        }
    }

    @Test(
        "a script's watch draws the page under a line with the time, again only when a tick finds a change, and ends after COUNT drawings"
    )
    func drawsOnChange() async throws {
        let store = RevisionAskedStore(InMemoryScoreStore(records: numberedRecords(2), now: { Self.start }))
        let output = DrawingOutput()
        let ticks = AsyncStream<Void>.makeStream()
        let (form, roster) = sessionViewModels(rules: .defaults, store: store, uploadDelay: .zero)
        let session = REPLSession(
            form: form, roster: roster, reader: ScriptedLineReader(text: "\\watch 0 3\nname After\n"),
            output: output, terminal: REPLSession.Terminal(idleTicks: { ticks.stream }),
            options: REPLSession.Options(now: { Self.start }))
        let running = Task { await session.run() }
        var drawings = output.drawings.stream.makeAsyncIterator()
        var asked = store.asked.stream.makeAsyncIterator()
        await drawings.next()
        // A tick that finds nothing changed draws nothing.
        ticks.continuation.yield()
        await asked.next()
        _ = try await store.upload(name: "Zed", points: 9)
        ticks.continuation.yield()
        await drawings.next()
        _ = try await store.deletePlayer(named: "Player 1")
        ticks.continuation.yield()
        await drawings.next()
        #expect(await running.value == .succeeded)
        let time = "2026-09-21 14:13:20 UTC (every 0s)"
        let header = "  row  name      points  uploaded (UTC)       selected"
        let zed = "Zed            9  2026-09-21 14:13:20"
        #expect(
            output.captured.results == [
                time, "Players: rows 1-2 of 2", header,
                "    1  Player 1       1  1970-01-01 00:00:00",
                "    2  Player 2       2  1970-01-01 00:00:00",
                time, "Players: rows 1-3 of 3", header,
                "    1  Player 1       1  1970-01-01 00:00:00",
                "    2  Player 2       2  1970-01-01 00:00:00",
                "    3  " + zed,
                time, "Players: rows 1-2 of 2", header,
                "    1  Player 2       2  1970-01-01 00:00:00", "    2  " + zed,
                #"name: "After""#,
            ])
    }
    @Test(
        "a change sooner than SECONDS after the last drawing is drawn once SECONDS have passed, with what changed meanwhile"
    )
    func atMostEverySeconds() async throws {
        let store = RevisionAskedStore(InMemoryScoreStore(records: numberedRecords(1), now: { Self.start }))
        let output = DrawingOutput()
        let ticks = AsyncStream<Void>.makeStream()
        let clock = SpecClock()
        let (form, roster) = sessionViewModels(rules: .defaults, store: store, uploadDelay: .zero)
        let session = REPLSession(
            form: form, roster: roster, reader: ScriptedLineReader(text: "mode csv\nwatch 10 2\n"),
            output: output, terminal: REPLSession.Terminal(idleTicks: { ticks.stream }),
            options: REPLSession.Options(
                nanoseconds: { clock.nanoseconds() }, now: { Self.start },
                sleep: { try await clock.sleep($0) }))
        let running = Task { await session.run() }
        var drawings = output.drawings.stream.makeAsyncIterator()
        await drawings.next()
        clock.advance(seconds: 3)
        _ = try await store.upload(name: "Zed", points: 9)
        ticks.continuation.yield()
        await drawings.next()
        #expect(await running.value == .succeeded)
        #expect(clock.waits.withLock { $0 } == [.seconds(7)], "waited the rest of the 10 seconds")
        // In csv mode each drawing is a whole CSV document, with no line of time.
        #expect(
            output.captured.results == [
                "mode: csv", "name,points,uploadedAt,selected", "Player 1,1,1970-01-01T00:00:00.000Z,false",
                "name,points,uploadedAt,selected", "Player 1,1,1970-01-01T00:00:00.000Z,false",
                "Zed,9,2026-09-21T14:13:20.000Z,false",
            ])
    }

    @Test("a script's watch needs a count, and a session that does not follow the store cannot watch")
    func refusals() async throws {
        let store = InMemoryScoreStore(records: numberedRecords(1))
        for ticks in [true, false] {
            let output = CapturedOutput()
            let (form, roster) = sessionViewModels(rules: .defaults, store: store, uploadDelay: .zero)
            let noTicks: @Sendable () -> AsyncStream<Void> = { AsyncStream { $0.finish() } }
            let session = REPLSession(
                form: form, roster: roster,
                reader: ScriptedLineReader(text: ticks ? "\\watch\n" : "watch 1 1\n"),
                output: output, terminal: REPLSession.Terminal(idleTicks: ticks ? noTicks : nil))
            #expect(await session.run() == .failed)
            #expect(
                output.errors == [
                    ticks
                        ? "line 1: A script cannot press Ctrl-C to end watch; give a count of drawings, such as watch 1 5."
                        : "line 1: This session does not follow the store's changes, so watch cannot show them."
                ])
            #expect(output.results.isEmpty)
        }
    }

    @Test("at a terminal, watch runs until Ctrl-C, then the prompt comes back")
    func ctrlCStops() async throws {
        let store = InMemoryScoreStore(records: numberedRecords(1))
        let output = DrawingOutput()
        let ticks = AsyncStream<Void>.makeStream()
        let interrupts = ManualInterrupts()
        let reader = StepReader(interactive: true)
        let (form, roster) = sessionViewModels(rules: .defaults, store: store, uploadDelay: .zero)
        let session = REPLSession(
            form: form, roster: roster, reader: reader, output: output,
            terminal: REPLSession.Terminal(interrupts: interrupts, idleTicks: { ticks.stream }),
            options: REPLSession.Options(now: { Self.start }))
        let running = Task { await session.run() }
        var waiting = reader.waiting.stream.makeAsyncIterator()
        await waiting.next()
        reader.send("watch")
        var drawings = output.drawings.stream.makeAsyncIterator()
        await drawings.next()
        #expect(interrupts.press(), "watch listens for Ctrl-C")
        await waiting.next()
        reader.send("quit")
        #expect(await running.value == .succeeded)
        #expect(output.captured.results.first == "2026-09-21 14:13:20 UTC (every 2s)")
        #expect(output.captured.errors.isEmpty)
    }
}
