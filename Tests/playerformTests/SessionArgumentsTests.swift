import ArgumentParser
import PropertyBased
import Synchronization
import Testing

@testable import playerform

/// Words of command lines: every option of the session and of validate, their values, files,
/// and words the quick reading leaves to the parser (joined forms, unknown options, `--`, help,
/// empty words, values that look like options).
private let words = [
    "--config", "rules.json", "--store", "s.sqlite", "--no-color", "--bail", "--history-file", "h", "-c",
    "players", "--command", "add Ann 3", "-f", "-", "--file", "f.txt", "--echo", "-q", "--quiet",
    "--no-pager",
    "--input-format", "csv", "jsonl", "xml", "--format", "json", "text", "p.jsonl", "validate", "--",
    "--store=x", "-qc", "--help", "-h", "", "-x", "--upload-time", "9", "--", "-1",
]

private let lines = Gen.element(of: words).map { $0! }.array(of: 0...7)

/// Command lines read without the argument parser (``QuickLine``); these specs hold the two ways to
/// the same values.
@Suite("The form session's arguments")
struct SessionArgumentsTests {
    @Test("an empty command line gives the values the argument parser gives for it")
    func emptyLineMatchesParser() throws {
        #expect(try PlayerFormCommand.parse([]).session == SessionArguments())
    }

    @Test("every option of the form session reaches its value")
    func everyOptionReachesItsValue() throws {
        let parsed = try PlayerFormCommand.parse([
            "--config", "rules.json", "--store", "s.sqlite", "--no-color", "--bail", "--history-file", "h",
            "-c", "up", "-f", "f.txt", "--echo", "--quiet", "--no-pager", "--upload-delay-milliseconds", "5",
            "--busy-timeout-milliseconds", "7", "--upload-time", "9",
        ])
        let expected = SessionArguments(
            configPath: "rules.json", store: "s.sqlite", noColor: true, bail: true, historyFile: "h",
            commands: ["up"], files: ["f.txt"], echo: true, quiet: true, noPager: true,
            uploadDelayMilliseconds: 5, busyTimeoutMilliseconds: 7, uploadTime: 9)
        #expect(parsed.session == expected)
    }

    @Test("a line read without the parser gives the values the parser gives for it")
    func quickSessionMatchesParser() async {
        let read = Mutex(0)
        await propertyCheck(count: 3000, input: lines) { line in
            guard let quick = QuickLine.session(line) else { return }
            read.withLock { $0 += 1 }
            let parsed = try? PlayerFormCommand.parseAsRoot(line) as? PlayerFormCommand
            #expect(parsed?.session == quick, "\(line)")
        }
        // Enough lines are read without the parser for the comparison to mean something.
        #expect(read.withLock { $0 } >= 100)
    }

    @Test("a validate line read without the parser gives the values the parser gives for it")
    func quickValidateMatchesParser() async {
        let read = Mutex(0)
        await propertyCheck(count: 3000, input: lines) { line in
            guard let quick = QuickLine.validate(line) else { return }
            read.withLock { $0 += 1 }
            let parsed = try? ValidateLine.parseAsRoot(["validate"] + line) as? PlayerFormCommand.Validate
            #expect(parsed?.arguments == quick, "\(line)")
        }
        #expect(read.withLock { $0 } >= 100)
    }

    @Test("the commonest lines are read without the parser, and the rest are left to it")
    func whichLinesAreQuick() {
        #expect(QuickLine.session([]) == SessionArguments())
        #expect(
            QuickLine.session(["--store", "s.sqlite", "-c", "players", "-f", "-", "-c", "quit", "-q"])
                == SessionArguments(
                    store: "s.sqlite", commands: ["players", "quit"], files: ["-"], quiet: true))
        #expect(
            QuickLine.validate(["--quiet", "--config", "r.json", "a.csv", "-", "--input-format", "csv"])
                == PlayerFormCommand.Validate.Arguments(
                    files: ["a.csv", "-"], inputFormat: .csv, quiet: true, configPath: "r.json"))
        for line in [
            ["--store=x"], ["-qc", "x"], ["--help"], ["--store"], ["--store", ""], ["--store", "-x"],
            ["--bail", "--bail"], ["--store", "a", "--store", "b"], ["file"], ["--upload-time", "9"],
        ] {
            #expect(QuickLine.session(line) == nil, "\(line)")
        }
        for line in [["--format", "xml"], ["--", "a"], ["-x"], ["--quiet", "--quiet"], ["--input-format"]] {
            #expect(QuickLine.validate(line) == nil, "\(line)")
        }
    }

    @Test("validate is recognised by its name without the parser")
    func validateName() {
        #expect(PlayerFormCommand.Validate._commandName == "validate")
    }
}
