import PlayerFormSystem
import PlayerFormText
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The session's output, whose results `output FILE` (psql's `\o`, sqlite3's `.output`) and
/// `once FILE` (sqlite3's `.once`) send to a file for a while; errors stay where they were.
///
/// Results sent to a file are plain text: the colours of the terminal, which only this program
/// writes (text from users reaches the output escaped), are left out. The file is flushed after
/// every command, and a write that fails ends the redirection, said once.
final class ResultsRedirect: TerminalOutput {
    /// A file results go to.
    private struct File {
        let output: StandardOutput
        let descriptor: Int32
        /// For `once`: how deep in sourced files the command it is for runs, and whether that
        /// command has started.
        var depth = 0
        var serving = false
    }

    private struct State {
        /// The file of `output FILE`; nil: the base output.
        var file: File?
        /// The file of `once FILE`, before `file` for the next command.
        var once: File?
    }

    /// Where everything goes when results are not sent to a file.
    let base: any TerminalOutput
    private let state = Mutex(State())
    private let muted = Atomic(false)

    init(base: any TerminalOutput) {
        self.base = base
    }

    /// Whether results are dropped, wherever they would go: while the start-up file runs.
    var isMuted: Bool {
        get { muted.load(ordering: .relaxed) }
        set { muted.store(newValue, ordering: .relaxed) }
    }

    /// Whether results go to a file now.
    var isRedirected: Bool { state.withLock { $0.file != nil || $0.once != nil } }

    /// Sends the results to the file at `path`, emptied first (made when missing): until
    /// ``restore()``, or with `onceAt`, for the next command run that many sourced files deep
    /// only, after which they go where they went before.
    ///
    /// A FIFO that no program reads is refused at once instead of waiting for one.
    /// - Returns: nil, or why the file cannot be written (the results stay where they were).
    func redirect(to path: String, onceAt depth: Int? = nil) -> String? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0o666)
        guard descriptor >= 0 else {
            return errno == ENXIO ? "it is a FIFO that no program reads" : SystemError.text(errno)
        }
        // Writes wait for a slow reader as any output does; a reader gone from a FIFO is a
        // failed write (EPIPE), not the end of the program.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        Signals.ignore(SIGPIPE)
        let output = StandardOutput(
            buffered: true, results: descriptor, resultsName: TerminalText.escaped(path),
            endsOnBrokenPipe: false)
        let replaced = state.withLock { state -> File? in
            if let depth {
                defer { state.once = File(output: output, descriptor: descriptor, depth: depth) }
                return state.once
            }
            defer { state.file = File(output: output, descriptor: descriptor) }
            return state.file
        }
        if let replaced { Self.close(replaced) }
        return nil
    }

    /// Sends the results where they went before the first ``redirect(to:onceAt:)``.
    func restore() {
        let closed = state.withLock { state in
            defer { state = State() }
            return [state.once, state.file].compactMap { $0 }
        }
        for file in closed { Self.close(file) }
    }

    /// Notes that a command starts `depth` sourced files deep: the command a `once` file is for,
    /// when one waits at that depth.
    func commandStarting(depth: Int) {
        state.withLock { state in
            if state.once?.depth == depth { state.once?.serving = true }
        }
    }

    /// After a command run `depth` sourced files deep: flushes the file results go to, ends a
    /// `once` file after the command it was for, and ends a redirection whose writes failed.
    ///
    /// - Returns: whether a write to the file failed (said once on standard error, naming it).
    func commandEnded(depth: Int) -> Bool {
        let (current, ending) = state.withLock { state -> (File?, File?) in
            if let once = state.once, once.serving, once.depth == depth {
                state.once = nil
                return (state.file, once)
            }
            return (state.once ?? state.file, nil)
        }
        var failed = false
        if let ending {
            Self.close(ending)
            failed = ending.output.writeFailed
        }
        if let current {
            current.output.flush()
            if current.output.writeFailed {
                failed = true
                restore()
            }
        }
        return failed
    }

    private static func close(_ file: File) {
        file.output.flush()
        _ = Glibc.close(file.descriptor)
    }

    /// The file results go to now, if any.
    private var current: StandardOutput? { state.withLock { ($0.once ?? $0.file)?.output } }

    // MARK: TerminalOutput

    func write(_ line: String) {
        if isMuted { return }
        if let file = current {
            file.write(TerminalStyle.withoutColours(line))
        } else {
            base.write(line)
        }
    }

    func writePart(_ text: String) {
        if isMuted { return }
        if let file = current {
            file.writePart(TerminalStyle.withoutColours(text))
        } else {
            base.writePart(text)
        }
    }

    func writeError(_ line: String) { base.writeError(line) }

    func writeError(_ message: String, prefix: String) { base.writeError(message, prefix: prefix) }

    func flush() {
        current?.flush()
        base.flush()
    }

    var dropsResults: Bool {
        if let file = current { return file.dropsResults }
        return base.dropsResults
    }
}
