import Foundation
import PlayerForm
import PlayerFormRules
import PlayerFormScores
import PlayerFormText
import ReactiveCore
import ReactiveTable
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A REPL session: reads commands, gives them to the view models, and shows what they say.
///
/// It holds no rules: every refusal and every shown value comes from `PlayerViewModel` or
/// `RosterViewModel`.
///
/// With a roster, the session reads the roster's first page once when it starts, without
/// printing it (`players` draws it); from then on every change of the rows in view is printed as
/// it happens, and the form's uploads appear in it (an upload of a player out of view is followed
/// at once by the count it changed). Changes made by other processes sharing the
/// store are picked up before every prompt, every roster command and every command at a terminal
/// (a script's other commands ask at most every 10 ms), and, at an idle interactive prompt, at
/// every tick of `idleTicks` (printed above the prompt).
///
/// ```swift
/// let form = PlayerViewModel(store: InMemoryScoreStore())
/// let session = REPLSession(form: form, reader: ScriptedLineReader(text: "up 3\n"), output: output)
/// let status = await session.run()  // writes "points: 103", "point updates left: 7"; status 0
/// ```
public final class REPLSession {
    /// How the session ended and what its exit status is.
    public enum Outcome: Equatable, Sendable {
        /// Every command succeeded (status 0).
        case succeeded
        /// At least one command failed (status 1).
        case failed

        /// The process exit status.
        public var exitStatus: Int32 { self == .succeeded ? 0 : 1 }
    }

    let form: PlayerViewModel
    let reader: any LineReader
    let output: any TerminalOutput
    let renderer: FormRenderer
    /// Whether a failed command stops the script (`--bail`); off while the start-up file runs.
    var bail: Bool
    let interrupts: (any InterruptSource)?
    let log: FormEventLog
    /// The prompt, bound to the form; scripted sessions show none, so they have none.
    let prompt: Property<String>?
    let rosterView: RosterView?
    /// Whether there is a roster view: asked on every line, and cheaper to read than the view,
    /// whose reference count lives in a side table.
    let hasRoster: Bool
    /// Whether the session's reader is interactive, asked on every line.
    let interactive: Bool
    let idleTicks: (@Sendable () -> AsyncStream<Void>)?
    let echo: Bool
    /// The output that pages long results at a terminal; nil when nothing is paged.
    let paging: PagingOutput?
    /// Whether `pager off` was typed.
    var pagerOff = false
    /// Whether `timing` is on: each command's time is written after its output.
    var timing = false
    /// How many times `timing` has written so far: a command that ran timed commands of its own
    /// (`source`) is not timed itself, as psql's `\i` is not.
    var timesWritten = 0
    /// How `players`, `show` and `rules` write what they write, unless told by a flag.
    var mode: OutputMode
    /// The mode `expanded off` (`\x off`) goes back to: the one before `expanded on`.
    var modeBeforeExpanded = OutputMode.table
    /// Whether `players` writes its title and header row.
    var headers = true
    let nanoseconds: @Sendable () -> UInt64
    let now: @Sendable () -> Date
    let sleep: @Sendable (Duration) async throws -> Void
    /// What `version` prints.
    let version: String
    /// Where `output FILE` sends results; the session's output.
    let redirect: ResultsRedirect
    let resultsFileRefusal: (@Sendable (String) -> String?)?
    let startupFile: String?
    let rulesOrigin: String
    let columns: @Sendable () -> Int

    /// How many rows `players` shows in a script, or when the terminal's size is unknown.
    public static let defaultPageSize = 40

