import Foundation
import PlayerFormScores

/// A score store whose opening is still under way, so that a script's session can be built while
/// its database is opened: each operation waits for the opening, then goes to the store it opened.
///
/// Opening a SQLite database (reading its schema, its WAL and shared memory, its migrations) takes
/// most of a short script's start; building the view models and the session takes a third as
/// long and needs no answer from the store, so the two run side by side.
///
/// The program runs no command on it before ``opened()`` has answered: a store that did not open
/// ends the program, after the opening said why, before anything else is shown.
struct StoreBeingOpened: ScoreStore {
    private let opening: Task<Result<any ScoreStore, PlayerFormREPL.StoreUnavailable>, Never>

    /// Starts `open` now, on another thread.
    init(_ open: @escaping @Sendable () async -> Result<any ScoreStore, PlayerFormREPL.StoreUnavailable>) {
        opening = Task { await open() }
    }

    /// The store once opened, or why it did not open.
    ///
    /// Cancelling the caller cancels the opening: a wait for a locked database stops.
    func opened() async -> Result<any ScoreStore, PlayerFormREPL.StoreUnavailable> {
        await withTaskCancellationHandler {
            await opening.value
        } onCancel: { [opening] in
            opening.cancel()
        }
    }

    /// The opened store; a store that did not open fails every operation as cancelled.
    private func store() async throws(ScoreStoreError) -> any ScoreStore {
        switch await opened() {
        case .success(let store): store
        case .failure: throw .cancelled
        }
    }

    func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
        try await store().upload(name: name, points: points)
    }

    func records() async throws(ScoreStoreError) -> [ScoreRecord] {
        try await store().records()
    }

    func delete(ids: [UUID]) async throws(ScoreStoreError) {
        try await store().delete(ids: ids)
    }

    func read() async throws(ScoreStoreError) -> ScoreReading {
        try await store().read()
    }

    func playerCount() async throws(ScoreStoreError) -> Int {
        try await store().playerCount()
    }

    func players(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player] {
        try await store().players(from: offset, limit: limit)
    }

    func playerListing(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player] {
        try await store().playerListing(from: offset, limit: limit)
    }

    func player(named name: String) async throws(ScoreStoreError) -> (index: Int, player: Player)? {
        try await store().player(named: name)
    }

    func deletePlayer(named name: String) async throws(ScoreStoreError) -> Player? {
        try await store().deletePlayer(named: name)
    }

    func revision() async throws(ScoreStoreError) -> UInt64 {
        try await store().revision()
    }

    func problems() async throws(ScoreStoreError) -> [ScoreStoreProblem] {
        try await store().problems()
    }
}
