import Foundation
import Glibc
import PlayerFormRecords
import PlayerFormRules
import PlayerFormSystem
import PlayerFormText

/// One input of `playerform validate`: standard input, or a file by the bytes of its path.
public struct ValidationInput: Equatable, Sendable {
    /// How findings and messages name it: `<stdin>`, or the path as text.
    public let label: String
    /// The path's bytes; nil for standard input.
    public let path: [UInt8]?

    /// Standard input.
    public static let standardInput = ValidationInput(label: "<stdin>", path: nil)

    /// The input a command-line argument names: `-` is standard input; a path is opened by the
    /// bytes it was typed with (see `CommandLineBytes`).
    public static func argument(_ text: String) -> ValidationInput {
        text == "-" ? standardInput : ValidationInput(label: text, path: CommandLineBytes.bytes(of: text))
    }

    /// A path read from a list (`--files0-from`), by its bytes.
    public static func listed(_ path: [UInt8]) -> ValidationInput {
        ValidationInput(label: String(decoding: path, as: UTF8.self), path: path)
    }
}

/// One run of `playerform validate`: reads each input in turn, writes findings to `output` and
/// messages and the summary to `errors`, and tells the exit status.
public struct ValidationRun {
    /// The inputs to read, in order.
    public var inputs: [ValidationInput]
    /// The format of every input, or nil to take it from each file's extension or first line.
    public var format: RecordFormat?
    /// What separates a CSV input's fields, or nil to tell it from each header row.
    public var delimiter: CSVDelimiter?
    /// How findings are written.
    public var style: FindingStyle
    /// Whether to write only the summary (and messages about inputs that cannot be used).
    public var quiet: Bool
    /// Whether to write the report by reason without a finding per record (`--report-only`).
    public var reportOnly = false
    /// The rules records are checked against.
    public var rules: PlayerRules
    /// The descriptor read for `-`.
    public var standardInput: Int32 = 0
    /// Whether an interrupt was requested.
    public var isInterrupted: () -> Bool = { Interrupt.isRequested }
    /// Told, now and then while an input is read, the records checked so far over all inputs, the
    /// bytes of the current input read, and its size when it is a regular file.
    public var progress: ((_ records: Int, _ bytesRead: Int?, _ totalBytes: Int?) -> Void)?
    /// Called before anything is written to the errors, so that a progress line can be cleared.
    public var clearProgress: () -> Void = {}
    /// Whether the report's table may draw bars: standard error is a terminal.
    public var barsInReport = false
    /// Stop once this many records were invalid (`--max-errors`); nil checks every record.
    public var maxErrors: Int?
    /// Whether a player already in the input is invalid (`--unique`).
    public var unique = false
    /// Where valid and rejected records are written (`--valid`, `--invalid`); when one is standard
    /// output, findings go to the errors instead.
    public var recordOutputs: RecordOutputs?

    /// A run over the inputs the arguments `inputs` name (`-` is standard input).
    public init(inputs: [String], format: RecordFormat?, style: FindingStyle, quiet: Bool, rules: PlayerRules)
    {
        self.init(
            inputs: inputs.isEmpty ? [.standardInput] : inputs.map(ValidationInput.argument), format: format,
            style: style, quiet: quiet, rules: rules)
    }

    /// A run over `inputs`, none of them when it is empty.
    public init(
        inputs: [ValidationInput], format: RecordFormat?, style: FindingStyle, quiet: Bool, rules: PlayerRules
    ) {
        self.inputs = inputs
        self.format = format
        self.style = style
        self.quiet = quiet
        self.rules = rules
    }

    /// Reads every input and returns the exit status.
    ///
    /// When the findings cannot be written, says so once on `errors` and returns
    /// ``ValidationExit/cannotWrite``.
    public func run(output: ByteWriter, errors: ByteWriter) -> ValidationExit {
        let findings = recordOutputs?.usesStandardOutput == true ? errors : output
        var status = runInputs(output: findings, errors: errors)
        var failures: [(String, Int32)] = []
        for (kind, records) in [("valid", recordOutputs?.valid), ("invalid", recordOutputs?.rejected)] {
            guard let records else { continue }
            records.writer.flush()
            if let failure = records.writer.failure {
                failures.append(("the \(kind) records to \(records.name)", failure))
            }
        }
        // Findings on the errors, which cannot then be written either: nothing to say it with.
        if findings !== errors, let failure = findings.failure {
            failures.append(("to standard output", failure))
        }
        for (what, failure) in failures {
            errors.write("error: cannot write \(what): \(Self.describe(failure))\n")
            status = max(status, .cannotWrite)
        }
        errors.flush()
        return status
    }

