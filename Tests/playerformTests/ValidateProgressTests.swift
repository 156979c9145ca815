import Foundation
import PlayerFormRecords
import Synchronization
import Testing

@testable import playerform

@Suite("Progress of validate")
struct ValidateProgressTests {
    /// A clock that moves on by `step` each time it is read.
    final class Clock: Sendable {
        private let instant = Mutex(ContinuousClock.now)
        let step: Duration
        init(step: Duration) { self.step = step }
        func now() -> ContinuousClock.Instant {
            instant.withLock { instant in
                instant += step
                return instant
            }
        }
    }

    @Test(
        "at a terminal a long run shows records, rate and the part of the file read, cleared before the summary"
    )
    func shownThenCleared() throws {
        let scratch = try Scratch()
        let line = "{\"name\": \"Colin\", \"points\": 1}\n"
        let path = try scratch.file("many.jsonl", String(repeating: line, count: 100_000))
        let clock = Clock(step: .milliseconds(700))
        let errors = ByteWriter()
        var written: [(text: String, errorsSoFar: String)] = []
        let meter = PlayerFormCommand.Validate.progressMeter(
            quiet: false, isTerminal: { $0 == STDERR_FILENO }, now: clock.now,
            write: { written.append(($0, errors.capturedText)) })
        var run = ValidationRun(inputs: [path], format: nil, style: .text, quiet: false, rules: .defaults)
        run.isInterrupted = { false }
        PlayerFormCommand.Validate.show(meter, on: &run)
        #expect(run.run(output: ByteWriter(), errors: errors) == .valid)
        let shown = written.dropLast().map(\.text)
        #expect(shown.count >= 2)
        #expect(
            shown.allSatisfy {
                $0.hasPrefix("\rvalidating: ") && $0.contains("records, ") && $0.contains("/s, ")
            })
        #expect(shown.last?.contains("100000 records") == true)
        #expect(shown.last?.contains(", 100%, ") == true)
        #expect(written.last?.text == "\r\u{1B}[K")
        #expect(written.last?.errorsSoFar == "")
        #expect(errors.capturedText == "100000 records, 0 invalid\n")
    }

    @Test(
        "nothing is shown in the first second, nor in scripts, with --quiet, or when findings go to the terminal"
    )
    func silent() {
        let cases: [(quiet: Bool, terminals: Set<Int32>, step: Duration)] = [
            (false, [STDERR_FILENO], .milliseconds(100)),
            (false, [], .seconds(5)),
            (true, [STDERR_FILENO], .seconds(5)),
            (false, [STDERR_FILENO, STDOUT_FILENO], .seconds(5)),
        ]
        for (quiet, terminals, step) in cases {
            let clock = Clock(step: step)
            var written: [String] = []
            let meter = PlayerFormCommand.Validate.progressMeter(
                quiet: quiet, isTerminal: { terminals.contains($0) }, now: clock.now,
                write: { written.append($0) })
            meter.update(1000, fraction: 0.5)
            meter.finish()
            #expect(written.isEmpty, "quiet: \(quiet), terminals: \(terminals)")
        }
        let clock = Clock(step: .seconds(5))
        var written: [String] = []
        let meter = PlayerFormCommand.Validate.progressMeter(
            quiet: false, isTerminal: { $0 == STDERR_FILENO }, now: clock.now, write: { written.append($0) })
        meter.update(1000, fraction: 0.5)
        #expect(written.count == 1)
    }
}