    /// Creates a session.
    /// - Parameters:
    ///   - form: the view model the session is a view of.
    ///   - roster: the roster the session shows and edits, which must keep its players in the
    ///     same store as the form uploads to; it follows the form's uploads. Without one, the
    ///     roster commands say that there is no roster.
    ///   - reader: where lines come from; an interactive reader gets a prompt and no line numbers.
    ///   - output: where results and errors go.
    ///   - terminal: what the terminal offers (colours, Ctrl-C, its size, a pager, idle ticks);
    ///     a script's by default.
    ///   - options: how commands run (`bail`, `echo`, where the rules came from, when to end).
    public init(
        form: PlayerViewModel, roster: RosterViewModel? = nil, reader: any LineReader,
        output: any TerminalOutput, terminal: Terminal = Terminal(), options: Options = Options()
    ) {
        let pager = terminal.pager
        let paging = reader.isInteractive ? pager.map { PagingOutput(base: output, settings: $0) } : nil
        self.paging = paging
        let redirect = ResultsRedirect(base: paging ?? output)
        self.redirect = redirect
        let routed: any TerminalOutput = redirect
        self.echo = options.echo
        self.rulesOrigin = options.rulesOrigin
        self.columns = terminal.columns
        self.idleTicks = terminal.idleTicks
        self.form = form
        self.reader = reader
        self.output = routed
        self.renderer = FormRenderer(style: terminal.style, errorStyle: terminal.errorStyle)
        self.bail = options.bail
        self.interrupts = terminal.interrupts
        let log = FormEventLog(form: form, output: routed, renderer: renderer)
        self.log = log
        self.rosterView = roster.map {
            RosterView(
                roster: $0, output: routed, log: log, pageSize: terminal.pageSize,
                fitWidth: reader.isInteractive ? terminal.columns : nil)
        }
        self.pageSizeNow = terminal.pageSizeNow
        self.endRequested = options.endRequested
        self.nanoseconds = options.nanoseconds
        self.now = options.now
        self.sleep = options.sleep
        self.version = options.version
        self.resultsFileRefusal = options.resultsFileRefusal
        self.startupFile = options.startupFile
        self.mode = options.mode
        self.headers = options.headers
        self.hasRoster = roster != nil
        self.interactive = reader.isInteractive
        roster?.follow(form)
        let renderer = self.renderer
        self.prompt =
            reader.isInteractive
            ? Property.combineLatest(
                Property.combineLatest(form.name, form.pointsText), form.isValid, form.isLocked
            ).map {
                renderer.prompt(name: $0.0.0, pointsText: $0.0.1, isValid: $0.1, isLocked: $0.2)
            } : nil
    }

    /// Runs commands until the input ends, `quit`, or (with `bail`) the first failure.
    ///
    /// Interactive sessions always succeed: their failures were shown as they happened.
    public func run() async -> Outcome {
        await start()
        _ = await runLines(from: reader, name: nil)
        return finish()
    }

    /// Where the commands of a run come from (`playerform -c COMMAND`, `-f FILE`).
    public enum Script: Equatable, Sendable {
        /// Commands given on the command line, one a line; errors name them `-c:N`, N counting
        /// the lines of every `.commands` of the run.
        case commands([String])
        /// A file of commands; errors name it `FILE:LINE`.
        case file(String)
        /// Standard input (`-f -`); errors name it `stdin:LINE`.
        case standardInput
    }

    /// Runs `scripts` in order, instead of the session's reader, until they end, `quit`, or (with
    /// `bail`) the first failure.
    ///
    /// The session succeeds when every command did.
    public func run(scripts: [Script]) async -> Outcome {
        await start()
        var commandLines = 0
        scripts: for script in scripts {
            let end: LoopEnd
            switch script {
            case .commands(let commands):
                // Lines are counted across every -c of the run, whatever comes between them.
                let text = commands.map { $0 + "\n" }.joined()
                end = await runLines(
                    from: stoppable(ScriptedLineReader(text: text)), name: "-c", linesBefore: commandLines)
                commandLines += text.utf8.count { $0 == UInt8(ascii: "\n") }
            case .standardInput:
                let reader = stoppable(ScriptedLineReader())
                let output = self.output
                reader.beforeWaiting = { output.flush() }
                end = await runLines(from: reader, name: "stdin")
            case .file(let path):
                do {
                    end = await runLines(
                        from: stoppable(try ScriptedLineReader(path: path)), name: TerminalText.escaped(path))
                } catch {
                    log.location = nil
                    output.writeError("error: " + error.message)
                    failed = true
                    end = bail ? .stopped : .ended
                }
            }
            if end != .ended { break scripts }
        }
        return finish()
    }

    /// Whether a command failed.
    var failed = false
    /// The count of Ctrl-C presses when a stopped `source` last said so.
    var stopReported: Int?
    /// How many rows a page holds now, asked before each `players`.
    let pageSizeNow: (@Sendable () -> Int)?
    /// Whether a script is to stop, asked between its commands and while it waits for a line.
    let endRequested: (@Sendable () -> Bool)?

