import Glibc
import PlayerFormSystem
import Synchronization
import Testing

@Suite("ThreadExecutor", .timeLimit(.minutes(10)))
struct ThreadExecutorTests {
    @Test("a task that prefers it, its child tasks and its resumptions run on the thread that runs it")
    func everyJobOnTheRunningThread() {
        let executor = ThreadExecutor()
        let seen = Mutex<[pthread_t]>([])
        Task(executorPreference: executor) {
            seen.withLock { $0.append(pthread_self()) }
            async let child = pthread_self()
            let fromChild = await child
            let fromGroup = await withTaskGroup(of: pthread_t.self) { group in
                group.addTask { pthread_self() }
                return await group.next()!
            }
            // A wait for a task on the global executor: the task comes back here afterwards.
            await Task.detached { _ = pthread_self() }.value
            let afterWaiting = pthread_self()
            seen.withLock { $0 += [fromChild, fromGroup, afterWaiting] }
            executor.stop()
        }
        executor.run()
        let here = pthread_self()
        let threads = seen.withLock { $0 }
        #expect(threads.count == 4)
        #expect(threads.allSatisfy { pthread_equal($0, here) != 0 })
    }

    @Test("run() runs the jobs in the order they came and returns at stop(), after those before it")
    func orderAndStop() {
        let executor = ThreadExecutor()
        let order = Order()
        for index in 0..<5 {
            Task(executorPreference: executor) { order.ran(index) }
        }
        executor.stop()
        Task(executorPreference: executor) { order.ran(99) }
        executor.run()
        #expect(order.indices == [0, 1, 2, 3, 4])
    }
}

/// The indices of the jobs that ran, in the order they ran.
private final class Order: Sendable {
    private let seen = Mutex<[Int]>([])
    func ran(_ index: Int) { seen.withLock { $0.append(index) } }
    var indices: [Int] { seen.withLock { $0 } }
}
