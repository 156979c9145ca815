import CReadline
import Dispatch
import Glibc
import PlayerFormSystem
import PlayerFormText
import Synchronization

/// The write end of the reader's wake-up pipe, for the SIGCONT and SIGWINCH handlers.
private let continueWakeEnd = Atomic<Int32>(-1)
/// Whether the terminal changed size since readline last heard of it.
private let windowResized = Atomic<Bool>(false)
/// The terminal's settings before readline changed them, for the handlers of the signals that
/// end the process.
///
/// Written once, before those handlers are installed; only read after.
nonisolated(unsafe) private let savedTerminal = UnsafeMutablePointer<termios>.allocate(capacity: 1)
/// Whether ``savedTerminal`` holds settings.
private let hasSavedTerminal = Atomic<Bool>(false)

/// Gives the terminal the settings it had before readline changed them (line mode, echo), the
/// ones a program started from a shell finds, while the session is in the foreground.
///
/// For the pager: it saves the settings it finds and puts them back when it ends, even when it
/// is ended in the background, where the session cannot set them again. Returns the settings the
/// terminal had, readline's, for ``takeTerminalBack(_:)``; nil when nothing was changed (no
/// ``ReadlineLineReader`` was made, or the session is in the background).
func lendTerminalToChild() -> termios? {
    guard hasSavedTerminal.load(ordering: .sequentiallyConsistent), tcgetpgrp(0) == getpgrp() else {
        return nil
    }
    var current = termios()
    guard tcgetattr(0, &current) == 0 else { return nil }
    setTerminal(savedTerminal.pointee)
    return current
}

/// Gives the terminal back `settings`, from ``lendTerminalToChild()``, once the child has ended,
/// while the session is in the foreground: readline's modes hold again at once, so that a Ctrl-D
/// typed before the next prompt is a key, not the end of the input.
func takeTerminalBack(_ settings: termios?) {
    guard let settings, tcgetpgrp(0) == getpgrp() else { return }
    setTerminal(settings)
}

/// Sets the terminal's settings at once (only its modes differ), again when a signal interrupts.
private func setTerminal(_ settings: termios) {
    var settings = settings
    while tcsetattr(0, TCSANOW, &settings) < 0 && errno == EINTR {}
}

/// Whether a signal that ends the process has arrived, whose handler is ending the pager and
/// giving the terminal back before the process ends.
private let endingBySignal = Atomic<Bool>(false)

/// Stops the calling thread for good once a signal is ending the process: a command that sees
/// the pager end, or a prompt, must not write over the shell's screen meanwhile (the process may
/// be in the background by then).
///
/// A signal sent to the whole process group (as `kill %1` sends SIGTERM) reaches the pager too,
/// which may end before the handler here has run: a signal that ends the process and is still
/// pending counts as well.
func holdIfEndingBySignal() {
    var pending = sigset_t()
    sigemptyset(&pending)
    sigpending(&pending)
    let ending =
        endingBySignal.load(ordering: .sequentiallyConsistent)
        || [SIGTERM, SIGHUP, SIGQUIT].contains { sigismember(&pending, $0) == 1 }
    guard ending else { return }
    // The signal's handler ends the process; this thread has its signals blocked, so it waits
    // here until then.
    while true { pause() }
}

/// Writes a byte to the reader's wake-up pipe; safe in a signal handler.
private func wakeReader() {
    WakePipe.wake(continueWakeEnd.load(ordering: .relaxed))
}

