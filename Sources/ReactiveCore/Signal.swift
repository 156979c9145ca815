/// A stream of discrete events: something that happens, once, at a moment.
///
/// A signal is a description of how to observe; observing attaches to the hot source behind it
/// (a pipe or a property). Operators such as ``map(_:)`` build new descriptions and keep their state
/// per observation. Signals never replay past values, except the ``Property/values`` view, which
/// starts each observation with the property's current value.
///
/// ## Delivery contract
/// - Delivery is synchronous: `send` returns after every observer has received the value, unless
///   another delivery is already running on the same source, in which case the value is queued and
///   the thread that is delivering delivers it before its own `send` returns.
/// - Observers are notified in the order they subscribed.
/// - A property stores a value before any observer sees it.
/// - A value sent from inside an observer is queued: the current value first reaches every
///   remaining observer, then the queued value reaches all observers, in order. Nothing is nested
///   and nothing is lost.
/// - Sending from many threads at once is safe; each observer sees the values one at a time, in
///   the order they were stored.
///
/// ```swift
/// let (messages, input) = Signal<String>.pipe()
/// messages.observeValues { print($0) }
/// input.send("Hello")
/// // Prints "Hello"
/// ```
public struct Signal<Value: Sendable>: Sendable {
    @usableFromInline let attach: @Sendable (Observer<Value>) -> Disposable

    /// Creates a signal from a function that attaches an observer and returns how to detach it.
    @inlinable public init(_ attach: @escaping @Sendable (Observer<Value>) -> Disposable) {
        self.attach = attach
    }

    /// Attaches `observer`.
    ///
    /// Dispose the result to end the observation.
    @discardableResult
    @inlinable public func observe(_ observer: Observer<Value>) -> Disposable {
        attach(observer)
    }

    /// Attaches a handler for values, and optionally for completion.
    @discardableResult
    @inlinable public func observeValues(
        _ value: @escaping @Sendable (Value) -> Void,
        completed: @escaping @Sendable () -> Void = {}
    ) -> Disposable {
        attach(.handling(values: value, completed: completed))
    }

    /// Attaches a handler for values; the observation ends when `bag` is disposed or deallocated.
    @inlinable public func observeValues(in bag: DisposeBag, _ value: @escaping @Sendable (Value) -> Void) {
        attach(.handling(values: value)).dispose(in: bag)
    }

    /// A signal that never sends anything and never completes.
    @inlinable public static var never: Signal<Value> { Signal { _ in .empty } }

    /// Creates a hot signal and the input that sends on it.
    ///
    /// The signal completes when ``Input/sendCompleted()`` is called or when the input is
    /// deallocated, so observations end when the owner of the input goes away.
    @inlinable public static func pipe() -> (output: Signal<Value>, input: Input) {
        let channel = Channel<Value>()
        let output = Signal { observer in channel.observe(observer, replay: false) }
        return (output, Input(channel))
    }

    /// The sending end of a ``pipe()``.
    public final class Input: Sendable {
        @usableFromInline let channel: Channel<Value>

        @inlinable init(_ channel: Channel<Value>) {
            self.channel = channel
        }

        deinit {
            channel.complete()
        }

        /// Delivers `value` to every observer, in the order they subscribed.
        @inlinable public func send(_ value: Value) {
            channel.send(value)
        }

        /// Ends the signal; later sends are ignored.
        @inlinable public func sendCompleted() {
            channel.complete()
        }

        /// The number of current observers.
        public var observerCount: Int { channel.observerCount }
    }
}
