import ArgumentParser
import Foundation
import PlayerFormRecords

extension PlayerFormCommand {
    /// `playerform validate`: checks files of player records against the form's rules.
    struct Validate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Check files of player records against the player rules.",
            discussion: """
                Reads JSON Lines (.jsonl, .ndjson: one object per line with a string "name" and a \
                number "points") or CSV (.csv: a header row naming name and points). With no FILE, \
                or with -, reads standard input. Prints one finding per invalid record, then on \
                standard error a report by reason (how many records had each, their share, the \
                first lines) and the summary ("N records, K invalid"); with --format json the \
                findings are JSON Lines and the report one JSON object (docs/schemas). --quiet \
                prints the summary alone (and, when --max-errors stopped the run, that it did).

                Exit status: 0 every record is valid; 1 a record is invalid or malformed; 2 \
                --max-errors stopped the run before its end; 64 usage \
                error; 65 an input is unusable (CSV without the header, or a format that cannot be \
                told) or the --config file is not accepted; 66 an input or the --config file cannot \
                be opened or read; 74 the findings cannot be written to standard output; 130 \
                interrupted. With several inputs the highest of these wins.
                """
        )

        enum InputFormat: String, ExpressibleByArgument, CaseIterable {
            case jsonl, csv
        }

        enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
            case text, json
        }

        @Argument(help: "Files of player records; - or none reads standard input.")
        var files: [String] = []

        @Option(help: "The format of the inputs, when the extension or the first line does not tell.")
        var inputFormat: InputFormat?

        @Option(help: "How findings are written: text for people, json for JSON Lines.")
        var format: OutputFormat = .text

        @Flag(help: "Print only the summary.")
        var quiet = false

        @Option(
            help: ArgumentHelp(
                "Stop after N invalid records, saying so, with exit status 2 (default: check every record).",
                valueName: "n"))
        var maxErrors: Int?

        func validate() throws {
            if let maxErrors, maxErrors < 1 {
                throw ValidationError("--max-errors must be 1 or more, not \(maxErrors).")
            }
        }

        @OptionGroup var rulesFile: RulesFileOption

        func run() async throws {
            // Before any input is read; a file such as <(...) can be read only once.
            let rules = try RulesFileOption.rules(path: rulesFile.path)
            Interrupt.install()
            var run = ValidationRun(
                inputs: files, format: inputFormat.map { $0 == .jsonl ? .jsonl : .csv },
                style: format == .json ? .json : .text, quiet: quiet, rules: rules)
            Self.show(Self.progressMeter(quiet: quiet), on: &run)
            run.barsInReport = isatty(STDERR_FILENO) == 1
            run.maxErrors = maxErrors
            let status = run.run(output: ByteWriter(descriptor: 1), errors: ByteWriter(descriptor: 2))
            if status != .valid { throw ExitCode(status.rawValue) }
        }

        /// The meter of a run: shown once the run has taken a second, when standard error is a
        /// terminal and neither `--quiet` is given nor the findings go to a terminal (where they
        /// would be drawn over).
        static func progressMeter(
            quiet: Bool, isTerminal: (Int32) -> Bool = { isatty($0) == 1 },
            now: @escaping () -> ContinuousClock.Instant = { ContinuousClock.now },
            write: @escaping (String) -> Void = { StandardError.write($0) }
        ) -> ProgressMeter {
            ProgressMeter(
                verb: "validating:", total: nil,
                enabled: !quiet && isTerminal(STDERR_FILENO) && !isTerminal(STDOUT_FILENO),
                delay: .seconds(1),
                now: now, write: write)
        }

        /// Has `run` tell `meter` how far it has come: records, and the part of the input read when
        /// its size is known; the meter is cleared before any message or the summary.
        static func show(_ meter: ProgressMeter, on run: inout ValidationRun) {
            run.progress = { records, bytesRead, totalBytes in
                let fraction = bytesRead.flatMap { read in
                    totalBytes.map { $0 > 0 ? Double(read) / Double($0) : 1 }
                }
                meter.update(records, fraction: fraction)
            }
            run.clearProgress = { meter.finish() }
        }
    }
}
