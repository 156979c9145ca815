import Foundation
import Synchronization

/// How long a store waits for a database another process holds, and who stops the wait.
///
/// SQLite calls ``shouldRetry(_:)`` each time it finds the database locked. The wait gives up
/// when the timeout has passed, when the task that asked was cancelled (Ctrl-C at a terminal), or
/// when `stopWaiting` says the program is ending (a signal to a script), and says once
/// per operation that it is waiting, so that a person knows why nothing happens. An attempt begun
/// without waiting gives up at the first lock, and says nothing: the operation then runs again,
/// waiting.
final class BusyWait: Sendable {
    private struct State {
        var current: UInt64?
        var startedAt: ContinuousClock.Instant?
        var cancelled = false
        var announced = false
        /// Whether the running attempt may wait.
        var waits = true
        /// Whether the running attempt found the database locked and did not wait.
        var refused = false
        var pendingCancellations: Set<UInt64> = []
        var nextToken: UInt64 = 0
    }

    private let state = Mutex(State())
    private let timeout: Duration
    private let announceAfter: Duration
    private let announce: @Sendable (String) -> Void
    private let stopWaiting: @Sendable () -> Bool
    private let path: String

    init(
        path: String, timeout: Duration, announceAfter: Duration = .milliseconds(200),
        announce: @escaping @Sendable (String) -> Void,
        stopWaiting: @escaping @Sendable () -> Bool = { false }
    ) {
        self.path = path
        self.timeout = timeout
        self.announceAfter = announceAfter
        self.announce = announce
        self.stopWaiting = stopWaiting
    }

    /// The wait allowed, in seconds.
    var timeoutSeconds: Double {
        Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    }

    /// A token for one operation.
    func makeToken() -> UInt64 {
        state.withLock {
            $0.nextToken += 1
            return $0.nextToken
        }
    }

    /// The operation `token` starts running on the database; without `waiting`, a first attempt
    /// that does not wait for a lock, after which the operation may begin again, waiting.
    func begin(_ token: UInt64, waiting: Bool = true) {
        state.withLock {
            $0.current = token
            $0.startedAt = nil
            $0.announced = false
            $0.waits = waiting
            $0.refused = false
            // A cancellation stays pending through an attempt that does not wait, for the one that
            // may follow.
            $0.cancelled =
                waiting
                ? $0.pendingCancellations.remove(token) != nil : $0.pendingCancellations.contains(token)
        }
    }

    /// The running attempt has finished; returns whether it found the database locked and did not
    /// wait.
    @discardableResult
    func end() -> Bool {
        state.withLock { state in
            state.current = nil
            state.startedAt = nil
            state.cancelled = false
            return state.refused
        }
    }

    /// The task of `token` was cancelled: its wait stops now, or before it starts.
    func cancel(_ token: UInt64) {
        state.withLock {
            if $0.current == token {
                $0.cancelled = true
                // Kept too while an attempt that does not wait runs: the next attempt must see it.
                if !$0.waits { $0.pendingCancellations.insert(token) }
            } else {
                $0.pendingCancellations.insert(token)
            }
        }
    }

    /// Forgets a cancellation of an operation that has ended.
    func forget(_ token: UInt64) {
        _ = state.withLock { $0.pendingCancellations.remove(token) }
    }

    /// Whether the running operation was cancelled.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Called by SQLite while the database is locked: sleeps a little and says whether to retry.
    func shouldRetry(_ tries: Int) -> Bool {
        let now = ContinuousClock.now
        let (go, message): (Bool, String?) = state.withLock {
            if $0.cancelled { return (false, nil) }
            if stopWaiting() {
                // As a cancellation: the operation fails as stopped, not as timed out.
                $0.cancelled = true
                return (false, nil)
            }
            if !$0.waits {
                $0.refused = true
                return (false, nil)
            }
            let started = $0.startedAt ?? now
            if $0.startedAt == nil { $0.startedAt = now }
            let waited = now - started
            if waited >= timeout { return (false, nil) }
            if !$0.announced && waited >= announceAfter {
                $0.announced = true
                let seconds = timeoutSeconds
                let shown = seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)"
                return (
                    true,
                    "\(path): another process is using the score database; waiting up to \(shown) s "
                        + "(Ctrl-C stops waiting)"
                )
            }
            return (true, nil)
        }
        if let message { announce(message) }
        if go { usleep(tries < 10 ? 2_000 : 10_000) }
        return go
    }
}