    /// `reader`, which reads a script, made to stop waiting for a line once ``endRequested`` says
    /// so.
    private func stoppable(_ reader: ScriptedLineReader) -> ScriptedLineReader {
        if reader.isStopped == nil, let endRequested { reader.isStopped = endRequested }
        return reader
    }
    /// How many `source` commands are running inside each other.
    var sourceDepth = 0
    /// The paths of the files whose lines run now (sourced files, the start-up file), which
    /// `output FILE` must not empty.
    var filesBeingRead: [String] = []
    /// The deepest `source` may nest: a file that sources itself stops there.
    public static let maxSourceDepth = 16

    private func start() async {
        if let rosterView {
            // A damaged store at start is reported, but no command has failed.
            await rosterView.load()
            _ = rosterView.takeAlerts()
        }
        if let startupFile { await runStartupFile(startupFile) }
    }

    /// Runs the start-up file: every line, whatever fails; what the commands print is not shown
    /// (a script's output stays what the script prints), their errors are, naming `FILE:LINE`;
    /// and no failure there fails the session.
    private func runStartupFile(_ path: String) async {
        let reader: ScriptedLineReader
        do {
            reader = try ScriptedLineReader(path: path)
        } catch {
            output.writeError("error: " + error.message + " (the start-up file; -X skips it)")
            return
        }
        let (failedBefore, bailBefore) = (failed, bail)
        bail = false
        redirect.isMuted = true
        filesBeingRead.append(path)
        _ = await runLines(from: reader, name: TerminalText.escaped(path))
        filesBeingRead.removeLast()
        redirect.isMuted = false
        log.location = nil
        (failed, bail) = (failedBefore, bailBefore)
    }

    private func finish() -> Outcome {
        output.flush()
        return failed && !reader.isInteractive ? .failed : .succeeded
    }

    /// How a run of lines ended.
    private enum LoopEnd: Equatable {
        /// The input ended.
        case ended
        /// `quit`, or a failure with `bail`: nothing more runs.
        case stopped
        /// A file run by `source` at a terminal was stopped by Ctrl-C, after this many lines.
        case interrupted(lines: Int)
    }

    /// Runs the lines of `reader`, whose errors name `name` (`FILE:LINE`), or `line N` when nil
    /// and not at a terminal.
    private func runLines(from reader: any LineReader, name: String?, linesBefore: Int = 0) async -> LoopEnd {
        let atTerminal = reader === self.reader && reader.isInteractive
        // A script's lines are read without an asynchronous call: they are in memory or come from
        // a descriptor that is read synchronously anyway.
        let script = atTerminal ? nil : reader as? ScriptedLineReader
        var lineNumber = linesBefore
        let sourced = reader as? ScriptedLineReader
        if let sourced, !atTerminal { _ = stoppable(sourced) }
        while true {
            // A script's reader stops when the program is ending by a signal, a file sourced at a
            // terminal when Ctrl-C is pressed: one question a line.
            if let isStopped = sourced?.isStopped, isStopped() {
                return endRequested != nil ? .stopped : .interrupted(lines: lineNumber)
            }
            // Changes by others show before the prompt, and again before the command.
            if atTerminal { await catchUp() }
            let input: LineInput
            if let script {
                input = script.nextLine()
            } else {
                input = atTerminal ? await read() : await reader.read(prompt: "")
            }
            if catchUpIsDue() { await catchUp() }
            lineNumber += 1
            let location = atTerminal ? nil : FormEventLog.Location(name: name, line: lineNumber)
            log.location = location
            var result: StepResult
            switch input {
            case .end:
                return .ended
            case .interrupted:
                if !atTerminal { return .interrupted(lines: lineNumber - 1) }
                continue
            case .tooLong(let count):
                log.error(
                    "The line is \(count) bytes long; lines of up to \(LineLimits.maxBytes) bytes are accepted."
                )
                result = .failed
            case .line(let bytes):
                if echo, !atTerminal { output.write(Self.echoed(bytes)) }
                let timed = timing
                let started = timed ? nanoseconds() : 0
                let timesBefore = timesWritten
                redirect.commandStarting(depth: sourceDepth)
                switch startLine(bytes) {
                case .finished(let finished):
                    result = finished
                case .pending(let rest):
                    result = await rest(self)
                    // A sourced file may have moved the location.
                    log.location = location
                }
                // The results' file is flushed after each command; a write to it that failed
                // fails the command (said once, naming the file) and ends the redirection.
                if result != .ignored, redirect.commandEnded(depth: sourceDepth), result != .quit {
                    result = .failed
                }
                // As psql does, after the command's output; not for a blank line or a comment,
                // nor for the command that turned timing on or off.
                if timed, timing, result != .ignored, result != .quit, !redirect.isMuted,
                    timesWritten == timesBefore
                {
                    writeTime(nanoseconds() &- started, atTerminal: atTerminal)
                }
            }
            switch result {
            case .quit: return .stopped
            case .failed:
                failed = true
                if bail { return .stopped }
            case .succeeded, .ignored: break
            }
        }
    }

