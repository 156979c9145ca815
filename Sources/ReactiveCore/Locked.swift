#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a lock: state shared by observers or tasks that may run on different threads.
///
/// The lock of the core's value path: channels and the operator nodes specialised into clients.
/// Built on `pthread_mutex_t` so that the thread sanitizer sees every acquisition. The lock is not
/// recursive: do not call back into the same `Locked` from inside `withLock`. Code outside the
/// core uses the standard library's `Mutex`, which has the same shape.
///
/// Like the standard library's `Mutex`, `Locked` may guard state that is not `Sendable`: the
/// state is handed in as a `sending` value, `withLock` gives its body the state as `inout
/// sending`, and what the body returns must be `sending` too. So nothing reachable from the state
/// can leave the lock while still shared with it, and the compiler checks that; a copy of the
/// whole state (``value``) is offered only when the state is `Sendable`.
///
/// ```swift
/// let seen = Locked<[Int]>([])
/// signal.observeValues { value in seen.withLock { $0.append(value) } }
/// ```
public final class Locked<State>: @unchecked Sendable {
    // @unchecked: the state is read and written only inside `withLock`, under the mutex, and the
    // `sending` parameters and result keep any non-Sendable state in a region of its own.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Kept behind a pointer: the mutex, not the exclusivity checker, guards it, and a stored `var`
    /// would pay a dynamic exclusivity check on every acquisition.
    @usableFromInline let state: UnsafeMutablePointer<State>

    /// Creates a lock around `state`, which nothing outside the lock may still reach.
    @inlinable public init(_ state: sending State) {
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

    /// Runs `body` with exclusive access to the state; what it returns must not share anything
    /// with the state unless that is `Sendable`.
    @inlinable public func withLock<Result, Failure: Error>(
        _ body: (inout sending State) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }
}

extension Locked where State: Sendable {
    /// A copy of the state.
    @inlinable public var value: State {
        withLock { $0 }
    }
}
