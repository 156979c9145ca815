import Glibc
import PlayerFormSystem
import ReactiveCore
import ReactiveCoreTesting
import Synchronization
import Testing

/// A gate that lets a spec hold asynchronous work until it says so.
private final class Gate: Sendable {
    private let waiting = Mutex<[CheckedContinuation<Void, Never>]>([])
    private let arrivals = Mutex<[CheckedContinuation<Void, Never>]>([])
    private let arrived = Mutex(0)

    func wait() async {
        await withCheckedContinuation { continuation in
            let watchers = waiting.withLock { waiting in
                waiting.append(continuation)
                return arrivals.withLock { arrivals in
                    defer { arrivals.removeAll() }
                    return arrivals
                }
            }
            arrived.withLock { $0 += 1 }
            for watcher in watchers { watcher.resume() }
        }
    }

    /// Returns once some work is waiting at the gate.
    func untilSomeoneWaits() async {
        await withCheckedContinuation { continuation in
            let already = waiting.withLock { waiting -> Bool in
                if !waiting.isEmpty { return true }
                arrivals.withLock { $0.append(continuation) }
                return false
            }
            if already { continuation.resume() }
        }
    }

    func open() {
        let all = waiting.withLock { waiting in
            defer { waiting.removeAll() }
            return waiting
        }
        for continuation in all { continuation.resume() }
    }
}

private struct Boom: Error, Equatable {}

@Suite("Action", .timeLimit(.minutes(10)))
struct ActionTests {
    @Test("isEnabled is enabledIf and not executing")
    func isEnabled() async throws {
        let allowed = MutableProperty(false)
        let gate = Gate()
        let action = Action<Int, Int>(enabledIf: allowed.readOnly) { input in
            await gate.wait()
            return input * 2
        }
        let enabled = Recorder(action.isEnabled)
        let executing = Recorder(action.isExecuting)
        #expect(enabled.values == [false])
        allowed.value = true
        #expect(enabled.values == [false, true])

        async let result = action.apply(21)
        await gate.untilSomeoneWaits()
        #expect(action.isExecuting.value)
        #expect(enabled.values == [false, true, false])
        gate.open()
        #expect(try await result == 42)
        #expect(executing.values == [false, true, false])
        #expect(enabled.values == [false, true, false, true])
    }

    @Test("applying a disabled action runs nothing and fails with disabled")
    func disabledRunsNothing() async {
        let runs = Mutex(0)
        let action = Action<Void, Void>(enabledIf: Property(value: false)) {
            runs.withLock { $0 += 1 }
        }
        await #expect(throws: ActionError.self) { try await action.apply(()) }
        do {
            try await action.apply(())
            Issue.record("a disabled action must throw")
        } catch {
            #expect(error.isDisabled)
        }
        #expect(runs.withLock { $0 } == 0)
        #expect(!action.isExecuting.value)
    }

    @Test("applying while executing fails with disabled and does not start a second run")
    func busyIsDisabled() async throws {
        let gate = Gate()
        let runs = Mutex(0)
        let action = Action<Void, Int> {
            runs.withLock { $0 += 1 }
            await gate.wait()
            return 1
        }
        async let first = action.apply(())
        await gate.untilSomeoneWaits()
        do {
            try await action.apply(())
            Issue.record("a busy action must refuse")
        } catch {
            #expect(error.isDisabled)
        }
        gate.open()
        #expect(try await first == 1)
        #expect(runs.withLock { $0 } == 1)
    }

    @Test("outputs go to values and failures to errors, before isExecuting turns false")
    func valuesAndErrors() async {
        let fail = MutableProperty(false)
        let action = Action<Int, Int> { [fail] input in
            if fail.value { throw Boom() }
            return input + 1
        }
        let values = Recorder(action.values)
        let errors = Recorder(action.errors)
        let order = Mutex<[String]>([])
        action.values.observeValues { [action] _ in
            order.withLock { $0.append("value while executing: \(action.isExecuting.value)") }
        }
        _ = try? await action.apply(1)
        fail.value = true
        _ = try? await action.apply(2)
        #expect(values.values == [2])
        #expect(errors.values.count == 1)
        if case .failed(let error) = errors.values.first {
            #expect(error is Boom)
        } else {
            Issue.record("expected a failure, got \(errors.values)")
        }
        #expect(order.withLock { $0 } == ["value while executing: true"])
    }

