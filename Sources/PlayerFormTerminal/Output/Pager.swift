import Foundation
import PlayerFormSystem
import PlayerFormText
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The process id of the pager running now, 0 when none: for ``endRunningPager()``, which a
/// signal handler calls.
private let runningPager = Atomic<Int32>(0)

/// Ends the pager running now, if any, and waits for it.
///
/// Called before the program ends by a signal, so that no pager is left reading the terminal the
/// program gives back. Async-signal-safe.
func endRunningPager() {
    let pid = runningPager.exchange(0, ordering: .sequentiallyConsistent)
    guard pid > 0 else { return }
    kill(pid, SIGTERM)
    // A pager stopped with the session (Ctrl-Z) ends only once it runs again.
    kill(pid, SIGCONT)
    var status: Int32 = 0
    while true {
        if waitpid(pid, &status, WUNTRACED) < 0 {
            if errno == EINTR { continue }
            return
        }
        // Stopped again, as a pager that sets the terminal from the background is (SIGTTOU): it
        // would never end by itself.
        guard status & 0xFF == 0x7F else { return }
        kill(pid, SIGKILL)
    }
}

/// How long output reaches a person at a terminal: through a pager (`$PAGER`, default
/// `less -FRX`) when a command writes more rows than the screen holds, a line longer than the
/// screen is wide taking as many rows as it wraps to.
public struct PagerSettings: Sendable {
    /// The shell command of the pager, run with `/bin/sh -c`.
    public var command: String
    /// The height of the screen in lines; output longer than this less one goes to the pager.
    public var rows: @Sendable () -> Int
    /// The width of the screen in columns, which long lines wrap at; 0 when it is not known, and
    /// each line counts as one row.
    public var columns: @Sendable () -> Int

    /// The pager `$PAGER` names, or `less -FRX` when it is unset or empty.
    public static func command(environment: [String: String]) -> String {
        let pager = environment["PAGER"]?.trimmingCharacters(in: .whitespaces) ?? ""
        return pager.isEmpty ? "less -FRX" : pager
    }

    /// Creates settings.
    public init(
        command: String, rows: @escaping @Sendable () -> Int, columns: @escaping @Sendable () -> Int = { 0 }
    ) {
        self.command = command
        self.rows = rows
        self.columns = columns
    }

    /// How many rows `line` takes on a screen `columns` wide (at least one; one when the width is
    /// not known): its characters counted in the columns a terminal draws them in
    /// (`TerminalText.width(of:)`: an ideograph takes two), escape sequences (colours) as none.
    ///
    /// A wide character that does not fit at the end of a row goes to the next one, as terminals
    /// wrap it.
    static func rows(of line: String, columns: Int) -> Int {
        guard columns > 0 else { return 1 }
        var rows = 1
        var used = 0
        var inEscape = false
        var afterEscape = false
        for character in line {
            let scalar = character.unicodeScalars.first!
            if afterEscape {
                // ESC [ starts a sequence that runs to a final byte; ESC and one character is all.
                afterEscape = false
                inEscape = scalar == "["
            } else if inEscape {
                inEscape = !(0x40...0x7E).contains(scalar.value)
            } else if scalar == "\u{1B}" {
                afterEscape = true
            } else {
                let width = min(TerminalText.width(of: character), columns)
                if used + width > columns {
                    rows += 1
                    used = 0
                }
                used += width
            }
        }
        return rows
    }
}

/// The session's output, which while a command runs at a terminal holds back its results until
/// they fill the screen; then it starts the pager and streams the rest to it, so that no more
/// than a screen is ever held.
///
/// Output that fits is written as it would have been. Errors are never held back.
final class PagingOutput: TerminalOutput {
    private struct State {
        /// Lines held back while it is not known whether the command's output fits the screen.
        var held: [String]?
        /// The most rows held before the pager starts.
        var limit = 0
        /// The rows the held lines take on the screen.
        var heldRows = 0
        /// The width of the screen, for ``heldRows``.
        var columns = 0
        /// The pager's input once started, and the terminal's settings to give back when it ends.
        var pager: (process: ChildProcess, input: Int32, terminal: termios?)?
        /// Whether the pager stopped reading (the person quit it): further lines are dropped.
        var closed = false
        /// A line started with writePart.
        var part = ""
    }

