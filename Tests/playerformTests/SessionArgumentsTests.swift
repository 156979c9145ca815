import ArgumentParser
import Testing

@testable import playerform

/// An empty command line starts the session without the argument parser; these specs hold the
/// two ways to the same values.
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

    @Test("validate is recognised by its name without the parser")
    func validateName() {
        #expect(PlayerFormCommand.Validate._commandName == "validate")
    }

    @Test("the commonest lines skip the parser: an empty line is the session, --version alone the version")
    func commonestLines() {
        guard case .session(let arguments) = PlayerFormCommand.request([]) else {
            Issue.record("an empty line is not the session")
            return
        }
        #expect(arguments == SessionArguments())
        guard case .version = PlayerFormCommand.request(["--version"]) else {
            Issue.record("--version alone is not the version")
            return
        }
    }

    @Test("a line of the form's options is the session with their values")
    func sessionLine() {
        guard
            case .session(let arguments) = PlayerFormCommand.request(["--store", "s.sqlite", "-c", "players"])
        else {
            Issue.record("the form's options are not the session")
            return
        }
        #expect(arguments == SessionArguments(store: "s.sqlite", commands: ["players"]))
    }

    @Test("validate first is parsed under its own root, which gives every later option to validate")
    func validateLine() {
        guard
            case .command(let command, let root) = PlayerFormCommand.request([
                "validate", "--quiet", "f.jsonl",
            ])
        else {
            Issue.record("validate is not a command")
            return
        }
        #expect(command is PlayerFormCommand.Validate)
        #expect(root is ValidateLine.Type)
    }

    @Test("the form's options before validate are refused, saying the line to write instead")
    func misplacedOptions() {
        guard
            case .refused(let error, let root) = PlayerFormCommand.request([
                "--config", "r.json", "validate", "f",
            ])
        else {
            Issue.record("misplaced options are not refused")
            return
        }
        #expect(root is PlayerFormCommand.Type)
        #expect(root.message(for: error).contains("write: playerform validate --config r.json f"))
    }

    @Test("an unknown option is refused under the form's root")
    func unknownOption() {
        guard case .refused(let error, let root) = PlayerFormCommand.request(["--bogus"]) else {
            Issue.record("an unknown option is not refused")
            return
        }
        #expect(root is PlayerFormCommand.Type)
        #expect(root.exitCode(for: error) == .validationFailure)
    }

    @Test("a script on a SQLite database is opened by whoever prepared it; a league opens itself")
    func preparedOpening() throws {
        let database = try PreparedSession(SessionArguments(store: "scores.sqlite", commands: ["players"]))
        #expect(database.opening != nil)
        let league = try PreparedSession(
            SessionArguments(store: "postgres://u@localhost/db", commands: ["players"]))
        #expect(league.opening == nil)
    }
}