    @Test("the work is cancellable: cancel() ends it with cancelled")
    func cancellation() async {
        let gate = Gate()
        let action = Action<Void, Int> {
            await gate.wait()
            try Task.checkCancellation()
            return 1
        }
        let errors = Recorder(action.errors)
        let running = Task { try await action.apply(()) }
        await gate.untilSomeoneWaits()
        action.cancel()
        gate.open()
        let result = await running.result
        #expect(throws: ActionError.self) { try result.get() }
        #expect(errors.values.first?.isCancelled == true)
        #expect(!action.isExecuting.value)
    }

    @Test("cancelling the task that applies the action cancels the work")
    func cancellationThroughTask() async {
        let gate = Gate()
        let action = Action<Void, Int> {
            await gate.wait()
            try Task.checkCancellation()
            return 1
        }
        let running = Task { try await action.apply(()) }
        await gate.untilSomeoneWaits()
        running.cancel()
        gate.open()
        do {
            _ = try await running.value
            Issue.record("cancelled work must not return a value")
        } catch let error as ActionError {
            #expect(error.isCancelled)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("a cancel() sent as soon as the action starts executing is not lost")
    func cancelRightAtTheStart() async {
        let gate = Gate()
        let action = Action<Void, Int> {
            await gate.wait()
            try Task.checkCancellation()
            return 1
        }
        action.isExecuting.changes.observeValues { [action] executing in
            if executing { action.cancel() }
        }
        let running = Task { try await action.apply(()) }
        await gate.untilSomeoneWaits()
        gate.open()
        do {
            _ = try await running.value
            Issue.record("the work was cancelled before it could finish")
        } catch let error as ActionError {
            #expect(error.isCancelled)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("a cancel() after an execution ended does not cancel the next one")
    func lateCancelDoesNotLinger() async throws {
        let action = Action<Int, Int> { $0 }
        #expect(try await action.apply(1) == 1)
        action.cancel()
        #expect(try await action.apply(2) == 2)
    }

    @Test("a refused apply announces nothing: isExecuting changes only when it really changes")
    func refusedApplyIsSilent() async throws {
        let gate = Gate()
        let action = Action<Void, Int> {
            await gate.wait()
            return 1
        }
        let executing = Recorder(changesOf: action.isExecuting)
        async let first = action.apply(())
        await gate.untilSomeoneWaits()
        _ = try? await action.apply(())
        gate.open()
        _ = try await first
        #expect(executing.values == [true, false])
    }
}

@Suite("Action's work", .timeLimit(.minutes(10)))
struct ActionWorkTests {
    @Test("the work starts on the applying thread and stays there until it first suspends")
    func workStartsOnTheApplyingThread() {
        let executor = ThreadExecutor()
        let action = Action<Void, pthread_t> { pthread_self() }
        let threads = Mutex<(applying: pthread_t, working: pthread_t?)?>(nil)
        // The applying task's jobs run on this thread only; the work would need another thread
        // if it did not start at once.
        Task(executorPreference: executor) {
            let applying = pthread_self()
            let working = try? await action.apply(())
            threads.withLock { $0 = (applying, working) }
            executor.stop()
        }
        executor.run()
        let seen = threads.withLock { $0 }
        #expect(seen?.working.map { pthread_equal($0, pthread_self()) != 0 } == true)
        #expect(seen.map { pthread_equal($0.applying, pthread_self()) != 0 } == true)
    }

    @Test("work applied by a task already cancelled starts cancelled")
    func cancelledCallerCancelledWork() async throws {
        let action = Action<Void, Bool> { Task.isCancelled }
        let applying = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await action.apply(())
        }
        #expect(try await applying.value == true)
    }
}
