import Glibc

/// Signal handling: handlers installed with `sigaction(2)`, what they replaced, and a pipe a
/// handler can write to.
///
/// A handler runs in the middle of whatever the process was doing, so it may only do
/// async-signal-safe work: set an atomic flag, or write a byte to a ``WakePipe`` that a reader
/// waits on.
public enum Signals {
    /// What a signal did before ``install(_:_:)`` or ``ignore(_:)`` changed it.
    public struct Previous: @unchecked Sendable {
        // @unchecked: a plain C struct, copied by value.
        fileprivate var action: sigaction
    }

    /// Makes `handler` what `signal` does, restarting system calls it interrupts (`SA_RESTART`).
    /// - Returns: what the signal did before, for ``restore(_:_:)``.
    @discardableResult
    public static func install(_ signal: Int32, _ handler: @escaping @convention(c) (Int32) -> Void)
        -> Previous
    {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        return set(signal, &action)
    }

    /// Makes `signal` ignored: a write to a pipe whose reader is gone then fails with `EPIPE`
    /// instead of ending the process, for `SIGPIPE`.
    /// - Returns: what the signal did before, for ``restore(_:_:)``.
    @discardableResult
    public static func ignore(_ signal: Int32) -> Previous {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_IGN
        return set(signal, &action)
    }

    /// Gives `signal` back what it did before.
    public static func restore(_ signal: Int32, _ previous: Previous) {
        var action = previous.action
        sigaction(signal, &action, nil)
    }

    /// Whether `signal` is ignored now; one ignored when the program started (`nohup`) is.
    public static func isIgnored(_ signal: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0 else { return false }
        let handler = current.__sigaction_handler.sa_handler
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// Ends the process by `signal` with its default action, so that its status says which signal
    /// it was: as `cat` ends by `SIGPIPE` when its reader has gone.
    ///
    /// Exits with 128 + `signal` if the signal does not end it.
    public static func endBy(_ signal: Int32) -> Never {
        Glibc.signal(signal, SIG_DFL)
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, signal)
        sigprocmask(SIG_UNBLOCK, &only, nil)
        raise(signal)
        _exit(128 + signal)
    }

    private static func set(_ signal: Int32, _ action: inout sigaction) -> Previous {
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        var previous = sigaction()
        sigaction(signal, &action, &previous)
        return Previous(action: previous)
    }
}

/// A pipe that a signal handler writes a byte to, so that a reader waiting on its other end
/// (a dispatch source, `poll(2)`) wakes up: the self-pipe pattern.
///
/// Both ends are non-blocking and closed on `exec`. Each signal handler keeps the write end in a
/// global atomic, since a C handler captures nothing.
public struct WakePipe: Sendable {
    /// The end to read (and drain) in the reader; -1 when the pipe could not be made.
    public let readEnd: Int32
    /// The end the handler writes to with ``wake(_:)``; -1 when the pipe could not be made.
    public let writeEnd: Int32

    /// Makes the pipe.
    public init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 { ends = [-1, -1] }
        for end in ends where end >= 0 {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// Writes one byte to `writeEnd`, keeping `errno`; async-signal-safe.
    ///
    /// Does nothing for -1, and drops the byte when the pipe is full (the reader has wake-ups waiting
    /// anyway).
    public static func wake(_ writeEnd: Int32) {
        guard writeEnd >= 0 else { return }
        var byte: UInt8 = 0
        let saved = errno
        _ = write(writeEnd, &byte, 1)
        errno = saved
    }

    /// Reads every byte waiting in `readEnd`.
    public static func drain(_ readEnd: Int32) {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &bytes, bytes.count) > 0 {}
    }
}
