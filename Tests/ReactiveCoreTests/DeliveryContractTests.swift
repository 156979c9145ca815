import Dispatch
import ReactiveCore
import ReactiveCoreTesting
import Synchronization
import Testing

/// One observer's log.
private final class Log: Sendable {
    let values = Mutex<[Int]>([])
}

/// State that only the delivery contract guards: observers run one at a time, each after the last.
private final class Unguarded<Value>: @unchecked Sendable {
    // @unchecked on purpose: the specs that use it check that the core's delivery alone keeps
    // access serial, and the thread sanitizer (CI runs these specs under it) reports a race if not.
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// The written contract of the reactive core, one spec per clause (see `Signal`'s documentation).
@Suite("Delivery contract")
struct DeliveryContractTests {
    @Test("delivery is synchronous: send returns after every observer has run")
    func synchronousDelivery() {
        let (signal, input) = Signal<Int>.pipe()
        let seen = Recorder(signal)
        input.send(1)
        #expect(seen.values == [1])
        let property = MutableProperty(0)
        let changes = Recorder(changesOf: property.readOnly)
        property.value = 5
        #expect(changes.values == [5])
    }

    @Test("observers are notified in the order they subscribed")
    func subscriptionOrder() {
        let (signal, input) = Signal<Int>.pipe()
        let log = Mutex<[String]>([])
        for name in ["first", "second", "third", "fourth"] {
            signal.observeValues { value in log.withLock { $0.append("\(name) \(value)") } }
        }
        input.send(1)
        input.send(2)
        #expect(
            log.withLock { $0 } == [
                "first 1", "second 1", "third 1", "fourth 1", "first 2", "second 2", "third 2", "fourth 2",
            ])
    }

    @Test("observers see a value after it is stored")
    func valueIsStoredBeforeDelivery() {
        let property = MutableProperty("Colin")
        let readBack = Mutex<[String]>([])
        property.changes.observeValues { [property] delivered in
            readBack.withLock { $0.append("\(delivered)=\(property.value)") }
        }
        property.value = "Dana"
        property.value = "Eve"
        #expect(readBack.withLock { $0 } == ["Dana=Dana", "Eve=Eve"])
    }

