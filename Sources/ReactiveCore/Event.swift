/// What a signal delivers to its observers: a value, or the end of the stream.
public enum Event<Value: Sendable>: Sendable {
    /// A value.
    case value(Value)
    /// The stream ended; no further events follow.
    case completed
}

extension Event: Equatable where Value: Equatable {}
