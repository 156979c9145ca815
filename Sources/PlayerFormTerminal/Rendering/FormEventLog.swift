import PlayerForm
import PlayerFormRules
import ReactiveCore
import Synchronization

/// The REPL's bindings to the view model's outputs.
///
/// State (continuous outputs) is observed as it changes and written once per command, after the
/// command, for each output whose shown value differs from what was last written: `up 3` writes
/// `points: 103`, not three lines. Events (discrete outputs: the forbidden-name alert, messages,
/// the start of an upload) are written at once, in the order they happen.
final class FormEventLog: Sendable {
    private struct State {
        /// The latest line of each state output, in the order they are written.
        var latest: [String?]
        /// The line last written for each state output.
        var written: [String?]
        /// The outputs that changed since the last flush: bit `slot` for each.
        var changed = 0
        /// Where the line being run is, for errors in scripted mode: `line 3`, `setup.txt:3`.
        var location: Location?
        /// Whether a failed or cancelled upload was reported during the current command.
        var uploadFailed = false
    }

    private enum Slot: Int, CaseIterable {
        case name, points, step, min, max, validity, updates, stepper, nameField, uploadButton, uploads
    }

    /// A class, so the bindings hold it and not the log: they run on every change, and a weak
    /// reference to the log would cost a side-table load each time.
    private final class Shared: Sendable {
        let state = Mutex(State(latest: Array(repeating: nil, count: Slot.allCases.count), written: []))
    }

    private let shared = Shared()
    private let output: any TerminalOutput
    private let renderer: FormRenderer
    private let bindings = DisposeBag()

    init(form: PlayerViewModel, output: any TerminalOutput, renderer: FormRenderer) {
        self.output = output
        self.renderer = renderer
        // Text is the same when its bytes are: String's == is canonical equivalence, and two
        // equivalent names can show differently once escaped.
        let sameText: @Sendable (String, String) -> Bool = { $0.utf8.elementsEqual($1.utf8) }
        bind(form.name, .name, same: sameText) { renderer.nameLine($0) }
        bind(form.pointsText, .points, same: sameText) { renderer.pointsLine($0) }
        // Doubles equal by == (0 and -0 among them) show alike.
        bind(form.step, .step, same: ==) { renderer.numberLine("step", $0) }
        bind(form.min, .min, same: ==) { renderer.numberLine("min", $0) }
        bind(form.max, .max, same: ==) { renderer.numberLine("max", $0) }
        // Issues hold names, which equal Strings may show differently: rendered again unless both
        // lists are empty, which show alike (`valid: yes`).
        bind(form.issues, .validity, same: { $0.isEmpty && $1.isEmpty }) { renderer.validityLine($0) }
        bind(form.pointUpdatesRemaining, .updates, same: ==) { renderer.updatesLine($0) }
        bind(form.canChangePoints, .stepper, same: ==) { renderer.stepperLine($0) }
        bind(form.canEditName, .nameField, same: ==) { renderer.nameFieldLine($0) }
        bind(Property.combineLatest(form.canUpload, form.isLocked), .uploadButton, same: ==) {
            renderer.uploadButtonLine(canUpload: $0.0, locked: $0.1)
        }
        bind(Property.combineLatest(form.uploadsDone, form.uploadsRemaining), .uploads, same: ==) {
            renderer.uploadsLine(done: $0.0, remaining: $0.1)
        }
        shared.state.withLock { state in
            state.written = state.latest
            state.changed = 0
        }

        form.isUploading.changes.observeValues(in: bindings) { [output] uploading in
            if uploading { output.write(renderer.uploadingLine()) }
        }
        form.forbiddenNameEntered.observeValues(in: bindings) { [output] name in
            output.write(renderer.forbiddenNameLine(name))
        }
        form.messages.observeValues(in: bindings) { [weak self] message in
            self?.report(message)
        }
    }

    /// Where a line of a script is: kept as its parts, and written out only when an error names
    /// it, since most lines make no error.
    struct Location: Equatable, Sendable {
        /// The script's name (`stdin`, `-c`, a file's path, escaped); nil for `line N`.
        var name: String?
        /// The line's number, counting from 1.
        var line: Int

        /// What comes before an error's message: `line 3: `, or `setup.txt:3: ` in a named
        /// script; for standard input, short enough to be held inline.
        var prefix: String {
            guard let name else { return "line \(line): " }
            return name + ":" + String(line) + ": "
        }
    }

    /// Where the line being run is (`line 3` in standard input, `setup.txt:3` in a file), used
    /// in errors; nil for a line typed at the terminal.
    var location: Location? {
        get { shared.state.withLock { $0.location } }
        set { shared.state.withLock { $0.location = newValue } }
    }

    /// Writes the state outputs that changed since they were last written.
    func flushState() {
        // Slot by slot, and only the slots that changed: copying the arrays whole would make the
        // next change copy them again.
        let lines = shared.state.withLock { state -> [String] in
            var lines: [String] = []
            var changed = state.changed
            state.changed = 0
            while changed != 0 {
                let index = changed.trailingZeroBitCount
                changed &= changed - 1
                guard state.latest[index] != state.written[index] else { continue }
                if let line = state.latest[index] { lines.append(line) }
                state.written[index] = state.latest[index]
            }
            return lines
        }
        for line in lines { output.write(line) }
    }

    /// Writes an error: `line N: message` in scripted mode, `FILE:LINE: message` in a file that
    /// was sourced or given with -f, `error: message` at a terminal.
    func error(_ message: String) {
        // Written in pieces: joining them would copy the message once more.
        output.writeError(message, prefix: location?.prefix ?? renderer.errorLabel())
    }

    /// Whether an upload failed or was cancelled since the last call; resets the flag.
    func takeUploadFailure() -> Bool {
        shared.state.withLock { state in
            defer { state.uploadFailed = false }
            return state.uploadFailed
        }
    }

    private func report(_ message: PlayerMessage) {
        switch message {
        case .uploaded:
            output.write(renderer.messageLine(message))
        case .uploadFailed, .uploadCancelled:
            shared.state.withLock { $0.uploadFailed = true }
            error(renderer.messageLine(message))
        }
    }

    /// Binds an output whose values can be compared, rendering a value only when it differs.
    ///
    /// A value for which `same` holds with the one last rendered (the form announces many changes
    /// that change nothing shown) is passed over: the line rendered for it was stored and marked
    /// changed then, and is written or still waits. `same` must hold only for values shown alike.
    private func bind<Value>(
        _ property: Property<Value>, _ slot: Slot, same: @escaping @Sendable (Value, Value) -> Bool,
        _ render: @escaping @Sendable (Value) -> String
    ) {
        let index = slot.rawValue
        let shared = shared
        let rendered = Mutex<Value?>(nil)
        property.values.observeValues(in: bindings) { value in
            let repeated = rendered.withLock { rendered in
                if let last = rendered, same(last, value) { return true }
                rendered = value
                return false
            }
            guard !repeated else { return }
            let line = render(value)
            shared.state.withLock { state in
                state.latest[index] = line
                state.changed |= 1 << index
            }
        }
    }
}