    private let base: any TerminalOutput
    private let state = Mutex(State())
    private let settings: PagerSettings

    init(base: any TerminalOutput, settings: PagerSettings) {
        self.base = base
        self.settings = settings
    }

    /// Whether the pager is running for the current command.
    var isPaging: Bool {
        state.withLock { $0.pager != nil }
    }

    /// Starts holding back the results of one command.
    func begin() {
        let limit = max(1, settings.rows() - 1)
        let columns = settings.columns()
        state.withLock { state in
            state = State()
            state.held = []
            state.limit = limit
            state.columns = columns
        }
    }

    /// Ends the command: writes what was held, or lets the pager read the end and waits for it
    /// to exit.
    ///
    /// Returns the notes to write: that the pager could not be started, and those kept by
    /// ``noteAfterPager(_:)``.
    func end() -> [String] {
        let (held, pager, part) = state.withLock { state in
            defer { state = State() }
            return (state.held, state.pager, state.part)
        }
        if let pager {
            close(pager.input)
            let status = pager.process.wait()
            // Ended by the handler of a signal that ends the process: nothing more is written.
            holdIfEndingBySignal()
            runningPager.store(0, ordering: .sequentiallyConsistent)
            takeTerminalBack(pager.terminal)
            // A pager quit by the person ends with 0, and one ended by a signal (Ctrl-C) was
            // ended on purpose; any other status is a pager that failed, and what it did not show
            // is lost.
            if status != 0 && status <= 128 {
                notes.withLock {
                    $0.append(
                        "The pager \"\(TerminalText.escaped(settings.command))\" ended with status \(status);"
                            + " output it did not show is lost (pager off writes it directly).")
                }
            }
            return takeNotes()
        }
        for line in held ?? [] { base.write(line) }
        if !part.isEmpty { base.writePart(part) }
        return takeNotes()
    }

    func write(_ line: String) {
        let direct = state.withLock { state -> String? in
            let line = state.part + line
            state.part = ""
            if let pager = state.pager {
                if !state.closed { state.closed = !Self.send(line + "\n", to: pager.input) }
                return nil
            }
            guard state.held != nil else { return line }
            state.held!.append(line)
            state.heldRows += PagerSettings.rows(of: line, columns: state.columns)
            if state.heldRows > state.limit { startPager(&state) }
            return nil
        }
        if let direct { base.write(direct) }
    }

    func writePart(_ text: String) {
        let direct = state.withLock { state -> Bool in
            guard state.held != nil || state.pager != nil else { return true }
            state.part += text
            // A line of more than 64 KiB is longer than any screen: it starts the pager, and is
            // passed on in pieces, so that it is never held whole.
            guard state.part.utf8.count > 64 * 1024 else { return false }
            if state.held != nil { startPager(&state) }
            if let pager = state.pager, !state.closed {
                state.closed = !Self.send(state.part, to: pager.input)
                state.part = ""
            } else if state.pager == nil {
                // The pager could not start: the held lines were written; so is the part.
                base.writePart(state.part)
                state.part = ""
            }
            return false
        }
        if direct { base.writePart(text) }
    }

    func writeError(_ line: String) {
        base.writeError(line)
    }

    func writeError(_ message: String, prefix: String) {
        base.writeError(message, prefix: prefix)
    }

    func flush() {
        base.flush()
    }

    /// Whether the pager was quit, or the output it replaces drops results.
    var dropsResults: Bool {
        state.withLock { $0.closed } || base.dropsResults
    }

    /// Keeps `note` to be given by ``end()`` once the pager has exited, so that it does not
    /// write over the pager's screen; false, with nothing kept, when no command's results are
    /// being paged or held back.
    func noteAfterPager(_ note: String) -> Bool {
        guard state.withLock({ $0.held != nil || $0.pager != nil }) else { return false }
        notes.withLock { $0.append(note) }
        return true
    }

