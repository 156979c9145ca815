import CustomDump
import ReactiveCore
import Synchronization
import Testing

/// An exhaustive tester for a view model built on `ReactiveCore`: a spec sends inputs, states how
/// the watched state changed after each one, and receives the discrete events it produced, in
/// order.
///
/// Anything the spec does not state fails it, with a field-level diff, at the line of the step that
/// missed it.
///
/// The state is a value the spec defines: an `Equatable` struct whose fields are read from the
/// view model's properties. The events are the view model's signals the spec names in `events`.
///
/// ```swift
/// let tester = ViewModelTester(LoginViewModel(), state: LoginState.init, events: [.signal(\.loginRefused)])
/// tester.send { $0.usernameEdited("ann") } assert: { $0.username = "ann" }
/// tester.send { $0.passwordEdited("secret") } assert: {
///     $0.password = "secret"
///     $0.isLoginEnabled = true
/// }
/// tester.finish()
/// ```
///
/// Failures are recorded with Swift Testing's `Issue.record` at the source location of the call
/// that found them; ``finish(fileID:filePath:line:column:)`` (or, when a spec forgets it, the
/// tester going away) fails on events never received and on state changes never stated.
///
/// ## Isolation
/// The tester is not `Sendable`: use it from the task of the spec that made it, on any actor or
/// none. Its async methods run on the caller's actor (`nonisolated(nonsending)`). Events may be
/// sent from any thread; they are kept under a lock in the order they were delivered. Work that
/// must run while the spec looks on (an upload waiting on a controllable store) is started with
/// ``start(_:fileID:filePath:line:column:)`` and awaited with
/// ``result(of:assert:fileID:filePath:line:column:)``; the tester itself never sleeps or polls.
public final class ViewModelTester<Model, State: Equatable> {
    /// The view model under test.
    public let model: Model
    /// How strictly the spec must state changes and events; it may change between steps.
    public var exhaustivity: Exhaustivity
    /// The state as the spec last stated it (or, in non-exhaustive mode, as last observed).
    public private(set) var state: State

    private let read: (Model) -> State
    private let streams: [EventStream<Model>]
    private let log = EmittedLog()
    private let observations: [Disposable]
    private let createdAt: SourceLocation
    private var isFinished = false

    /// Starts watching `model`: reads its state now and records the events of `events` from now on.
    ///
    /// - Parameters:
    ///   - model: the view model under test.
    ///   - exhaustivity: ``Exhaustivity/on`` (the default) or ``Exhaustivity/off``.
    ///   - read: makes the state value from the view model's properties.
    ///   - events: the signals whose events the spec must receive.
    ///   - fileID: where the tester is made, for the failure of a tester never finished.
    ///   - filePath: where the tester is made, for the failure of a tester never finished.
    ///   - line: where the tester is made, for the failure of a tester never finished.
    ///   - column: where the tester is made, for the failure of a tester never finished.
    public init(
        _ model: Model,
        exhaustivity: Exhaustivity = .on,
        state read: @escaping (Model) -> State,
        events: [EventStream<Model>] = [],
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) {
        self.model = model
        self.exhaustivity = exhaustivity
        self.read = read
        self.state = read(model)
        self.streams = events
        self.createdAt = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let log = log
        self.observations = events.enumerated().map { index, stream in
            stream.attach(model) { value in
                log.events.withLock { $0.append(Emitted(stream: index, value: value)) }
            }
        }
    }

    deinit {
        for observation in observations { observation.dispose() }
        if !isFinished {
            checkEnd(at: createdAt, why: "before the tester made here went away without finish()")
        }
    }

    // MARK: Steps

    /// Sends an input: runs `input` on the view model, then checks that the state changed exactly
    /// as `changes` says (applied to the last stated state).
    ///
    /// Before the input runs, events not yet received and state changes not yet stated fail the
    /// spec (in exhaustive mode). When `input` throws, the state is still checked, then the error
    /// is rethrown, so a refused input that changed something still fails.
    @discardableResult
    public func send<Result, Failure: Error>(
        _ input: (Model) throws(Failure) -> Result,
        assert changes: ((inout State) throws -> Void)? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) throws(Failure) -> Result {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        beginStep(at: location)
        let outcome: Swift.Result<Result, Failure>
        do throws(Failure) {
            outcome = .success(try input(model))
        } catch {
            outcome = .failure(error)
        }
        endStep(changes ?? { _ in }, at: location)
        return try outcome.get()
    }

