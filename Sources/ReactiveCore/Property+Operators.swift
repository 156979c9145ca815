extension Property {
    /// A property whose value is `transform` applied to this property's value.
    ///
    /// `transform` must be pure: it may run on whichever thread delivers the change.
    @inlinable public func map<Mapped: Sendable>(_ transform: @escaping @Sendable (Value) -> Mapped)
        -> Property<Mapped>
    {
        let derived = Channel<Mapped>(current: nil)
        let (current, observation) = channel.observeChanges(
            readingCurrent: .handling(values: { value in
                // Holding the channel strongly makes no cycle: the property's deinit ends this
                // observation, and the channel does not hold the property.
                derived.send(transform(value))
            }))
        derived.seedIfEmpty(transform(current))
        return Property<Mapped>(channel: derived, upstream: observation, sources: [self])
    }

    /// A property whose value is `transform` applied to this property's value, announcing a change
    /// only when the transformed value differs: `map(transform).skipRepeats()` in one node, which
    /// spares a hop on every change of this property.
    ///
    /// ```swift
    /// let isValid = issues.map(skippingRepeats: { $0.isEmpty })
    /// ```
    @inlinable public func map<Mapped: Sendable & Equatable>(
        skippingRepeats transform: @escaping @Sendable (Value) -> Mapped
    ) -> Property<Mapped> {
        let derived = Channel<Mapped>(current: nil)
        let (current, observation) = channel.observeChanges(
            readingCurrent: .handling(values: { value in derived.send(transform(value), unlessRepeating: ==) }
            ))
        derived.seedIfEmpty(transform(current))
        return Property<Mapped>(channel: derived, upstream: observation, sources: [self])
    }

    /// A property with the same value that announces a change only when `isRepeat` says the new
    /// value differs from the stored one.
    @inlinable public func skipRepeats(_ isRepeat: @escaping @Sendable (Value, Value) -> Bool) -> Property<
        Value
    > {
        let derived = Channel<Value>(current: nil)
        let (current, observation) = channel.observeChanges(
            readingCurrent: .handling(values: { value in derived.send(value, unlessRepeating: isRepeat) }))
        derived.seedIfEmpty(current)
        return Property(channel: derived, upstream: observation, sources: [self])
    }

    /// A property of pairs of the latest values of this property and `other`.
    @inlinable public func combineLatest<Other: Sendable>(with other: Property<Other>) -> Property<
        (Value, Other)
    > {
        Property<(Value, Other)>.combineLatest(self, other) { ($0, $1) }
    }

    /// A property of pairs of the latest values of `a` and `b`.
    ///
    /// With two sources there is one initial value, then one value per change of either source.
    @inlinable public static func combineLatest<A: Sendable, B: Sendable>(
        _ a: Property<A>, _ b: Property<B>
    ) -> Property<(A, B)> where Value == (A, B) {
        combineLatest(a, b) { ($0, $1) }
    }

    /// A property of triples of the latest values of `a`, `b` and `c`.
    @inlinable public static func combineLatest<A: Sendable, B: Sendable, C: Sendable>(
        _ a: Property<A>, _ b: Property<B>, _ c: Property<C>
    ) -> Property<(A, B, C)> where Value == (A, B, C) {
        combineLatest(a, b, c) { ($0, $1, $2) }
    }

    /// A property whose value is `transform` applied to the latest values of `a` and `b`: a
    /// combineLatest and a map in one step, with no intermediate property.
    ///
    /// `transform` must be pure; it runs under the node's lock, on the thread that delivers, so it
    /// must not read or observe the property it makes.
    @inlinable public static func combineLatest<A: Sendable, B: Sendable>(
        _ a: Property<A>, _ b: Property<B>, _ transform: @escaping @Sendable (A, B) -> Value
    ) -> Property<Value> {
        combining(a, b, Property<Void>(value: ())) { a, b, _ in transform(a, b) }
    }

    /// A property whose value is `transform` applied to the latest values of `a`, `b` and `c`.
    ///
    /// ```swift
    /// let issues = Property.combineLatest(name, points, rules) { name, points, rules in
    ///     rules.validate(name: name, points: points)
    /// }
    /// ```
    @inlinable public static func combineLatest<A: Sendable, B: Sendable, C: Sendable>(
        _ a: Property<A>, _ b: Property<B>, _ c: Property<C>,
        _ transform: @escaping @Sendable (A, B, C) -> Value
    ) -> Property<Value> {
        combining(a, b, c, transform)
    }

    /// The node behind every typed combineLatest: keeps the latest value of each source and
    /// recomputes on each change.
    ///
    /// The new value is queued under the node's lock, so concurrent changes are stored in the order
    /// they were combined, and delivered after the lock is released.
    @inlinable static func combining<A: Sendable, B: Sendable, C: Sendable>(
        _ a: Property<A>, _ b: Property<B>, _ c: Property<C>,
        _ transform: @escaping @Sendable (A, B, C) -> Value
    ) -> Property<Value> {
        let derived = Channel<Value>(current: nil)
        // Guarded by the node's own lock, so a change takes one lock, not two.
        let latest = Guarded<(A?, B?, C?)>((nil, nil, nil))
        @Sendable func update(_ change: (inout (A?, B?, C?)) -> Void) {
            let claim = derived.claim { () -> Value? in
                change(&latest.state.pointee)
                // Tested and unwrapped in place rather than bound with `let`: a binding would copy,
                // and so retain, each value on every change.
                let latest = latest.state
                guard latest.pointee.0 != nil, latest.pointee.1 != nil, latest.pointee.2 != nil else {
                    return nil
                }
                return transform(latest.pointee.0!, latest.pointee.1!, latest.pointee.2!)
            }
            if let claim { derived.deliver(claim) }
        }
        let (first, firstObservation) = a.channel.observeChanges(
            readingCurrent: .handling(values: { value in update { $0.0 = value } }))
        let (second, secondObservation) = b.channel.observeChanges(
            readingCurrent: .handling(values: { value in update { $0.1 = value } }))
        let (third, thirdObservation) = c.channel.observeChanges(
            readingCurrent: .handling(values: { value in update { $0.2 = value } }))
        derived.seed {
            let latest = latest.state
            if latest.pointee.0 == nil { latest.pointee.0 = first }
            if latest.pointee.1 == nil { latest.pointee.1 = second }
            if latest.pointee.2 == nil { latest.pointee.2 = third }
            return transform(latest.pointee.0!, latest.pointee.1!, latest.pointee.2!)
        }
        let upstream = Disposable {
            firstObservation.dispose()
            secondObservation.dispose()
            thirdObservation.dispose()
        }
        return Property(channel: derived, upstream: upstream, sources: [a, b, c])
    }

    /// A property of the latest values of all `properties`, in their order.
    @inlinable public static func combineLatest<Element: Sendable>(
        _ properties: [Property<Element>]
    ) -> Property<[Element]> where Value == [Element] {
        let derived = Channel<[Element]>(current: nil)
        // Guarded by the node's own lock, as in the typed combineLatest.
        let latest = Guarded<[Element?]>(Array(repeating: nil, count: properties.count))
        let observed = properties.enumerated().map { index, source in
            source.channel.observeChanges(
                readingCurrent: .handling(values: { value in
                    let claim = derived.claim { () -> [Element]? in
                        latest.state.pointee[index] = value
                        guard !latest.state.pointee.contains(where: { $0 == nil }) else { return nil }
                        return latest.state.pointee.map { $0! }
                    }
                    if let claim { derived.deliver(claim) }
                }))
        }
        derived.seed {
            for (index, source) in observed.enumerated() where latest.state.pointee[index] == nil {
                latest.state.pointee[index] = source.current
            }
            return latest.state.pointee.map { $0! }
        }
        let upstream = Disposable { for source in observed { source.disposable.dispose() } }
        return Property(channel: derived, upstream: upstream, sources: properties)
    }
}

extension Property where Value: Equatable {
    /// A property with the same value that announces a change only when the value differs.
    @inlinable public func skipRepeats() -> Property<Value> {
        skipRepeats(==)
    }
}
