#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a lock: state shared by observers or tasks that may run on different threads.
///
/// Built on `pthread_mutex_t` so that the thread sanitizer sees every acquisition. The lock is not
/// recursive: do not call back into the same `Locked` from inside `withLock`.
///
/// ```swift
/// let seen = Locked<[Int]>([])
/// signal.observeValues { value in seen.withLock { $0.append(value) } }
/// ```
public final class Locked<State>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Kept behind a pointer: the mutex, not the exclusivity checker, guards it, and a stored `var`
    /// would pay a dynamic exclusivity check on every acquisition.
    @usableFromInline let state: UnsafeMutablePointer<State>

    /// Creates a lock around `state`.
    @inlinable public init(_ state: State) {
        self.state = .allocate(capacity: 1)
        self.state.initialize(to: state)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    @inlinable public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }

    /// A copy of the state.
    @inlinable public var value: State {
        withLock { $0 }
    }
}
