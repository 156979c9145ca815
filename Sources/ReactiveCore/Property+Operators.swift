extension Property {
    /// A property whose value is `transform` applied to this property's value.
    ///
    /// `transform` must be pure: it may run on whichever thread delivers the change.
    public func map<Mapped: Sendable>(_ transform: @escaping @Sendable (Value) -> Mapped) -> Property<Mapped>
    {
        let derived = Channel<Mapped>(current: nil)
        let (current, observation) = channel.observeChanges(
            readingCurrent: Observer { [weak derived] event in
                guard case .value(let value) = event, let derived else { return }
                derived.send(transform(value))
            })
        derived.seed(transform(current), onlyIfEmpty: true)
        return Property<Mapped>(channel: derived, upstream: observation, sources: [self])
    }

    /// A property with the same value that announces a change only when `isRepeat` says the new
    /// value differs from the stored one.
    public func skipRepeats(_ isRepeat: @escaping @Sendable (Value, Value) -> Bool) -> Property<Value> {
        let derived = Channel<Value>(current: nil)
        let (current, observation) = channel.observeChanges(
            readingCurrent: Observer { [weak derived] event in
                guard case .value(let value) = event, let derived else { return }
                derived.send(value, unlessRepeating: isRepeat)
            })
        derived.seed(current, onlyIfEmpty: true)
        return Property(channel: derived, upstream: observation, sources: [self])
    }

    /// A property of pairs of the latest values of this property and `other`.
    public func combineLatest<Other: Sendable>(with other: Property<Other>) -> Property<(Value, Other)> {
        Property<(Value, Other)>.combining([AnySource(self), AnySource(other)]) { values in
            (values[0]! as! Value, values[1]! as! Other)
        }
    }

    /// A property of pairs of the latest values of `a` and `b`.
    ///
    /// With two sources there is one initial value, then one value per change of either source.
    public static func combineLatest<A: Sendable, B: Sendable>(
        _ a: Property<A>, _ b: Property<B>
    ) -> Property<(A, B)> where Value == (A, B) {
        a.combineLatest(with: b)
    }

    /// A property of triples of the latest values of `a`, `b` and `c`.
    public static func combineLatest<A: Sendable, B: Sendable, C: Sendable>(
        _ a: Property<A>, _ b: Property<B>, _ c: Property<C>
    ) -> Property<(A, B, C)> where Value == (A, B, C) {
        combining([AnySource(a), AnySource(b), AnySource(c)]) { values in
            (values[0]! as! A, values[1]! as! B, values[2]! as! C)
        }
    }

    /// A property of the latest values of all `properties`, in their order.
    public static func combineLatest<Element: Sendable>(
        _ properties: [Property<Element>]
    ) -> Property<[Element]> where Value == [Element] {
        combining(properties.map(AnySource.init)) { values in values.map { $0! as! Element } }
    }

    /// The shared node behind every combineLatest: keeps the latest value of each source and
    /// recomputes on each change; `compute` is called only when every slot holds a value. Queuing happens under the node's lock so that concurrent changes
    /// are stored in the order they were combined; delivery happens after the lock is released.
    static func combining(
        _ sources: [AnySource], _ compute: @escaping @Sendable ([(any Sendable)?]) -> Value
    ) -> Property<Value> {
        let derived = Channel<Value>(current: nil)
        let latest = Locked<[(any Sendable)?]>(Array(repeating: nil, count: sources.count))
        let observations = sources.enumerated().map { index, source in
            let (current, observation) = source.observeChanges { [weak derived] value in
                guard let derived else { return }
                let mustDrain = latest.withLock { latest -> Bool in
                    latest[index] = value
                    guard !latest.contains(where: { $0 == nil }) else { return false }
                    return derived.enqueue(compute(latest))
                }
                if mustDrain { derived.drain() }
            }
            latest.withLock { latest in
                if latest[index] == nil { latest[index] = current }
            }
            return observation
        }
        latest.withLock { latest in
            derived.seed(compute(latest), onlyIfEmpty: false)
        }
        let upstream = Disposable { for observation in observations { observation.dispose() } }
        return Property(channel: derived, upstream: upstream, sources: sources.map(\.property))
    }
}

extension Property where Value: Equatable {
    /// A property with the same value that announces a change only when the value differs.
    public func skipRepeats() -> Property<Value> {
        skipRepeats(==)
    }
}

/// A property of any value type, seen as a source of a combination.
struct AnySource: Sendable {
    let property: any Sendable
    private let observe: @Sendable (@escaping @Sendable (any Sendable) -> Void) -> (any Sendable, Disposable)

    init<Value: Sendable>(_ property: Property<Value>) {
        self.property = property
        self.observe = { handler in
            let (current, disposable) = property.channel.observeChanges(
                readingCurrent: Observer { event in
                    if case .value(let value) = event { handler(value) }
                })
            return (current, disposable)
        }
    }

    func observeChanges(
        _ handler: @escaping @Sendable (any Sendable) -> Void
    ) -> (current: any Sendable, disposable: Disposable) {
        observe(handler)
    }
}
