import Foundation
import Glibc
import PlayerForm
import PlayerFormRules
import PlayerFormSQLite
import PlayerFormScores
import PlayerFormSystem
import PlayerFormTerminal
import PlayerFormText
import PlayerFormTransfer

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
        /// The score database, as ``storePath(option:environment:)`` chose it.
        public var storePath: String
        /// The JSON Lines score file of earlier versions to import once into the database; nil
        /// when `--store` named the database.
        public var legacyStorePath: String?
        /// How long to wait for a database another process keeps locked.
        public var busyTimeout: Duration
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
        /// The file results go to (`-o FILE`), replaced; nil for standard output.
        public var outputPath: String?
        /// The start-up file to run before the session's commands; nil for none.
        public var startupFile: String?
        /// How results are written at the start (`--csv`, `--json`).
        public var mode: OutputMode = .table
        /// Whether players writes its title and header row at the start (`-t` turns them off).
        public var headers = true

        /// The upload times, in seconds since 1970, that the score file can hold.
        public static let uploadTimes = Timestamp.writable
        /// The upload delays accepted, in milliseconds: up to ten minutes, so that a script,
        /// which has no Ctrl-C to cancel an upload, always finishes.
        public static let uploadDelays = 0...600_000

        /// Creates options.
        public init(
            rules: PlayerRules = .defaults, noColor: Bool = false, bail: Bool = false,
            historyFile: String? = nil, uploadDelay: Duration? = nil, storePath: String,
            legacyStorePath: String? = nil, busyTimeout: Duration = .seconds(5), uploadTime: Date? = nil
        ) {
            self.rules = rules
            self.noColor = noColor
            self.bail = bail
            self.historyFile = historyFile
            self.uploadDelay = uploadDelay
            self.storePath = storePath
            self.legacyStorePath = legacyStorePath
            self.busyTimeout = busyTimeout
            self.uploadTime = uploadTime
        }
    }

    /// The environment variable naming the score database or league when `--store` is not given.
    public static let storeVariable = "PLAYERFORM_STORE"

    /// The score database: `option` (`--store`) when given, else `PLAYERFORM_STORE` when set,
    /// else the default place for `environment` (``StoreLocation/databasePath(environment:)``);
    /// nil when there is no option and no default place.
    static func storePath(option: String?, environment: [String: String]) -> String? {
        if let option { return option }
        if let chosen = environment[storeVariable], !chosen.isEmpty { return chosen }
        return StoreLocation.databasePath(environment: environment)
    }

    /// Opens the score database of `options`, and imports the score file of earlier versions
    /// once when the database is the default one; says on standard error what it imported.
    /// - Returns: the store, or the exit status after a message on standard error.
    ///
    /// When `creating` is false (a command that only reads), a missing database is refused and
    /// nothing is created.
    public static func openStore(
        _ options: Options, creating: Bool = true, now: @escaping @Sendable () -> Date = { Date() }
    ) async -> Result<SQLiteScoreStore, StoreUnavailable> {
        let store: SQLiteScoreStore
        do {
            // A signal to a script stops a wait for a lock as Ctrl-C does at a terminal, and so
            // does Ctrl-C to `import`.
            store = try SQLiteScoreStore(
                path: options.storePath, busyTimeout: options.busyTimeout, waiting: note, now: now,
                stopWaiting: { FlushOnSignal.isRequested || Interrupt.isRequested }, creating: creating)
        } catch {
            report(StoreFailure.words(error))
            return .failure(StoreUnavailable(exitStatus: StoreFailure.exitStatus(error)))
        }
        guard let legacy = options.legacyStorePath else { return .success(store) }
        do {
            try await importLegacyFileOnce(at: legacy, into: store)
        } catch {
            // The old file cannot be read, or the database written: the error names which.
            report("could not import the old score file: " + StoreFailure.words(error))
            // An old file that cannot be read ends the program as an I/O error (74), as before
            // there was a database.
            let status = error is ScoreFileError ? 74 : StoreFailure.exitStatus(any: error)
            return .failure(StoreUnavailable(exitStatus: status))
        }
        return .success(store)
    }

    /// Imports the JSON Lines score file of earlier versions at `legacyPath` into `store`, once.
    ///
    /// It is imported when it exists and the database has not imported it before; what it
    /// imported is said on standard error. The file is only read.
    /// - Returns: what the import did; nil when there was nothing to do.
    @discardableResult
    static func importLegacyFileOnce(at legacyPath: String, into store: SQLiteScoreStore) async throws
        -> ImportSummary?
    {
        guard FileManager.default.fileExists(atPath: legacyPath) else { return nil }
        if let imported = try await store.legacyImport() {
            // Versions before line-by-line reading took a file whose first line was damaged for
            // CSV and kept none of its records: such a file is imported once more.
            guard !imported.hasSuffix(readByLine), ScoreFileReader.firstLineIsDamaged(legacyPath) else {
                return nil
            }
        }
        let summary = try await ScoreImport.importFile(at: legacyPath, into: store)
        try await store.markLegacyImport(legacyPath + readByLine)
        // Each damaged line by its place (the first ten), so it can be looked at.
        for problem in summary.problems.prefix(10) {
            StandardError.write(TerminalText.escaped(problem) + "\n")
        }
        let skipped = summary.problems.isEmpty ? "" : "; \(summary.problems.count) damaged lines skipped"
        note(
            "imported \(summary.added) \(summary.added == 1 ? "score" : "scores") from \(legacyPath) into "
                + "\(store.path)\(skipped); the old file is left as it was")
        return summary
    }

    /// What the database's `meta.legacy_import` ends with when the file was read a line at a
    /// time, each damaged line costing that line only.
    static let readByLine = "\u{1F}by line"

    /// News on standard error (a wait for a lock, an import), in the program's one style.
    @Sendable static func note(_ line: String) {
        StandardError.write("note: " + TerminalText.escaped(line) + "\n")
    }

    /// An error on standard error, in the program's one style.
    @Sendable static func report(_ line: String) {
        StandardError.write("error: " + TerminalText.escaped(line) + "\n")
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

    /// The form and the roster of a session, both on `store`; the form's uploads wait `delay`.
    ///
    /// The roster's new players follow the form's rules as they change (`max 50`, then `add`).
    static func viewModels(
        rules: PlayerRules, store: any ScoreStore, uploadDelay delay: Duration
    ) -> (form: PlayerViewModel, roster: RosterViewModel) {
        let form = PlayerViewModel(rules: rules, store: store, uploadDelay: delay)
        return (form, RosterViewModel(store: store, rules: form.rules))
    }

    /// The view models and the session of a script, on `store`: commands from standard input,
    /// unless `-c` and `-f` give them.
    static func scriptSession(
        options: Options, store: any ScoreStore, output: StandardOutput, delay: Duration
    ) -> (PlayerViewModel, RosterViewModel, REPLSession) {
        let (form, roster) = viewModels(rules: options.rules, store: store, uploadDelay: delay)
        let reader = options.scripts.isEmpty ? ScriptedLineReader() : ScriptedLineReader(bytes: [])
        if options.scripts.isEmpty { reader.beforeWaiting = { output.flush() } }
        let session = REPLSession(
            form: form, roster: roster, reader: reader, output: output,
            terminal: REPLSession.Terminal(columns: { terminalColumns() }, idleTicks: idleTicks(for: store)),
            options: REPLSession.Options(
                bail: options.bail, echo: options.echo, rulesOrigin: options.rulesOrigin,
                endRequested: { FlushOnSignal.isRequested }, version: PlayerFormCommand.versionLine,
                resultsFileRefusal: resultsFileRefusal(options), startupFile: options.startupFile,
                mode: options.mode, headers: options.headers))
        return (form, roster, session)
    }

    /// Why the results must not go to the file at a path, which sending them there would empty:
    /// the score database, or a script of `-f` about to be read; nil when they may.
    static func resultsFileRefusal(_ options: Options) -> @Sendable (String) -> String? {
        let store = options.storePath
        let scripts = options.scripts.compactMap {
            if case .file(let script) = $0 { script } else { nil }
        }
        let (results, startup) = (options.outputPath, options.startupFile)
        return { path in
            // The database's journal and shared memory are the database too: emptying them loses
            // or damages what it keeps.
            if let part = ["", "-wal", "-shm", "-journal"].first(where: {
                FileIdentity.same(path, store + $0)
            }) {
                return "\(path) is "
                    + (part.isEmpty ? "the score database" : "part of the score database (\(part))")
                    + "; name another file for the results"
            }
            if let results, FileIdentity.same(path, results) {
                return
                    "\(path) is the file of -o, which the results go to already; output alone sends them there"
            }
            if let startup, FileIdentity.same(path, startup) {
                return "\(path) is the start-up file; name another file for the results"
            }
            if let script = scripts.first(where: { FileIdentity.same(path, $0) }) {
                return "\(path) is the script -f \(script); name another file for the results"
            }
            return nil
        }
    }

    /// Runs a session on standard input and output and returns the exit status: 0 when every
    /// command succeeded (always at a terminal), 1 when a scripted command failed or standard
    /// output could not be written.
    public static func run(_ options: Options, environment: [String: String]) async -> Int32 {
        let interactive = isatty(0) == 1 && isatty(1) == 1
        // The results' file is made before the store is opened, so that a file that cannot be
        // made changes nothing.
        var results: Int32 = 1
        if let path = options.outputPath {
            var before = options
            before.outputPath = nil
            if let refusal = resultsFileRefusal(before)(path) {
                report("-o " + refusal)
                return 64
            }
            results = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
            guard results >= 0 else {
                report("cannot write the results to \(path): \(SystemError.text(errno))")
                return 73
            }
        }
        defer { if results != 1 { Glibc.close(results) } }
        let output = StandardOutput(
            buffered: !interactive, results: results,
            resultsName: options.outputPath.map(TerminalText.escaped) ?? "standard output")
        let resultsAtTerminal = isatty(results) == 1
        let delay = options.uploadDelay ?? (interactive ? .seconds(1) : .zero)
        let uploadTime = options.uploadTime
        let open = { await openAnyStore(options, environment: environment, now: { uploadTime ?? Date() }) }
        if !interactive || !options.scripts.isEmpty {
            FlushOnSignal.install()
            let store: any ScoreStore
            switch await open() {
            case .success(let opened): store = opened
            case .failure(let failure): return failure.exitStatus
            }
            let (_, _, session) = scriptSession(
                options: options, store: store, output: output, delay: delay)
            FlushOnSignal.sessionRuns(true)
            let status =
                options.scripts.isEmpty
                ? await session.run().exitStatus : await session.run(scripts: options.scripts).exitStatus
            FlushOnSignal.sessionRuns(false)
            FlushOnSignal.endIfRequested { output.flush() }
            return output.writeFailed ? 1 : status
        }
        // At a terminal the store opens first: a league may ask for a password there.
        let store: any ScoreStore
        switch await open() {
        case .success(let opened): store = opened
        case .failure(let failure): return failure.exitStatus
        }
        let (form, roster) = viewModels(rules: options.rules, store: store, uploadDelay: delay)
        // Each stream is coloured only when it is a terminal itself: `2>errors.txt` gets no colour.
        let style = TerminalStyle.choose(
            isTerminal: resultsAtTerminal, environment: environment, noColorFlag: options.noColor)
        let errorStyle = TerminalStyle.choose(
            isTerminal: isatty(2) == 1, environment: environment, noColorFlag: options.noColor)
        let interrupts = Interrupts()
        let history = HistoryFile.resolve(option: options.historyFile, environment: environment)
        let reader = ReadlineLineReader(
            history: history, interrupts: interrupts,
            playerNames: { start, limit in
                (try? await roster.players(startingWith: start, limit: limit))?.map(\.player.name) ?? []
            }
        ) { warning in
            output.writeError("warning: " + TerminalText.escaped(warning))
        }
        let terminal = REPLSession.Terminal(
            style: style, errorStyle: errorStyle, interrupts: interrupts, pageSize: terminalPageSize(),
            pageSizeNow: { terminalPageSize() }, columns: { terminalColumns() },
            pager: options.noPager || !resultsAtTerminal
                ? nil
                : PagerSettings(
                    command: PagerSettings.command(environment: environment), rows: { terminalRows() },
                    columns: { terminalColumns() }),
            idleTicks: idleTicks(for: store))
        let session = REPLSession(
            form: form, roster: roster, reader: reader, output: output, terminal: terminal,
            options: REPLSession.Options(
                rulesOrigin: options.rulesOrigin, version: PlayerFormCommand.versionLine,
                resultsFileRefusal: resultsFileRefusal(options), startupFile: options.startupFile,
                mode: options.mode, headers: options.headers))
        // The greeting is for the person at the terminal, not for the results' file.
        if let greeting = options.greeting { Descriptor.writeAll(Array((greeting + "\n").utf8), to: 1) }
        let status = await session.run().exitStatus
        reader.close()
        return output.writeFailed ? 1 : status
    }
}