    /// The notes kept for the end of the command, taken once.
    private func takeNotes() -> [String] {
        notes.withLock { notes in
            defer { notes = [] }
            return notes
        }
    }

    private let notes = Mutex<[String]>([])

    /// Starts the pager and gives it the held lines; when it cannot start, writes them directly
    /// and stops holding back.
    private func startPager(_ state: inout State) {
        let lines = state.held ?? []
        state.held = nil
        guard let pager = Self.launch(settings.command) else {
            notes.withLock {
                $0.append(
                    "The pager \"\(TerminalText.escaped(settings.command))\" could not be started; the output"
                        + " is written directly"
                        + " (pager off stops trying, PAGER chooses another).")
            }
            for line in lines { base.write(line) }
            return
        }
        state.pager = pager
        runningPager.store(pager.process.pid, ordering: .sequentiallyConsistent)
        base.flush()
        for line in lines where !state.closed {
            state.closed = !Self.send(line + "\n", to: pager.input)
        }
    }

    /// Starts `/bin/sh -c COMMAND` with a pipe on its standard input, when the command's program
    /// exists; nil otherwise.
    ///
    /// The pager shares the session's process group and terminal (``ChildProcess``): it reads
    /// its keys from the terminal, as `less` does, and finds the terminal in line mode with
    /// echo, as a shell leaves it (`terminal` holds the settings to give back when it ends). The
    /// shell runs a simple command with `exec`, so that the child is the pager itself, which
    /// ``endRunningPager()`` can end; of a command of several, it ends only the shell, and the
    /// programs it started may outlive the session.
    static func launch(_ command: String) -> (process: ChildProcess, input: Int32, terminal: termios?)? {
        guard let word = programWord(of: command) else { return nil }
        // A command of several (a list, a pipeline), or one the shell reads itself, runs as
        // written: exec would drop the rest. Its program, like one the shell expands first
        // ($HOME/bin/less), is not looked for: if it cannot run, its status says so in a note.
        let simple = isSimpleCommand(command) && !shellWords.contains(word.text)
        let expanded = word.text.contains { $0 == "$" || $0 == "~" || $0 == "`" }
        guard !simple || expanded || exists(word.text) else { return nil }
        // Writing to a pager that was quit must fail with EPIPE, not end the program; and its
        // status is only there to read when children are not reaped by themselves.
        Signals.ignore(SIGPIPE)
        signal(SIGCHLD, SIG_DFL)
        let terminal = lendTerminalToChild()
        // The settings before the program stay in front of exec, which they then apply to.
        let shellCommand = simple ? command[..<word.start] + "exec " + command[word.start...] : command
        guard
            case .success(let (process, input)) = ChildProcess.startReadingPipe([
                "/bin/sh", "-c", shellCommand,
            ])
        else {
            takeTerminalBack(terminal)
            return nil
        }
        return (process, input, terminal)
    }

    /// The program a pager's shell command runs: its first word after any `NAME=VALUE` settings
    /// of the environment (`LESS='-R -S' less` runs `less`), its quotes removed; nil for a
    /// command of settings alone.
    static func program(of command: String) -> String? {
        programWord(of: command)?.text
    }

    /// The word of `command` that names its program, as ``program(of:)`` finds it, and where it
    /// starts.
    private static func programWord(of command: String) -> (text: String, start: String.Index)? {
        var skipWord = false
        for word in split(command).words {
            let raw = command[word.raw]
            if isAssignment(raw) { continue }
            // A redirection (`2>/dev/null`) is no program; one whose target is the next word
            // (`2> /dev/null`) takes that word too.
            if let target = redirectionTarget(raw) {
                if target.isEmpty { skipWord = true }
                continue
            }
            if skipWord {
                skipWord = false
                continue
            }
            return (word.text, word.raw.lowerBound)
        }
        return nil
    }

