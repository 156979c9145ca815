import Glibc
import PlayerFormSystem
import Synchronization

/// The signal that asked the program to end, 0 before one did.
private let endingSignal = Atomic<Int32>(0)
/// Whether a script's session is running its commands.
private let sessionRunning = Atomic<Bool>(false)

/// A script's session ends by a signal (Ctrl-C, `SIGTERM`, `SIGHUP`) only once what it printed is
/// written: its output is kept in memory between waits for input, so a script killed while its
/// commands ran lost every line acknowledging them.
///
/// While the session runs, the handler only notes the signal (an atomic store, async-signal-safe);
/// the session stops before its next command, or while it waits for a line (it asks
/// ``isRequested``), and the program then writes out what it printed and ends by the same signal
/// (``endIfRequested(flush:)``), so its status still says which. A wait for a database another
/// process holds stops at the first signal (the store asks ``isRequested``). A second signal, for
/// an output no one reads, ends the program at once, as does a signal before the session runs
/// (its store still opening). A signal the program was started with ignored (`nohup`) stays
/// ignored.
enum FlushOnSignal {
    /// Routes the ending signals to the session; call once.
    static func install() {
        for signal in [SIGINT, SIGTERM, SIGHUP] where !Signals.isIgnored(signal) {
            Signals.install(signal) { signal in
                if sessionRunning.load(ordering: .sequentiallyConsistent),
                    endingSignal.compareExchange(
                        expected: 0, desired: signal, ordering: .sequentiallyConsistent
                    )
                    .exchanged
                {
                    return
                }
                // Before the session runs, or a second time: the default action, at once.
                Glibc.signal(signal, SIG_DFL)
                raise(signal)
            }
        }
    }

    /// Whether a signal asked the program to end: the session stops at its next command.
    static var isRequested: Bool { endingSignal.load(ordering: .sequentiallyConsistent) != 0 }

    /// The session runs its commands, or has stopped.
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
}
