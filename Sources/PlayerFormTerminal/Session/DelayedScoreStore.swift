import Foundation
import PlayerFormScores

/// A score store that takes a while to answer, as the sample's upload did (it slept one second),
/// so that a person sees "uploading..." and can cancel with Ctrl-C.
public struct DelayedScoreStore: ScoreStore {
    private let base: any ScoreStore
    private let delay: Duration

    /// Wraps `base`, answering each upload after `delay`.
    public init(_ base: any ScoreStore, delay: Duration) {
        self.base = base
        self.delay = delay
    }

    /// Waits for the delay, then uploads to the wrapped store; a cancelled wait uploads nothing.
    public func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
        if delay > .zero { try? await Task.sleep(for: delay) }
        if Task.isCancelled { throw .cancelled }
        return try await base.upload(name: name, points: points)
    }

    /// The wrapped store's `records()`, at once.
    public func records() async throws(ScoreStoreError) -> [ScoreRecord] {
        try await base.records()
    }

    /// The wrapped store's `delete(ids:)`, at once.
    public func delete(ids: [UUID]) async throws(ScoreStoreError) {
        try await base.delete(ids: ids)
    }

}

extension DelayedScoreStore {
    // The roster's questions go to the wrapped store at once: only uploads are delayed.

    /// The wrapped store's `playerCount()`, at once.
    public func playerCount() async throws(ScoreStoreError) -> Int {
        try await base.playerCount()
    }

    /// The wrapped store's `players(from:limit:)`, at once.
    public func players(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player] {
        try await base.players(from: offset, limit: limit)
    }

    /// The wrapped store's `playerListing(from:limit:)`, at once.
    public func playerListing(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player] {
        try await base.playerListing(from: offset, limit: limit)
    }

    /// The wrapped store's `player(named:)`, at once.
    public func player(named name: String) async throws(ScoreStoreError) -> (index: Int, player: Player)? {
        try await base.player(named: name)
    }

    /// The wrapped store's `deletePlayer(named:)`, at once.
    public func deletePlayer(named name: String) async throws(ScoreStoreError) -> Player? {
        try await base.deletePlayer(named: name)
    }

    /// The wrapped store's `revision()`, at once.
    public func revision() async throws(ScoreStoreError) -> UInt64 {
        try await base.revision()
    }

    /// The wrapped store's `rosterWindow(from:limit:)`, at once.
    public func rosterWindow(from offset: Int, limit: Int) async throws(ScoreStoreError) -> RosterWindow {
        try await base.rosterWindow(from: offset, limit: limit)
    }

}
