import ReactiveCore
import Testing

@Suite("Swift concurrency bridge")
struct AsyncBridgeTests {
    @Test("for await iterates a property's current value and its changes")
    func propertyValues() async {
        let points = MutableProperty(1)
        let stream = points.values.stream()
        points.value = 2
        points.value = 3
        var seen: [Int] = []
        for await value in stream {
            seen.append(value)
            if value == 3 { break }
        }
        #expect(seen == [1, 2, 3])
    }

    @Test("for await over a signal ends when the signal completes")
    func signalEnds() async {
        let (signal, input) = Signal<String>.pipe()
        let stream = signal.stream()
        input.send("a")
        input.send("b")
        input.sendCompleted()
        var seen: [String] = []
        for await value in stream { seen.append(value) }
        #expect(seen == ["a", "b"])
    }

    @Test("a signal is an AsyncSequence")
    func asyncSequence() async {
        let (signal, input) = Signal<Int>.pipe()
        let task = Task {
            var total = 0
            for await value in signal { total += value }
            return total
        }
        // The loop attaches when it starts; wait for it without sleeping.
        while input.observerCount == 0 { await Task.yield() }
        input.send(4)
        input.send(5)
        input.sendCompleted()
        #expect(await task.value == 9)
    }

    @Test("ending the iteration ends the observation")
    func endingIterationDisposes() async {
        let (signal, input) = Signal<Int>.pipe()
        do {
            let stream = signal.stream()
            #expect(input.observerCount == 1)
            input.send(1)
            for await _ in stream { break }
        }
        #expect(input.observerCount == 0)
    }
}
