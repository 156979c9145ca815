import Dispatch
import Glibc
import PlayerFormSystem
import Synchronization

/// The write end of the pipe that the SIGINT handler writes to.
///
/// An atomic, so that the handler reads it without locks.
private let interruptPipeWriteEnd = Atomic<Int32>(-1)
/// How many times SIGINT has arrived, counted by the handler itself.
private let interruptCount = Atomic<Int>(0)

/// Something that tells the REPL the user pressed Ctrl-C.
public protocol InterruptSource: Sendable {
    /// Makes `handler` what Ctrl-C does from now on; nil ignores Ctrl-C.
    func whileRunning(_ handler: (@Sendable () -> Void)?)
    /// How many times Ctrl-C has been pressed so far. It changes the moment the signal arrives,
    /// before any handler runs, so a reader can tell keys typed before Ctrl-C from keys after it.
    var count: Int { get }
}

/// Ctrl-C at a terminal, turned into an ordinary callback.
///
/// The SIGINT handler only writes a byte to a pipe (async-signal-safe); a dispatch source reads the
/// pipe and calls whatever handler is current: the line reader abandons its line, a running upload
/// is cancelled. Created only in interactive mode; in scripted mode Ctrl-C ends the program as usual.
public final class Interrupts: InterruptSource {
    private let handler = Mutex<(@Sendable () -> Void)?>(nil)
    // Set once in init; a dispatch source may be used from any thread.
    nonisolated(unsafe) private let source: any DispatchSourceRead

    /// Installs the SIGINT handler.
    ///
    /// Call once.
    public init() {
        let pipe = WakePipe()
        let readEnd = pipe.readEnd
        interruptPipeWriteEnd.store(pipe.writeEnd, ordering: .sequentiallyConsistent)
        source = DispatchSource.makeReadSource(
            fileDescriptor: readEnd, queue: DispatchQueue(label: "interrupts"))
        source.setEventHandler { [weak self] in
            WakePipe.drain(readEnd)
            self?.handler.withLock { $0 }?()
        }
        source.resume()

        Signals.install(SIGINT) { _ in
            interruptCount.add(1, ordering: .sequentiallyConsistent)
            WakePipe.wake(interruptPipeWriteEnd.load(ordering: .relaxed))
        }
    }

    /// How many times Ctrl-C has been pressed so far.
    public var count: Int { interruptCount.load(ordering: .sequentiallyConsistent) }

    /// Makes `handler` the thing Ctrl-C does from now on; nil ignores Ctrl-C.
    public func whileRunning(_ handler: (@Sendable () -> Void)?) {
        self.handler.withLock { $0 = handler }
    }
}
