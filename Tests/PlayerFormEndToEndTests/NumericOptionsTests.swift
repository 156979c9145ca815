import Foundation
import Testing

@Suite("playerform numeric options and counts")
struct NumericOptionsTests {
    static let uploadTimeError =
        "error: --upload-time must be a number of seconds since 1970 from -62135596800 (the year 1) to"
        + " 253402300799.999 (the end of the year 9999), not "

    @Test(
        "--upload-time outside the years 1 to 9999, or not a number, exits 64 naming the accepted range",
        arguments: [
            ("1e16", "1e+16"), ("1e308", "1e+308"), ("-1e308", "-1e+308"), ("inf", "inf"), ("nan", "nan"),
            ("9223372036854775808", "9.223372036854776e+18"),
            ("-9223372036854775808", "-9.223372036854776e+18"),
            ("253402300800", "253402300800.0"),
        ])
    func uploadTimeOutOfRange(text: String, shown: String) throws {
        let run = try BuiltBinary.run(["--upload-time=\(text)"], input: Data("upload\n".utf8))
        #expect(run.status == 64)
        #expect(run.errorLines.first == Self.uploadTimeError + shown + ".")
        #expect(run.outputLines.isEmpty)
    }

    @Test("--upload-time at either end of the years 1 to 9999 is kept to the millisecond")
    func uploadTimeRangeEnds() throws {
        for (text, stamp) in [
            ("-62135596800", "0001-01-01T00:00:00.000Z"), ("253402300799.999", "9999-12-31T23:59:59.999Z"),
        ] {
            let folder = try BuiltBinary.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let run = try BuiltBinary.run(
                ["--upload-time=\(text)", "--store", folder.appendingPathComponent("s.jsonl").path],
                input: Data("upload\nplayers --json\n".utf8))
            #expect(run.status == 0)
            #expect(
                run.outputLines.last?.contains(#""uploadedAt":"\#(stamp)""#) == true, "\(run.outputLines)")
        }
    }

    @Test(
        "--upload-delay-milliseconds outside 0 to 600000 exits 64 with the accepted range",
        arguments: ["-1", "600001", "9223372036854775807", "-9223372036854775808"])
    func uploadDelayOutOfRange(text: String) throws {
        let run = try BuiltBinary.run(["--upload-delay-milliseconds=\(text)"])
        #expect(run.status == 64)
        #expect(
            run.errorLines.first
                == "error: --upload-delay-milliseconds must be from 0 to 600000, not \(text).")
    }

    @Test("--upload-delay-milliseconds that is not a whole number an Int holds exits 64")
    func uploadDelayNotAnInt() throws {
        for text in ["9223372036854775808", "1e16", "nan"] {
            let run = try BuiltBinary.run(["--upload-delay-milliseconds=\(text)"])
            #expect(run.status == 64)
            #expect(
                run.errorLines.first
                    == "error: The value '\(text)' is invalid for '--upload-delay-milliseconds'")
        }
    }

    @Test("with a billion point updates, up 100000000 and up Int.max finish at once", .timeLimit(.minutes(5)))
    func generousRules() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rules-\(UUID().uuidString).json")
        try Data(#"{"maxPointUpdates": 999999999, "max": 1e15}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try BuiltBinary.run(
            ["--config", file.path],
            input: Data("up 100000000\nup 9223372036854775807\nstep 1e-300\nup\n".utf8))
        #expect(run.status == 1)
        #expect(
            run.outputLines == [
                "points: 100000100", "point updates left: 899999999", "points: 1000000099",
                "point updates left: 0",
                "stepper: hidden", "step: 1e-300",
            ])
        #expect(
            run.errorLines == [
                "line 2: up 9223372036854775807: 899999999 of 9223372036854775807 presses counted. No point updates"
                    + " left: the points can be changed 999999999 times.",
                "line 4: No point updates left: the points can be changed 999999999 times.",
            ])
    }

    @Test("a step too small for the points is refused with a reason, and the script fails")
    func stepTooSmall() throws {
        let run = try BuiltBinary.run(input: Data("step 1e-300\nup\nshow --json\n".utf8))
        #expect(run.status == 1)
        #expect(run.errorLines == ["line 2: Step 1e-300 is too small to change 100 points."])
        #expect(run.outputLines.last?.contains(#""points":100,"#) == true)
    }
}
