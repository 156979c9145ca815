import ArgumentParser
import Foundation
import Glibc
import PlayerFormPostgres
import PlayerFormSQLite
import PlayerFormScores
import PlayerFormSystem
import PlayerFormTerminal
import PlayerFormText
import PlayerFormTransfer
import Synchronization

/// Where the scores are: the `--store` option, else the default database, with the score file of
/// earlier versions to import once in that case.
struct StorePlace {
    var path: String
    var legacyPath: String?

    /// - Throws: a usage error (64) when there is no default place, or when the store named
    ///   looks like the address of a server but is not a league URL this program reads: such a
    ///   text is never taken as a file name.
    init(option: String?, environment: [String: String]) throws {
        guard let path = PlayerFormREPL.storePath(option: option, environment: environment) else {
            throw ValidationError(
                "Cannot tell where to keep scores: neither XDG_DATA_HOME nor HOME is an absolute path. "
                    + "Pass --store <file>, such as --store ~/scores.sqlite.")
        }
        self.path = path
        let chosen = option ?? environment[PlayerFormREPL.storeVariable].flatMap { $0.isEmpty ? nil : $0 }
        legacyPath = chosen == nil ? StoreLocation.legacyPath(environment: environment) : nil
        if PostgresLocation.looksLikeAddress(path) {
            let source = option == nil ? PlayerFormREPL.storeVariable : "--store"
            throw ValidationError(
                "\(source) '\(TerminalText.escaped(PostgresLocation.masking(path)))' looks like the address of a "
                    + "server, but a league is written postgres://USER@HOST[:PORT]/DATABASE (or postgresql://, "
                    + "in any case) or as libpq's keywords (host=HOST dbname=DATABASE). Give that, or the path of a score database (./NAME for a file whose "
                    + "name looks like an address). Nothing was created.")
        }
    }

    /// Whether the store is a league on PostgreSQL rather than a score database.
    var isLeague: Bool { PostgresLocation.isLeague(path) }

    /// Opens the store, the league or the database, or ends the command with the error's exit
    /// status after its message.
    ///
    /// A command that only reads passes `creating: false`: a missing database is then refused
    /// (66) instead of created empty.
    func open(busyTimeout: Int?, creating: Bool = true) async throws -> any ScoreStore {
        switch await PlayerFormREPL.openAnyStore(
            options(busyTimeout: busyTimeout), environment: ProcessEnvironment.current(), creating: creating)
        {
        case .success(let store): return store
        case .failure(let failure): throw ExitCode(failure.exitStatus)
        }
    }

    private func options(busyTimeout: Int?) -> PlayerFormREPL.Options {
        PlayerFormREPL.Options(
            storePath: path, legacyStorePath: legacyPath,
            busyTimeout: busyTimeout.map { .milliseconds($0) } ?? .seconds(5))
    }
}

/// Shows how far a long import or export has come, on standard error when it is a terminal, at
/// most four times a second: records done, the rate, the part done and the time left.
///
/// Silent in scripts. Used by one task at a time: a command, and the pages of an export that its
/// store hands over one after another while the command waits.
final class ProgressMeter: @unchecked Sendable {
    private let verb: String
    private let total: Int?
    private let enabled: Bool
    private let now: () -> ContinuousClock.Instant
    private let write: (String) -> Void
    private let started: ContinuousClock.Instant
    private let delay: Duration
    private var lastShown: ContinuousClock.Instant?
    private var shown = false

    /// A meter that has shown nothing yet.
    ///
    /// - Parameters:
    ///   - verb: what is done to the records, as the progress line says it.
    ///   - total: the number of records to expect, when known.
    ///   - enabled: whether to show anything; by default, whether standard error is a terminal.
    ///   - delay: how long the work must have run before anything is shown.
    ///   - now: the clock.
    ///   - write: shows a progress line; by default on standard error.
    init(
        verb: String, total: Int?, enabled: Bool = isatty(STDERR_FILENO) == 1, delay: Duration = .zero,
        now: @escaping () -> ContinuousClock.Instant = { ContinuousClock.now },
        write: @escaping (String) -> Void = { StandardError.write($0) }
    ) {
        self.verb = verb
        self.total = total
        self.enabled = enabled
        self.now = now
        self.write = write
        self.delay = delay
        started = now()
    }