    /// The split of the records into ``recordOutputs``, when there are any.
    private func recordSplit() -> RecordSplit? {
        guard let recordOutputs else { return nil }
        return RecordSplit(
            valid: recordOutputs.valid.map { output in { output.writer.write($0) } },
            rejected: recordOutputs.rejected.map { output in { output.writer.write($0) } })
    }

    private func runInputs(output: ByteWriter, errors: ByteWriter) -> ValidationExit {
        defer {
            output.flush()
            errors.flush()
        }
        let split = recordSplit()
        func complain(_ message: String) {
            clearProgress()
            output.flush()
            errors.write(message + "\n")
            errors.flush()
        }
        let validator = BatchValidator(rules: rules, countingReasons: reportOnly)
        var inputsRead: [ValidationReport.Input] = []
        var status = ValidationExit.valid
        let report: ((Finding) -> Void)? = quiet || reportOnly ? nil : { output.write(style.line(for: $0)) }
        var invalidSoFar = 0
        /// Why a run ends before its last input.
        struct Ended: Error { let status: ValidationExit }
        /// Adds what an input found to the report and the status, and says how its reading ended.
        func record(_ tally: ValidationTally, ending: RecordEvent, of label: String) throws(Ended)
            -> ValidationExit
        {
            inputsRead.append(ValidationReport.Input(file: label, tally: tally))
            var result = tally.invalid > 0 ? max(status, .invalid) : status
            output.flush()
            switch ending {
            case .unusable(let reason):
                complain("error: \(TerminalText.escaped(label)): \(TerminalText.message(reason))")
                result = max(result, .unusable)
            case .failed(let code):
                complain("error: cannot read \(TerminalText.escaped(label)): \(Self.describe(code))")
                result = max(result, .cannotOpen)
            case .interrupted:
                complain(finish(ValidationReport(inputs: inputsRead, stopped: .interrupted)))
                throw Ended(status: .interrupted)
            case .record:
                // Records are left unchecked: --max-errors stopped the run.
                throw Ended(status: stop(inputsRead, status: result, complain: complain))
            case .end:
                break
            }
            return result
        }
        let small = smallInputs(validator: validator)
        defer { small?.stop() }
        do throws(Ended) {
            for (index, input) in inputs.enumerated() {
                if let maxErrors, invalidSoFar >= maxErrors {
                    // The limit was reached at the very end of an input: the later ones are unchecked.
                    return stop(inputsRead, status: status, complain: complain)
                }
                let label = input.label
                if let small, small.checks(index) {
                    let outcome = small.outcome(of: index)
                    if let failure = outcome.openFailure {
                        complain(failure)
                        status = max(status, .cannotOpen)
                        continue
                    }
                    outcome.findings.withUnsafeBytes { output.write($0) }
                    status = try record(outcome.tally, ending: outcome.ending, of: label)
                    continue
                }
                let descriptor: Int32
                switch openInput(input) {
                case .success(let opened): descriptor = opened
                case .failure(let failure):
                    complain(failure.message)
                    status = max(status, .cannotOpen)
                    continue
                }
                defer { if descriptor != standardInput { close(descriptor) } }
                let idle = IdleRelay()
                let source = FileDescriptorSource(
                    descriptor: descriptor, isInterrupted: isInterrupted, onIdle: { idle() })
                let known = format ?? RecordFormat(fileExtensionOf: label)
                let size = Self.regularFileSize(descriptor)
                let progress = self.progress
                let before = inputsRead.reduce(0) { $0 + $1.tally.records }
                var tally = ValidationTally()
                let told = progress.map { progress in { progress(before + $0, $1, size) } }
                split?.startInput()
                let ending: RecordEvent
                if maxErrors != nil {
                    // The general path, which stops at the record that reaches the limit.
                    let reader = RecordReader(source: source, format: known, delimiter: delimiter)
                    reader.split = split
                    ending = validator.validate(
                        reader, idle: idle, file: label, tally: &tally, report: report,
                        flush: { output.flush() },
                        progress: told, stopAfterInvalid: maxErrors.map { $0 - invalidSoFar },
                        lookingAhead: size != nil, unique: unique ? UniqueNames() : nil)
                } else {
                    ending = validator.validateInParallel(
                        source, format: known, delimiter: delimiter, size: size, idle: idle, file: label,
                        tally: &tally, report: report, flush: { output.flush() }, progress: told,
                        split: split,
                        unique: unique ? UniqueNames() : nil)
                }
                if ending == .end { split?.finishInput() }
                invalidSoFar += tally.invalid
                status = try record(tally, ending: ending, of: label)
            }
        } catch {
            return error.status
        }
        complain(finish(ValidationReport(inputs: inputsRead)))
        return status
    }

