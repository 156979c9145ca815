import PlayerForm
import PlayerFormRules
import PlayerFormText
import Synchronization

/// Turns the view model's outputs into text: event lines, the whole screen, JSON and the prompt.
///
/// Every value shown comes from a `PlayerViewModel` output; every reason comes from the view
/// model's own messages. Text from the user is escaped.
public struct FormRenderer: Sendable {
    /// How to colour the text of results (standard output).
    public let style: TerminalStyle
    /// How to colour errors (standard error), which may go elsewhere than results.
    public let errorStyle: TerminalStyle

    /// Creates a renderer; errors are coloured as `style` says unless `errorStyle` is given.
    public init(style: TerminalStyle = .plain, errorStyle: TerminalStyle? = nil) {
        self.style = style
        self.errorStyle = errorStyle ?? style
    }

    /// The start of an error line at a terminal: `error: `, red when errors are coloured.
    public func errorLabel() -> String {
        errorStyle.paint("error: ", .red)
    }

    // MARK: Event lines

    /// The name line, such as `name: "Dana"`.
    public func nameLine(_ name: String) -> String {
        "name: " + TerminalText.quoted(name)
    }

    /// The points line, such as `points: 103`.
    public func pointsLine(_ pointsText: String) -> String {
        "points: " + pointsText
    }

    /// A number line of the stepper, such as `step: 2`, `min: 0` or `max: 50`.
    public func numberLine(_ label: String, _ value: Double) -> String {
        "\(label): " + PointsFormat.text(value)
    }

    /// `valid: yes`, or `valid: no (The name is empty.)` with the view model's reasons.
    public func validityLine(_ issues: [ValidationIssue]) -> String {
        issues.isEmpty
            ? "valid: " + style.paint("yes", .green)
            : "valid: " + style.paint("no", .red) + " (" + reasons(issues) + ")"
    }

    /// The point updates line, such as `point updates left: 7`.
    public func updatesLine(_ remaining: Int) -> String {
        "point updates left: \(remaining)"
    }

    /// The stepper line: `stepper: shown` or `stepper: hidden`.
    public func stepperLine(_ shown: Bool) -> String {
        "stepper: " + (shown ? "shown" : "hidden")
    }

    /// The name field line: `name field: enabled` or `name field: disabled`.
    public func nameFieldLine(_ enabled: Bool) -> String {
        "name field: " + (enabled ? "enabled" : "disabled")
    }

    /// `upload button: enabled`, `disabled` or `hidden` (hidden once the form is locked).
    public func uploadButtonLine(canUpload: Bool, locked: Bool) -> String {
        "upload button: " + uploadButtonState(canUpload: canUpload, locked: locked)
    }

    /// The uploads line, such as `uploads: 1 done, 4 left`.
    public func uploadsLine(done: Int, remaining: Int) -> String {
        "uploads: \(done) done, \(remaining) left"
    }

    /// The line shown while an upload runs: `uploading...`.
    public func uploadingLine() -> String {
        style.paint("uploading...", .yellow)
    }

    /// The sample's alert, such as `Forbidden Name! The name darn has been forbidden!`.
    public func forbiddenNameLine(_ name: String) -> String {
        style.paint("Forbidden Name!", .bold) + " The name " + TerminalText.escaped(name)
            + " has been forbidden!"
    }

    /// A message of the view model, such as `Updated Dana with 103 points`, escaped.
    public func messageLine(_ message: PlayerMessage) -> String {
        TerminalText.escaped(TerminalWords.text(message))
    }

    /// What a stepper input did when the value asked for was kept within min and max.
    ///
    /// For example `clamped: asked for 20000, points are 10000`.
    public func clampedLine(_ outcome: StepperOutcome) -> String? {
        guard let requested = outcome.requested else { return nil }
        return
            "clamped: asked for \(PointsFormat.text(requested)), points are \(PointsFormat.text(outcome.points))"
    }

    /// What a run of presses did when the points were kept at a bound, said in terms of what was
    /// pressed (`command` is the word typed for the button):
    /// `up 5 stopped at the maximum 10000 after 1 press`; nil when no press reached beyond a bound
    /// or pressing failed.
    public func boundLine(command: String, _ outcome: StepperOutcome) -> String? {
        guard let bound = outcome.bound, outcome.refusal == nil else { return nil }
        let name = bound == .max ? "maximum" : "minimum"
        return
            "\(pressed(command, outcome.presses)) stopped at the \(name) \(PointsFormat.text(outcome.points))"
            + " after \(Self.presses(outcome.updatesUsed))"
    }

