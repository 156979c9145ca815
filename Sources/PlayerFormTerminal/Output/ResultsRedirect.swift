import PlayerFormSystem
import PlayerFormText
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The session's output, whose results `output FILE` (psql's `\o`, sqlite3's `.output` and
/// `.once`) sends to a file for a while; errors stay where they were.
///
/// Results sent to a file are plain text: the colours of the terminal, which only this program
/// writes (text from users reaches the output escaped), are left out.
final class ResultsRedirect: TerminalOutput {
    private struct State {
        /// The file results go to, its descriptor and how errors name it; nil: the base output.
        var file: (output: StandardOutput, descriptor: Int32)?
        /// Whether the file is for the next command only (`.once`).
        var once = false
        /// Whether the command the file is for once has started.
        var onceServing = false
    }

    /// Where everything goes when results are not sent to a file.
    let base: any TerminalOutput
    private let state = Mutex(State())

    init(base: any TerminalOutput) {
        self.base = base
    }

    /// Whether results are dropped, wherever they would go: while the start-up file runs.
    var isMuted: Bool {
        get { muted.load(ordering: .relaxed) }
        set { muted.store(newValue, ordering: .relaxed) }
    }
    private let muted = Atomic(false)

    /// Whether results go to a file now.
    var isRedirected: Bool { state.withLock { $0.file != nil } }

    /// Sends the results to the file at `path`, emptied first (made when missing), until
    /// ``restore()``; with `once`, until the next command ends (``commandEnded()``).
    ///
    /// - Returns: nil, or why the file cannot be written (the results stay where they were).
    func redirect(to path: String, once: Bool) -> String? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { return SystemError.text(errno) }
        let file = StandardOutput(
            buffered: true, results: descriptor, resultsName: TerminalText.escaped(path))
        let previous = state.withLock { state in
            defer { state = State(file: (file, descriptor), once: once) }
            return state.file
        }
        if let previous { Self.close(previous) }
        return nil
    }

    /// Sends the results where they went before the first ``redirect(to:once:)``.
    func restore() {
        let previous = state.withLock { state in
            defer { state = State() }
            return state.file
        }
        if let previous { Self.close(previous) }
    }

    /// Notes that a command starts: the command a `.once` file is for, when one is waiting.
    func commandStarting() {
        state.withLock { state in
            if state.once { state.onceServing = true }
        }
    }

    /// Ends a `.once` redirection after the command it was for.
    func commandEnded() {
        let ending = state.withLock { state -> (output: StandardOutput, descriptor: Int32)? in
            guard state.once, state.onceServing, let file = state.file else { return nil }
            state = State()
            return file
        }
        if let ending { Self.close(ending) }
    }

    private static func close(_ file: (output: StandardOutput, descriptor: Int32)) {
        file.output.flush()
        _ = Glibc.close(file.descriptor)
    }

    // MARK: TerminalOutput

    func write(_ line: String) {
        if isMuted { return }
        if let file = state.withLock({ $0.file?.output }) {
            file.write(TerminalStyle.withoutColours(line))
        } else {
            base.write(line)
        }
    }

    func writePart(_ text: String) {
        if isMuted { return }
        if let file = state.withLock({ $0.file?.output }) {
            file.writePart(TerminalStyle.withoutColours(text))
        } else {
            base.writePart(text)
        }
    }

    func writeError(_ line: String) { base.writeError(line) }

    func writeError(_ message: String, prefix: String) { base.writeError(message, prefix: prefix) }

    func flush() {
        state.withLock { $0.file?.output }?.flush()
        base.flush()
    }

    var dropsResults: Bool {
        if let file = state.withLock({ $0.file?.output }) { return file.dropsResults }
        return base.dropsResults
    }
}
