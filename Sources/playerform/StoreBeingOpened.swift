import Foundation
import PlayerFormScores
import Synchronization

/// A score store whose opening is still under way, so that a script's session can be built while
/// its database is opened: each operation waits for the opening, then goes to the store it opened.
///
/// Opening a SQLite database (reading its schema, its WAL and shared memory, its migrations) takes
/// most of a short script's start; building the view models and the session takes a third as
/// long and needs no answer from the store, so the two run side by side.
///
/// The program runs no command on it before the opening has ended: a store that did not open ends
/// the program, after the opening said why, before anything else is shown.
final class StoreBeingOpened: ScoreStore {
    /// The store opened, or why it did not open.
    typealias Opening = Result<any ScoreStore, PlayerFormREPL.StoreUnavailable>

    /// The operations waiting for the opening.
    private struct Waiting {
        var continuations: [Int: CheckedContinuation<Opening?, Never>] = [:]
        /// Waits whose task was cancelled before they began to wait.
        var cancelled: Set<Int> = []
        var last = 0
    }

    private enum State {
        case opening(Waiting)
        case opened(Opening)
    }

    private let state = Mutex(State.opening(Waiting()))

    /// A store whose opening has not ended yet: ``finish(_:)`` says how it ended.
    init() {}

    /// How many operations wait for the opening to end.
    var waitingCount: Int {
        state.withLock { state in
            guard case .opening(let waiting) = state else { return 0 }
            return waiting.continuations.count
        }
    }

    /// Says how the opening ended, to the operations waiting for it and to every later one; only
    /// the first call counts.
    func finish(_ opening: Opening) {
        let waiting = state.withLock { state -> [CheckedContinuation<Opening?, Never>] in
            guard case .opening(let waiting) = state else { return [] }
            state = .opened(opening)
            return Array(waiting.continuations.values)
        }
        for continuation in waiting { continuation.resume(returning: opening) }
    }

    /// The store once opened, or why it did not open; nil when the task was cancelled before the
    /// opening ended.
    func opened() async -> Opening? {
        let ticket = state.withLock { state -> Int in
            guard case .opening(var waiting) = state else { return 0 }
            waiting.last += 1
            state = .opening(waiting)
            return waiting.last
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                enum Now {
                    case answer(Opening?)
                    case later
                }
                let now = state.withLock { state -> Now in
                    switch state {
                    case .opened(let opening): return .answer(opening)
                    case .opening(var waiting):
                        if waiting.cancelled.remove(ticket) != nil {
                            state = .opening(waiting)
                            return .answer(nil)
                        }
                        waiting.continuations[ticket] = continuation
                        state = .opening(waiting)
                        return .later
                    }
                }
                if case .answer(let answer) = now { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Opening?, Never>? in
                guard case .opening(var waiting) = state else { return nil }
                let continuation = waiting.continuations.removeValue(forKey: ticket)
                if continuation == nil { waiting.cancelled.insert(ticket) }
                state = .opening(waiting)
                return continuation
            }
            continuation?.resume(returning: nil)
        }
    }

    /// The opened store; a store that did not open, or a task cancelled while it opens, fails
    /// the operation as cancelled.
    private func store() async throws(ScoreStoreError) -> any ScoreStore {
        switch await opened() {
        case .success(let store): store
        case .failure, nil: throw .cancelled
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

    func rosterWindow(from offset: Int, limit: Int) async throws(ScoreStoreError) -> RosterWindow {
        try await store().rosterWindow(from: offset, limit: limit)
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