    /// A line of a script as `--echo` shows it: as typed, unless it holds characters that are not
    /// visible on their own (or is not UTF-8), when it is escaped as all text from users is.
    static func echoed(_ bytes: [UInt8]) -> String {
        let escaped = TerminalText.escaped(bytes: bytes)
        let typed = String(decoding: bytes, as: UTF8.self)
        let onlyBackslashes =
            escaped.utf8.count == typed.utf8.count + typed.utf8.count { $0 == UInt8(ascii: "\\") }
        return onlyBackslashes ? typed : escaped
    }

    /// `source FILE`: runs the lines of FILE, nested at most ``maxSourceDepth`` deep.
    func source(_ path: String) async -> StepResult {
        guard sourceDepth < Self.maxSourceDepth else {
            log.error(
                "source nests more than \(Self.maxSourceDepth) files deep; does a file source itself?")
            return .failed
        }
        let reader: ScriptedLineReader
        do {
            reader = try ScriptedLineReader(path: path)
        } catch {
            log.error(error.message)
            return .failed
        }
        if let interrupts {
            // At a terminal, Ctrl-C stops the file: from the next line, or while a line is read.
            let pressed = interrupts.count
            reader.isStopped = { interrupts.count != pressed }
        }
        sourceDepth += 1
        filesBeingRead.append(path)
        defer {
            sourceDepth -= 1
            filesBeingRead.removeLast()
        }
        let location = log.location
        let failedBefore = failed
        failed = false
        let end = await runLines(from: reader, name: TerminalText.escaped(path))
        let failedInside = failed
        failed = failedBefore || failedInside
        switch end {
        case .stopped: return failedInside && bail ? .failed : .quit
        case .interrupted where interrupts == nil:
            // A script ending by a signal: nothing more runs, and nothing more is said.
            return .quit
        case .interrupted(let lines):
            // One press stops every file sourced inside another; the innermost says so.
            guard let interrupts, stopReported != interrupts.count else { return .failed }
            stopReported = interrupts.count
            // Said where `source` was typed, not at the file's line.
            log.location = location
            log.error(
                "Ctrl-C stopped source \(TerminalText.quoted(path)) after \(RosterView.grouped(lines)) "
                    + (lines == 1 ? "line." : "lines."))
            return .failed
        case .ended: return failedInside ? .failed : .succeeded
        }
    }

    /// When a script may next ask the store, in nanoseconds of ``coarseNanoseconds()``.
    ///
    /// The last asking, plus ``scriptedCatchUpInterval`` and the coarse clock's resolution; nil
    /// before the first asking.
    var nextCatchUp: Int64?

    /// How long a script's commands that do not touch the roster may run back to back before the
    /// store is asked again: asking before each of them would cost more than most commands do.
    static let scriptedCatchUpInterval = Duration.milliseconds(10)

    /// Whether the store is to be asked before a command: with a roster, at a terminal always, in
    /// a script when the last asking is surely older than ``scriptedCatchUpInterval`` (older by
    /// that and the coarse clock's resolution).
    private func catchUpIsDue() -> Bool {
        guard hasRoster else { return false }
        guard !interactive, let nextCatchUp else { return true }
        return Self.coarseNanoseconds() >= nextCatchUp
    }

