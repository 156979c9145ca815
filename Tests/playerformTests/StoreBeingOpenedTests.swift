import Foundation
import PlayerFormScores
import Synchronization
import Testing

@testable import playerform

/// A script's session is built while its store opens: the store it is built on waits for the
/// opening and answers as the opened store does.
@Suite("A store being opened")
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

    @Test("operations started before the opening ends get the opened store's answers; it opens once")
    func forwardsOnceOpened() async throws {
        let opened = Self.filledStore()
        let expected = Self.filledStore()
        let (gate, release) = AsyncStream<Void>.makeStream()
        let openings = Atomic(0)
        let store = StoreBeingOpened {
            openings.add(1, ordering: .relaxed)
            for await _ in gate { break }
            return .success(opened)
        }
        let upload = Task { try await store.upload(name: "Dee", points: 50) }
        release.yield()
        let record = try await upload.value
        #expect(try await record == expected.upload(name: "Dee", points: 50))

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
        #expect(openings.load(ordering: .relaxed) == 1)
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
        func problems() async throws(ScoreStoreError) -> [ScoreStoreProblem] { note("problems"); return [] }
    }

    @Test("each operation goes to the same operation of the opened store")
    func eachOperationToItsOwn() async throws {
        let opened = NotingStore()
        let store = StoreBeingOpened { .success(opened) }
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
        _ = try await store.problems()
        #expect(
            opened.asked.withLock { $0 } == [
                "upload", "records", "delete", "read", "playerCount", "players", "playerListing", "player",
                "deletePlayer", "revision", "problems",
            ])
    }

    @Test("a store that does not open answers with the opening's failure, and every operation fails")
    func failedOpening() async {
        let store = StoreBeingOpened { .failure(PlayerFormREPL.StoreUnavailable(exitStatus: 66)) }
        guard case .failure(let failure) = await store.opened() else {
            Issue.record("the opening failed, but opened() gave a store")
            return
        }
        #expect(failure.exitStatus == 66)
        await #expect(throws: ScoreStoreError.cancelled) { try await store.upload(name: "Ann", points: 1) }
        await #expect(throws: ScoreStoreError.cancelled) { try await store.playerCount() }
    }

    @Test("cancelling the task that waits for the opening cancels the opening", .timeLimit(.minutes(1)))
    func cancellationReachesTheOpening() async {
        let (started, begin) = AsyncStream<Void>.makeStream()
        let (never, end) = AsyncStream<Void>.makeStream()
        let store = StoreBeingOpened {
            begin.yield()
            // Waits until its task is cancelled, as a wait for a locked database does.
            for await _ in never {}
            return Task.isCancelled
                ? .failure(PlayerFormREPL.StoreUnavailable(exitStatus: 75)) : .success(InMemoryScoreStore())
        }
        for await _ in started { break }
        let waiting = Task { await store.opened() }
        waiting.cancel()
        // Should the cancellation not reach the opening, the time limit ends the wait.
        let result = await withTaskCancellationHandler {
            await waiting.value
        } onCancel: {
            end.finish()
        }
        guard case .failure(let failure) = result else {
            Issue.record("the opening was not cancelled")
            return
        }
        #expect(failure.exitStatus == 75)
    }
}
