import Synchronization

/// The hot node behind every pipe and property: an ordered list of observers, an optional current
/// value, and a queue that serialises delivery.
///
/// How the contract is kept:
/// - A send stores the value (for properties) and takes a sequence number under one lock, so the
///   delivery order is the store order even with concurrent senders.
/// - A send that finds nobody delivering claims delivery and delivers at once, with no queue: the
///   common case. A send that arrives meanwhile (from another thread, or from inside an observer)
///   is only queued, and the thread that is delivering delivers it after the current value has
///   reached every observer. Delivery is never nested.
/// - Who delivers, and how much is queued, is one atomic word (``Delivery``). A delivery that
///   finds nothing queued ends with one compare-and-swap on it instead of a round trip through
///   the lock; anything queued meanwhile makes that swap fail, and the queue is then drained
///   under the lock.
/// - The lock is never held while an observer runs, so observers may send, observe and dispose.
/// - Every observer records the sequence number at which it joined and receives only values sent
///   after that; a replaying observer is first handed the current value through the same queue, so
///   it sees no gap and no duplicate.
@usableFromInline final class Channel<Value: Sendable>: Sendable {
    @usableFromInline final class Entry: Sendable {
        @usableFromInline let since: UInt64
        @usableFromInline let observer: Observer<Value>
        @usableFromInline let isActive = Atomic<Bool>(true)
        /// What this observation keeps alive: the property observed, so that observing a property
        /// that nobody else holds does not end at once.
        @usableFromInline let retained: (any Sendable)?

        @inlinable init(since: UInt64, observer: Observer<Value>, retaining retained: (any Sendable)? = nil) {
            self.since = since
            self.observer = observer
            self.retained = retained
        }
    }

    @usableFromInline enum Item: Sendable {
        case broadcast(Event<Value>, sequence: UInt64)
        case replay(Value, to: Entry)
    }

    @usableFromInline struct State: Sendable {
        @usableFromInline var entries: [Entry] = []
        @usableFromInline var queue: [Item] = []
        @usableFromInline var head = 0
        @usableFromInline var sequence: UInt64 = 0
        @usableFromInline var current: Value?
        @usableFromInline var isCompleted = false

        @inlinable init() {}
    }

    @usableFromInline let state: Locked<State>
    /// Who delivers and how much waits: see ``Delivery``.
    ///
    /// Changed under the lock, except by the delivering thread, which may end its delivery without
    /// the lock when nothing waits.
    @usableFromInline let delivery = Atomic<Int>(Delivery.idle)
    /// Whether the channel backs a property and so stores the value it sends.
    @usableFromInline let storesValue: Bool

    /// Creates a channel for a pipe: nothing is stored.
    @inlinable init() {
        storesValue = false
        state = Locked(State())
    }

    /// Creates a channel for a property.
    ///
    /// A derived property starts with `nil` and is given its first value with ``seedIfEmpty(_:)``
    /// or ``seed(_:)`` before anyone can read or observe it.
    @inlinable init(current: Value?) {
        storesValue = true
        var initial = State()
        initial.current = current
        state = Locked(initial)
    }

    /// Stores `value` without delivering it, unless a value came first: the first value of a
    /// derived property, which keeps a change of its source delivered while it was being made.
    @inlinable func seedIfEmpty(_ value: Value) {
        state.withLock { s in
            if s.current == nil { s.current = value }
        }
    }

    /// Stores the value `compute` returns, under the lock, without delivering it: the first value
    /// of a node that computes it from state the lock guards.
    @inlinable func seed(_ compute: () -> Value) {
        state.withLock { s in s.current = compute() }
    }

    /// The value most recently stored.
    @inlinable var current: Value {
        state.withLock { $0.current! }
    }

    /// Runs `body` on the value most recently stored, without copying it out.
    ///
    /// `body` runs under the channel's lock: it must not send, observe or read this channel.
    @inlinable func withCurrent<Result>(_ body: (Value) throws -> Result) rethrows -> Result {
        try state.withLock { try body($0.current!) }
    }

    /// Stores (when the channel has a current value) and delivers `value` to every observer.
    @inlinable func send(_ value: Value) {
        if let claim = claim(value) { deliver(claim) }
    }

    /// The right to deliver one value at once, taken by a send that found nobody delivering.
    @usableFromInline struct Claim {
        @usableFromInline let value: Value
        @usableFromInline let sequence: UInt64
        @usableFromInline let entries: [Entry]

        @inlinable init(value: Value, sequence: UInt64, entries: [Entry]) {
            self.value = value
            self.sequence = sequence
            self.entries = entries
        }
    }

    /// Stores `value` (for a property) and either claims its delivery, when nobody is delivering,
    /// or queues it for whoever is.
    ///
    /// The fast path, with no queue, is the common case: a send that is neither re-entrant nor
    /// concurrent. A caller that holds a lock of its own claims under it, so values are stored in
    /// order, and calls ``deliver(_:)`` after releasing it.
    @inlinable func claim(_ value: Value) -> Claim? {
        state.withLock { s in
            guard !s.isCompleted else { return nil }
            return s.store(value, storesValue: storesValue, delivery: delivery)
        }
    }

