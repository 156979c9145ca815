import PlayerForm
import PlayerFormText
import ReactiveCore

/// A REPL session: reads commands, gives them to the view models, and shows what they say. It
/// holds no rules: every refusal and every shown value comes from ``PlayerViewModel`` or
/// ``RosterViewModel``.
///
/// With a roster, the session reads the roster once when it starts, without printing it
/// (`players` draws it); from then on every change of the roster is printed as it happens, and
/// the form's uploads appear in it.
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

    private let form: PlayerViewModel
    private let reader: any LineReader
    private let output: any TerminalOutput
    private let renderer: FormRenderer
    private let bail: Bool
    private let interrupts: (any InterruptSource)?
    private let log: FormEventLog
    /// The prompt, bound to the form; scripted sessions show none, so they have none.
    private let prompt: Property<String>?
    private let rosterView: RosterView?

    /// Creates a session.
    /// - Parameters:
    ///   - form: the view model the session is a view of.
    ///   - roster: the roster the session shows and edits, which must keep its players in the
    ///     same store as the form uploads to; it follows the form's uploads. Without one, the
    ///     roster commands say that there is no roster.
    ///   - reader: where lines come from; an interactive reader gets a prompt and no line numbers.
    ///   - output: where results and errors go.
    ///   - style: colours; plain by default.
    ///   - bail: stop at the first failed command (scripted mode).
    ///   - interrupts: Ctrl-C, which cancels a running upload; nil when Ctrl-C is not caught.
    public init(
        form: PlayerViewModel, roster: RosterViewModel? = nil, reader: any LineReader,
        output: any TerminalOutput, style: TerminalStyle = .plain, bail: Bool = false,
        interrupts: (any InterruptSource)? = nil
    ) {
        self.form = form
        self.reader = reader
        self.output = output
        self.renderer = FormRenderer(style: style)
        self.bail = bail
        self.interrupts = interrupts
        let log = FormEventLog(form: form, output: output, renderer: renderer)
        self.log = log
        self.rosterView = roster.map { RosterView(roster: $0, output: output, log: log) }
        roster?.follow(form)
        let renderer = self.renderer
        self.prompt =
            reader.isInteractive
            ? Property.combineLatest(form.name, form.pointsText, form.isValid).map {
                renderer.prompt(name: $0.0, pointsText: $0.1, isValid: $0.2)
            } : nil
    }

    /// Runs commands until the input ends, `quit`, or (with `bail`) the first failure.
    /// Interactive sessions always succeed: their failures were shown as they happened.
    public func run() async -> Outcome {
        var failed = false
        var lineNumber = 0
        if let rosterView {
            // A damaged store at start is reported, but no command has failed.
            await rosterView.load()
            _ = rosterView.takeAlerts()
        }
        loop: while true {
            let input = await reader.read(prompt: prompt?.value ?? "")
            lineNumber += 1
            log.lineNumber = reader.isInteractive ? nil : lineNumber
            let result: StepResult
            switch input {
            case .end:
                break loop
            case .interrupted:
                continue
            case .tooLong(let count):
                log.error(
                    "The line is \(count) bytes long; lines of up to \(LineLimits.maxBytes) bytes are accepted."
                )
                result = .failed
            case .line(let bytes):
                result = await runLine(bytes)
            }
            switch result {
            case .quit: break loop
            case .failed:
                failed = true
                if bail { break loop }
            case .succeeded, .ignored: break
            }
        }
        output.flush()
        return failed && !reader.isInteractive ? .failed : .succeeded
    }

    private enum StepResult {
        case succeeded, failed, ignored, quit
    }

    private func runLine(_ bytes: [UInt8]) async -> StepResult {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let shown = TerminalText.escaped(bytes: bytes.prefix(80))
            log.error(
                "The line is not valid UTF-8: \(shown)\(bytes.count > 80 ? "..." : ""). Type UTF-8 text.")
            return .failed
        }
        let firstVisible = text.utf8.first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
        if firstVisible == nil || firstVisible == UInt8(ascii: "#") { return .ignored }
        let command: Command
        do {
            command = try CommandParser.parse(text)
        } catch {
            log.error(error.message)
            return .failed
        }
        return await run(command)
    }

    private func run(_ command: Command) async -> StepResult {
        switch command {
        case .players, .add, .select, .delete, .refresh:
            guard let rosterView else {
                log.error("This session has no roster.")
                return .failed
            }
            _ = rosterView.takeAlerts()
            let result = await run(command, on: rosterView)
            log.flushState()
            // An alert (a store failure, a damaged line) fails the command that raised it.
            return rosterView.takeAlerts() ? .failed : result
        default:
            break
        }
        do throws(PlayerRefusal) {
            switch command {
            case .name(nil):
                output.write(renderer.nameLine(form.name.value))
            case .name(let text?):
                try form.nameEdited(text)
            case .up(let count):
                return finish(try form.stepUpTapped(times: count))
            case .down(let count):
                return finish(try form.stepDownTapped(times: count))
            case .points(nil):
                output.write(renderer.pointsLine(form.pointsText.value))
            case .points(let value?):
                return finish(try form.stepperSet(to: value))
            case .step(let value):
                try form.stepChanged(to: value)
            case .min(let value):
                try form.minChanged(to: value)
            case .max(let value):
                try form.maxChanged(to: value)
            case .reset:
                try form.resetTapped()
            case .upload:
                return await upload()
            case .show(let json):
                if json {
                    output.write(renderer.json(of: form))
                } else {
                    for line in renderer.screen(of: form) { output.write(line) }
                }
            case .help(nil):
                for line in renderer.help() { output.write(line) }
            case .help(let topic?):
                if let entry = CommandCatalog.entry(named: topic) {
                    for line in renderer.help(for: entry) { output.write(line) }
                }
            case .quit:
                return .quit
            case .players, .add, .select, .delete, .refresh:
                break
            }
        } catch {
            log.flushState()
            log.error(TerminalText.escaped(error.description))
            return .failed
        }
        log.flushState()
        return .succeeded
    }

    // MARK: Roster

    private func run(_ command: Command, on view: RosterView) async -> StepResult {
        let roster = view.roster
        switch command {
        case .players(let json):
            if json {
                output.write(view.json())
            } else {
                for line in view.tableLines() { output.write(line) }
            }
            return .succeeded
        case .add(let name, let points):
            roster.newNameEdited(name)
            roster.newPointsEdited(points)
            let issues = roster.inputIssues.value
            guard issues.isEmpty else {
                log.error(TerminalText.escaped(issues.map(\.message).joined(separator: " ")))
                return .failed
            }
            return await report(roster.addTapped)
        case .select(let row):
            do {
                try await view.table.select(at: row - 1)
            } catch let error as TableBindingError {
                log.error(Self.sentence(error.description))
                return .failed
            } catch {
                return reportActionError(error)
            }
            return .succeeded
        case .delete(let row, let confirmed):
            let name: String
            do {
                name = try view.name(inRow: row)
            } catch {
                log.error(Self.sentence(error.description))
                return .failed
            }
            if !confirmed {
                guard reader.isInteractive else {
                    log.error(
                        "delete asks before deleting, and a script cannot answer; type delete \(row) --yes.")
                    return .failed
                }
                let answer = await reader.answer(prompt: "Delete \(TerminalText.escaped(name))? [y/N] ")
                guard case .line(let bytes) = answer,
                    ["y", "yes"].contains(
                        CommandParser.trimmed(String(decoding: bytes, as: UTF8.self)).lowercased())
                else {
                    output.write("not deleted")
                    return .succeeded
                }
            }
            return await report { () async throws(ActionError) in _ = try await roster.delete.apply(name) }
        case .refresh:
            return await report { () async throws(ActionError) in _ = try await roster.refresh.apply(()) }
        default:
            return .ignored
        }
    }

    /// Runs a roster action; its failures were written as alerts, so only a refusal is written.
    /// Ctrl-C cancels it meanwhile, also while the store waits for a lock another process holds.
    private func report<Output>(_ action: () async throws(ActionError) -> Output) async -> StepResult {
        if let roster = rosterView?.roster {
            interrupts?.whileRunning {
                roster.addPlayer.cancel()
                roster.delete.cancel()
                roster.refresh.cancel()
            }
        }
        defer { interrupts?.whileRunning(nil) }
        do {
            _ = try await action()
            return .succeeded
        } catch {
            return reportActionError(error)
        }
    }

    private func reportActionError(_ error: any Error) -> StepResult {
        switch error {
        case ActionError.disabled:
            log.error("The roster is busy with another change; try again.")
        case ActionError.cancelled, ActionError.failed(is CancellationError):
            // The roster raises no alert for a cancelled change.
            log.error("The change was cancelled.")
        case ActionError.failed:
            // The roster's alert has said what went wrong.
            break
        default:
            log.error(TerminalText.escaped("\(error)"))
        }
        return .failed
    }

    /// `text` as a sentence: a capital first letter and a full stop.
    private static func sentence(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst() + (text.hasSuffix(".") ? "" : ".")
    }

    /// Writes what a stepper input changed, and whether it was kept within bounds or stopped.
    private func finish(_ outcome: StepperOutcome) -> StepResult {
        log.flushState()
        if let clamped = renderer.clampedLine(outcome) { output.write(clamped) }
        if let refusal = outcome.refusal {
            log.error(TerminalText.escaped(refusal.description))
            return .failed
        }
        return .succeeded
    }

    private func upload() async -> StepResult {
        let form = self.form
        let output = self.output
        interrupts?.whileRunning {
            // Readline keeps the terminal from echoing keys, so show that Ctrl-C was heard.
            output.write("^C")
            form.uploadCancelTapped()
        }
        defer { interrupts?.whileRunning(nil) }
        let result = await form.uploadTapped()
        log.flushState()
        switch result {
        case .uploaded:
            return .succeeded
        case .refused(let refusal):
            log.error(TerminalText.escaped(refusal.description))
            return .failed
        case .failed, .cancelled:
            // The view model's message has said what happened; report it once.
            if !log.takeUploadFailure() { log.error("The upload did not finish.") }
            return .failed
        }
    }
}
