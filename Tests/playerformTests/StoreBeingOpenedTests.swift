import Foundation
import PlayerFormScores
import Synchronization
import Testing

@testable import playerform

/// A script's session is built while its store opens: the store it is built on waits for the
/// opening and answers as the opened store does.
@Suite("A store being opened", .timeLimit(.minutes(1)))
struct StoreBeingOpenedTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func record(_ name: String, _ points: Double, _ id: Int) -> ScoreRecord {
        ScoreRecord(
            id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", id))!, name: name,
            points: points, uploadedAt: start)
    }

    /// A store of three players, stamping and numbering uploads the same way every time.
    static func filledStore() -> InMemoryScoreStore {
        let ids = Mutex(100)
        return InMemoryScoreStore(
            records: [record("Ann", 10, 1), record("Bob", 20, 2), record("ann", 30, 3), record("Cy", 40, 4)],
            now: { start },
            makeID: {
                ids.withLock { next in
                    next += 1
                    return UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", next))!
                }
            })
    }

    /// Expects `count` operations to have answered within some turns of the executor, so that an
    /// operation left waiting fails the spec instead of hanging it.
    static func expectAnswers(_ count: Int, from answered: Answers) async throws {
        for _ in 0..<100_000 where answered.count.load(ordering: .relaxed) < count { await Task.yield() }
        try #require(
            answered.count.load(ordering: .relaxed) == count,
            "an operation waiting for the opening got no answer")
    }

    /// How many operations have answered.
    final class Answers: Sendable {
        let count = Atomic(0)
    }

    @Test("operations started before the opening ends get the opened store's answers")
    func forwardsOnceOpened() async throws {
        let opened = Self.filledStore()
        let expected = Self.filledStore()
        let store = StoreBeingOpened()
        let answered = Answers()
        let upload = Task {
            defer { answered.count.add(1, ordering: .relaxed) }
            return try await store.upload(name: "Dee", points: 50)
        }
        let count = Task {
            defer { answered.count.add(1, ordering: .relaxed) }
            return try await store.playerCount()
        }
        while store.waitingCount < 2 { await Task.yield() }
        store.finish(.success(opened))
        try await Self.expectAnswers(2, from: answered)
        #expect(try await upload.value == expected.upload(name: "Dee", points: 50))
        // Before or after the upload, as the two tasks ran.
        #expect(try await [3, 4].contains(count.value))
        #expect(store.waitingCount == 0)

        #expect(try await store.records() == expected.records())
        #expect(try await store.read() == expected.read())
        #expect(try await store.playerCount() == expected.playerCount())
        #expect(try await store.players(from: 1, limit: 2) == expected.players(from: 1, limit: 2))
        #expect(try await store.playerListing(from: 0, limit: 9) == expected.playerListing(from: 0, limit: 9))
        let found = try await store.player(named: "BOB")
        let expectedFound = try await expected.player(named: "BOB")
        #expect(found?.index == expectedFound?.index && found?.player == expectedFound?.player)
        #expect(try await store.revision() == expected.revision())
        #expect(try await store.problems() == expected.problems())
        #expect(try await store.deletePlayer(named: "cy") == expected.deletePlayer(named: "cy"))
        try await store.delete(ids: [Self.record("Bob", 20, 2).id])
        try await expected.delete(ids: [Self.record("Bob", 20, 2).id])
        #expect(try await opened.records() == expected.records())
    }

    /// A store that notes which operation it was asked for.
    final class NotingStore: ScoreStore {
        let asked = Mutex<[String]>([])
        func note(_ operation: String) { asked.withLock { $0.append(operation) } }
        func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
            note("upload")
            return StoreBeingOpenedTests.record(name, points, 1)
        }
        func records() async throws(ScoreStoreError) -> [ScoreRecord] { note("records"); return [] }
        func delete(ids: [UUID]) async throws(ScoreStoreError) { note("delete") }
        func read() async throws(ScoreStoreError) -> ScoreReading {
            note("read"); return ScoreReading(records: [])
        }
        func playerCount() async throws(ScoreStoreError) -> Int { note("playerCount"); return 0 }
        func players(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player] {
            note("players"); return []
        }
        func playerListing(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player] {
            note("playerListing"); return []
        }
        func player(named name: String) async throws(ScoreStoreError) -> (index: Int, player: Player)? {
            note("player"); return nil
        }
        func deletePlayer(named name: String) async throws(ScoreStoreError) -> Player? {
            note("deletePlayer"); return nil
        }
        func revision() async throws(ScoreStoreError) -> UInt64 { note("revision"); return 0 }
        func rosterWindow(from offset: Int, limit: Int) async throws(ScoreStoreError) -> RosterWindow {
            note("rosterWindow"); return RosterWindow(revision: 0, playerCount: 0, players: [])
        }
        func problems() async throws(ScoreStoreError) -> [ScoreStoreProblem] { note("problems"); return [] }
    }

    @Test("each operation goes to the same operation of the opened store")
    func eachOperationToItsOwn() async throws {
        let opened = NotingStore()
        let store = StoreBeingOpened()
        store.finish(.success(opened))
        _ = try await store.upload(name: "Ann", points: 1)
        _ = try await store.records()
        try await store.delete(ids: [])
        _ = try await store.read()
        _ = try await store.playerCount()
        _ = try await store.players(from: 0, limit: 1)
        _ = try await store.playerListing(from: 0, limit: 1)
        _ = try await store.player(named: "Ann")
        _ = try await store.deletePlayer(named: "Ann")
        _ = try await store.revision()
        _ = try await store.rosterWindow(from: 0, limit: 1)
        _ = try await store.problems()
        #expect(
            opened.asked.withLock { $0 } == [
                "upload", "records", "delete", "read", "playerCount", "players", "playerListing", "player",
                "deletePlayer", "revision", "rosterWindow", "problems",
            ])
    }

    @Test("a store that does not open answers with the opening's failure, and every operation fails")
    func failedOpening() async throws {
        let store = StoreBeingOpened()
        let answered = Answers()
        let waiting = Task {
            defer { answered.count.add(1, ordering: .relaxed) }
            return try await store.upload(name: "Ann", points: 1)
        }
        while store.waitingCount < 1 { await Task.yield() }
        store.finish(.failure(PlayerFormREPL.StoreUnavailable(exitStatus: 66)))
        try await Self.expectAnswers(1, from: answered)
        guard case .failure(let failure) = await store.opened() else {
            Issue.record("the opening failed, but opened() gave a store")
            return
        }
        #expect(failure.exitStatus == 66)
        do {
            _ = try await waiting.value
            Issue.record("an upload waiting for a store that did not open succeeded")
        } catch {
            #expect(error as? ScoreStoreError == .cancelled)
        }
        await #expect(throws: ScoreStoreError.cancelled) { try await store.playerCount() }
    }

    @Test("only the first end of the opening counts")
    func firstEndCounts() async throws {
        let first = NotingStore()
        let store = StoreBeingOpened()
        store.finish(.success(first))
        store.finish(.failure(PlayerFormREPL.StoreUnavailable(exitStatus: 66)))
        store.finish(.success(InMemoryScoreStore()))
        _ = try await store.revision()
        #expect(first.asked.withLock { $0 } == ["revision"])
    }

    @Test("an operation whose task is cancelled while the store opens fails as cancelled")
    func cancelledWhileOpening() async throws {
        let store = StoreBeingOpened()
        // Should a cancelled operation keep waiting, the time limit opens the store, and the
        // operation answers instead of failing.
        try await withTaskCancellationHandler { () async throws in
            let waiting = Task { try await store.playerCount() }
            while store.waitingCount < 1 { await Task.yield() }
            waiting.cancel()
            await #expect(throws: ScoreStoreError.cancelled) { try await waiting.value }
            // Cancelled before it began to wait, too.
            let early = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await store.revision()
            }
            await #expect(throws: ScoreStoreError.cancelled) { try await early.value }
            store.finish(.success(InMemoryScoreStore()))
            #expect(try await store.playerCount() == 0)
        } onCancel: {
            store.finish(.success(InMemoryScoreStore()))
        }
    }
}