    /// Why a run of presses stopped before every press counted, with how many did:
    /// `up 100: 10 of 100 presses counted. No point updates left: ...`; nil when none was refused.
    public func stoppedLine(command: String, _ outcome: StepperOutcome) -> String? {
        guard let refusal = outcome.refusal else { return nil }
        let asked = outcome.presses
        return "\(pressed(command, asked)): \(outcome.updatesUsed) of \(Self.presses(asked)) counted. "
            + Self.refusalText(refusal)
    }

    /// The view model's words for `refusal`, escaped.
    ///
    /// A script that runs into a limit meets the same refusal on line after line, so the text of
    /// the last refusal worded by whole numbers alone is kept and given again while the refusal
    /// repeats. Refusals that carry other values are worded afresh: equal Doubles (0 and -0) need
    /// not be shown alike.
    static func refusalText(_ refusal: PlayerRefusal) -> String {
        switch refusal {
        case .noPointUpdatesLeft, .locked, .invalidPressCount, .uploadInProgress, .notANumber:
            if let kept = lastRefusal.withLock({ $0?.refusal == refusal ? $0?.text : nil }) { return kept }
            let text = TerminalText.escaped(refusal.description)
            lastRefusal.withLock { $0 = (refusal, text) }
            return text
        case .invalid, .rejectedRules, .stepTooSmall, .stepNotExact:
            return TerminalText.escaped(refusal.description)
        }
    }

    /// The last refusal worded by ``refusalText(_:)`` from whole numbers alone, and its text.
    private static let lastRefusal = Mutex<(refusal: PlayerRefusal, text: String)?>(nil)

    private func pressed(_ command: String, _ times: Int) -> String {
        times == 1 ? command : "\(command) \(times)"
    }

    /// `10 updates left`, `1 update left`.
    private static func updatesLeft(_ count: Int) -> String {
        count == 1 ? "1 update left" : "\(count) updates left"
    }

    private static func presses(_ count: Int) -> String {
        count == 1 ? "1 press" : "\(count) presses"
    }

    // MARK: The whole form

    /// The sample's screen, one widget a line.
    public func screen(of form: PlayerViewModel) -> [String] {
        // Each line is made as bytes: `show` is among the commands scripts run most.
        func line(_ label: String, _ build: (inout LineBuilder) -> Void) -> String {
            var line = LineBuilder(capacity: 96)
            line += label
            build(&line)
            return line.text
        }
        let locked = form.isLocked.value
        let updatesLeft = Self.updatesLeft(form.pointUpdatesRemaining.value)
        let button = uploadButtonState(canUpload: form.canUpload.value, locked: locked)
        let issues = form.issues.value
        return [
            line("Name:    [") { line in
                line += TerminalText.escaped(form.name.value)
                line += form.canEditName.value ? "]" : "] (disabled)"
            },
            line("Points:  ") { $0 += form.pointsText.value },
            line("Stepper: ") { line in
                guard form.canChangePoints.value else {
                    line += "hidden ("
                    line += updatesLeft
                    line += ")"
                    return
                }
                line += "[-] [+]  step "
                line += PointsFormat.text(form.step.value)
                line += ", min "
                line += PointsFormat.text(form.min.value)
                line += ", max "
                line += PointsFormat.text(form.max.value)
                line += ", "
                line += updatesLeft
            },
            line("Upload:  ") { line in
                if button == "hidden" {
                    line += "hidden"
                } else {
                    line += "[Upload] "
                    line += button
                }
                line += " ("
                line += String(form.uploadsDone.value)
                line += " done, "
                line += String(form.uploadsRemaining.value)
                line += form.isUploading.value ? " left), uploading..." : " left)"
            },
            line("Valid:   ") { line in
                if issues.isEmpty {
                    line += style.paint("yes", .green)
                } else {
                    line += style.paint("no", .red)
                    line += ": "
                    line += reasons(issues)
                }
            },
        ]
    }

