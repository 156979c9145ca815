import ReactiveCore
import ReactiveCoreTesting
import Synchronization
import Testing

/// Something that owns observations, as a view does.
private final class Owner: Sendable {
    let bag = DisposeBag()
    let seen = Mutex<[Int]>([])

    func watch(_ signal: Signal<Int>) {
        signal.observeValues(in: bag) { [weak self] value in self?.seen.withLock { $0.append(value) } }
    }
}

@Suite("Lifetimes")
struct LifetimeTests {
    @Test("every observation can be ended")
    func everyObservationCanEnd() {
        let points = MutableProperty(0)
        let derived = points.readOnly.map { $0 * 2 }
        let observation = derived.values.observeValues { _ in }
        #expect(derived.observerCount == 1)
        observation.dispose()
        #expect(derived.observerCount == 0)
        #expect(observation.isDisposed)
    }

    @Test("observations end when their owner goes away")
    func ownerGoesAway() {
        let (signal, input) = Signal<Int>.pipe()
        var owner: Owner? = Owner()
        owner!.watch(signal)
        input.send(1)
        #expect(input.observerCount == 1)
        owner = nil
        #expect(input.observerCount == 0)
        input.send(2)
    }

    @Test("a property nobody holds stays alive while observed, and is freed when the observation ends")
    func observedPropertyStaysAlive() {
        weak var weakDerived: Property<Int>?
        let source = MutableProperty(1)
        let observation: Disposable
        do {
            let derived = source.readOnly.map { $0 * 10 }
            weakDerived = derived
            let seen = Mutex<[Int]>([])
            observation = derived.values.observeValues { value in seen.withLock { $0.append(value) } }
            source.value = 2
            #expect(seen.withLock { $0 } == [10, 20])
        }
        #expect(weakDerived != nil)
        observation.dispose()
        #expect(weakDerived == nil)
    }

    @Test("an operator's observation goes on when the caller discards its disposable")
    func discardedDisposableKeepsObserving() {
        let (a, inputA) = Signal<Int>.pipe()
        let (b, inputB) = Signal<Int>.pipe()
        let seen = Mutex<[Int]>([])
        Signal.merge(a, b).take(first: 3).observeValues { value in seen.withLock { $0.append(value) } }
        Signal.combineLatest([a, b]).map { $0.reduce(0, +) }
            .observeValues { value in seen.withLock { $0.append(value * 100) } }
        inputA.send(1)
        inputB.send(2)
        inputA.send(3)
        inputA.send(4)
        #expect(seen.withLock { $0 } == [1, 2, 300, 3, 500, 600])
    }

    @Test("a pipe completes when its input goes away")
    func pipeInputGoesAway() {
        var pipe: (Signal<Int>, Signal<Int>.Input)? = Signal<Int>.pipe()
        let seen = Recorder(pipe!.0)
        pipe = nil
        #expect(seen.isCompleted)
    }

    @Test("a disposable inserted into a disposed bag is disposed at once")
    func lateInsertion() {
        let bag = DisposeBag()
        bag.dispose()
        let disposable = Disposable {}
        bag.insert(disposable)
        #expect(disposable.isDisposed)
    }

    @Test(
        "no retain cycles: when the observing owner goes away, sources, derived properties and owner are freed"
    )
    func noRetainCycles() {
        weak var weakSource: MutableProperty<Int>?
        weak var weakDerived: Property<String>?
        weak var weakOwner: Owner?
        do {
            let source = MutableProperty(1)
            let derived = Property.combineLatest(source.readOnly, Property(value: 2)).map { "\($0 + $1)" }
            let owner = Owner()
            owner.watch(source.values)
            owner.watch(derived.values.map(\.count))
            weakSource = source
            weakDerived = derived
            weakOwner = owner
            source.value = 3
            #expect(owner.seen.withLock { $0 } == [1, 1, 1, 3])
        }
        #expect(weakSource == nil)
        #expect(weakDerived == nil)
        #expect(weakOwner == nil)
    }

    @Test("a derived property keeps its sources alive, and its sources do not keep it alive")
    func derivedHoldsSources() {
        weak var weakSource: MutableProperty<Int>?
        weak var weakDerived: Property<Int>?
        var derived: Property<Int>?
        do {
            let source = MutableProperty(1)
            weakSource = source
            derived = source.readOnly.map { $0 + 1 }
            weakDerived = derived
        }
        #expect(weakSource != nil)
        #expect(derived?.value == 2)
        derived = nil
        #expect(weakDerived == nil)
        #expect(weakSource == nil)
    }

    @Test("an action and its executing state are freed with their owner")
    func actionIsFreed() async throws {
        weak var weakAction: Action<Int, Int>?
        do {
            let action = Action<Int, Int> { $0 }
            weakAction = action
            _ = try await action.apply(1)
        }
        #expect(weakAction == nil)
    }
}
