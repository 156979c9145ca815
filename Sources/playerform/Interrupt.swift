import Glibc
import PlayerFormSystem
import Synchronization

private let interruptRequested = Atomic<Bool>(false)

/// Ctrl-C handling for `validate` and `import`.
///
/// The first SIGINT only sets a flag that the readers check, so the command can stop reading,
/// print the summary of what it read (and `import` commit it), and exit with
/// ``ValidationExit/interrupted``. A second
/// SIGINT ends the program at once, by the signal, for a command held where no flag is read
/// (findings written to an output no one reads).
public enum Interrupt {
    /// Routes SIGINT to the flag.
    public static func install() {
        Signals.install(SIGINT) { signal in
            guard interruptRequested.exchange(true, ordering: .sequentiallyConsistent) else { return }
            Glibc.signal(signal, SIG_DFL)
            raise(signal)
        }
    }

    /// Whether SIGINT arrived.
    public static var isRequested: Bool { interruptRequested.load(ordering: .relaxed) }
}
