import Foundation
import Glibc
import PlayerForm
import PlayerFormStore
import PlayerFormText

/// Starts the REPL for the executable: picks interactive or scripted mode from standard input,
/// chooses colours, the history file and the score file, and runs a session.
public enum PlayerFormREPL {
    /// What the command line asked for.
    public struct Options: Sendable {
        /// The rules to start with.
        public var rules: PlayerRules
        /// Whether `--no-color` was given.
        public var noColor: Bool
        /// Whether `--bail` was given.
        public var bail: Bool
        /// The `--history-file` option.
        public var historyFile: String?
        /// How long an upload takes; nil for the default (one second at a terminal, none in
        /// scripted mode).
        public var uploadDelay: Duration?
        /// The score file, as ``storePath(option:environment:)`` chose it.
        public var storePath: String
        /// The time every upload is stamped with, for reproducible output; nil for the clock.
        public var uploadTime: Date?
        /// Commands (`-c`) and files (`-f`) to run instead of standard input; empty for none.
        public var scripts: [REPLSession.Script] = []
        /// Whether `--echo` was given: scripts show each line before its output.
        public var echo = false
        /// The line an interactive session starts with; nil for none (`--quiet`).
        public var greeting: String?
        /// Where the rules came from, as `rules` says: `defaults` or the rules file's path.
        public var rulesOrigin = "defaults"
        /// Whether `--no-pager` was given: long output at a terminal is written directly.
        public var noPager = false

        /// The upload times, in seconds since 1970, that the score file can hold.
        public static let uploadTimes = FileScoreStore.writableTimes
        /// The upload delays accepted, in milliseconds: up to ten minutes, so that a script,
        /// which has no Ctrl-C to cancel an upload, always finishes.
        public static let uploadDelays = 0...600_000

        /// Creates options.
        public init(
            rules: PlayerRules = .defaults, noColor: Bool = false, bail: Bool = false,
            historyFile: String? = nil, uploadDelay: Duration? = nil, storePath: String,
            uploadTime: Date? = nil
        ) {
            self.rules = rules
            self.noColor = noColor
            self.bail = bail
            self.historyFile = historyFile
            self.uploadDelay = uploadDelay
            self.storePath = storePath
            self.uploadTime = uploadTime
        }
    }

    /// The score file: `option` (`--store`) when given, else the default place for
    /// `environment` (``StoreLocation/defaultPath(environment:)``).
    /// - Throws: ``StoreError/noDataDirectory`` when there is no option and no default place.
    public static func storePath(option: String?, environment: [String: String]) throws(StoreError) -> String
    {
        if let option { return option }
        return try StoreLocation.defaultPath(environment: environment)
    }

    /// The form and the roster of a session, both on `store`; the form's uploads take `delay`.
    public static func viewModels(
        rules: PlayerRules, store: any ScoreStore, uploadDelay delay: Duration
    ) -> (form: PlayerViewModel, roster: RosterViewModel) {
        let form = PlayerViewModel(rules: rules, store: DelayedScoreStore(store, delay: delay))
        return (form, RosterViewModel(store: store, rules: rules))
    }

    /// Rows of `players` that fit the terminal with the title and the prompt, or the default page
    /// when the terminal does not say its size.
    static func terminalPageSize() -> Int {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else {
            return REPLSession.defaultPageSize
        }
        return max(5, Int(size.ws_row) - 4)
    }

    /// The height of the terminal on standard output, or 24 when it does not say.
    static func terminalRows() -> Int {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return 24 }
        return Int(size.ws_row)
    }

    /// The width of the terminal on standard output, or 80 when it is not a terminal.
    static func terminalColumns() -> Int {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// A tick a second, until the stream is dropped.
    static func everySecond() -> AsyncStream<Void> {
        AsyncStream { continuation in
            let ticking = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    continuation.yield()
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in ticking.cancel() }
        }
    }

    /// Runs a session on standard input and output and returns the exit status: 0 when every
    /// command succeeded (always at a terminal), 1 when a scripted command failed.
    public static func run(_ options: Options, environment: [String: String]) async -> Int32 {
        let interactive = isatty(0) == 1 && isatty(1) == 1
        let output = StandardOutput(buffered: !interactive)
        let delay = options.uploadDelay ?? (interactive ? .seconds(1) : .zero)
        let uploadTime = options.uploadTime
        let store = FileScoreStore(path: options.storePath, now: { uploadTime ?? Date() })
        let (form, roster) = viewModels(rules: options.rules, store: store, uploadDelay: delay)
        if !options.scripts.isEmpty {
            let session = REPLSession(
                form: form, roster: roster, reader: ScriptedLineReader(bytes: []), output: output,
                bail: options.bail, echo: options.echo, rulesOrigin: options.rulesOrigin,
                columns: { terminalColumns() })
            return await session.run(scripts: options.scripts).exitStatus
        }
        guard interactive else {
            let reader = ScriptedLineReader()
            reader.beforeWaiting = { output.flush() }
            let session = REPLSession(
                form: form, roster: roster, reader: reader, output: output, bail: options.bail,
                echo: options.echo, rulesOrigin: options.rulesOrigin, columns: { terminalColumns() })
            return await session.run().exitStatus
        }
        let style = TerminalStyle.choose(
            isTerminal: true, environment: environment, noColorFlag: options.noColor)
        let interrupts = Interrupts()
        let history = HistoryFile.resolve(option: options.historyFile, environment: environment)
        let reader = ReadlineLineReader(history: history, interrupts: interrupts) { warning in
            output.writeError("warning: " + TerminalText.escaped(warning))
        }
        let session = REPLSession(
            form: form, roster: roster, reader: reader, output: output, style: style, bail: false,
            interrupts: interrupts, pageSize: terminalPageSize(), idleTicks: { everySecond() },
            rulesOrigin: options.rulesOrigin, columns: { terminalColumns() },
            pager: options.noPager
                ? nil
                : PagerSettings(
                    command: PagerSettings.command(environment: environment), rows: { terminalRows() }))
        if let greeting = options.greeting { output.write(greeting) }
        let status = await session.run().exitStatus
        reader.close()
        return status
    }
}