    /// Like ``claim(_:)``, for the value `compute` returns under the lock, if any: a node whose
    /// state the channel's lock guards (see ``Guarded``) updates it and computes in one step.
    @inlinable func claim(_ compute: () -> Value?) -> Claim? {
        state.withLock { s in
            guard !s.isCompleted, let value = compute() else { return nil }
            return s.store(value, storesValue: storesValue, delivery: delivery)
        }
    }

    /// Delivers a claimed value to the observers it was claimed for, then anything queued meanwhile.
    @inlinable func deliver(_ claim: Claim) {
        // The claim's array keeps every entry alive for the whole loop; walking its buffer spares a
        // retain and a release of each entry.
        claim.entries.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                let entry = Unmanaged.passUnretained(entries[index])
                entry._withUnsafeGuaranteedRef { entry in
                    guard entry.since < claim.sequence, entry.isActive.load(ordering: .acquiring) else {
                        return
                    }
                    entry.observer.send(claim.value)
                }
            }
        }
        // Nothing queued meanwhile: end the delivery without the lock.
        if delivery.compareExchange(
            expected: Delivery.delivering, desired: Delivery.idle, ordering: .acquiringAndReleasing
        ).exchanged {
            return
        }
        drain()
    }

    /// Atomically transforms the current value and queues the new one for delivery.
    @inlinable func modify<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try modify(announcing: { _ in true }, body)
    }

    /// Atomically transforms the current value; queues the new one for delivery only when
    /// `announce(result)` is true, so a step that changed nothing announces nothing.
    @inlinable func modify<Result>(
        announcing announce: (Result) -> Bool, _ body: (inout Value) throws -> Result
    ) rethrows -> Result {
        let (result, claim) = try state.withLock { s -> (Result, Claim?) in
            var value = s.current!
            let result = try body(&value)
            guard !s.isCompleted, announce(result) else { return (result, nil) }
            return (result, s.store(value, storesValue: true, delivery: delivery))
        }
        if let claim { deliver(claim) }
        return result
    }

    /// Stores and delivers `value` unless `isRepeat` says it equals the stored value.
    @inlinable func send(_ value: Value, unlessRepeating isRepeat: (Value, Value) -> Bool) {
        let claim = state.withLock { s -> Claim? in
            guard !s.isCompleted else { return nil }
            if let current = s.current, isRepeat(current, value) { return nil }
            return s.store(value, storesValue: true, delivery: delivery)
        }
        if let claim { deliver(claim) }
    }

    /// Ends the channel: observers receive `completed` after any queued values, then are removed.
    @inlinable func complete() {
        let mustDrain = state.withLock { s -> Bool in
            guard !s.isCompleted else { return false }
            s.isCompleted = true
            s.sequence &+= 1
            return s.enqueue(.broadcast(.completed, sequence: s.sequence), delivery: delivery)
        }
        if mustDrain { drain() }
    }

    /// Adds an observer at the end of the list.
    ///
    /// - Parameters:
    ///   - observer: receives the values and the completion.
    ///   - replay: when true, the observer first receives the current value.
    ///   - retained: kept alive until the observation ends.
    /// - Returns: ends the observation when disposed; an empty disposable when the channel had
    ///   already ended, after the observer received `completed`.
    @inlinable func observe(
        _ observer: Observer<Value>, replay: Bool, retaining retained: (any Sendable)? = nil
    )
        -> Disposable
    {
        let (entry, mustDrain, endedAlready) = state.withLock { s -> (Entry?, Bool, Bool) in
            if s.isCompleted { return (nil, false, true) }
            let entry = Entry(since: s.sequence, observer: observer, retaining: retained)
            s.entries.append(entry)
            guard replay, let current = s.current else { return (entry, false, false) }
            return (entry, s.enqueue(.replay(current, to: entry), delivery: delivery), false)
        }
        if endedAlready {
            if replay, let last = state.withLock({ $0.current }) { observer.send(last) }
            observer.sendCompleted()
            return .empty
        }
        if mustDrain { drain() }
        return Disposable { [weak self] in self?.remove(entry!) }
    }

    /// Atomically reads the current value and adds an observer of later changes, so that nothing
    /// sent in between is missed or seen twice.
    @inlinable func observeChanges(
        readingCurrent observer: Observer<Value>
    ) -> (current: Value, disposable: Disposable) {
        let (current, entry) = state.withLock { s -> (Value, Entry?) in
            guard !s.isCompleted else { return (s.current!, nil) }
            let entry = Entry(since: s.sequence, observer: observer)
            s.entries.append(entry)
            return (s.current!, entry)
        }
        guard let entry else { return (current, .empty) }
        return (current, Disposable { [weak self] in self?.remove(entry) })
    }

    /// The number of observers, for specs of lifetimes.
    @inlinable var observerCount: Int {
        state.withLock { $0.entries.count }
    }

    @inlinable func remove(_ entry: Entry) {
        entry.isActive.store(false, ordering: .releasing)
        state.withLock { s in
            s.entries.removeAll { $0 === entry }
        }
    }

    /// Delivers queued items until the queue is empty.
    ///
    /// Only the delivering thread, the one that set bit 0 of ``delivery``, calls this, so
    /// deliveries never overlap.
    @inlinable func drain() {
        while let (item, entries) = state.withLock({ s in s.next(delivery: delivery) }) {
            switch item {
            case .broadcast(let event, let sequence):
                for entry in entries where entry.since < sequence {
                    guard entry.isActive.load(ordering: .acquiring) else { continue }
                    entry.observer.send(event)
                }
                if case .completed = event {
                    for entry in entries { entry.isActive.store(false, ordering: .releasing) }
                }
            case .replay(let value, let entry):
                if entry.isActive.load(ordering: .acquiring) { entry.observer.send(value) }
            }
        }
    }
}

