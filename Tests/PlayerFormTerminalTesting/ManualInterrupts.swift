import PlayerFormTerminal
import Synchronization

/// Ctrl-C pressed by a spec: ``press()`` runs whatever the REPL asked Ctrl-C to do.
public final class ManualInterrupts: InterruptSource {
    private let handler = Mutex<(@Sendable () -> Void)?>(nil)
    private let presses = Mutex(0)

    /// Creates a source with nothing to do yet.
    public init() {}

    /// Makes `handler` what ``press()`` runs from now on; nil makes a press do nothing.
    public func whileRunning(_ handler: (@Sendable () -> Void)?) {
        self.handler.withLock { $0 = handler }
    }

    /// How many times ``press()`` has been called.
    public var count: Int { presses.withLock { $0 } }

    /// Presses Ctrl-C.
    ///
    /// Returns whether anything was listening.
    @discardableResult
    public func press() -> Bool {
        presses.withLock { $0 += 1 }
        guard let handler = handler.withLock({ $0 }) else { return false }
        handler()
        return true
    }
}
