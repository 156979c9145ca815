extension Signal {
    /// Transforms each value.
    ///
    /// ```swift
    /// points.changes.map { "\($0) points" }
    /// ```
    @inlinable public func map<Mapped: Sendable>(_ transform: @escaping @Sendable (Value) -> Mapped)
        -> Signal<Mapped>
    {
        Signal<Mapped> { observer in
            self.observe(
                Observer { event in
                    switch event {
                    case .value(let value): observer.send(transform(value))
                    case .completed: observer.sendCompleted()
                    }
                })
        }
    }

    /// Forwards only the values that satisfy `isIncluded`.
    @inlinable public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal<Value> {
        Signal { observer in
            self.observe(
                Observer { event in
                    switch event {
                    case .value(let value): if isIncluded(value) { observer.send(value) }
                    case .completed: observer.sendCompleted()
                    }
                })
        }
    }

    /// Forwards a value only when `isRepeat` says it differs from the previous one forwarded.
    @inlinable public func skipRepeats(_ isRepeat: @escaping @Sendable (Value, Value) -> Bool) -> Signal<
        Value
    > {
        Signal { observer in
            let last = Locked<Value?>(nil)
            return self.observe(
                Observer { event in
                    switch event {
                    case .value(let value):
                        let repeated = last.withLock { last -> Bool in
                            if let previous = last, isRepeat(previous, value) { return true }
                            last = value
                            return false
                        }
                        if !repeated { observer.send(value) }
                    case .completed: observer.sendCompleted()
                    }
                })
        }
    }

    /// Forwards at most `count` values, then completes and ends the observation of the source.
    @inlinable public func take(first count: Int) -> Signal<Value> {
        precondition(count >= 0, "take(first:) needs a count of zero or more")
        return Signal { observer in
            guard count > 0 else {
                observer.sendCompleted()
                return .empty
            }
            let upstream = CompositeDisposable()
            let taken = Locked(0)
            upstream.insert(
                self.observe(
                    Observer { event in
                        switch event {
                        case .value(let value):
                            let position = taken.withLock { taken -> Int in
                                taken += 1
                                return taken
                            }
                            guard position <= count else { return }
                            observer.send(value)
                            if position == count {
                                observer.sendCompleted()
                                upstream.dispose()
                            }
                        case .completed:
                            if taken.withLock({ $0 < count }) { observer.sendCompleted() }
                        }
                    }))
            return Disposable { upstream.dispose() }
        }
    }

    /// Drops the first `count` values and forwards the rest.
    @inlinable public func skip(first count: Int) -> Signal<Value> {
        precondition(count >= 0, "skip(first:) needs a count of zero or more")
        return Signal { observer in
            let seen = Locked(0)
            return self.observe(
                Observer { event in
                    switch event {
                    case .value(let value):
                        let skipped = seen.withLock { seen -> Bool in
                            guard seen < count else { return false }
                            seen += 1
                            return true
                        }
                        if !skipped { observer.send(value) }
                    case .completed: observer.sendCompleted()
                    }
                })
        }
    }

    /// Forwards values until `trigger` sends a value or completes, then completes.
    ///
    /// Nothing is forwarded after the completion, even when the source and the trigger send from
    /// different threads at once.
    @inlinable public func take<Trigger: Sendable>(until trigger: Signal<Trigger>) -> Signal<Value> {
        Signal { observer in
            let output = Channel<Value>()
            let attached = output.observe(observer, replay: false)
            let upstream = CompositeDisposable()
            // Ends the sources only: the output delivers `completed` after any value it is still
            // delivering on another thread, then lets its observer go. Detaching the observer here
            // could drop that `completed`.
            let finish: @Sendable () -> Void = {
                output.complete()
                upstream.dispose()
            }
            upstream.insert(trigger.observe(Observer { _ in finish() }))
            upstream.insert(
                self.observe(
                    Observer { event in
                        switch event {
                        case .value(let value): output.send(value)
                        case .completed: finish()
                        }
                    }))
            return Disposable {
                upstream.dispose()
                attached.dispose()
            }
        }
    }

    /// Delivers every event through `scheduler`, which must be serial.
    @inlinable public func observe(on scheduler: any Scheduler) -> Signal<Value> {
        Signal { observer in
            let isActive = Locked(true)
            let upstream = self.observe(
                Observer { event in
                    scheduler.schedule {
                        if isActive.withLock({ $0 }) { observer.send(event) }
                    }
                })
            return Disposable {
                isActive.withLock { $0 = false }
                upstream.dispose()
            }
        }
    }

    /// Forwards the values of all `signals` as they arrive; completes when all have completed.
    ///
    /// Sources that send from different threads are delivered one value at a time, as the contract
    /// requires.
    @inlinable public static func merge(_ signals: [Signal<Value>]) -> Signal<Value> {
        Signal { observer in
            guard !signals.isEmpty else {
                observer.sendCompleted()
                return .empty
            }
            let output = Channel<Value>()
            let remaining = Locked(signals.count)
            let observations = CompositeDisposable()
            observations.insert(output.observe(observer, replay: false))
            for signal in signals {
                observations.insert(
                    signal.observe(
                        Observer { event in
                            switch event {
                            case .value(let value): output.send(value)
                            case .completed:
                                let last = remaining.withLock { remaining -> Bool in
                                    remaining -= 1
                                    return remaining == 0
                                }
                                if last { output.complete() }
                            }
                        }))
            }
            return Disposable { observations.dispose() }
        }
    }

    /// Forwards the values of all `signals` as they arrive.
    @inlinable public static func merge(_ signals: Signal<Value>...) -> Signal<Value> {
        merge(signals)
    }

    /// Sends an array of the latest value of each signal, once every signal has sent a value and
    /// then on every value; completes when all have completed.
    @inlinable public static func combineLatest(_ signals: [Signal<Value>]) -> Signal<[Value]> {
        Signal<[Value]> { observer in
            guard !signals.isEmpty else {
                observer.sendCompleted()
                return .empty
            }
            let state = Locked(
                CombineState<Value>(
                    latest: Array(repeating: nil, count: signals.count),
                    missing: signals.count, running: signals.count))
            let output = Channel<[Value]>()
            let observations = CompositeDisposable()
            observations.insert(output.observe(observer, replay: false))
            for (index, signal) in signals.enumerated() {
                observations.insert(
                    signal.observe(
                        Observer { event in
                            switch event {
                            case .value(let value):
                                // Queued under the lock, so combinations are delivered in the order
                                // they were made, and delivered after it is released.
                                let claim = state.withLock { s -> Channel<[Value]>.Claim? in
                                    if s.latest[index] == nil { s.missing -= 1 }
                                    s.latest[index] = value
                                    guard s.missing == 0 else { return nil }
                                    return output.claim(s.latest.map { $0! })
                                }
                                if let claim { output.deliver(claim) }
                            case .completed:
                                let last = state.withLock { s -> Bool in
                                    s.running -= 1
                                    return s.running == 0
                                }
                                if last { output.complete() }
                            }
                        }))
            }
            return Disposable { observations.dispose() }
        }
    }

    /// Sends pairs of the latest values of `self` and `other`, once both have sent a value.
    @inlinable public func combineLatest<Other: Sendable>(with other: Signal<Other>) -> Signal<(Value, Other)>
    {
        let left = self.map { Either<Value, Other>.left($0) }
        let right = other.map { Either<Value, Other>.right($0) }
        return Signal<Either<Value, Other>>.combineLatest([left, right]).map { pair in
            guard case .left(let a) = pair[0], case .right(let b) = pair[1] else {
                preconditionFailure("combineLatest keeps each source at its own index")
            }
            return (a, b)
        }
    }
}

extension Signal where Value: Equatable {
    /// Forwards a value only when it differs from the previous one forwarded.
    @inlinable public func skipRepeats() -> Signal<Value> {
        skipRepeats(==)
    }
}

/// One of two values; lets sources of different types share one combineLatest.
@usableFromInline enum Either<Left: Sendable, Right: Sendable>: Sendable {
    case left(Left)
    case right(Right)
}

/// The state of one combineLatest observation.
@usableFromInline struct CombineState<Value> {
    @usableFromInline var latest: [Value?]
    @usableFromInline var missing: Int
    @usableFromInline var running: Int

    @inlinable init(latest: [Value?], missing: Int, running: Int) {
        self.latest = latest
        self.missing = missing
        self.running = running
    }
}
