import ReactiveCore
import ReactiveCoreTesting
import Synchronization
import Testing

@Suite("Signal")
struct SignalTests {
    @Test("a pipe delivers what its input sends")
    func pipeDelivers() {
        let (signal, input) = Signal<String>.pipe()
        let seen = Recorder(signal)
        input.send("a")
        input.send("b")
        #expect(seen.values == ["a", "b"])
    }

    @Test("a signal never replays values sent before observation")
    func neverReplays() {
        let (signal, input) = Signal<Int>.pipe()
        input.send(1)
        let seen = Recorder(signal)
        input.send(2)
        #expect(seen.values == [2])
    }

    @Test("completion reaches observers and later sends are ignored")
    func completion() {
        let (signal, input) = Signal<Int>.pipe()
        let seen = Recorder(signal)
        input.send(1)
        input.sendCompleted()
        input.send(2)
        #expect(seen.events == [.value(1), .completed])
        #expect(input.observerCount == 0)
    }

    @Test("observing a completed signal completes at once")
    func observingCompleted() {
        let (signal, input) = Signal<Int>.pipe()
        input.sendCompleted()
        let seen = Recorder(signal)
        #expect(seen.events == [.completed])
    }

    @Test("an event handler and separate value and completion handlers see the same events")
    func observerForms() {
        let (signal, input) = Signal<Int>.pipe()
        let events = Mutex<[Event<Int>]>([])
        let handled = Mutex<[String]>([])
        signal.observe(Observer { event in events.withLock { $0.append(event) } })
        signal.observe(
            .handling(
                values: { value in handled.withLock { $0.append("value \(value)") } },
                completed: { handled.withLock { $0.append("completed") } }))
        input.send(1)
        input.send(2)
        input.sendCompleted()
        #expect(events.withLock { $0 } == [.value(1), .value(2), .completed])
        #expect(handled.withLock { $0 } == ["value 1", "value 2", "completed"])
    }

    @Test("a disposed observation receives nothing more")
    func disposal() {
        let (signal, input) = Signal<Int>.pipe()
        let seen = Recorder(signal)
        input.send(1)
        seen.stop()
        input.send(2)
        #expect(seen.values == [1])
        #expect(input.observerCount == 0)
    }
}
