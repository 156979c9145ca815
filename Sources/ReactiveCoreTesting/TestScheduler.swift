import ReactiveCore
import Synchronization

/// A scheduler that runs nothing until the spec says so, so specs control when work runs.
public final class TestScheduler: Scheduler, Sendable {
    private let pending = Mutex<[@Sendable () -> Void]>([])

    /// Creates a scheduler with nothing pending.
    public init() {}

    /// Keeps `action` until the spec runs the scheduled work.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        pending.withLock { $0.append(action) }
    }

    /// The number of actions waiting to run.
    public var pendingCount: Int {
        pending.withLock { $0.count }
    }

    /// Runs the actions waiting now, and any they schedule, in order, until none are left.
    public func run() {
        while let next = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            next()
        }
    }

    /// Runs only the oldest waiting action; returns false when there was none.
    @discardableResult
    public func runNext() -> Bool {
        guard let next = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return false }
        next()
        return true
    }
}
