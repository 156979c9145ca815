import Dispatch
import Glibc
import PlayerFormSystem
import Synchronization

/// The signal that asked the program to end, for the thread that ends it.
private let endingSignal = Atomic<Int32>(0)
/// The write end of the pipe the handlers wake that thread through.
private let endingPipe = Atomic<Int32>(-1)

/// A script's session ends by a signal (Ctrl-C, `SIGTERM`, `SIGHUP`) only once what it printed is
/// written: its output is kept in memory between waits for input, so a script killed while its
/// commands ran lost every line acknowledging them.
///
/// The handlers only note the signal and wake a thread through a pipe (async-signal-safe); that
/// thread writes the output out and ends the program by the same signal, so its status still says
/// which, within a second even when the output's reader has stopped reading. A signal the program
/// was started with ignored (`nohup`) stays ignored.
enum FlushOnSignal {
    /// Routes the ending signals to `flush`, then to their default action; call once.
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
            // A reader that stops reading must not keep the program alive: a second later it
            // ends whatever was written.
            DispatchQueue.global().asyncAfter(deadline: .now() + 1) { Signals.endBy(signal) }
            flush()
            Signals.endBy(signal)
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

    /// Keeps the dispatch source alive for the rest of the process.
    private enum Kept {
        nonisolated(unsafe) static var source: (any DispatchSourceRead)?
    }
}
