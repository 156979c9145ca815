/// A value that changes over time and can be read at any moment: continuous state.
///
/// A property always has a value. ``values`` sends the current value and then every change;
/// ``changes`` sends only later changes. A property stores a value before any observer sees it.
///
/// A property lives while something holds it or observes it. A derived property (made with
/// ``map(_:)``, ``skipRepeats()`` or ``combineLatest(_:_:)``) holds its sources; its sources do not
/// hold it, so an unobserved derived property that nobody holds is freed. Observations end when
/// they are disposed: keep them in a ``DisposeBag`` owned by the observer, and they end when the
/// observer goes away. When a property is freed, anything still observing it receives `completed`.
///
/// ```swift
/// let points = MutableProperty(100.0)
/// let label = points.map { "\(Int($0)) points" }
/// label.values.observeValues { print($0) }
/// // Prints "100 points"
/// points.value = 101
/// // Prints "101 points"
/// ```
public final class Property<Value: Sendable>: Sendable {
    @usableFromInline let channel: Channel<Value>
    @usableFromInline let upstream: Disposable
    @usableFromInline let sources: [any Sendable]
    @usableFromInline let ownsChannel: Bool

    /// A property on `channel`.
    ///
    /// - Parameters:
    ///   - channel: holds the current value and the observers.
    ///   - upstream: the observations of the sources, ended when this property goes away.
    ///   - sources: what this property keeps alive.
    ///   - ownsChannel: whether this property completes the channel when it goes away; a read-only
    ///     view leaves that to the mutable property it shows.
    @inlinable init(
        channel: Channel<Value>, upstream: Disposable = .empty, sources: [any Sendable] = [],
        ownsChannel: Bool = true
    ) {
        self.channel = channel
        self.upstream = upstream
        self.sources = sources
        self.ownsChannel = ownsChannel
    }

    /// Creates a property that never changes.
    @inlinable public convenience init(value: Value) {
        self.init(channel: Channel(current: value))
    }

    /// Creates a read-only view of `property`; the view keeps it alive.
    @inlinable public convenience init(_ property: MutableProperty<Value>) {
        self.init(channel: property.channel, sources: [property], ownsChannel: false)
    }

    deinit {
        upstream.dispose()
        if ownsChannel { channel.complete() }
    }

    /// The current value.
    public var value: Value { channel.current }

    /// The current value, then every change.
    ///
    /// Observing keeps the property alive.
    @inlinable public var values: Signal<Value> {
        Signal { [self] observer in channel.observe(observer, replay: true, retaining: self) }
    }

    /// Every change after the moment of observation.
    ///
    /// Observing keeps the property alive.
    @inlinable public var changes: Signal<Value> {
        Signal { [self] observer in channel.observe(observer, replay: false, retaining: self) }
    }

    /// The number of current observers, for specs of lifetimes.
    public var observerCount: Int { channel.observerCount }
}

/// A property that can be written.
///
/// Writes are atomic; ``modify(_:)`` reads and writes in one step. A write from inside an observer
/// is stored at once and delivered after the value being delivered has reached every observer.
public final class MutableProperty<Value: Sendable>: Sendable {
    @usableFromInline let channel: Channel<Value>

    /// Creates a property with an initial value.
    @inlinable public init(_ initial: Value) {
        channel = Channel(current: initial)
    }

    deinit {
        channel.complete()
    }

    /// The current value.
    ///
    /// Setting it stores the value and then delivers it to every observer, even when it equals the
    /// old value.
    @inlinable public var value: Value {
        get { channel.current }
        set { channel.send(newValue) }
    }

    /// Runs `body` on the current value without copying it: for a read on a hot path.
    ///
    /// `body` runs under the property's lock, so it must not read, write or observe this property.
    @inlinable package func withValue<Result>(_ body: (Value) throws -> Result) rethrows -> Result {
        try channel.withCurrent(body)
    }

    /// Reads and writes the value atomically; observers are notified after `body` returns.
    @discardableResult
    @inlinable public func modify<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try channel.modify(body)
    }

    /// Reads and perhaps writes the value atomically: a compare-and-set.
    ///
    /// `body` returns whether it changed the value; only then are observers notified.
    ///
    /// ```swift
    /// let claimed = isBusy.update { busy in
    ///     guard !busy else { return false }
    ///     busy = true
    ///     return true
    /// }
    /// ```
    @discardableResult
    @inlinable public func update(_ body: (inout Value) throws -> Bool) rethrows -> Bool {
        try channel.modify(announcing: { $0 }, body)
    }

    /// The current value, then every change.
    ///
    /// Observing keeps the property alive.
    @inlinable public var values: Signal<Value> {
        Signal { [self] observer in channel.observe(observer, replay: true, retaining: self) }
    }

    /// Every change after the moment of observation.
    ///
    /// Observing keeps the property alive.
    @inlinable public var changes: Signal<Value> {
        Signal { [self] observer in channel.observe(observer, replay: false, retaining: self) }
    }

    /// A read-only view of this property.
    public var readOnly: Property<Value> { Property(self) }
}
