import Foundation
import PlayerFormScores
import PlayerFormTerminal
import Testing

/// The store a terminal session uploads through: only uploads wait.
@Suite("DelayedScoreStore", .timeLimit(.minutes(1)))
struct DelayedScoreStoreTests {
    /// A store of three players, and the same store behind an hour's delay.
    private func stores() async throws -> (base: InMemoryScoreStore, delayed: DelayedScoreStore) {
        let base = InMemoryScoreStore()
        for name in ["Ann", "Bob", "Cy"] { _ = try await base.upload(name: name, points: 1) }
        return (base, DelayedScoreStore(base, delay: .seconds(3_600)))
    }

    @Test("the roster's questions go to the wrapped store at once")
    func rosterQuestionsAtOnce() async throws {
        let (base, delayed) = try await stores()
        #expect(try await delayed.rosterWindow(from: 1, limit: 5) == base.rosterWindow(from: 1, limit: 5))
        #expect(try await delayed.playerCount() == 3)
        #expect(try await delayed.players(from: 0, limit: 2) == base.players(from: 0, limit: 2))
        #expect(try await delayed.playerListing(from: 2, limit: 2) == base.playerListing(from: 2, limit: 2))
        #expect(try await delayed.player(named: "bob")?.index == 1)
        #expect(try await delayed.revision() == base.revision())
        #expect(try await delayed.deletePlayer(named: "cy")?.name == "Cy")
        #expect(try await base.playerCount() == 2)
    }

    @Test("an upload waits for the delay, and a cancelled wait uploads nothing")
    func uploadWaits() async throws {
        let (base, delayed) = try await stores()
        let upload = Task { try await delayed.upload(name: "Dee", points: 2) }
        upload.cancel()
        await #expect(throws: ScoreStoreError.cancelled) { try await upload.value }
        #expect(try await base.playerCount() == 3)
    }
}
