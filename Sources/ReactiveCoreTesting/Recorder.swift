import ReactiveCore
import Synchronization

/// Records what a signal or property emitted, for behaviour specs.
///
/// ```swift
/// let names = Recorder(form.name)
/// try form.nameEdited("darn")
/// #expect(names.values == ["Colin", "darn", ""])
/// ```
public final class Recorder<Value: Sendable>: Sendable {
    private final class Storage: Sendable {
        let state = Mutex<(events: [Event<Value>], values: [Value])>(([], []))
    }

    private let storage = Storage()
    private let observation: Disposable

    /// Records every event of `signal` from now on.
    public init(_ signal: Signal<Value>) {
        let storage = self.storage
        observation = signal.observe(
            Observer { event in
                storage.state.withLock { state in
                    state.events.append(event)
                    if case .value(let value) = event { state.values.append(value) }
                }
            })
    }

    /// Records the current value of `property` and every change after it.
    public convenience init(_ property: Property<Value>) {
        self.init(property.values)
    }

    /// Records every change of `property` after now, without its current value.
    public convenience init(changesOf property: Property<Value>) {
        self.init(property.changes)
    }

    deinit {
        observation.dispose()
    }

    /// The values recorded so far, in order.
    public var values: [Value] {
        storage.state.withLock { $0.values }
    }

    /// Every event recorded so far, values and completion, in order.
    public var events: [Event<Value>] {
        storage.state.withLock { $0.events }
    }

    /// The last value recorded.
    public var last: Value? { values.last }

    /// Whether the recorded signal has completed.
    public var isCompleted: Bool {
        storage.state.withLock { state in
            state.events.contains { if case .completed = $0 { true } else { false } }
        }
    }

    /// Forgets what was recorded so far; keeps recording.
    public func clear() {
        storage.state.withLock { $0 = ([], []) }
    }

    /// Stops recording.
    public func stop() {
        observation.dispose()
    }
}