    /// `done` records so far; `fraction` is the part of the input read, when the total is unknown.
    func update(_ done: Int, fraction: Double? = nil) {
        guard enabled else { return }
        let now = self.now()
        if now - started < delay { return }
        if let lastShown, now - lastShown < .milliseconds(250) { return }
        lastShown = now
        let elapsed = Self.seconds(now - started)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        var line = "\r\(verb) \(done) records, \(Int(rate))/s"
        let part = fraction ?? total.map { $0 > 0 ? Double(done) / Double($0) : 1 }
        if let part, part > 0.001 {
            let left = max(0, elapsed / part - elapsed)
            line += ", \(Int(part * 100))%, about \(Int(left.rounded())) s left"
        }
        write(line + "\u{1B}[K")
        shown = true
    }

    /// Clears the line.
    func finish() {
        guard shown else { return }
        shown = false
        write("\r\u{1B}[K")
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

extension PlayerFormCommand {
    /// `playerform import`: adds the records of score files to the score database.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add the records of score files to the score database.",
            discussion: """
                Reads JSON Lines score files of earlier versions (records and deletions), what \
                playerform export writes (JSON Lines, or CSV with the header id,name,points,uploadedAt), \
                and rosters as playerform validate reads them (CSV whose header names name and points, \
                in any case, other columns ignored, separated by commas, semicolons or tabs; JSON \
                Lines of name and points) into the score database (--store, as for playerform). The \
                format is the file's extension's (.jsonl, .csv), else that of the first line that is \
                a record: a damaged line costs that line only. A record without an id is an upload \
                at its uploadedAt, else at the time the file was last changed (standard input: the \
                time of reading), with an id made from its name, points and time. \
                Records are matched by id, so importing a file twice adds nothing the second time. \
                A player shows its newest record by uploadedAt, so importing an older export rolls \
                no one back. \
                The files are only read. Progress is shown on standard error when it is a terminal.

                Exit status: 0 everything was imported; 65 a line was not a record, or a record \
                reuses the id of a different stored record (each is reported and skipped, the rest \
                is imported); 66 a file or the database cannot be opened; 73 the database's folder \
                cannot be made; 74 an I/O error or a full disk (batches before it are kept); 75 \
                another process kept the database locked; 130 stopped by Ctrl-C, also while waiting for \
                input or for a lock (the records read before it are kept and the files after it are not \
                read; importing a file again adds the rest; a second Ctrl-C ends the program at once). \
                With several files the highest of these wins; the other files are still imported.
                """
        )

        @Argument(help: "Score files to import; - reads standard input.")
        var files: [String]

        /// The `--store` option and the hidden wait for a lock are the main command's.
        @ParentCommand var main: PlayerFormCommand

        func validate() throws {
            if files.isEmpty { throw ValidationError("Name the score files to import.") }
        }

        func run() async throws {
            let place = try StorePlace(option: main.store, environment: ProcessEnvironment.current())
            let store = try await place.open(busyTimeout: main.busyTimeoutMilliseconds)
            // The first Ctrl-C stops the import after the record in hand, keeping what was read.
            Interrupt.install()
            var status: Int32 = 0
            for file in files {
                let meter = ProgressMeter(verb: Self.progressVerb(file), total: nil)
                do {
                    let summary = try await ScoreImport.importFile(
                        at: file, into: store,
                        progress: { done, fraction in meter.update(done, fraction: fraction) },
                        shouldStop: { Interrupt.isRequested })
                    meter.finish()
                    Self.report(summary, of: file)
                    if summary.notImported > 0 { status = max(status, 65) }
                    if Interrupt.isRequested { throw ExitCode(ValidationExit.interrupted.rawValue) }
                } catch let error as ScoreFileError {
                    // The file cannot be opened or read; the other files are still imported.
                    meter.finish()
                    Self.report(StoreFailure.words(error))
                    status = max(status, StoreFailure.exitStatus(error))
                } catch let error as ScoreStoreError {
                    meter.finish()
                    Self.report(StoreFailure.words(error))
                    throw ExitCode(StoreFailure.exitStatus(error))
                }
            }
            if status != 0 { throw ExitCode(status) }
        }

        /// What the progress line of importing `file` begins with: its name escaped, as every
        /// name shown at a terminal is.
        static func progressVerb(_ file: String) -> String {
            "importing \(TerminalText.escaped(file)):"
        }

        /// Says what the import of `file` did: each line not imported, by its place, then a note
        /// with the counts.
        static func report(_ summary: ImportSummary, of file: String) {
            // Each problem starts with the file and line it concerns.
            for problem in summary.problems { report(problem, label: "") }
            for conflict in summary.conflicts {
                report(
                    "\(file):\(conflict.line): "
                        + StoreFailure.words(ScoreStoreError.conflictingRecord(id: conflict.id.uuidString)),
                    label: "")
            }
            for refusal in summary.refused {
                let why =
                    if case .failed(.server, let code, let message) = refusal.error {
                        "the league refused the record (\(code): \(message))"
                    } else {
                        StoreFailure.words(refusal.error)
                    }
                report("\(file):\(refusal.line): " + why, label: "")
            }
            var line = "\(file): "
            if summary.stopped { line += "stopped by Ctrl-C: " }
            line +=
                "\(summary.added) \(summary.added == 1 ? "record" : "records") added, "
                + "\(summary.alreadyKept) already kept"
            if summary.deleted > 0 { line += ", \(summary.deleted) deleted" }
            if summary.notImported > 0 { line += ", \(summary.notImported) not imported" }
            if summary.stopped {
                line +=
                    ScoreFileReader.canBeReadAgain(file)
                    ? "; importing the file again adds the rest"
                    : "; the rest of the input was not imported"
            }
            report(line, label: "note: ")
        }

        /// Writes `line` on standard error in the program's style: `error: ` for an error (the
        /// default), `note: ` for news, no label for a line that starts with its position.
        static func report(_ line: String, label: String = "error: ") {
            StandardError.write(label + TerminalText.escaped(line) + "\n")
        }
    }

