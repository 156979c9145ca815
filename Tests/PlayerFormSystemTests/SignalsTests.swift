import Glibc
import PlayerFormSystem
import Synchronization
import Testing

private let usr1Count = Atomic<Int>(0)
private let usr1WakeEnd = Atomic<Int32>(-1)

@Suite("Signal handlers", .serialized)
struct SignalsTests {
    @Test("a handler installed with sigaction runs on the signal, writes to its wake pipe, and is restored")
    func installAndRestore() throws {
        let pipe = WakePipe()
        #expect(pipe.readEnd >= 0 && pipe.writeEnd >= 0)
        defer {
            close(pipe.readEnd)
            close(pipe.writeEnd)
        }
        usr1WakeEnd.store(pipe.writeEnd, ordering: .sequentiallyConsistent)
        let before = usr1Count.load(ordering: .sequentiallyConsistent)
        let previous = Signals.install(SIGUSR1) { _ in
            usr1Count.add(1, ordering: .sequentiallyConsistent)
            WakePipe.wake(usr1WakeEnd.load(ordering: .relaxed))
        }
        withUnblocked(SIGUSR1) { _ = raise(SIGUSR1) }
        #expect(usr1Count.load(ordering: .sequentiallyConsistent) == before + 1)
        var byte: UInt8 = 1
        #expect(read(pipe.readEnd, &byte, 1) == 1)
        // Non-blocking: an empty pipe says so at once instead of waiting.
        #expect(read(pipe.readEnd, &byte, 1) == -1)
        Signals.restore(SIGUSR1, previous)
        var current = sigaction()
        sigaction(SIGUSR1, nil, &current)
        #expect(
            unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
                == unsafeBitCast(SIG_DFL, to: Int.self))
    }

    @Test("ignore makes a signal ignored until restored")
    func ignoreAndRestore() {
        #expect(!Signals.isIgnored(SIGVTALRM))
        let previous = Signals.ignore(SIGVTALRM)
        #expect(Signals.isIgnored(SIGVTALRM))
        withUnblocked(SIGVTALRM) { _ = raise(SIGVTALRM) }  // would end the process if not ignored
        Signals.restore(SIGVTALRM, previous)
        #expect(!Signals.isIgnored(SIGVTALRM))
    }

    @Test("drain empties the wake pipe of every waiting byte")
    func drain() {
        let pipe = WakePipe()
        defer {
            close(pipe.readEnd)
            close(pipe.writeEnd)
        }
        for _ in 0..<200 { WakePipe.wake(pipe.writeEnd) }
        WakePipe.drain(pipe.readEnd)
        var byte: UInt8 = 0
        #expect(read(pipe.readEnd, &byte, 1) == -1)
        WakePipe.wake(-1)  // no pipe: nothing happens
    }
}

/// Runs `body` with `signal` unblocked on this thread: the test runner's threads block signals,
/// and a blocked signal would wait instead of reaching its handler.
func withUnblocked<Result>(_ signal: Int32, _ body: () throws -> Result) rethrows -> Result {
    var only = sigset_t()
    sigemptyset(&only)
    sigaddset(&only, signal)
    var saved = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &only, &saved)
    defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
    return try body()
}
