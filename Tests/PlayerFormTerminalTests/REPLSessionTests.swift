import Foundation
import PlayerForm
import PlayerFormRules
import PlayerFormScores
import PlayerFormTerminalTesting
import Synchronization
import Testing

@testable import PlayerFormTerminal

/// A reader that plays back lines and records the prompts it was shown.
final class PlaybackReader: LineReader, @unchecked Sendable {
    // @unchecked: used by one session at a time, from one task.
    private var inputs: [LineInput]
    private(set) var prompts: [String] = []
    let isInteractive: Bool

    init(_ inputs: [LineInput], interactive: Bool) {
        self.inputs = inputs
        self.isInteractive = interactive
    }

    convenience init(lines: [String], interactive: Bool) {
        self.init(lines.map { .line(Array($0.utf8)) }, interactive: interactive)
    }

    func read(prompt: String) async -> LineInput {
        prompts.append(prompt)
        return inputs.isEmpty ? .end : inputs.removeFirst()
    }
}

/// An upload that runs until it is cancelled, and says when it has started.
final class EndlessStore: ScoreStore {
    let started = AsyncStream<Void>.makeStream()

    func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
        started.continuation.yield()
        // Not a timing sleep: the upload stands for one that never answers, and only
        // cancellation ends it.
        try? await Task.sleep(for: .seconds(3600))
        throw .cancelled
    }

    func records() async throws(ScoreStoreError) -> [ScoreRecord] { [] }
}

/// Ctrl-C, pressed once ``count`` has been asked `after` times: a press in the middle of whatever
/// is running, without timing.
final class PressedAfterAsking: InterruptSource {
    private let asked = Mutex(0)
    private let after: Int

    init(after: Int) { self.after = after }

    func whileRunning(_ handler: (@Sendable () -> Void)?) {}

    var count: Int {
        asked.withLock { asked in
            asked += 1
            return asked > after ? 1 : 0
        }
    }
}

@Suite("REPLSession")
struct REPLSessionTests {
    let form = PlayerViewModel(store: InMemoryScoreStore())
    let output = CapturedOutput()

    func run(_ script: String, bail: Bool = false) async -> REPLSession.Outcome {
        await REPLSession(
            form: form, reader: ScriptedLineReader(text: script), output: output,
            options: REPLSession.Options(bail: bail)
        )
        .run()
    }

    @Test("add follows the limits changed in the session, as help add states them")
    func addFollowsSessionLimits() async throws {
        let (form, roster) = sessionViewModels(
            rules: .defaults, store: InMemoryScoreStore(), uploadDelay: .zero)
        let output = CapturedOutput()
        let session = REPLSession(
            form: form, roster: roster, reader: ScriptedLineReader(text: "max 50\nadd Bo 60\nadd Bo 50\n"),
            output: output)
        #expect(await session.run() == .failed)
        #expect(output.errors == ["line 2: Points 60 are above the maximum of 50."])
        #expect(try await roster.players(from: 0, limit: 5).map(\.points) == [50])
    }

    @Test("a script whose commands all succeed exits 0 and writes one line per changed output")
    func succeeds() async {
        #expect(await run("name Dana\nup 3\n") == .succeeded)
        #expect(output.lines == [.out("name: \"Dana\""), .out("points: 103"), .out("point updates left: 7")])
    }