    /// Sends an input that is async, awaits it, then checks the state as
    /// ``send(_:assert:fileID:filePath:line:column:)`` does.
    ///
    /// The input runs on the caller's actor.
    @discardableResult
    public nonisolated(nonsending) func send<Result, Failure: Error>(
        _ input: nonisolated(nonsending) (Model) async throws(Failure) -> Result,
        assert changes: ((inout State) throws -> Void)? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async throws(Failure) -> Result {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        beginStep(at: location)
        let outcome: Swift.Result<Result, Failure>
        do throws(Failure) {
            outcome = .success(try await input(model))
        } catch {
            outcome = .failure(error)
        }
        endStep(changes ?? { _ in }, at: location)
        return try outcome.get()
    }

    /// Starts async work (an upload) in a task and returns at once, so the spec can look at the
    /// view model while the work waits, for instance on a controllable store.
    ///
    /// State changes the work makes are stated with ``assert(_:fileID:filePath:line:column:)`` or
    /// ``result(of:assert:fileID:filePath:line:column:)``.
    public func start<Result: Sendable>(
        _ work: @escaping @Sendable (Model) async -> Result,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) -> Running<Result> where Model: Sendable {
        beginStep(at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        let model = self.model
        return Running(task: Task { await work(model) })
    }

    /// Waits for work begun with ``start(_:fileID:filePath:line:column:)`` to end, then checks
    /// that the state changed as `changes` says since it was last stated.
    @discardableResult
    public nonisolated(nonsending) func result<Result: Sendable>(
        of running: Running<Result>,
        assert changes: ((inout State) throws -> Void)? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async -> Result {
        let value = await running.task.value
        endStep(
            changes ?? { _ in },
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        return value
    }

    /// States a change that happened outside any input, such as work reaching a controllable
    /// store: the state must now be the last stated state with `changes` applied.
    public func assert(
        _ changes: (inout State) throws -> Void,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) {
        endStep(changes, at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Receives the oldest event not yet received: it must come from `signal` and equal `expected`.
    ///
    /// In non-exhaustive mode, older events of other signals, and of this one, that do not match
    /// are skipped.
    public func receive<Value: Equatable & Sendable>(
        _ signal: KeyPath<Model, Signal<Value>>, _ expected: Value,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) {
        receive(
            from: signal, expected, watchedAs: ".signal(\(shortName(signal)))",
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Receives the oldest event not yet received: it must be a change of the property at
    /// `property`, watched with ``EventStream/changes(_:named:)``, to `expected`.
    public func receive<Value: Equatable & Sendable>(
        _ property: KeyPath<Model, Property<Value>>, _ expected: Value,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) {
        receive(
            from: property, expected, watchedAs: ".changes(\(shortName(property)))",
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    private func receive<Value: Equatable & Sendable>(
        from keyPath: AnyKeyPath, _ expected: Value, watchedAs: String, at location: SourceLocation
    ) {
        guard let stream = streams.firstIndex(where: { $0.keyPath == keyPath }) else {
            fail(
                "\(shortName(keyPath)) is not watched: add \(watchedAs) to the tester's events", at: location)
            return
        }
        let name = streams[stream].name
        if exhaustivity.isExhaustive {
            let next = log.events.withLock { pending -> Emitted? in
                guard let first = pending.first, first.stream == stream else { return pending.first }
                return pending.removeFirst()
            }
            guard let next else {
                fail("Expected to receive \(name) \(dumped(expected)), but no event is waiting", at: location)
                return
            }
            guard next.stream == stream else {
                fail(
                    "Expected to receive \(name) \(dumped(expected)), but the next event is "
                        + "\(streams[next.stream].name) \(dumped(next.value))",
                    at: location)
                return
            }
            compare(expected, next.value, name: name, at: location)
        } else {
            let (skipped, found) = log.events.withLock { pending -> ([Emitted], Emitted?) in
                let match =
                    pending.firstIndex { $0.stream == stream && ($0.value as? Value) == expected }
                    ?? pending.firstIndex { $0.stream == stream }
                guard let match else { return ([], nil) }
                let skipped = Array(pending[..<match])
                let found = pending[match]
                pending.removeFirst(match + 1)
                return (skipped, found)
            }
            if !skipped.isEmpty, exhaustivity.showsSkipped {
                note("Skipped events not received:\n\(list(skipped))", at: location)
            }
            guard let found else {
                fail(
                    "Expected to receive \(name) \(dumped(expected)), but \(name) sent nothing", at: location)
                return
            }
            compare(expected, found.value, name: name, at: location)
        }
    }

    /// Ends the spec: fails on events never received and on state changes never stated.
    ///
    /// In non-exhaustive mode they are skipped (and noted as warnings when asked for).
    public func finish(
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) {
        isFinished = true
        checkEnd(
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column),
            why: "at the end of the spec")
    }

    /// The events sent but not yet received, oldest first, each as "name: value".
    public var unreceivedEvents: [String] {
        log.events.withLock { $0 }.map { "\(streams[$0.stream].name): \(dumped($0.value))" }
    }

    // MARK: Checks

    private func beginStep(at location: SourceLocation) {
        let skipped = log.events.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
        if !skipped.isEmpty {
            report(
                "\(count(skipped.count, "event")) sent before this step \(skipped.count == 1 ? "was" : "were") "
                    + "never received:\n\(list(skipped))",
                at: location)
        }
        let actual = read(model)
        if actual != state {
            report(
                "The state changed before this step and the change was never stated "
                    + "(- stated, + actual):\n\n\(difference(state, actual))",
                at: location)
            state = actual
        }
    }

    private func endStep(_ changes: (inout State) throws -> Void, at location: SourceLocation) {
        let actual = read(model)
        var expected = state
        do {
            try changes(&expected)
        } catch {
            fail("The assertion threw \(error)", at: location)
            state = actual
            return
        }
        if exhaustivity.isExhaustive {
            if expected != actual {
                fail(
                    "The state after this step is not what the spec states (- stated, + actual):\n\n"
                        + difference(expected, actual),
                    at: location)
            }
        } else {
            var stated = actual
            try? changes(&stated)
            if stated != actual {
                fail(
                    "The state after this step is not what the spec states (- stated, + actual):\n\n"
                        + difference(stated, actual),
                    at: location)
            } else if expected != actual, exhaustivity.showsSkipped {
                note(
                    "Changes not stated (- last stated, + actual):\n\n\(difference(expected, actual))",
                    at: location)
            }
        }
        state = actual
    }

    private func checkEnd(at location: SourceLocation, why: String) {
        let unreceived = log.events.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
        if !unreceived.isEmpty {
            report(
                "\(count(unreceived.count, "event")) \(unreceived.count == 1 ? "was" : "were") sent and never "
                    + "received \(why):\n\(list(unreceived))",
                at: location)
        }
        let actual = read(model)
        if actual != state {
            report(
                "The state changed and the change was never stated \(why) (- stated, + actual):\n\n"
                    + difference(state, actual),
                at: location)
            state = actual
        }
    }

    private func compare<Value: Equatable>(
        _ expected: Value, _ received: any Sendable, name: String, at location: SourceLocation
    ) {
        guard let value = received as? Value else {
            fail("Received \(name) \(dumped(received)), which is not a \(Value.self)", at: location)
            return
        }
        if value != expected {
            fail(
                "Received \(name) does not match (- expected, + received):\n\n\(difference(expected, value))",
                at: location)
        }
    }

    /// A failure in exhaustive mode, a warning (or nothing) otherwise.
    private func report(_ text: String, at location: SourceLocation) {
        if exhaustivity.isExhaustive {
            fail(text, at: location)
        } else if exhaustivity.showsSkipped {
            note(text, at: location)
        }
    }

    private func fail(_ text: String, at location: SourceLocation) {
        Issue.record(Comment(rawValue: text), sourceLocation: location)
    }

    private func note(_ text: String, at location: SourceLocation) {
        Issue.record(Comment(rawValue: text), severity: .warning, sourceLocation: location)
    }

    private func list(_ events: [Emitted]) -> String {
        events.map { event in
            let value = dumped(event.value).split(separator: "\n", omittingEmptySubsequences: false)
                .joined(separator: "\n  ")
            return "  \(streams[event.stream].name): \(value)"
        }
        .joined(separator: "\n")
    }
}

/// How strictly a ``ViewModelTester`` holds a spec to stating everything.
public struct Exhaustivity: Sendable, Equatable {
    /// Whether every change and every event must be stated.
    public let isExhaustive: Bool
    /// Whether what a non-exhaustive spec leaves unstated is recorded as warnings.
    public let showsSkipped: Bool

    /// Every change of the state and every event must be stated; anything else fails.
    public static let on = Exhaustivity(isExhaustive: true, showsSkipped: false)
    /// Only what the spec states is checked, for wide view models.
    ///
    /// A stated field must hold its stated value; write absolute values (`$0.count = 2`), since the
    /// changes are applied to the actual state. Unreceived events are skipped.
    public static let off = Exhaustivity(isExhaustive: false, showsSkipped: false)

    /// Non-exhaustive, and when `showSkipped` is true each unstated change or skipped event is
    /// recorded as a Swift Testing warning (it does not fail the spec).
    public static func off(showSkipped: Bool) -> Exhaustivity {
        Exhaustivity(isExhaustive: false, showsSkipped: showSkipped)
    }
}

/// A signal of a view model whose events a ``ViewModelTester`` records for the spec to receive.
public struct EventStream<Model> {
    let keyPath: AnyKeyPath
    let name: String
    let attach: (Model, @escaping @Sendable (any Sendable) -> Void) -> Disposable

    /// The events of the signal at `keyPath`, named `name` in failures (by default the key path).
    ///
    /// A spec receives them with `receive(\.loginRefused, "Enter a password")`.
    public static func signal<Value: Sendable>(
        _ keyPath: KeyPath<Model, Signal<Value>>, named name: String? = nil
    ) -> EventStream {
        EventStream(
            keyPath: keyPath, name: name ?? shortName(keyPath),
            attach: { model, sink in model[keyPath: keyPath].observeValues { sink($0) } })
    }

    /// Every change of the property at `keyPath` after the tester starts, as events: for a spec
    /// that pins the values a property passes through within one step, not only where it ends.
    ///
    /// A spec receives them with `receive(\.name, "darn")`.
    public static func changes<Value: Sendable>(
        _ keyPath: KeyPath<Model, Property<Value>>, named name: String? = nil
    ) -> EventStream {
        EventStream(
            keyPath: keyPath, name: name ?? "\(shortName(keyPath)) (change)",
            attach: { model, sink in model[keyPath: keyPath].changes.observeValues { sink($0) } })
    }
}

/// Work begun by ``ViewModelTester/start(_:fileID:filePath:line:column:)``.
public struct Running<Result: Sendable>: Sendable {
    let task: Task<Result, Never>

    /// Cancels the work's task.
    public func cancel() {
        task.cancel()
    }
}

/// The events received and not yet stated, shared with the observations that append to them.
final class EmittedLog: Sendable {
    let events = Mutex<[Emitted]>([])
}

struct Emitted: Sendable {
    let stream: Int
    let value: any Sendable
}

/// `\LoginViewModel.loginRefused` → `loginRefused`.
///
/// A computed component, which prints with its address, becomes `<computed>`.
private func shortName(_ keyPath: AnyKeyPath) -> String {
    var text = "\(keyPath)"
    if text.hasPrefix("\\"), let dot = text.firstIndex(of: ".") {
        text = String(text[text.index(after: dot)...])
    }
    while let start = text.range(of: "<computed "), let end = text[start.upperBound...].firstIndex(of: ">") {
        text.replaceSubrange(start.lowerBound...end, with: "<computed>")
    }
    return text
}

private func dumped(_ value: Any) -> String {
    String(customDumping: value)
}

private func difference<Value>(_ expected: Value, _ actual: Value) -> String {
    diff(expected, actual)
        ?? "  - \(dumped(expected))\n  + \(dumped(actual))\n  (equal dumps, unequal values)"
}

private func count(_ number: Int, _ noun: String) -> String {
    number == 1 ? "1 \(noun)" : "\(number) \(noun)s"
}
