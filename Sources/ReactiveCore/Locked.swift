import Synchronization

/// State shared by the closures of one observation, guarded by a mutex.
final class Locked<State>: Sendable {
    private let mutex: Mutex<State>

    init(_ state: sending State) {
        mutex = Mutex(state)
    }

    func withLock<Result>(_ body: (inout sending State) throws -> sending Result) rethrows -> sending Result {
        try mutex.withLock(body)
    }
}
