import Foundation
import PlayerForm
import PlayerFormScores
import PlayerFormTerminalTesting
import Synchronization
import Testing

@testable import PlayerFormTerminal

/// A store that can be made to fail every reading, as a league whose server went down.
final class FlakyStore: ScoreStore {
    let base: InMemoryScoreStore
    let failing = Mutex(false)

    init(_ base: InMemoryScoreStore) { self.base = base }

    private func check() throws(ScoreStoreError) {
        if failing.withLock({ $0 }) { throw .connectionLost(.server(endpoint: "league.example:5432")) }
    }
    func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
        try check()
        return try await base.upload(name: name, points: points)
    }
    func records() async throws(ScoreStoreError) -> [ScoreRecord] {
        try check()
        return try await base.records()
    }
    func revision() async throws(ScoreStoreError) -> UInt64 {
        try check()
        return try await base.revision()
    }
    func rosterWindow(from offset: Int, limit: Int) async throws(ScoreStoreError) -> RosterWindow {
        try check()
        return try await base.rosterWindow(from: offset, limit: limit)
    }
}

@Suite("The roster while its store cannot be read")
struct RosterReachabilityTests {
    @Test(
        "a store that cannot be read is said once, players says the rows are as of when, and its return is said once"
    )
    func lostAndBack() async throws {
        let store = FlakyStore(InMemoryScoreStore(records: numberedRecords(3)))
        let (form, roster) = sessionViewModels(rules: .defaults, store: store, uploadDelay: .zero)
        let output = CapturedOutput()
        let log = FormEventLog(form: form, output: output, renderer: FormRenderer(style: .plain))
        let time = Date(timeIntervalSince1970: 1_795_810_030)
        let view = RosterView(roster: roster, output: output, log: log, pageSize: 40, now: { time })
        await view.load()
        #expect(view.tableLines().first == "Players: rows 1-3 of 3")

        store.failing.withLock { $0 = true }
        let lost = await view.catchUp()
        #expect(lost.lines.isEmpty && lost.notes.count == 1, "a note, on standard error in a script: \(lost)")
        #expect(lost.notes.first?.hasPrefix("note: lost the connection") == true, "\(lost)")
        #expect(
            lost.notes.first?.hasSuffix("; the roster is as of 2026-11-27 20:07:10 UTC") == true, "\(lost)")
        #expect(await view.catchUp() == RosterView.CatchUp(), "said once, not at every tick")
        #expect(
            view.tableLines().first
                == "Players: rows 1-3 of 3 as of 2026-11-27 20:07:10 UTC: the score store cannot be read now")

        store.failing.withLock { $0 = false }
        _ = try await store.base.upload(name: "Player 4", points: 4)
        let back = await view.catchUp()
        #expect(back.notes == ["note: the score store can be read again; the roster is up to date"])
        #expect(back.lines == ["+ 4 Player 4 4"])
        #expect(await view.catchUp() == RosterView.CatchUp())
        #expect(view.tableLines().first == "Players: rows 1-4 of 4")
    }
}
