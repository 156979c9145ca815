/// Receives the events of a signal.
public struct Observer<Value: Sendable>: Sendable {
    @usableFromInline let action: @Sendable (Event<Value>) -> Void

    /// Creates an observer from an event handler.
    @inlinable public init(_ action: @escaping @Sendable (Event<Value>) -> Void) {
        self.action = action
    }

    /// Creates an observer that handles values and completion separately.
    @inlinable public static func handling(
        values: @escaping @Sendable (Value) -> Void,
        completed: @escaping @Sendable () -> Void = {}
    ) -> Observer {
        Observer { event in
            switch event {
            case .value(let value): values(value)
            case .completed: completed()
            }
        }
    }

    /// Delivers an event.
    @inlinable public func send(_ event: Event<Value>) {
        action(event)
    }

    /// Delivers a value.
    @inlinable public func send(_ value: Value) {
        action(.value(value))
    }

    /// Delivers completion.
    @inlinable public func sendCompleted() {
        action(.completed)
    }
}
