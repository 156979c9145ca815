import Dispatch

/// Runs work somewhere: now, on a queue, or when a test says so.
///
/// A scheduler used with ``Signal/observe(on:)`` must run actions one at a time, in the order they
/// were scheduled, so that observers keep seeing events in order.
public protocol Scheduler: Sendable {
    /// Schedules `action` to run.
    func schedule(_ action: @escaping @Sendable () -> Void)
}

/// Runs every action at once, on the calling thread.
public struct ImmediateScheduler: Scheduler {
    /// Creates an immediate scheduler.
    public init() {}

    /// Runs `action` at once, on the calling thread.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        action()
    }
}

/// Runs actions asynchronously on a serial dispatch queue.
public struct QueueScheduler: Scheduler {
    /// The queue the actions run on.
    public let queue: DispatchQueue

    /// Creates a scheduler on `queue`, which must be serial.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// Creates a scheduler on a new serial queue.
    public init(label: String) {
        self.queue = DispatchQueue(label: label)
    }

    /// Runs `action` later on the queue.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        queue.async(execute: action)
    }
}
