import ArgumentParser
import Foundation
import PlayerFormRecords
import PlayerFormText

extension PlayerFormCommand {
    /// `playerform validate`: checks files of player records against the form's rules.
    struct Validate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Check files of player records against the player rules.",
            discussion: """
                Reads JSON Lines (.jsonl, .ndjson: one object per line with a string "name" and a \
                number "points") or CSV (.csv, .tsv: a header row naming name and points, in any \
                case; fields separated by commas, semicolons or tabs, told from the header row \
                unless --delimiter says; with semicolons or tabs, points may have a decimal \
                comma, 3,5). With no FILE, \
                or with -, reads standard input. Prints one finding per invalid record, then on \
                standard error a report by reason (how many records had each, their share, the \
                first lines) and the summary ("N records, K invalid"); with --format json the \
                findings are JSON Lines and the report one JSON object (docs/schemas). --quiet \
                prints the summary alone (and, when --max-errors stopped the run, that it did); \
                --report-only the report and the summary without the findings. \
                --files0-from FILE reads the inputs' paths from FILE, each ended by a NUL byte, \
                so that find . -name '*.csv' -print0 | playerform validate --files0-from - \
                checks what find found, whatever its names hold; an empty list checks nothing. --unique makes a \
                record invalid when its player is already in the same file, names compared as the \
                form compares them (case, width and invisible characters aside); its finding \
                names the first line. It keeps every distinct name in memory.

                --valid FILE and --invalid FILE write the records themselves, byte for byte as \
                read and in input order: the valid ones to one, the invalid and malformed ones to \
                the other. A CSV's header row goes to both; every other byte of an input goes to \
                exactly one (blank lines with the valid records). With several inputs the records \
                follow one another, a header the same as the one before written once. - is \
                standard output; the findings then go to standard error. Records after an \
                interruption or --max-errors's stop are written to neither.

                Exit status: 0 every record is valid; 1 a record is invalid or malformed; 2 \
                --max-errors stopped the run before its end; 64 usage \
                error; 65 an input is unusable (CSV without the header, or a format that cannot be \
                told) or the --config file is not accepted; 66 an input or the --config file cannot \
                be opened or read; 73 a file for --valid or --invalid cannot be made; 74 the \
                findings or the records cannot be written; 130 \
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

        @Option(
            help: ArgumentHelp(
                "Read the inputs' paths from FILE, each ended by a NUL byte (- for standard input), as find -print0 writes them.",
                valueName: "file"))
        var files0From: String?

        @Option(help: "The format of the inputs, when the extension or the first line does not tell.")
        var inputFormat: InputFormat?

        @Option(
            help: ArgumentHelp(
                "What separates a CSV's fields: , ; or tab (default: told from the header row).",
                valueName: "delimiter"))
        var delimiter: String?

        @Option(help: "How findings are written: text for people, json for JSON Lines.")
        var format: OutputFormat = .text

        @Flag(help: "Print only the summary.")
        var quiet = false

        @Flag(help: "Print the report by reason and the summary, without a finding per record.")
        var reportOnly = false

        @Flag(
            help:
                "Count a player already in the same file (the same name as the form compares names) as invalid."
        )
        var unique = false

        @Option(
            help: ArgumentHelp(
                "Stop after N invalid records, saying so, with exit status 2 (default: check every record).",
                valueName: "n"))
        var maxErrors: Int?

        @Option(
            help: ArgumentHelp(
                "Write the valid records, byte for byte, to FILE (- for standard output; the findings then go to standard error).",
                valueName: "file"))
        var valid: String?

        @Option(
            help: ArgumentHelp(
                "Write the invalid and malformed records, byte for byte, to FILE (- for standard output).",
                valueName: "file"))
        var invalid: String?

        func validate() throws {
            if let maxErrors, maxErrors < 1 {
                throw ValidationError("--max-errors must be 1 or more, not \(maxErrors).")
            }
            if files0From != nil && !files.isEmpty {
                throw ValidationError(
                    "--files0-from reads the inputs' paths from its file: give no FILE as well.")
            }
            if quiet && reportOnly {
                throw ValidationError(
                    "--quiet prints the summary alone and --report-only the report: give one.")
            }
            if let delimiter, CSVDelimiter(naming: delimiter) == nil {
                throw ValidationError(
                    "--delimiter takes , ; or tab (also comma, semicolon or \\t), not \(TerminalText.quoted(delimiter))."
                )
            }
            if valid == "-" && invalid == "-" {
                throw ValidationError(
                    "--valid - and --invalid - cannot both write to standard output; name a file for one.")
            }
        }

        @OptionGroup var rulesFile: RulesFileOption

        func run() async throws {
            // Before any input is read; a file such as <(...) can be read only once.
            let rules = try RulesFileOption.rules(path: rulesFile.path)
            let inputs: [ValidationInput]
            if let files0From {
                switch InputList.read(files0From) {
                case .success(let listed): inputs = listed
                case .failure(let refusal):
                    StandardError.write("error: \(refusal.message)\n")
                    throw ExitCode(refusal.status.rawValue)
                }
            } else {
                inputs = files.isEmpty ? [.standardInput] : files.map(ValidationInput.argument)
            }
            var recordOutputs: RecordOutputs?
            if valid != nil || invalid != nil {
                switch RecordOutputs.open(valid: valid, invalid: invalid, inputs: inputs) {
                case .success(let outputs): recordOutputs = outputs
                case .failure(let refusal):
                    StandardError.write("error: \(refusal.message)\n")
                    throw ExitCode(refusal.status.rawValue)
                }
            }
            Interrupt.install()
            var run = ValidationRun(
                inputs: inputs, format: inputFormat.map { $0 == .jsonl ? .jsonl : .csv },
                style: format == .json ? .json : .text, quiet: quiet, rules: rules)
            Self.show(Self.progressMeter(quiet: quiet), on: &run)
            run.barsInReport = isatty(STDERR_FILENO) == 1
            run.delimiter = delimiter.flatMap(CSVDelimiter.init(naming:))
            run.reportOnly = reportOnly
            run.unique = unique
            run.maxErrors = maxErrors
            run.recordOutputs = recordOutputs
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