    /// What follows the operator when `word`, as written, starts as a redirection does (digits,
    /// then `<` or `>`, then `>`, `&` or `|` perhaps): possibly empty; nil for any other word.
    private static func redirectionTarget(_ word: Substring) -> Substring? {
        let rest = word.drop { $0.isASCII && $0.isNumber }
        guard let first = rest.first, first == "<" || first == ">" else { return nil }
        return rest.dropFirst().drop { $0 == ">" || $0 == "&" || $0 == "|" || $0 == "<" }
    }

    /// Whether `command` is one simple command: no `;`, `|`, `&`, parenthesis or line break outside
    /// quotes, but for the `&` of a redirection (`2>&1`) and the parentheses of a command
    /// substitution (`$(...)`).
    static func isSimpleCommand(_ command: String) -> Bool {
        split(command).simple
    }

    /// The words of `command`, each as written (`raw`) and with its quotes removed (`text`), and
    /// whether it is one simple command (``isSimpleCommand(_:)``), in one pass.
    ///
    /// Words are split as the shell splits them, `$` and globs aside: spaces and tabs outside
    /// quotes separate them; single quotes keep everything up to the next; double quotes keep
    /// everything up to the next, a backslash in them keeping the character after it; a backslash
    /// outside quotes keeps the character after it. Operators do not split words here: they only
    /// make the command not simple.
    private static func split(_ command: String) -> (
        words: [(text: String, raw: Range<String.Index>)], simple: Bool
    ) {
        var words: [(text: String, raw: Range<String.Index>)] = []
        var simple = true
        var text = ""
        var wordStart: String.Index?
        var quote: Character?
        var escaped = false
        var previous: Character = " "
        var substitutions = 0
        var index = command.startIndex
        while index < command.endIndex {
            let character = command[index]
            let after = command.index(after: index)
            defer {
                previous = character
                index = after
            }
            if escaped {
                escaped = false
                text.append(character)
                continue
            }
            if quote == nil && (character == " " || character == "\t") {
                if let start = wordStart { words.append((text, start..<index)) }
                wordStart = nil
                text = ""
                continue
            }
            if wordStart == nil { wordStart = index }
            if let open = quote {
                if character == open {
                    quote = nil
                } else if open == "\"" && character == "\\" && after < command.endIndex {
                    escaped = true
                } else {
                    text.append(character)
                }
            } else if character == "\\" && after < command.endIndex {
                escaped = true
            } else if character == "'" || character == "\"" {
                quote = character
            } else {
                text.append(character)
                if character == "(" && previous == "$" {
                    substitutions += 1
                } else if character == ")" && substitutions > 0 {
                    substitutions -= 1
                } else if character == "&" && (previous == ">" || previous == "<") {
                    // The `&` of a redirection.
                } else if ";|&()\n".contains(character) {
                    simple = false
                }
            }
        }
        if let start = wordStart { words.append((text, start..<command.endIndex)) }
        return (words, simple)
    }

    /// Words the shell reads itself rather than as a program to run: a command starting with one
    /// is run as written, and not looked for.
    private static let shellWords: Set<String> = [
        "!", "{", "if", "while", "until", "for", "case", "exec", "command", "builtin", "eval", "time", ".",
    ]

    /// Whether `word`, as written, sets a variable: an unquoted name, then `=`.
    private static func isAssignment(_ word: Substring) -> Bool {
        guard let equals = word.firstIndex(of: "="), let first = word.first else { return false }
        return (first == "_" || (first.isASCII && first.isLetter))
            && word[..<equals].allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }

    /// Whether `program` is an executable regular file: a path, or a name found in `$PATH`.
    static func exists(_ program: String) -> Bool {
        func runnable(_ path: String) -> Bool {
            var facts = stat()
            return access(path, X_OK) == 0 && stat(path, &facts) == 0 && (facts.st_mode & S_IFMT) == S_IFREG
        }
        if program.contains("/") { return runnable(program) }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { runnable("\($0)/\(program)") }
    }

    /// Writes `text` to `descriptor`; false when the reader is gone.
    private static func send(_ text: String, to descriptor: Int32) -> Bool {
        Descriptor.writeAll(text.utf8, to: descriptor) == nil
    }
}
