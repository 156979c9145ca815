import Synchronization

/// Why an ``Action`` did not produce a value.
public enum ActionError: Error, CustomStringConvertible, Sendable {
    /// The action was applied while disabled or already executing; nothing ran.
    case disabled
    /// The work was cancelled before it finished.
    case cancelled
    /// The work failed with an error.
    case failed(any Error)

    /// Why the action produced no value: disabled, cancelled, or the work's error.
    public var description: String {
        switch self {
        case .disabled: "the action is disabled"
        case .cancelled: "the action was cancelled"
        case .failed(let error): "\(error)"
        }
    }

    /// Whether this is ``disabled``.
    public var isDisabled: Bool {
        if case .disabled = self { return true }
        return false
    }

    /// Whether this is ``cancelled``.
    public var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }
}

/// A command: asynchronous work that can run only while it is enabled, one execution at a time.
///
/// ``isEnabled`` is `enabledIf && !isExecuting`. Applying the action while it is disabled runs
/// nothing and throws ``ActionError/disabled``. The work runs as a task of its own, which starts
/// on the applying thread and stays there until it first suspends. Each execution sends its
/// output on ``values`` or its failure on ``errors`` before ``isExecuting`` returns to `false`.
///
/// ```swift
/// let save = Action(enabledIf: form.isValid) { (entry: Entry) in try await store.save(entry) }
/// let record = try await save.apply(entry)
/// ```
public final class Action<Input: Sendable, Output: Sendable>: Sendable {
    /// Whether an execution is running.
    public let isExecuting: Property<Bool>
    /// Whether applying the action would run it.
    public let isEnabled: Property<Bool>
    /// The output of every successful execution.
    public let values: Signal<Output>
    /// The failure of every execution that failed or was cancelled.
    public let errors: Signal<ActionError>

    private let executing = MutableProperty(false)
    private let enabledIf: Property<Bool>
    private let work: @Sendable (Input) async throws -> Output
    private let valuesInput: Signal<Output>.Input
    private let errorsInput: Signal<ActionError>.Input
    /// The running task, and whether ``cancel()`` came before the task was stored.
    private let running = Mutex<(task: Task<Output, any Error>?, cancelRequested: Bool)>((nil, false))

    /// Creates an action that runs `execute` while `enabledIf` is true.
    public init(
        enabledIf: Property<Bool> = Property(value: true),
        execute: @escaping @Sendable (Input) async throws -> Output
    ) {
        self.enabledIf = enabledIf
        self.work = execute
        isExecuting = executing.readOnly
        isEnabled = Property.combineLatest(enabledIf, executing.readOnly) { $0 && !$1 }.skipRepeats()
        (values, valuesInput) = Signal<Output>.pipe()
        (errors, errorsInput) = Signal<ActionError>.pipe()
    }

    /// Runs the work with `input` and returns its output.
    ///
    /// Cancelling the calling task, or calling ``cancel()``, cancels the work.
    /// - Throws: ``ActionError/disabled`` when the action is not enabled (nothing runs);
    ///   ``ActionError/cancelled`` or ``ActionError/failed(_:)`` when the work does not finish.
    @discardableResult
    public func apply(_ input: Input) async throws(ActionError) -> Output {
        let enabledIf = self.enabledIf
        let started = executing.update { isExecuting -> Bool in
            guard !isExecuting, enabledIf.value else { return false }
            isExecuting = true
            self.running.withLock { $0 = (nil, false) }
            return true
        }
        guard started else { throw .disabled }

        let work = self.work
        // The work starts at once, on this thread, and runs here until it first suspends: work
        // that never does (a store answering from memory or a local file) costs no hop to another
        // thread and back. A caller already cancelled gets work that starts cancelled.
        let cancelledAlready = Task.isCancelled
        let task = Task.immediate {
            if cancelledAlready { withUnsafeCurrentTask { $0?.cancel() } }
            return try await work(input)
        }
        // A cancel() from an observer of isExecuting, or from another thread, may come before the
        // task exists; it is remembered and honoured here.
        let cancelledEarly = self.running.withLock { running -> Bool in
            running.task = task
            return running.cancelRequested
        }
        if cancelledEarly { task.cancel() }
        let result = await withTaskCancellationHandler {
            await task.result
        } onCancel: {
            task.cancel()
        }
        // The task stays visible to cancel() until isExecuting is false, so a late cancel() finds a
        // finished task rather than leaving a request behind for the next execution. An observer
        // of isExecuting may already have started that next execution: leave its task alone.
        defer {
            self.running.withLock { running in
                if running.task == task { running = (nil, false) }
            }
        }

        switch result {
        case .success(let output):
            valuesInput.send(output)
            executing.value = false
            return output
        case .failure(let error):
            let failure: ActionError =
                error is CancellationError || task.isCancelled ? .cancelled : .failed(error)
            errorsInput.send(failure)
            executing.value = false
            throw failure
        }
    }

    /// Cancels the running execution, if any, even one that has only just started.
    public func cancel() {
        // Read before taking `running`: apply takes the executing lock, then `running`.
        let executingNow = isExecuting.value
        let task = running.withLock { running -> Task<Output, any Error>? in
            if running.task == nil, executingNow { running.cancelRequested = true }
            return running.task
        }
        task?.cancel()
    }
}