/// The delivery word of a channel: bit 0 is set while a thread delivers; the rest counts the items
/// queued and not yet taken, in units of ``waiting``.
///
/// The word changes only under the channel's lock, with one exception: the delivering thread
/// may swap ``delivering`` (delivering, nothing waiting) for ``idle`` without the lock. A sender
/// under the lock counts its item in with one atomic add, so either that swap sees the count and
/// fails, and the deliverer drains the queue under the lock, or the swap came first and the
/// sender finds the channel idle and delivers itself.
@usableFromInline enum Delivery {
    @usableFromInline static let idle = 0
    @usableFromInline static let delivering = 1
    @usableFromInline static let waiting = 2
}

extension Channel.State {
    /// Stores `value` with the next sequence number; claims its delivery when nobody is
    /// delivering, and queues it otherwise.
    @inlinable mutating func store(_ value: Value, storesValue: Bool, delivery: borrowing Atomic<Int>)
        -> Channel.Claim?
    {
        if storesValue { current = value }
        sequence &+= 1
        if join(delivery) {
            queue.append(.broadcast(.value(value), sequence: sequence))
            return nil
        }
        return Channel.Claim(value: value, sequence: sequence, entries: entries)
    }

    /// Queues `item`; true when nobody was delivering, so the caller must now drain.
    @inlinable mutating func enqueue(_ item: Channel.Item, delivery: borrowing Atomic<Int>) -> Bool {
        queue.append(item)
        if join(delivery) { return false }
        // Delivering now, with the item just queued waiting.
        delivery.store(Delivery.delivering + Delivery.waiting, ordering: .releasing)
        return true
    }

    /// Counts one more waiting item in when a delivery is running and returns true; otherwise
    /// marks the channel as delivering, for the caller, and returns false.
    ///
    /// One atomic add decides: it comes either before the deliverer's swap to idle, which then
    /// fails and sends the deliverer to the queue, or after it, and then it finds the word idle.
    @inlinable func join(_ delivery: borrowing Atomic<Int>) -> Bool {
        // An idle word stays idle until a thread holding the lock changes it, so when it reads
        // idle the add, the one atomic read-modify-write here, is spared.
        if delivery.load(ordering: .acquiring) != Delivery.idle {
            let (before, _) = delivery.wrappingAdd(Delivery.waiting, ordering: .acquiringAndReleasing)
            if before != Delivery.idle { return true }
        }
        // It was idle, so no deliverer can touch the word: only this thread, under the lock.
        delivery.store(Delivery.delivering, ordering: .releasing)
        return false
    }

    /// Takes the next queued item with a snapshot of the observers, or ends the delivery.
    @inlinable mutating func next(delivery: borrowing Atomic<Int>) -> (Channel.Item, [Channel.Entry])? {
        guard head < queue.count else {
            queue.removeAll(keepingCapacity: true)
            head = 0
            delivery.store(Delivery.idle, ordering: .releasing)
            return nil
        }
        delivery.subtract(Delivery.waiting, ordering: .acquiringAndReleasing)
        let item = queue[head]
        head += 1
        if case .broadcast(.completed, _) = item {
            let snapshot = entries
            entries.removeAll()
            return (item, snapshot)
        }
        return (item, entries)
    }
}

/// State that another object's lock guards: the latest values of a combineLatest node, read and
/// written only inside its channel's lock.
///
/// Kept behind a pointer, as in ``Locked``, so that access pays no dynamic exclusivity check.
@usableFromInline final class Guarded<State: Sendable>: @unchecked Sendable {
    // @unchecked: the pointer is read and written only inside the owning channel's lock (its
    // `claim(_:)` and `seed(_:)` bodies), and the state is Sendable, so nothing read from it
    // shares mutable state with another thread.
    @usableFromInline let state: UnsafeMutablePointer<State>

    @inlinable init(_ state: State) {
        self.state = .allocate(capacity: 1)
        self.state.initialize(to: state)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }
}