    /// The form as one JSON object on one line, with the keys `name`, `points`, `step`, `min`,
    /// `max`, `valid`, `issues` (reason codes), `pointUpdatesRemaining`, `uploads`,
    /// `uploadsRemaining`, `canEditName`, `canChangePoints`, `canUpload`, `locked`, in that order.
    public func json(of form: PlayerViewModel) -> String {
        // Made as bytes: `show --json` is the command scripts run most.
        var json = LineBuilder(capacity: 320)
        json += "{\"name\":"
        json += JSONText.quoted(form.name.value)
        json += ",\"points\":"
        json += Self.jsonNumber(form.points.value)
        json += ",\"step\":"
        json += Self.jsonNumber(form.step.value)
        json += ",\"min\":"
        json += Self.jsonNumber(form.min.value)
        json += ",\"max\":"
        json += Self.jsonNumber(form.max.value)
        json += form.isValid.value ? ",\"valid\":true,\"issues\":[" : ",\"valid\":false,\"issues\":["
        for (index, issue) in form.issues.value.enumerated() {
            json += index == 0 ? "\"" : ",\""
            json += issue.code.rawValue
            json += "\""
        }
        json += "],\"pointUpdatesRemaining\":"
        json += String(form.pointUpdatesRemaining.value)
        json += ",\"uploads\":"
        json += String(form.uploadsDone.value)
        json += ",\"uploadsRemaining\":"
        json += String(form.uploadsRemaining.value)
        json += form.canEditName.value ? ",\"canEditName\":true" : ",\"canEditName\":false"
        json += form.canChangePoints.value ? ",\"canChangePoints\":true" : ",\"canChangePoints\":false"
        json += form.canUpload.value ? ",\"canUpload\":true" : ",\"canUpload\":false"
        json += form.isLocked.value ? ",\"locked\":true}" : ",\"locked\":false}"
        return json.text
    }

    // MARK: Prompt and help

    /// The prompt: the name, the points, and whether the form is valid, such as `Colin 100 ok> `;
    /// `locked` once the form takes no more edits or uploads.
    ///
    /// Long names are shortened; a name with nothing to see shows as `(no name)`; colours are
    /// wrapped for readline.
    public func prompt(name: String, pointsText: String, isValid: Bool, isLocked: Bool = false) -> String {
        var shown = TerminalText.escaped(name, maxWidth: 24)
        // Escaping leaves only spaces invisible.
        if shown.allSatisfy({ $0 == " " }) { shown = "(no name)" }
        let validity =
            isLocked
            ? style.paintPrompt("locked", .yellow)
            : isValid ? style.paintPrompt("ok", .green) : style.paintPrompt("invalid", .red)
        return style.paintPrompt(shown, .cyan) + " " + pointsText + " " + validity + "> "
    }

    /// `help`: every command, its usage on a line and its summary below, wrapped between words to
    /// `width` columns.
    public func help(width: Int = 80) -> [String] {
        var lines = ["Commands:"]
        for entry in CommandCatalog.entries {
            lines.append("  " + entry.usage + Self.alsoTyped(entry))
            lines += WordWrap.lines(entry.summary, width: width, indent: "      ")
        }
        return lines
            + WordWrap.lines(
                "Blank lines and lines starting with # are ignored. Ctrl-C abandons a line or an upload."
                    + " help COMMAND tells the rule that governs it; rules shows all of them.",
                width: width)
    }

    /// `help COMMAND`: its usage, what it does and the rule of the form that governs it, as
    /// `rules` has it now, wrapped between words to `width` columns.
    public func help(for entry: CommandCatalog.Entry, rules: RulesInForce? = nil, width: Int = 80) -> [String]
    {
        var lines =
            ["usage: " + entry.usage + Self.alsoTyped(entry)]
            + WordWrap.lines(entry.summary, width: width, indent: "  ")
        if let rules, let rule = entry.rule(in: rules) {
            lines += WordWrap.lines(rule, width: width, indent: "  ")
        }
        return lines
    }

    // MARK: Pieces

    /// The other words that run `entry`, psql's and sqlite3's forms: `   (also \q, .quit)`.
    private static func alsoTyped(_ entry: CommandCatalog.Entry) -> String {
        entry.aliases.isEmpty ? "" : "   (also " + entry.aliases.joined(separator: ", ") + ")"
    }

    private func reasons(_ issues: [ValidationIssue]) -> String {
        issues.map { TerminalText.escaped($0.message) }.joined(separator: " ")
    }

    private func uploadButtonState(canUpload: Bool, locked: Bool) -> String {
        locked ? "hidden" : (canUpload ? "enabled" : "disabled")
    }

    /// A JSON number: whole numbers without a decimal part; null for what JSON cannot hold.
    static func jsonNumber(_ value: Double) -> String {
        value.isFinite ? PointsFormat.text(value) : "null"
    }
}
