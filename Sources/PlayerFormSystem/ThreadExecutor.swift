import Dispatch
import Synchronization

/// A task executor whose jobs all run on one thread: the thread that calls ``run()``.
///
/// A task given it as its executor preference (`Task(executorPreference:)`), and that task's
/// child tasks (`async let`, task groups), run their jobs there, one at a time, in the order they
/// were enqueued; so does a task's resumption after it waited. Unstructured tasks they start
/// (`Task {}`) and actors with executors of their own run elsewhere, as usual.
///
/// The program runs its command on its main thread this way, so that a short command starts no
/// thread at all: handing the command to the global executor started a worker, libdispatch's
/// manager and its monitor of workers, each a context switch away.
///
/// ```swift
/// let executor = ThreadExecutor()
/// Task(executorPreference: executor) {
///     await command()
///     executor.stop()
/// }
/// executor.run()
/// ```
public final class ThreadExecutor: TaskExecutor, Sendable {
    /// The jobs to run, oldest first; nil asks ``run()`` to return.
    private let jobs = Mutex<[UnownedJob?]>([])
    /// Signalled once for each entry of `jobs`.
    private let ready = DispatchSemaphore(value: 0)

    /// An executor with no job yet; nothing runs until a thread calls ``run()``.
    public init() {}

    /// Queues `job` for the thread that runs the executor.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        ready.signal()
    }

    /// Asks ``run()`` to return once the jobs enqueued before this call have run.
    public func stop() {
        jobs.withLock { $0.append(nil) }
        ready.signal()
    }

    /// Runs the jobs on the calling thread, in order, until ``stop()``.
    ///
    /// Waits while there is no job. Call it from one thread.
    public func run() {
        while true {
            ready.wait()
            guard let job = jobs.withLock({ $0.removeFirst() }) else { return }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
