/// Receives the events of a signal.
///
/// Values and completion have a handler each, so a value is handed to its handler as it is, with
/// no ``Event`` built around it: delivering a value costs no copy of it.
public struct Observer<Value: Sendable>: Sendable {
    @usableFromInline let value: @Sendable (Value) -> Void
    @usableFromInline let completed: @Sendable () -> Void

    /// Creates an observer from an event handler.
    @inlinable public init(_ action: @escaping @Sendable (Event<Value>) -> Void) {
        value = { action(.value($0)) }
        completed = { action(.completed) }
    }

    @inlinable init(values: @escaping @Sendable (Value) -> Void, completed: @escaping @Sendable () -> Void) {
        self.value = values
        self.completed = completed
    }

    /// Creates an observer that handles values and completion separately.
    @inlinable public static func handling(
        values: @escaping @Sendable (Value) -> Void,
        completed: @escaping @Sendable () -> Void = {}
    ) -> Observer {
        Observer(values: values, completed: completed)
    }

    /// Delivers an event.
    @inlinable public func send(_ event: Event<Value>) {
        switch event {
        case .value(let value): self.value(value)
        case .completed: completed()
        }
    }

    /// Delivers a value.
    @inlinable public func send(_ value: Value) {
        self.value(value)
    }

    /// Delivers completion.
    @inlinable public func sendCompleted() {
        completed()
    }
}
