import Dispatch
import Glibc
import PlayerFormSystem
import Synchronization

/// The signal that asked the program to end, 0 before one did.
private let endingSignal = Atomic<Int32>(0)
/// The write end of the pipe the handlers wake the ending thread through.
private let endingPipe = Atomic<Int32>(-1)
/// Whether a script's session is running its commands.
private let sessionRunning = Atomic<Bool>(false)

/// A script's session ends by a signal (Ctrl-C, `SIGTERM`, `SIGHUP`) only once what it printed is
/// written: its output is kept in memory between waits for input, so a script killed while its
/// commands ran lost every line acknowledging them.
///
/// The handlers only note the signal and wake a thread through a pipe (async-signal-safe). While
/// the session runs, it stops before its next command, or while it waits for a line (it asks
/// ``isRequested``); the program then writes out what it printed and ends by the same signal
/// (``endIfRequested(flush:)``), so its status still says which. A command that has not ended a
/// second later (an upload waiting for a lock) is not waited for: what was printed is written and
/// the program ends. Before the session runs (its store still opening), the program ends at once.
/// A signal the program was started with ignored (`nohup`) stays ignored.
enum FlushOnSignal {
    /// Routes the ending signals to the session and then to their default action; call once.
    static func install(flush: @escaping @Sendable () -> Void) {
        let pipe = WakePipe()
        guard pipe.readEnd >= 0 else { return }
        endingPipe.store(pipe.writeEnd, ordering: .sequentiallyConsistent)
        let source = DispatchSource.makeReadSource(
            fileDescriptor: pipe.readEnd, queue: DispatchQueue(label: "ending signals"))
        source.setEventHandler {
            WakePipe.drain(pipe.readEnd)
            let signal = endingSignal.load(ordering: .sequentiallyConsistent)
            guard signal != 0 else { return }
            guard sessionRunning.load(ordering: .sequentiallyConsistent) else {
                flush()
                Signals.endBy(signal)
            }
            // The session stops at its next command and ends the program; a command that takes
            // longer is not waited for.
            DispatchQueue.global().asyncAfter(deadline: .now() + 1) {
                // A reader that stops reading must not keep the program alive either.
                DispatchQueue.global().asyncAfter(deadline: .now() + 1) { Signals.endBy(signal) }
                flush()
                Signals.endBy(signal)
            }
        }
        source.resume()
        Kept.source = source
        for signal in [SIGINT, SIGTERM, SIGHUP] where !Signals.isIgnored(signal) {
            Signals.install(signal) { signal in
                endingSignal.store(signal, ordering: .sequentiallyConsistent)
                WakePipe.wake(endingPipe.load(ordering: .sequentiallyConsistent))
            }
        }
    }

    /// Whether a signal asked the program to end: the session stops at its next command.
    static var isRequested: Bool { endingSignal.load(ordering: .sequentiallyConsistent) != 0 }

    /// The session runs its commands (or has stopped): a signal then waits for it to stop.
    static func sessionRuns(_ running: Bool) {
        sessionRunning.store(running, ordering: .sequentiallyConsistent)
    }

    /// When a signal asked the program to end, writes out what was printed and ends by it.
    static func endIfRequested(flush: () -> Void) {
        let signal = endingSignal.load(ordering: .sequentiallyConsistent)
        guard signal != 0 else { return }
        flush()
        Signals.endBy(signal)
    }

    /// Keeps the dispatch source alive for the rest of the process.
    private enum Kept {
        nonisolated(unsafe) static var source: (any DispatchSourceRead)?
    }
}