/// Reads lines with GNU readline: editing, tab completion of commands and `help` topics,
/// persistent history, `~/.inputrc` under the name `playerform`, and Ctrl-C to abandon a line.
///
/// Bracketed paste is off: pasted lines arrive as typed keys, so each is entered and run on its
/// own, and the line being edited is drawn again at the new width when the terminal is resized.
/// SIGTERM, SIGHUP and SIGQUIT end a running pager and give the terminal back its settings before
/// the process ends by the signal (history is already written, a line at a time); in the
/// background, where the shell has the terminal, its settings are left alone.
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

    /// The names of at most `limit` players whose names start with `start`, as names compare,
    /// for completion after `select`, `delete`, `find` and `add`.
    public typealias PlayerNames = @Sendable (_ start: String, _ limit: Int) async -> [String]

    /// How long completion waits for the store's names before it offers none: a league across a
    /// slow network must not freeze the line being typed.
    static let namesWait = DispatchTimeInterval.seconds(2)

    /// How many names completion asks the store for: more than a screen of choices.
    static let namesAsked = 200

    /// Creates the reader.
    /// - Parameters:
    ///   - history: where history is kept.
    ///   - interrupts: the source of Ctrl-C.
    ///   - playerNames: where completion finds players' names; nil for a session with no roster.
    ///   - warn: where to say that the history file cannot be used.
    public init(
        history: HistoryFile, interrupts: any InterruptSource, playerNames: PlayerNames? = nil,
        warn: @escaping @Sendable (String) -> Void
    ) {
        Completion.playerNames.withLock { $0 = playerNames }
        let pipe = WakePipe()
        self.wake = (pipe.readEnd, pipe.writeEnd)
        self.interrupts = interrupts
        self.warn = warn
        var history = history
        if let problem = history.prepare() {
            warn("history is off: \(problem)")
            history = HistoryFile(path: nil)
        }
        self.history = history
        if tcgetattr(0, savedTerminal) == 0 {
            hasSavedTerminal.store(true, ordering: .sequentiallyConsistent)
        }
        queue.sync { Self.setUp(history) }
        // After Ctrl-Z and fg the shell has reset the terminal; wake the reader to set it up again.
        continueWakeEnd.store(wake.write, ordering: .sequentiallyConsistent)
        Signals.install(SIGCONT) { _ in wakeReader() }
        // A new size is given to readline between keys, by the reading loop.
        Signals.install(SIGWINCH) { _ in
            windowResized.store(true, ordering: .sequentiallyConsistent)
            wakeReader()
        }
        // Signals that end the process: a running pager is ended and waited for, the terminal
        // gets its settings back, then the signal's default action ends the process, so that its
        // status says which signal it was.
        // A signal ignored at start (nohup) stays ignored.
        for signal in [SIGTERM, SIGHUP, SIGQUIT] where !Signals.isIgnored(signal) {
            Signals.install(signal) { signal in
                endingBySignal.store(true, ordering: .sequentiallyConsistent)
                endRunningPager()
                // Only in the foreground: in the background (stopped by Ctrl-Z, then ended by
                // `kill %1`) the shell has the terminal and has set its own settings, and setting
                // them would stop the process again with SIGTTOU instead of ending it.
                if hasSavedTerminal.load(ordering: .relaxed) && tcgetpgrp(0) == getpgrp() {
                    _ = tcsetattr(0, TCSANOW, savedTerminal)
                }
                Glibc.signal(signal, SIG_DFL)
                // Blocked while this handler runs; delivered, with the default action, on return.
                raise(signal)
            }
        }
    }

    /// True: readline talks to a person at a terminal.
    public var isInteractive: Bool { true }

    /// Reads a line with readline, showing `prompt`, and keeps it in the history.
    public func read(prompt: String) async -> LineInput {
        await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: self.readOnQueue(prompt: prompt, remembering: true))
            }
        }
    }

    /// Reads an answer with readline, showing `prompt`; the answer is not kept in the history.
    public func answer(prompt: String) async -> LineInput {
        await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: self.readOnQueue(prompt: prompt, remembering: false))
            }
        }
    }

    /// Shows `lines` above the prompt, keeping what is being typed: the reading loop is woken to
    /// write them between keys.
    ///
    /// Lines given while no line is being read are written before the next prompt.
    public func showAbovePrompt(_ lines: [String]) -> Bool {
        guard !lines.isEmpty else { return true }
        above.withLock { $0.append(contentsOf: lines) }
        WakePipe.wake(wake.write)
        return true
    }

    /// Gives the terminal back and writes the history file down to its size limit.
    ///
    /// Call at the end of the session.
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
            let line = playerform_rl_line_buffer().map { String(cString: $0) } ?? ""
            let before = String(line.utf8.prefix(Int(start))) ?? ""
            // A file's path: readline's own completion of file names.
            if CommandCatalog.completesFileName(before: before) { return nil }
            playerform_rl_completion_over()
            let word = text.map { String(cString: $0) } ?? ""
            let matches =
                if let typed = CommandCatalog.typedPlayerName(before: before, word: word) {
                    CommandCatalog.playerNameCompletions(
                        typed: typed, word: word, names: Completion.names(startingWith: typed))
                } else {
                    CommandCatalog.completions(before: before, word: word)
                }
            guard !matches.isEmpty else { return nil }
            Completion.matches.withLock { $0 = matches }
            return rl_completion_matches(text) { _, state in
                Completion.matches.withLock { matches in
                    let index = Int(state)
                    return index < matches.count ? strdup(matches[index]) : nil
                }
            }
        }
        playerform_rl_initialize()
        // After readline has read the terminal's capabilities: with a redisplay function of the
        // program's own set, it would take the terminal for a dumb one.
        playerform_rl_set_redisplay { ReadlineLineReader.redisplay() }
        playerform_rl_hold_terminal()
        using_history()
        stifle_history(Int32(history.maxLines))
        if let path = history.path { _ = read_history(path) }
    }

    /// Draws the line being edited with every character that is not visible on its own escaped,
    /// as all text from users is shown (``TerminalText/editedLine(_:marks:)``).
    ///
    /// A line recalled from the history file, found by Ctrl-R or pasted may hold a C1 control or
    /// a bidirectional override, which the terminal would obey. A line of printable ASCII, the
    /// common case, is drawn by readline as it is. With `resizing`, the terminal is measured
    /// again first.
    private static func redisplay(resizing: Bool = false) {
        let end = Int(playerform_rl_end())
        let line = playerform_rl_line_buffer()
        let bytes = UnsafeRawBufferPointer(start: line, count: line == nil ? 0 : end)
        var shown = bytes.map { CChar(bitPattern: $0) }
        var point = Int(playerform_rl_point())
        var mark = min(max(Int(playerform_rl_mark()), 0), end)
        if !bytes.allSatisfy({ (0x20...0x7E).contains($0) }) {
            let edited = TerminalText.editedLine(bytes, marks: [point, mark])
            shown = edited.shown.map { CChar(bitPattern: $0) }
            (point, mark) = (edited.marks[0], edited.marks[1])
        } else if !resizing {
            return rl_redisplay()
        }
        let length = Int32(shown.count)
        shown.append(0)
        shown.withUnsafeMutableBufferPointer { buffer in
            playerform_rl_redisplay_shown(
                buffer.baseAddress, length, Int32(point), Int32(mark), resizing ? 1 : 0)
        }
    }

    private enum Completion {
        static let matches = Mutex<[String]>([])
        static let playerNames = Mutex<PlayerNames?>(nil)

        /// The names of players whose names start with `start`, from the store, waited for on
        /// readline's queue (not a task's thread) for at most ``namesWait``.
        static func names(startingWith start: String) -> [String] {
            guard let source = playerNames.withLock({ $0 }) else { return [] }
            let found = Mutex<[String]>([])
            let done = DispatchSemaphore(value: 0)
            Task {
                let names = await source(start, namesAsked)
                found.withLock { $0 = names }
                done.signal()
            }
            guard done.wait(timeout: .now() + namesWait) == .success else { return [] }
            return found.withLock { $0 }
        }
    }

    private enum Received {
        static let line = Mutex<LineInput?>(nil)
    }

    private func readOnQueue(prompt: String, remembering: Bool) -> LineInput {
        holdIfEndingBySignal()
        Received.line.withLock { $0 = nil }
        let wakeWrite = wake.write
        interrupts.whileRunning { WakePipe.wake(wakeWrite) }
        defer { interrupts.whileRunning(nil) }
        drainWake()
        // Readline sets up its streams on the first line; before that there is nothing to redo.
        if hasReadALine { _ = playerform_rl_reprepare_if_needed() }
        hasReadALine = true
        // Resized while a command ran: measure again before the prompt is drawn.
        if windowResized.exchange(false, ordering: .sequentiallyConsistent) { rl_reset_screen_size() }
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
                if windowResized.exchange(false, ordering: .sequentiallyConsistent) {
                    Self.redisplay(resizing: true)
                }
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
        if let path = history.path, case let code = append_history(1, path), code != 0 {
            warn("cannot write history to \(path): \(SystemError.text(code))")
        }
    }

    private func writeNewline() {
        var newline = UInt8(ascii: "\n")
        _ = Glibc.write(1, &newline, 1)
    }

    private func drainWake() {
        WakePipe.drain(wake.read)
    }
}