    /// The checker of the run's small inputs on every core, when there are several.
    ///
    /// Small inputs are regular files no longer than a chunk, each checked on one thread. Not with
    /// `--max-errors`, which must stop in input order, nor with `--valid` and `--invalid`, which
    /// write as they read.
    private func smallInputs(validator: BatchValidator) -> SmallInputs? {
        guard maxErrors == nil, recordOutputs == nil, inputs.count > 1 else { return nil }
        let indices = inputs.indices.filter { inputs[$0].path.flatMap(Self.smallFileSize) != nil }
        guard indices.count > 1 else { return nil }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return SmallInputs(indices: indices, threadCount: max(2, cores), window: 8 * max(2, cores)) { index in
            checkAlone(inputs[index], validator: validator)
        }
    }

    /// The size of the regular file at `path` when it fits in a chunk, else nil.
    private static func smallFileSize(_ path: [UInt8]) -> Int? {
        var status = stat()
        let found = (path + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &status) == 0 }
        }
        guard found, (status.st_mode & S_IFMT) == S_IFREG, status.st_size <= 1 << 20 else { return nil }
        return Int(status.st_size)
    }

    /// Checks `input` away from the outputs, its findings kept as text: what ``SmallInputs`` does on
    /// its threads.
    private func checkAlone(_ input: ValidationInput, validator: BatchValidator) -> InputOutcome {
        let descriptor: Int32
        switch openInput(input) {
        case .success(let opened): descriptor = opened
        case .failure(let failure): return InputOutcome(openFailure: failure.message)
        }
        defer { if descriptor != standardInput { close(descriptor) } }
        let findings = ByteWriter()
        let style = style
        let report: ((Finding) -> Void)? = quiet || reportOnly ? nil : { findings.write(style.line(for: $0)) }
        var outcome = InputOutcome()
        let idle = IdleRelay()
        let source = FileDescriptorSource(
            descriptor: descriptor, isInterrupted: isInterrupted, onIdle: { idle() })
        outcome.ending = validator.validateInParallel(
            source, format: format ?? RecordFormat(fileExtensionOf: input.label), delimiter: delimiter,
            size: Self.regularFileSize(descriptor), idle: idle, file: input.label, tally: &outcome.tally,
            report: report, flush: {}, unique: unique ? UniqueNames() : nil)
        outcome.findings = findings.captured
        return outcome
    }

    /// Ends a run that `--max-errors` stopped: says so, then the report.
    private func stop(
        _ inputsRead: [ValidationReport.Input], status: ValidationExit, complain: (String) -> Void
    ) -> ValidationExit {
        let report = ValidationReport(inputs: inputsRead, stopped: .maxErrors)
        if style == .text || quiet {
            complain(
                "stopped after \(report.total.invalid) invalid \(report.total.invalid == 1 ? "record" : "records") "
                    + "(--max-errors); the records after it were not checked")
        }
        complain(finish(report))
        return max(status, .stopped)
    }

    /// The end of the run's messages: the summary line alone with `--quiet`; else the report by
    /// reason and the summary line, or, for JSON findings, the report as one JSON object.
    private func finish(_ report: ValidationReport) -> String {
        let summary = (report.stopped == .interrupted ? "interrupted: " : "") + report.total.summary
        if quiet { return summary }
        switch style {
        case .json: return String(report.json.dropLast())
        case .text: return report.text(bars: barsInReport) + summary
        }
    }

    /// Why an input cannot be opened, as the run says it.
    private struct OpenFailure: Error {
        let message: String
    }

    /// Opens `input`: the file its path names, or standard input.
    private func openInput(_ input: ValidationInput) -> Result<Int32, OpenFailure> {
        guard let path = input.path else { return .success(standardInput) }
        return Self.open(path).mapError { code in
            OpenFailure(
                message: path.isEmpty
                    ? "error: the list of inputs (--files0-from) holds an empty name"
                    : "error: cannot open \(TerminalText.escaped(input.label)): \(Self.describe(code))")
        }
    }

    private static func open(_ path: [UInt8]) -> Result<Int32, Errno> {
        guard !path.isEmpty else { return .failure(Errno(ENOENT)) }
        // By its bytes: a name that is not UTF-8 is still the file's name.
        // A FIFO opens at once, so that Ctrl-C stops a wait for its writer: the reader polls.
        let descriptor = Descriptor.openForReading { flags in
            (path + [0]).withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, flags) }
            }
        }
        guard descriptor >= 0 else { return .failure(Errno(errno)) }
        var status = stat()
        if fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            return .failure(Errno(EISDIR))
        }
        return .success(descriptor)
    }

    private static func regularFileSize(_ descriptor: Int32) -> Int? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    private static func describe(_ code: Errno) -> String { describe(code.code) }

    private static func describe(_ code: Int32) -> String { SystemError.text(code) }
}

/// An `errno` value as an error.
struct Errno: Error {
    let code: Int32
    init(_ code: Int32) { self.code = code }
}
