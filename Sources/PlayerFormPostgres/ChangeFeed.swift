import Synchronization

/// What a ``PostgresScoreStore`` hears of the league's changes: the notifications of
/// `LISTEN playerform` on its connection (every write transaction sends one, with its schema, at
/// commit), handed to whoever waits for changes, and whether the connection listens at all.
final class ChangeFeed: Sendable {
    /// The channel every league's writes notify; the payload is the league's schema.
    static let channel = "playerform"

    private struct State {
        var listening = false
        /// Which listener may say whether the connection listens: the newest.
        var generation = 0
        var waiting: [Int: AsyncStream<Void>.Continuation] = [:]
        var next = 0
        var heard = 0
    }

    private let state = Mutex(State())
    /// The league's schema: the payload of its own notifications.
    let schema: String

    /// A feed of the notifications of the league in `schema`.
    init(schema: String) {
        self.schema = schema
    }

    /// Whether the store's connection listens now: when it does not, changes are found only by
    /// asking for the revision.
    var isListening: Bool { state.withLock { $0.listening } }

    /// How many notifications of this league's changes were heard.
    var heardCount: Int { state.withLock { $0.heard } }

    /// A notification with `payload` arrived: one of this league's tells everyone waiting; one of
    /// a league in another schema of the same database is ignored.
    func received(payload: String) {
        guard payload == schema else { return }
        heard()
    }

    /// A notification of this league arrived: tells everyone waiting.
    private func heard() {
        let waiting = state.withLock { state in
            state.heard += 1
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.yield() }
    }

    /// A new listener replaces any other, which from now on is not heard; the connection does
    /// not listen until it says so.
    ///
    /// Returns the listener's generation.
    func replaceListener() -> Int {
        let (generation, waiting) = state.withLock { state in
            state.generation += 1
            let wasListening = state.listening
            state.listening = false
            return (state.generation, wasListening ? Array(state.waiting.values) : [])
        }
        for continuation in waiting { continuation.yield() }
        return generation
    }

    /// The listener of `generation` started or stopped listening; when it stopped, everyone
    /// waiting is told, since a change may have gone unheard.
    func listening(_ listening: Bool, generation: Int) {
        let waiting = state.withLock { state -> [AsyncStream<Void>.Continuation] in
            guard state.generation == generation else { return [] }
            state.listening = listening
            return listening ? [] : Array(state.waiting.values)
        }
        for continuation in waiting { continuation.yield() }
    }

    /// A stream of the notifications from now on.
    func subscribe() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let key = state.withLock { state in
            defer { state.next += 1 }
            state.waiting[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.waiting.removeValue(forKey: key) }
        }
        return stream
    }
}
