import CReadline
import Dispatch
import Glibc
import Synchronization

/// The write end of the reader's wake-up pipe, for the SIGCONT handler.
private let continueWakeEnd = Atomic<Int32>(-1)

/// Reads lines with GNU readline: editing, tab completion of commands and `help` topics,
/// persistent history, `~/.inputrc` under the name `playerform`, and Ctrl-C to abandon a line.
///
/// Readline keeps its state in C globals, so every readline call runs on one serial queue, and
/// only one reader may exist. Readline's own signal handlers are off; Ctrl-C comes through
/// ``Interrupts``. The reader uses readline's callback interface, so it can wait for a key and for
/// Ctrl-C at the same time.
public final class ReadlineLineReader: LineReader, @unchecked Sendable {
    // @unchecked: the mutable state is readline's, and it is touched only on `queue`.
    private let queue = DispatchQueue(label: "readline")
    private let history: HistoryFile
    private let interrupts: any InterruptSource
    private let wake: (read: Int32, write: Int32)
    private let warn: @Sendable (String) -> Void
    private var hasReadALine = false
    /// Lines to show above the prompt, from ``showAbovePrompt(_:)``.
    private let above = Mutex<[String]>([])

    /// Creates the reader.
    /// - Parameters:
    ///   - history: where history is kept.
    ///   - interrupts: the source of Ctrl-C.
    ///   - warn: where to say that the history file cannot be used.
    public init(
        history: HistoryFile, interrupts: any InterruptSource, warn: @escaping @Sendable (String) -> Void
    ) {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for end in ends where end >= 0 {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        self.wake = (ends[0], ends[1])
        self.interrupts = interrupts
        self.warn = warn
        var history = history
        if let problem = history.prepare() {
            warn("history is off: \(problem)")
            history = HistoryFile(path: nil)
        }
        self.history = history
        queue.sync { Self.setUp(history) }
        // After Ctrl-Z and fg the shell has reset the terminal; wake the reader to set it up again.
        continueWakeEnd.store(wake.write, ordering: .sequentiallyConsistent)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            let end = continueWakeEnd.load(ordering: .relaxed)
            guard end >= 0 else { return }
            var byte: UInt8 = 0
            let saved = errno
            _ = Glibc.write(end, &byte, 1)
            errno = saved
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGCONT, &action, nil)
    }

    public var isInteractive: Bool { true }

