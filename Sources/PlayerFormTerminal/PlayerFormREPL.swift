import Glibc
import PlayerForm

/// Starts the REPL for the executable: picks interactive or scripted mode from standard input,
/// chooses colours and the history file, and runs a session.
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

        /// Creates options.
        public init(
            rules: PlayerRules = .defaults, noColor: Bool = false, bail: Bool = false,
            historyFile: String? = nil, uploadDelay: Duration? = nil
        ) {
            self.rules = rules
            self.noColor = noColor
            self.bail = bail
            self.historyFile = historyFile
            self.uploadDelay = uploadDelay
        }
    }

    /// Runs a session on standard input and output and returns the exit status: 0 when every
    /// command succeeded (always at a terminal), 1 when a scripted command failed.
    public static func run(_ options: Options, environment: [String: String]) async -> Int32 {
        let interactive = isatty(0) == 1 && isatty(1) == 1
        let output = StandardOutput(buffered: !interactive)
        let delay = options.uploadDelay ?? (interactive ? .seconds(1) : .zero)
        let form = PlayerViewModel(
            rules: options.rules, store: DelayedScoreStore(InMemoryScoreStore(), delay: delay))
        guard interactive else {
            let reader = ScriptedLineReader()
            reader.beforeWaiting = { output.flush() }
            let session = REPLSession(form: form, reader: reader, output: output, bail: options.bail)
            return await session.run().exitStatus
        }
        let style = TerminalStyle.choose(
            isTerminal: true, environment: environment, noColorFlag: options.noColor)
        let interrupts = Interrupts()
        let history = HistoryFile.resolve(option: options.historyFile, environment: environment)
        let reader = ReadlineLineReader(history: history, interrupts: interrupts) { warning in
            output.writeError("playerform: " + warning)
        }
        let session = REPLSession(
            form: form, reader: reader, output: output, style: style, bail: false, interrupts: interrupts)
        let status = await session.run().exitStatus
        reader.close()
        return status
    }
}