    @Test("a failed command is reported on stderr with its line number, and the script exits 1")
    func failure() async {
        #expect(await run("\n# comment\nfly\nup\n") == .failed)
        #expect(
            output.lines == [
                .error("line 3: Unknown command \"fly\". Type help for the list of commands."),
                .out("points: 101"), .out("point updates left: 9"),
            ])
    }

    @Test("--bail stops at the first failed command")
    func bail() async {
        #expect(await run("fly\nup\n", bail: true) == .failed)
        #expect(output.results.isEmpty)
        #expect(form.points.value == 100)
    }

    @Test("quit ends the session; later lines are not read")
    func quit() async {
        #expect(await run("quit\nup\n") == .succeeded)
        #expect(form.points.value == 100)
    }

    @Test("refusals print the view model's own reason")
    func refusals() async throws {
        #expect(await run("name \"\"\nupload\n") == .failed)
        let refusal = await form.uploadTapped()
        guard case .refused(let reason) = refusal else {
            Issue.record("expected a refusal")
            return
        }
        #expect(output.errors == ["line 2: " + reason.description])
    }

    @Test("a forbidden name shows the alert, then the empty name and why the form is invalid")
    func forbiddenName() async {
        _ = await run("name poop\n")
        #expect(
            output.lines == [
                .out("Forbidden Name! The name poop has been forbidden!"), .out("name: \"\""),
                .out("valid: no (The name is empty.)"), .out("upload button: disabled"),
            ])
    }

    @Test("an upload says it is running, then the view model's message, then the new counts")
    func upload() async {
        #expect(await run("upload\n") == .succeeded)
        #expect(
            output.results == ["uploading...", "Updated Colin with 100 points", "uploads: 1 done, 4 left"])
    }

    @Test("a stepper value outside min and max is clamped, and the output says so")
    func clamped() async {
        #expect(await run("points -5\n") == .succeeded)
        #expect(
            output.results == ["points: 0", "point updates left: 9", "clamped: asked for -5, points are 0"])
    }

    @Test(
        "a huge count stops at the update limit, says how many presses counted and why, and fails",
        .timeLimit(.minutes(5)))
    func hugeCount() async {
        #expect(await run("up 99999999999\n") == .failed)
        #expect(form.points.value == 110)
        #expect(
            output.errors == [
                "line 1: up 99999999999: 10 of 99999999999 presses counted. No point updates left: the points"
                    + " can be changed 10 times."
            ])
    }

    @Test("up 100 that runs out of updates changes the points, says 10 of 100 counted, and fails")
    func partlyCounted() async {
        #expect(await run("up 100\nshow --json\n") == .failed)
        #expect(form.points.value == 110)
        #expect(
            output.errors == [
                "line 1: up 100: 10 of 100 presses counted. No point updates left: the points can be changed"
                    + " 10 times."
            ])
        #expect(output.results.prefix(3) == ["points: 110", "point updates left: 0", "stepper: hidden"])
    }

    @Test("pressing past the maximum says where it stopped in presses, not a value asked for")
    func stoppedAtMaximum() async {
        #expect(await run("points 9999\nup 5\nup\ndown 3\n") == .succeeded)
        #expect(
            output.results == [
                "points: 9999", "point updates left: 9", "points: 10000", "point updates left: 8",
                "up 5 stopped at the maximum 10000 after 1 press",
                "up stopped at the maximum 10000 after 0 presses",
                "points: 9997", "point updates left: 5",
            ])
        #expect(output.errors.isEmpty)
    }

    @Test("pressing down past the minimum says so in presses")
    func stoppedAtMinimum() async {
        #expect(await run("points 1.5\ndown 4\n") == .succeeded)
        #expect(
            output.results.suffix(3) == [
                "points: 0", "point updates left: 7", "down 4 stopped at the minimum 0 after 2 presses",
            ])
    }

    @Test("a step too small to change the points is refused by the view model's reason")
    func stepTooSmall() async {
        #expect(await run("step 1e-300\nup\ndown 3\n") == .failed)
        #expect(
            output.errors == [
                "line 2: Step 1e-300 is too small to change 100 points.",
                "line 3: Step 1e-300 is too small to change 100 points.",
            ])
        #expect(form.points.value == 100)
        #expect(form.pointUpdatesRemaining.value == 10)
    }

    @Test("counts at the edges of Int reach the view model, which refuses those below one")
    func extremeCounts() async {
        #expect(
            await run("up 9223372036854775807\ndown -9223372036854775808\nup 9223372036854775808\n")
                == .failed)
        #expect(
            output.errors == [
                "line 1: up 9223372036854775807: 10 of 9223372036854775807 presses counted. No point updates left:"
                    + " the points can be changed 10 times.",
                "line 2: The stepper can be pressed 1 or more times, not -9223372036854775808.",
                "line 3: \"9223372036854775808\" is too large; a count is a whole number up to 9223372036854775807.",
            ])
    }

    @Test("reset after the last point update leaves the stepper hidden, as help reset says")
    func resetKeepsSpentUpdates() async {
        #expect(await run("up 10\nreset\nhelp reset\nshow --json\n") == .succeeded)
        #expect(!form.canChangePoints.value)
        #expect(form.pointUpdatesRemaining.value == 0)
        let help = output.results.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(help.contains("Spent point updates and uploads are not given back"))
        #expect(help.contains("stepper stays hidden"))
        #expect(!output.results.contains("stepper: shown"))
    }

    @Test("invalid UTF-8 is refused with its bytes shown as \\xNN")
    func invalidUTF8() async {
        let reader = ScriptedLineReader(bytes: Array("name A".utf8) + [0xFF, 0x0A])
        #expect(await REPLSession(form: form, reader: reader, output: output).run() == .failed)
        #expect(output.errors == [#"line 1: The line is not valid UTF-8: name A\xFF. Type UTF-8 text."#])
        #expect(form.name.value == "Colin")
    }

    @Test("a line longer than the limit is refused with its length")
    func tooLong() async {
        let reader = PlaybackReader([.tooLong(byteCount: 5_000_000)], interactive: false)
        #expect(await REPLSession(form: form, reader: reader, output: output).run() == .failed)
        #expect(
            output.errors == [
                "line 1: The line is 5000000 bytes long; lines of up to 65536 bytes are accepted."
            ])
    }

    @Test("control characters and NUL in a name are escaped when shown")
    func escapedName() async {
        _ = await run("name a\u{0}\u{1B}[2Jb\n")
        #expect(form.name.value == "a\u{0}\u{1B}[2Jb")
        #expect(
            output.results == [
                #"name: "a\u{0}\u{1B}[2Jb""#,
                #"valid: no (The name contains control characters (\u{0}\u{1B}): a name is one line of visible text.)"#,
                "upload button: disabled",
            ])
    }

    @Test("interactive: the prompt follows the view model, errors have no line numbers, status is 0")
    func interactive() async {
        let reader = PlaybackReader(lines: ["name Dana", "fly", "name"], interactive: true)
        let outcome = await REPLSession(form: form, reader: reader, output: output).run()
        #expect(outcome == .succeeded)
        #expect(reader.prompts == ["Colin 100 ok> ", "Dana 100 ok> ", "Dana 100 ok> ", "Dana 100 ok> "])
        #expect(output.errors == ["error: Unknown command \"fly\". Type help for the list of commands."])
    }

    @Test("interactive: once the last upload is done, the prompt says the form is locked")
    func lockedPrompt() async throws {
        let form = PlayerViewModel(rules: try PlayerRules(maxUploads: 1), store: InMemoryScoreStore())
        let reader = PlaybackReader(lines: ["upload", "show"], interactive: true)
        #expect(await REPLSession(form: form, reader: reader, output: output).run() == .succeeded)
        #expect(reader.prompts == ["Colin 100 ok> ", "Colin 100 locked> ", "Colin 100 locked> "])
    }

    @Test("interactive: Ctrl-C at the prompt abandons the line and prompts again")
    func interruptedLine() async {
        let reader = PlaybackReader([.interrupted, .line(Array("up".utf8))], interactive: true)
        #expect(await REPLSession(form: form, reader: reader, output: output).run() == .succeeded)
        #expect(reader.prompts.count == 3)
        #expect(form.points.value == 101)
    }

    @Test(
        "at a terminal, Ctrl-C stops a sourced file before its next line, even in a line that never ends",
        .timeLimit(.minutes(5)), arguments: ["lines", "/dev/zero"])
    func ctrlCStopsSource(file: String) async throws {
        let path: String
        if file == "lines" {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("source-\(UUID()).txt").path
            let lines = (1...1_000).map { "name L\($0)\n" }.joined()
            try Data(lines.utf8).write(to: URL(fileURLWithPath: path))
        } else {
            path = file
        }
        let form = PlayerViewModel(store: InMemoryScoreStore())
        let reader = PlaybackReader(lines: ["source \(path)", "name After"], interactive: true)
        let session = REPLSession(
            form: form, reader: reader, output: output,
            terminal: REPLSession.Terminal(interrupts: PressedAfterAsking(after: 20)))
        #expect(await session.run() == .succeeded)
        let stopped = output.lines.filter {
            if case .error(let text) = $0 { text.hasPrefix("error: Ctrl-C stopped source") } else { false }
        }
        #expect(stopped.count == 1, "\(output.lines.suffix(3))")
        #expect(!output.results.contains("name: \"L1000\""))
        #expect(form.name.value == "After", "the session goes on")
    }

    @Test("one Ctrl-C stops a file sourced inside another, and is said once", .timeLimit(.minutes(5)))
    func ctrlCStopsNestedSource() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nested-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inner = folder.appendingPathComponent("inner.txt").path
        let outer = folder.appendingPathComponent("outer.txt").path
        try Data((1...1_000).map { "name L\($0)\n" }.joined().utf8).write(to: URL(fileURLWithPath: inner))
        try Data("source \(inner)\nname AfterInner\n".utf8).write(to: URL(fileURLWithPath: outer))
        let form = PlayerViewModel(store: InMemoryScoreStore())
        let reader = PlaybackReader(lines: ["source \(outer)", "name After"], interactive: true)
        let session = REPLSession(
            form: form, reader: reader, output: output,
            terminal: REPLSession.Terminal(interrupts: PressedAfterAsking(after: 20)))
        #expect(await session.run() == .succeeded)
        let stopped = output.lines.filter {
            if case .error(let text) = $0 { text.contains("Ctrl-C stopped source") } else { false }
        }
        #expect(stopped.count == 1, "\(output.lines.suffix(4))")
        #expect(!output.results.contains("name: \"AfterInner\""), "the outer file stops too")
        #expect(form.name.value == "After")
    }

    @Test("interactive: Ctrl-C during an upload cancels it through the view model", .timeLimit(.minutes(5)))
    func cancelUpload() async {
        let store = EndlessStore()
        let form = PlayerViewModel(store: store)
        let interrupts = ManualInterrupts()
        let reader = PlaybackReader(lines: ["upload"], interactive: true)
        let session = REPLSession(
            form: form, reader: reader, output: output, terminal: REPLSession.Terminal(interrupts: interrupts)
        )
        async let outcome = session.run()
        for await _ in store.started.stream { break }
        #expect(interrupts.press())
        #expect(await outcome == .succeeded)
        #expect(form.uploadsDone.value == 0)
        #expect(output.errors == ["error: Upload of Colin was cancelled"])
        #expect(output.results == ["uploading...", "^C"])
        #expect(!interrupts.press())
    }
}