    public func read(prompt: String) async -> LineInput {
        await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: self.readOnQueue(prompt: prompt, remembering: true))
            }
        }
    }

    public func answer(prompt: String) async -> LineInput {
        await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: self.readOnQueue(prompt: prompt, remembering: false))
            }
        }
    }

    /// Shows `lines` above the prompt, keeping what is being typed: the reading loop is woken to
    /// write them between keys. Lines given while no line is being read are written before the
    /// next prompt.
    public func showAbovePrompt(_ lines: [String]) -> Bool {
        guard !lines.isEmpty else { return true }
        above.withLock { $0.append(contentsOf: lines) }
        var byte: UInt8 = 0
        _ = Glibc.write(wake.write, &byte, 1)
        return true
    }

    /// Gives the terminal back and writes the history file down to its size limit. Call at the
    /// end of the session.
    public func close() {
        let history = self.history
        queue.sync {
            playerform_rl_release_terminal()
            if let path = history.path { _ = history_truncate_file(path, Int32(history.maxLines)) }
        }
    }

    // MARK: On the queue

    private static func setUp(_ history: HistoryFile) {
        playerform_rl_configure(UnsafePointer(strdup("playerform"))) { text, start, _ in
            playerform_rl_completion_over()
            let line = playerform_rl_line_buffer().map { String(cString: $0) } ?? ""
            let before = String(line.utf8.prefix(Int(start))) ?? ""
            let word = text.map { String(cString: $0) } ?? ""
            let matches = CommandCatalog.completions(before: before, word: word)
            guard !matches.isEmpty else { return nil }
            Completion.matches.withLock { $0 = matches }
            return rl_completion_matches(text) { _, state in
                Completion.matches.withLock { matches in
                    let index = Int(state)
                    return index < matches.count ? strdup(matches[index]) : nil
                }
            }
        }
        playerform_rl_hold_terminal()
        using_history()
        stifle_history(Int32(history.maxLines))
        if let path = history.path { _ = read_history(path) }
    }

    private enum Completion {
        static let matches = Mutex<[String]>([])
    }

    private enum Received {
        static let line = Mutex<LineInput?>(nil)
    }

    private func readOnQueue(prompt: String, remembering: Bool) -> LineInput {
        Received.line.withLock { $0 = nil }
        let wakeWrite = wake.write
        interrupts.whileRunning {
            var byte: UInt8 = 0
            _ = Glibc.write(wakeWrite, &byte, 1)
        }
        defer { interrupts.whileRunning(nil) }
        drainWake()
        // Readline sets up its streams on the first line; before that there is nothing to redo.
        if hasReadALine { _ = playerform_rl_reprepare_if_needed() }
        hasReadALine = true
        let interruptsBefore = interrupts.count
        writeAbove(prompting: false)
        rl_callback_handler_install(prompt) { line in
            // Removing the handler here keeps readline from showing the next prompt before the
            // command's output.
            rl_callback_handler_remove()
            guard let line else {
                Received.line.withLock { $0 = .end }
                return
            }
            let bytes = Array(UnsafeRawBufferPointer(start: line, count: strlen(line)))
            free(line)
            Received.line.withLock { $0 = .line(bytes) }
        }
        var descriptors = [
            pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            if poll(&descriptors, 2, -1) < 0 {
                if errno == EINTR { continue }
                rl_callback_handler_remove()
                return .end
            }
            if descriptors[1].revents != 0 {
                drainWake()
                if playerform_rl_reprepare_if_needed() != 0 { rl_forced_update_display() }
                writeAbove(prompting: true)
            }
            // Decided by the count, not by the wake-up: keys typed after Ctrl-C may be readable
            // before the wake-up arrives, and a late wake-up must not interrupt the next line.
            if interrupts.count != interruptsBefore {
                abandonLine()
                return .interrupted
            }
            if descriptors[0].revents != 0 {
                rl_callback_read_char()
                if let input = Received.line.withLock({ $0 }) {
                    playerform_rl_flush()
                    if input == .end { writeNewline() }
                    if remembering, case .line(let bytes) = input { remember(bytes) }
                    return input
                }
            }
        }
    }

    /// Writes the lines waiting to be shown: above the prompt while it is on screen, else as they
    /// are.
    private func writeAbove(prompting: Bool) {
        let lines = above.withLock { lines in
            defer { lines.removeAll() }
            return lines
        }
        guard !lines.isEmpty else { return }
        let text = lines.map { $0 + "\n" }.joined()
        if prompting {
            playerform_rl_print_above(text)
        } else {
            var bytes = Array(text.utf8)
            _ = Glibc.write(1, &bytes, bytes.count)
        }
    }

    /// Ctrl-C: drop what was typed, show ^C, and end the line.
    private func abandonLine() {
        rl_echo_signal_char(SIGINT)
        rl_free_line_state()
        rl_callback_sigcleanup()
        rl_replace_line("", 1)
        rl_callback_handler_remove()
        playerform_rl_flush()
        writeNewline()
    }

    /// Adds a line to the history and appends it to the file at once, so that lines of other
    /// sessions written in between are kept.
    private func remember(_ bytes: [UInt8]) {
        guard bytes.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return }
        let line = String(decoding: bytes, as: UTF8.self)
        if playerform_history_last_equals(line) != 0 { return }
        add_history(line)
        if let path = history.path, append_history(1, path) != 0 {
            warn("cannot write history to \(path)")
        }
    }

    private func writeNewline() {
        var newline = UInt8(ascii: "\n")
        _ = Glibc.write(1, &newline, 1)
    }

    private func drainWake() {
        var drain = [UInt8](repeating: 0, count: 64)
        while Glibc.read(wake.read, &drain, drain.count) > 0 {}
    }
}
