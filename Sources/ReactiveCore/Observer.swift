/// Receives the events of a signal.
public struct Observer<Value: Sendable>: Sendable {
    private let action: @Sendable (Event<Value>) -> Void

    /// Creates an observer from an event handler.
    public init(_ action: @escaping @Sendable (Event<Value>) -> Void) {
        self.action = action
    }

    /// Creates an observer that handles values and completion separately.
    public static func handling(
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
    public func send(_ event: Event<Value>) {
        action(event)
    }

    /// Delivers a value.
    public func send(_ value: Value) {
        action(.value(value))
    }

    /// Delivers completion.
    public func sendCompleted() {
        action(.completed)
    }
}
