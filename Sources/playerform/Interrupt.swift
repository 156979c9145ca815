import Glibc
import PlayerFormSystem
import Synchronization

private let interruptRequested = Atomic<Bool>(false)

/// Ctrl-C handling: the first SIGINT only sets a flag that the readers check, so the command can
/// stop reading, print the summary of what it read, and exit with ``ValidationExit/interrupted``.
public enum Interrupt {
    /// Routes SIGINT to the flag.
    public static func install() {
        Signals.install(SIGINT) { _ in interruptRequested.store(true, ordering: .relaxed) }
    }

    /// Whether SIGINT arrived.
    public static var isRequested: Bool { interruptRequested.load(ordering: .relaxed) }
}