    /// The monotonic time in nanoseconds, from the clock that is updated at each tick of the
    /// kernel: asked on every line of a script, it costs a fraction of the precise clock, and a
    /// plain integer compares at once.
    private static func coarseNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(coarseClock, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    #if os(Linux)
        private static let coarseClock = CLOCK_MONOTONIC_COARSE
    #else
        private static let coarseClock = CLOCK_MONOTONIC
    #endif

    /// How long after an asking a script asks again, in nanoseconds: the interval plus the coarse
    /// clock's resolution, since either reading may be up to that much behind, and only a longer
    /// interval is sure to be as long as asked.
    private static let catchUpSpacing: Int64 = {
        var resolution = timespec()
        clock_getres(coarseClock, &resolution)
        let (seconds, attoseconds) = scriptedCatchUpInterval.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
            + Int64(resolution.tv_sec) * 1_000_000_000 + Int64(resolution.tv_nsec)
    }()

    /// Shows what changed in the store since the roster last read it.
    func catchUp() async {
        guard let rosterView else { return }
        nextCatchUp = Self.coarseNanoseconds() + Self.catchUpSpacing
        let found = await rosterView.catchUp()
        for note in found.notes { output.writeError(note) }
        for line in found.lines { output.write(line) }
    }

    /// Reads a line; at an interactive prompt, meanwhile checks the store at every idle tick and
    /// shows what others changed above the prompt.
    private func read() async -> LineInput {
        let prompt = prompt?.value ?? ""
        guard let rosterView, reader.isInteractive, let idleTicks else {
            return await reader.read(prompt: prompt)
        }
        // Only showAbovePrompt is called from the watcher, which the protocol allows while a line
        // is being read.
        nonisolated(unsafe) let reader = self.reader
        let output = self.output
        let ticks = idleTicks()
        let watcher = Task {
            for await _ in ticks {
                if Task.isCancelled { break }
                let found = await rosterView.catchUp()
                guard !found.lines.isEmpty || !found.notes.isEmpty else { continue }
                if !reader.showAbovePrompt(found.notes + found.lines) {
                    for note in found.notes { output.writeError(note) }
                    for line in found.lines { output.write(line) }
                }
            }
        }
        let input = await reader.read(prompt: prompt)
        watcher.cancel()
        await watcher.value
        return input
    }

    /// How a line ended.
    enum StepResult {
        case succeeded, failed, ignored, quit
    }

    /// Runs a line as far as it runs without waiting: to the end for a command that never waits
    /// (most do), with no asynchronous call; otherwise the rest is returned to be awaited.
    func startLine(_ bytes: [UInt8]) -> CommandCatalog.Performance {
        guard let text = Self.text(ofLine: bytes) else {
            let shown = TerminalText.escaped(bytes: bytes.prefix(80))
            log.error(
                "The line is not valid UTF-8: \(shown)\(bytes.count > 80 ? "..." : ""). Type UTF-8 text.")
            return .finished(.failed)
        }
        let firstVisible = text.utf8.first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
        if firstVisible == nil || firstVisible == UInt8(ascii: "#") { return .finished(.ignored) }
        do {
            let (entry, arguments) = try CommandParser.command(of: text)
            guard let paging, !pagerOff, entry.pagesOutput, !redirect.isRedirected else {
                return try entry.perform(arguments, in: self)
            }
            // The pager begins before the command writes anything.
            let performance = try entry.perform(arguments, in: self, deferred: true)
            guard case .pending(let run) = performance else { return performance }
            return .pending { session in
                paging.begin()
                let result = await run(session)
                for note in paging.end() { session.output.writeError("note: " + note) }
                return result
            }
        } catch {
            log.error(error.message)
            return .finished(.failed)
        }
    }

    /// A line's bytes as text; nil when they are not valid UTF-8.
    ///
    /// Lines of ASCII, which almost every line of a script is, need no decoding: checking that
    /// every byte is below 0x80 is enough.
    static func text(ofLine bytes: [UInt8]) -> String? {
        var ascii: UInt8 = 0
        for byte in bytes { ascii |= byte }
        if ascii < 0x80 { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }
}
