import Dispatch
import ReactiveCore
import ReactiveCoreTesting
import Synchronization
import Testing

@Suite("Signal operators")
struct SignalOperatorTests {
    @Test("map transforms each value")
    func map() {
        let (signal, input) = Signal<Int>.pipe()
        let seen = Recorder(signal.map { "#\($0)" })
        input.send(1)
        input.send(2)
        #expect(seen.values == ["#1", "#2"])
    }

    @Test("filter forwards only matching values")
    func filter() {
        let (signal, input) = Signal<Int>.pipe()
        let seen = Recorder(signal.filter { $0.isMultiple(of: 2) })
        for value in 1...6 { input.send(value) }
        #expect(seen.values == [2, 4, 6])
    }

    @Test("skipRepeats drops consecutive equal values only")
    func skipRepeats() {
        let (signal, input) = Signal<Int>.pipe()
        let seen = Recorder(signal.skipRepeats())
        for value in [1, 1, 2, 2, 2, 1, 3, 3] { input.send(value) }
        #expect(seen.values == [1, 2, 1, 3])
    }

    @Test("take(first:) forwards that many values, then completes and stops observing")
    func takeFirst() {
        let (signal, input) = Signal<Int>.pipe()
        let seen = Recorder(signal.take(first: 2))
        for value in 1...4 { input.send(value) }
        #expect(seen.events == [.value(1), .value(2), .completed])
        #expect(input.observerCount == 0)
    }

    @Test("take(first: 0) completes at once")
    func takeNone() {
        let (signal, _) = Signal<Int>.pipe()
        let seen = Recorder(signal.take(first: 0))
        #expect(seen.events == [.completed])
    }

    @Test("skip(first:) drops that many values and forwards the rest")
    func skipFirst() {
        let (signal, input) = Signal<Int>.pipe()
        let seen = Recorder(signal.skip(first: 1))
        for value in 1...3 { input.send(value) }
        #expect(seen.values == [2, 3])
    }

    @Test("skip(first: 1) on a property's values leaves only its changes, as the sample needed")
    func skipFirstOnValues() {
        let points = MutableProperty(100)
        let seen = Recorder(points.values.skip(first: 1))
        points.value = 101
        #expect(seen.values == [101])
    }

    @Test("take(until:) forwards until the trigger fires, then completes")
    func takeUntil() {
        let (signal, input) = Signal<Int>.pipe()
        let (trigger, fire) = Signal<Void>.pipe()
        let seen = Recorder(signal.take(until: trigger))
        input.send(1)
        fire.send(())
        input.send(2)
        #expect(seen.events == [.value(1), .completed])
        #expect(input.observerCount == 0)
    }

    @Test("merge forwards values from every source as they arrive and completes after all complete")
    func merge() {
        let (a, inputA) = Signal<String>.pipe()
        let (b, inputB) = Signal<String>.pipe()
        let seen = Recorder(Signal.merge(a, b))
        inputA.send("a1")
        inputB.send("b1")
        inputA.send("a2")
        inputA.sendCompleted()
        #expect(!seen.isCompleted)
        inputB.sendCompleted()
        #expect(seen.events == [.value("a1"), .value("b1"), .value("a2"), .completed])
    }

    @Test("combineLatest waits for every source, then sends on each value")
    func combineLatest() {
        let (a, inputA) = Signal<Int>.pipe()
        let (b, inputB) = Signal<Int>.pipe()
        let (c, inputC) = Signal<Int>.pipe()
        let seen = Recorder(Signal.combineLatest([a, b, c]))
        inputA.send(1)
        inputB.send(2)
        #expect(seen.values.isEmpty)
        inputC.send(3)
        inputA.send(4)
        #expect(seen.values == [[1, 2, 3], [4, 2, 3]])
    }

    @Test("combineLatest of two property value streams emits exactly once initially")
    func combineLatestOfProperties() {
        let name = MutableProperty("Colin")
        let points = MutableProperty(100)
        let pairs = Recorder(name.values.combineLatest(with: points.values).map { "\($0.0) \($0.1)" })
        #expect(pairs.values == ["Colin 100"])
        points.value = 101
        #expect(pairs.values == ["Colin 100", "Colin 101"])
    }

    @Test("observe(on:) delivers through the scheduler, in order, and not after disposal")
    func observeOn() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int>.pipe()
        let seen = Recorder(signal.observe(on: scheduler))
        input.send(1)
        input.send(2)
        #expect(seen.values.isEmpty)
        #expect(scheduler.pendingCount == 2)
        scheduler.runNext()
        #expect(seen.values == [1])
        seen.stop()
        scheduler.run()
        #expect(seen.values == [1])
    }

    @Test("merge delivers one value at a time even when its sources send from different threads")
    func mergeSerialises() {
        let (a, inputA) = Signal<Int>.pipe()
        let (b, inputB) = Signal<Int>.pipe()
        let inFlight = Mutex(0)
        let overlapped = Mutex(false)
        let count = Mutex(0)
        Signal.merge(a, b).observeValues { _ in
            let concurrent = inFlight.withLock { n -> Int in
                n += 1
                return n
            }
            if concurrent > 1 { overlapped.withLock { $0 = true } }
            for _ in 0..<50 { _ = count.withLock { $0 } }
            count.withLock { $0 += 1 }
            inFlight.withLock { $0 -= 1 }
        }
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            for value in 0..<2000 { (index == 0 ? inputA : inputB).send(value) }
        }
        #expect(!overlapped.withLock { $0 })
        #expect(count.withLock { $0 } == 4000)
    }

    @Test("combineLatest's last value is the latest of every source under concurrent sources")
    func combineLatestUnderConcurrency() {
        let (a, inputA) = Signal<Int>.pipe()
        let (b, inputB) = Signal<Int>.pipe()
        let last = Mutex<[Int]>([])
        Signal.combineLatest([a, b]).observeValues { pair in last.withLock { $0 = pair } }
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            for value in 1...3000 { (index == 0 ? inputA : inputB).send(value) }
        }
        #expect(last.withLock { $0 } == [3000, 3000])
    }

    @Test("take(until:) forwards nothing after it completes, whatever thread the trigger fires on")
    func takeUntilUnderConcurrency() {
        for _ in 0..<50 {
            let (signal, input) = Signal<Int>.pipe()
            let (trigger, fire) = Signal<Void>.pipe()
            let seen = Recorder(signal.take(until: trigger))
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    for value in 0..<200 { input.send(value) }
                } else {
                    fire.send(())
                }
            }
            let events = seen.events
            #expect(events.last == .completed)
            #expect(events.filter { $0 == .completed }.count == 1)
        }
    }
}
