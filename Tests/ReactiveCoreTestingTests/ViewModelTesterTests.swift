import ReactiveCore
import ReactiveCoreTesting
import Testing

/// A small view model: a count, its label, an event at every even count, and notes.
private final class Counter: Sendable {
    let count: Property<Int>
    let label: Property<String>
    let evens: Signal<Int>
    let notes: Signal<String>

    private let countInput = MutableProperty(0)
    private let evensInput: Signal<Int>.Input
    private let notesInput: Signal<String>.Input

    init() {
        count = countInput.readOnly
        label = count.map { "\($0) taps" }
        (evens, evensInput) = Signal<Int>.pipe()
        (notes, notesInput) = Signal<String>.pipe()
    }

    func increment() {
        let now = countInput.modify { count -> Int in
            count += 1
            return count
        }
        if now.isMultiple(of: 2) { evensInput.send(now) }
    }

    func note(_ text: String) {
        notesInput.send(text)
    }

    /// Counts, then refuses.
    func incrementAndRefuse() throws(Refusal) {
        increment()
        throw Refusal()
    }

    func incrementLater() async {
        await Task.yield()
        increment()
    }

    /// Waits for `gate` to let it through, then counts.
    func increment(after gate: AsyncStream<Void>) async {
        for await _ in gate { break }
        increment()
    }
}

private struct Refusal: Error, Equatable {}

private struct CounterState: Equatable {
    var count: Int
    var label: String

    init(_ counter: Counter) {
        count = counter.count.value
        label = counter.label.value
    }
}

private func makeTester(
    exhaustivity: Exhaustivity = .on, fileID: String = #fileID, filePath: String = #filePath,
    line: Int = #line, column: Int = #column
) -> ViewModelTester<Counter, CounterState> {
    ViewModelTester(
        Counter(), exhaustivity: exhaustivity, state: CounterState.init,
        events: [.signal(\.evens), .signal(\.notes)], fileID: fileID, filePath: filePath, line: line,
        column: column)
}

/// The text of every comment of `issue`.
private func text(_ issue: Issue) -> String {
    issue.comments.map(\.rawValue).joined(separator: "\n")
}

