import Foundation
import Testing

@testable import playerform

@Suite("Progress of import and export")
struct ProgressMeterTests {
    final class Clock {
        var instant = ContinuousClock.now
    }

    @Test(
        "the file named in an import's progress line is escaped: an escape sequence in its name is shown, not acted on"
    )
    func fileNameEscaped() {
        #expect(
            PlayerFormCommand.Import.progressVerb("a\u{1B}[2J\u{202E}.jsonl")
                == "importing a\\u{1B}[2J\\u{202E}.jsonl:")
        #expect(PlayerFormCommand.Import.progressVerb("scores.jsonl") == "importing scores.jsonl:")
    }

    @Test("at a terminal: records, rate, part done and time left, at most four times a second, then cleared")
    func shown() {
        let clock = Clock()
        var written: [String] = []
        let meter = ProgressMeter(
            verb: "importing a.jsonl:", total: nil, enabled: true, now: { clock.instant },
            write: { written.append($0) })
        clock.instant += .seconds(2)
        meter.update(100_000, fraction: 0.25)
        clock.instant += .milliseconds(100)
        meter.update(110_000, fraction: 0.3)
        clock.instant += .seconds(2)
        meter.update(200_000, fraction: 0.5)
        meter.finish()
        #expect(
            written == [
                "\rimporting a.jsonl: 100000 records, 50000/s, 25%, about 6 s left\u{1B}[K",
                "\rimporting a.jsonl: 200000 records, 48780/s, 50%, about 4 s left\u{1B}[K",
                "\r\u{1B}[K",
            ])
    }

    @Test("in a script nothing is shown")
    func silent() {
        var written: [String] = []
        let meter = ProgressMeter(verb: "exporting", total: 10, enabled: false, write: { written.append($0) })
        meter.update(5)
        meter.finish()
        #expect(written.isEmpty)
    }
}