    /// `playerform export`: writes every stored score record to standard output.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every stored score record to standard output.",
            discussion: """
                One record a line, with its id, name, points and uploadedAt, as JSON \
                Lines (the default) or CSV with a header row, from the score database (--store, as \
                for playerform). playerform validate and playerform \
                import read the output. Streams: memory does not grow with the store. Progress is \
                shown on standard error when it is a terminal.

                Records are written oldest first: by uploadedAt, records of the same time in the \
                order they were kept. A player shows its newest record, whatever order records \
                were imported in.

                Exit status: 0 done; 64 --store looks like a server address but is not a league \
                URL; 65 the database is not a score database; 66 it cannot be opened, or there is \
                none (export creates nothing; name the store with --store in a cron job); 74 \
                writing failed; 75 another process kept the database locked.
                """
        )

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case jsonl, csv
        }

        @Option(help: "The output format.")
        var format: Format = .jsonl

        /// The `--store` option and the hidden wait for a lock are the main command's.
        @ParentCommand var main: PlayerFormCommand

        func run() async throws {
            let place = try StorePlace(option: main.store, environment: ProcessEnvironment.current())
            let store = try await place.open(busyTimeout: main.busyTimeoutMilliseconds, creating: false)
            let showsProgress = isatty(STDERR_FILENO) == 1
            let meter = ProgressMeter(
                verb: "exporting", total: showsProgress ? try? await store.recordCount() : nil)
            let failure = Mutex<OutputError?>(nil)
            do {
                let (_, complete) = try await ScoreExport.export(
                    store, format: format == .csv ? .csv : .jsonl, progress: { meter.update($0) }
                ) { chunk in
                    do throws(OutputError) {
                        try Self.writeAll(chunk)
                        return true
                    } catch {
                        failure.withLock { $0 = error }
                        return false
                    }
                }
                meter.finish()
                if !complete, let error = failure.withLock({ $0 }) {
                    Import.report("cannot write the export: \(error.reason)")
                    throw ExitCode(74)
                }
            } catch let error as ScoreStoreError {
                meter.finish()
                Import.report(StoreFailure.words(error))
                throw ExitCode(StoreFailure.exitStatus(error))
            }
        }

        struct OutputError: Error, Sendable {
            var reason: String
        }

        /// Lines of an export as a terminal shows them: what a name holds that is not visible on
        /// its own (an escape sequence, a carriage return, a right-to-left override) escaped, as
        /// everywhere else; to a file or a pipe the export is written exactly, to be imported back.
        static func shownOnTerminal(_ bytes: [UInt8]) -> [UInt8] {
            let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            return Array(
                lines.map { TerminalText.message(String(decoding: $0, as: UTF8.self)) }.joined(
                    separator: "\n"
                ).utf8)
        }

        /// Whether standard output is a terminal, where names are shown escaped.
        private static let toTerminal = isatty(STDOUT_FILENO) == 1

        static func writeAll(_ bytes: [UInt8]) throws(OutputError) {
            let bytes = toTerminal ? shownOnTerminal(bytes) : bytes
            if let failure = Descriptor.writeAll(bytes, to: STDOUT_FILENO) {
                throw OutputError(reason: SystemError.text(failure))
            }
        }
    }
}