    @Test("a value sent from inside an observer reaches every observer after the current one, in order")
    func reentrantSendIsQueued() {
        let name = MutableProperty("Colin")
        let log = Mutex<[String]>([])
        name.changes.observeValues { [name] value in
            log.withLock { $0.append("A got \(value)") }
            if value == "darn" { name.value = "" }
        }
        name.changes.observeValues { value in log.withLock { $0.append("B got \(value)") } }
        name.changes.observeValues { value in log.withLock { $0.append("C got \(value)") } }

        name.value = "darn"

        #expect(
            log.withLock { $0 } == [
                "A got darn", "B got darn", "C got darn", "A got ", "B got ", "C got ",
            ])
        #expect(name.value == "")
    }

    @Test("a value sent from inside an observer is never delivered nested inside the current delivery")
    func reentrantSendIsNeverNested() {
        let (signal, input) = Signal<Int>.pipe()
        let depth = Mutex(0)
        let maximumDepth = Mutex(0)
        signal.observeValues { value in
            let current = depth.withLock { d -> Int in
                d += 1
                return d
            }
            maximumDepth.withLock { $0 = max($0, current) }
            if value < 5 { input.send(value + 1) }
            depth.withLock { $0 -= 1 }
        }
        let seen = Recorder(signal)
        input.send(1)
        #expect(maximumDepth.withLock { $0 } == 1)
        #expect(seen.values == [1, 2, 3, 4, 5])
    }

    @Test("several values sent from inside observers are all delivered, none lost, in the order sent")
    func reentrantSendsAreNeverLost() {
        let (signal, input) = Signal<String>.pipe()
        signal.observeValues { value in
            if value == "start" {
                input.send("one")
                input.send("two")
            }
        }
        signal.observeValues { value in
            if value == "one" { input.send("three") }
        }
        let seen = Recorder(signal)
        input.send("start")
        #expect(seen.values == ["start", "one", "two", "three"])
    }

    @Test("an observer that joins during a delivery sees only later values")
    func joiningDuringDelivery() {
        let (signal, input) = Signal<Int>.pipe()
        let late = Mutex<Recorder<Int>?>(nil)
        signal.observeValues { value in
            if value == 1 { late.withLock { $0 = Recorder(signal) } }
        }
        input.send(1)
        input.send(2)
        #expect(late.withLock { $0 }?.values == [2])
    }

    @Test("an observer disposed during a delivery receives nothing more, not even the rest of that delivery")
    func disposedDuringDelivery() {
        let (signal, input) = Signal<Int>.pipe()
        let second = Mutex<Disposable?>(nil)
        signal.observeValues { _ in second.withLock { $0 }?.dispose() }
        let received = Mutex<[Int]>([])
        second.withLock { $0 = signal.observeValues { value in received.withLock { $0.append(value) } } }
        input.send(1)
        input.send(2)
        #expect(received.withLock { $0 } == [])
    }

    @Test("many threads sending at once: every value reaches every observer once, one at a time")
    func concurrentSenders() async {
        let property = MutableProperty(0)
        let inFlight = Mutex(0)
        let overlapped = Mutex(false)
        let observers = (0..<3).map { _ in Log() }
        for log in observers {
            property.changes.observeValues { value in
                let concurrent = inFlight.withLock { n -> Int in
                    n += 1
                    return n
                }
                if concurrent > 1 { overlapped.withLock { $0 = true } }
                log.values.withLock { $0.append(value) }
                inFlight.withLock { $0 -= 1 }
            }
        }
        let threads = 8
        let perThread = 500
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                property.value = thread * perThread + index + 1
            }
        }
        let expected = Set(1...(threads * perThread))
        #expect(overlapped.withLock { $0 } == false)
        for log in observers {
            let values = log.values.withLock { $0 }
            #expect(values.count == threads * perThread)
            #expect(Set(values) == expected)
        }
        // Every observer saw the same order, and the last value seen is the value stored.
        let orders = observers.map { log in log.values.withLock { $0 } }
        #expect(orders.allSatisfy { $0 == orders[0] })
        #expect(orders[0].last == property.value)
    }

    @Test("a send that races the end of another thread's delivery is delivered, not stranded")
    func sendRacingTheEndOfADelivery() {
        // The window is a delivery ending without the lock while another thread queues under it.
        // Two threads sending without pause open it often; whether a run lands in it is up to the
        // scheduler, so this spec guards the protocol as a whole, and the thread sanitizer run
        // checks the ordering of the atomic word: the observer counts without a lock of its own,
        // as the contract allows, so a delivery not ordered after the previous one is a race.
        let (signal, input) = Signal<Int>.pipe()
        let counter = Unguarded(0)
        signal.observeValues { _ in counter.value += 1 }
        let perThread = 20_000
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for value in 0..<perThread { input.send(value) }
        }
        #expect(counter.value == 2 * perThread)
    }

    @Test("sends from other threads and from inside an observer at once: none lost, none nested")
    func concurrentAndReentrantSends() {
        let (signal, input) = Signal<Int>.pipe()
        let delivering = Mutex(false)
        let overlapped = Mutex(false)
        let first = Unguarded<[Int]>([])
        let second = Unguarded<[Int]>([])
        @Sendable func enter() {
            if delivering.withLock({ busy in
                defer { busy = true }; return busy
            }) {
                overlapped.withLock { $0 = true }
            }
        }
        signal.observeValues { value in
            enter()
            first.value.append(value)
            // Every fifth value sent by a thread is answered from inside the observer.
            if value >= 0 && value % 5 == 0 { input.send(-value - 1) }
            delivering.withLock { $0 = false }
        }
        signal.observeValues { value in
            enter()
            second.value.append(value)
            delivering.withLock { $0 = false }
        }
        let perThread = 3_000
        DispatchQueue.concurrentPerform(iterations: 3) { thread in
            for index in 0..<perThread { input.send(thread * 1_000_000 + index) }
        }
        let answers = (0..<3).reduce(0) { total, thread in
            total + (0..<perThread).filter { (thread * 1_000_000 + $0) % 5 == 0 }.count
        }
        #expect(overlapped.withLock { $0 } == false)
        #expect(first.value.count == 3 * perThread + answers)
        #expect(first.value == second.value)
        for thread in 0..<3 {
            let sent = first.value.filter { $0 >= 0 && $0 / 1_000_000 == thread }
            #expect(sent == sent.sorted())
        }
    }

    @Test("completion racing sends from another thread arrives once, and last")
    func completionRacingSends() {
        for _ in 0..<200 {
            let (signal, input) = Signal<Int>.pipe()
            let events = Unguarded<[Event<Int>]>([])
            signal.observe(Observer { event in events.value.append(event) })
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    for value in 0..<50 { input.send(value) }
                } else {
                    input.sendCompleted()
                }
            }
            input.send(99)
            #expect(events.value.filter { $0 == .completed }.count == 1)
            #expect(events.value.last == .completed)
        }
    }

    @Test("values from one thread keep their order under concurrent senders")
    func perSenderOrder() {
        let (signal, input) = Signal<(Int, Int)>.pipe()
        let log = Mutex<[(Int, Int)]>([])
        signal.observeValues { pair in log.withLock { $0.append(pair) } }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<1000 { input.send((thread, index)) }
        }
        let pairs = log.withLock { $0 }
        #expect(pairs.count == 4000)
        for thread in 0..<4 {
            let indices = pairs.filter { $0.0 == thread }.map(\.1)
            #expect(indices == Array(0..<1000))
        }
    }
}