@Suite("View model tester", .timeLimit(.minutes(10)))
struct ViewModelTesterTests {
    @Test("a spec that states every change and receives every event passes")
    func passesWhenEverythingIsStated() throws {
        let tester = makeTester()
        tester.send {
            $0.increment()
        } assert: {
            $0.count = 1
            $0.label = "1 taps"
        }
        tester.send {
            $0.increment()
        } assert: {
            $0.count += 1
            $0.label = "2 taps"
        }
        tester.receive(\.evens, 2)
        tester.send { $0.note("hello") }
        tester.receive(\.notes, "hello")
        #expect(throws: Refusal()) {
            try tester.send {
                try $0.incrementAndRefuse()
            } assert: {
                $0.count = 3
                $0.label = "3 taps"
            }
        }
        tester.finish()
        #expect(tester.unreceivedEvents.isEmpty)
    }

    @Test("an unstated change fails at the step, with a field-level diff")
    func failsOnUnstatedChange() {
        let line = #line + 3  // the line of the send
        withKnownIssue {
            let tester = makeTester()
            tester.send {
                $0.increment()
            } assert: {
                $0.count = 1
            }
            tester.finish()
        } matching: { issue in
            text(issue).contains(
                """
                -   label: "0 taps"
                +   label: "1 taps"
                """)
                && issue.sourceLocation?.line == line
                && issue.sourceLocation?.fileID == #fileID
        }
    }

    @Test("a wrongly stated value fails with both values in the diff")
    func failsOnWrongValue() {
        withKnownIssue {
            let tester = makeTester()
            tester.send {
                $0.increment()
            } assert: {
                $0.count = 2
                $0.label = "1 taps"
            }
            tester.finish()
        } matching: { issue in
            text(issue).contains("is not what the spec states") && text(issue).contains("-   count: 2")
                && text(issue).contains("+   count: 1")
        }
    }

    @Test("an event never received fails at finish and names the event")
    func failsOnUnreceivedEvent() {
        let line = #line + 4  // the line of finish()
        withKnownIssue {
            let tester = makeTester()
            tester.send { $0.note("hello") }
            tester.finish()
        } matching: { issue in
            text(issue).contains("1 event was sent and never received")
                && text(issue).contains(#"notes: "hello""#) && issue.sourceLocation?.line == line
        }
    }

    @Test("an event never received fails at the next step")
    func failsOnEventLeftBeforeNextStep() {
        withKnownIssue {
            let tester = makeTester()
            tester.send { $0.note("hello") }
            tester.send { $0.note("again") }
            tester.receive(\.notes, "again")
            tester.finish()
        } matching: { issue in
            text(issue).contains("1 event sent before this step was never received")
                && text(issue).contains(#"notes: "hello""#)
        }
    }

    @Test("an extra event, beyond those received, fails")
    func failsOnExtraEvent() {
        withKnownIssue {
            let tester = makeTester()
            tester.send {
                $0.note("one")
                $0.note("two")
            }
            tester.receive(\.notes, "one")
            tester.finish()
        } matching: { issue in
            text(issue).contains(#"notes: "two""#) && !text(issue).contains(#"notes: "one""#)
        }
    }

    @Test("receiving an event that was never sent fails")
    func failsOnMissingEvent() {
        withKnownIssue {
            let tester = makeTester()
            tester.send { $0.note("hello") }
            tester.receive(\.notes, "hello")
            tester.receive(\.notes, "hello")
            tester.finish()
        } matching: { issue in
            text(issue).contains(#"Expected to receive notes "hello", but no event is waiting"#)
        }
    }

    @Test("receiving an event with another value fails with a diff")
    func failsOnOtherValue() {
        withKnownIssue {
            let tester = makeTester()
            tester.send { $0.note("hello") }
            tester.receive(\.notes, "hullo")
            tester.finish()
        } matching: { issue in
            text(issue).contains("Received notes does not match") && text(issue).contains(#"- "hullo""#)
                && text(issue).contains(#"+ "hello""#)
        }
    }

    @Test("events are received in the order they were sent, across signals")
    func failsOnEventsOutOfOrder() {
        withKnownIssue {
            let tester = makeTester()
            tester.send {
                $0.note("first")
                $0.increment()
                $0.increment()
            } assert: {
                $0.count = 2
                $0.label = "2 taps"
            }
            tester.receive(\.evens, 2)
            tester.receive(\.notes, "first")
            tester.receive(\.evens, 2)
            tester.finish()
        } matching: { issue in
            text(issue).contains(#"Expected to receive evens 2, but the next event is notes "first""#)
        }
    }

    @Test("a change made outside any step fails at the next step")
    func failsOnChangeOutsideAStep() {
        withKnownIssue {
            let tester = makeTester()
            tester.model.increment()
            tester.send { $0.note("hello") }
            tester.receive(\.notes, "hello")
            tester.finish()
        } matching: { issue in
            text(issue).contains("The state changed before this step") && text(issue).contains("+   count: 1")
        }
    }

    @Test("assert states a change made outside any step")
    func assertStatesOutsideChange() {
        let tester = makeTester()
        tester.model.increment()
        tester.assert {
            $0.count = 1
            $0.label = "1 taps"
        }
        tester.finish()
    }

    @Test("an input that throws still has its changes checked")
    func throwingInputIsChecked() {
        withKnownIssue {
            let tester = makeTester()
            #expect(throws: Refusal()) { try tester.send { try $0.incrementAndRefuse() } }
            tester.finish()
        } matching: { issue in
            text(issue).contains("+   count: 1")
        }
    }

    @Test("a tester that goes away without finish fails at the line that made it")
    func deinitChecks() {
        let line = #line + 2  // the line that makes the tester
        withKnownIssue {
            let tester = makeTester()
            tester.send { $0.note("hello") }
        } matching: { issue in
            text(issue).contains("went away without finish()") && issue.sourceLocation?.line == line
        }
    }

    @Test("non-exhaustive: unstated changes and events pass; a stated field must hold")
    func nonExhaustive() {
        let tester = makeTester(exhaustivity: .off)
        tester.send {
            $0.increment()
            $0.note("skipped")
            $0.note("wanted")
        } assert: {
            $0.count = 1
        }
        tester.receive(\.notes, "wanted")
        tester.send { $0.increment() }
        tester.finish()
        withKnownIssue {
            let tester = makeTester(exhaustivity: .off)
            tester.send {
                $0.increment()
            } assert: {
                $0.count = 5
            }
            tester.finish()
        } matching: { issue in
            text(issue).contains("-   count: 5") && text(issue).contains("+   count: 1")
        }
    }

    @Test("non-exhaustive with showSkipped records what was skipped as warnings")
    func nonExhaustiveShowsSkipped() {
        withKnownIssue {
            let tester = makeTester(exhaustivity: .off(showSkipped: true))
            tester.send {
                $0.increment()
            } assert: {
                $0.count = 1
            }
            tester.finish()
        } matching: { issue in
            issue.severity == .warning && text(issue).contains(#"+   label: "1 taps""#)
        }
    }

    @Test("an async input is awaited before its changes are checked")
    func asyncSend() async {
        let tester = makeTester()
        await tester.send {
            await $0.incrementLater()
        } assert: {
            $0.count = 1
            $0.label = "1 taps"
        }
        await withKnownIssue {
            await tester.send { await $0.incrementLater() }
        } matching: { issue in
            text(issue).contains("+   count: 2")
        }
        tester.receive(\.evens, 2)
        tester.finish()
    }

    @Test("started work is awaited by result(of:), which checks what it changed")
    func startedWork() async {
        let tester = makeTester()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let work = tester.start { await $0.increment(after: gate) }
        open.yield()
        await tester.result(of: work) {
            $0.count = 1
            $0.label = "1 taps"
        }
        tester.finish()
    }

    @Test("the changes of a property are received one by one, in order with other events")
    func propertyChanges() {
        let tester = ViewModelTester(
            Counter(), state: CounterState.init, events: [.changes(\.count), .signal(\.evens)])
        tester.send {
            $0.increment()
            $0.increment()
        } assert: {
            $0.count = 2
            $0.label = "2 taps"
        }
        tester.receive(\.count, 1)
        tester.receive(\.count, 2)
        tester.receive(\.evens, 2)
        tester.finish()
        withKnownIssue {
            let tester = ViewModelTester(Counter(), state: CounterState.init, events: [.changes(\.count)])
            tester.send {
                $0.increment()
            } assert: {
                $0.count = 1
                $0.label = "1 taps"
            }
            tester.receive(\.count, 2)
            tester.finish()
        } matching: { issue in
            text(issue).contains("Received count (change) does not match") && text(issue).contains("- 2")
                && text(issue).contains("+ 1")
        }
    }

    @Test("receiving from a signal the tester does not watch fails and says how to watch it")
    func unwatchedSignal() {
        withKnownIssue {
            let tester = ViewModelTester(Counter(), state: CounterState.init, events: [.signal(\.evens)])
            tester.send { $0.note("hello") }
            tester.receive(\.notes, "hello")
            tester.finish()
        } matching: { issue in
            text(issue).contains("notes is not watched: add .signal(notes) to the tester's events")
        }
    }

    @Test("the tester works from the main actor")
    @MainActor
    func onMainActor() async {
        let tester = makeTester()
        await tester.send {
            await $0.incrementLater()
        } assert: {
            $0.count = 1
            $0.label = "1 taps"
        }
        tester.finish()
    }
}