extension PlayerFormCommand {
    /// `playerform check`: verifies a store, and with `--repair` rebuilds what is derived.
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify the store; with --repair, rebuild the players from the scores.",
            discussion: """
                Checks the players, their counts and their places against the scores they are made \
                from, as a change made with another program (sqlite3, psql) can leave them; on a \
                score database, SQLite's integrity check runs first. With --repair, the players and \
                their counts are made again from the scores, in one transaction; the scores are left \
                as they are. A missing store is refused and nothing is created.

                Exit status: 0 the store is sound (or was repaired); 65 the players disagree with \
                the scores (each way is said; --repair mends it) or the file is damaged (export \
                what can be read and import it into a new store); 66 the store cannot be opened or \
                there is none; 69 the league's server cannot be reached; 75 another process kept \
                it locked; 76 the league refused the statements; 77 the league's user lacks a \
                privilege.
                """
        )

        @Flag(help: "Rebuild the players and their counts from the scores when they disagree.")
        var repair = false

        /// The `--store` option and the hidden wait for a lock are the main command's.
        @ParentCommand var main: PlayerFormCommand

        func run() async throws {
            let place = try StorePlace(option: main.store, environment: ProcessEnvironment.current())
            let store = try await place.open(busyTimeout: main.busyTimeoutMilliseconds, creating: false)
            guard let checked = store as? any DerivedRowsChecking else {
                preconditionFailure("every store opened by a command keeps derived rows")
            }
            // A league is named without its password.
            let shown = place.isLeague ? PostgresLocation.masking(place.path) : place.path
            do {
                let report = try await checked.check()
                for line in report.damage { Import.report("\(shown): damaged: \(line)") }
                guard report.damage.isEmpty else {
                    Import.report(
                        "\(shown): the file is damaged; export what can be read (playerform export) "
                            + "and import it into a new store", label: "note: ")
                    throw ExitCode(65)
                }
                for line in report.inconsistencies { Import.report("\(shown): \(line)") }
                guard !report.isSound else {
                    Import.report("\(shown): sound", label: "note: ")
                    return
                }
                guard repair else {
                    Import.report(
                        "\(shown): the players disagree with the scores; playerform check --repair "
                            + "makes them again from the scores", label: "note: ")
                    throw ExitCode(65)
                }
                try await checked.rebuildDerived()
                let after = try await checked.check()
                for line in after.inconsistencies { Import.report("\(shown): still \(line)") }
                guard after.isSound else { throw ExitCode(65) }
                Import.report(
                    "\(shown): repaired: the players were made again from the scores", label: "note: ")
            } catch let error as ScoreStoreError {
                Import.report(StoreFailure.words(error))
                throw ExitCode(StoreFailure.exitStatus(error))
            }
        }
    }
}
