import ArgumentParser
import Testing

@testable import playerform

@Suite("The form session's options")
struct SessionOptionsTests {
    @Test("an empty command line, which skips the parser, gives the values the parser gives for it")
    func emptyLineMatchesParser() throws {
        #expect(try PlayerFormCommand.parse([]).session == SessionOptions())
    }

    @Test("every option of the form session reaches its value")
    func everyOptionReachesItsValue() throws {
        let parsed = try PlayerFormCommand.parse([
            "--config", "rules.json", "--store", "s.sqlite", "--no-color", "--bail", "--history-file", "h",
            "-c", "up", "-f", "f.txt", "--echo", "--quiet", "--no-pager", "--upload-delay-milliseconds", "5",
            "--busy-timeout-milliseconds", "7", "--upload-time", "9", "-o", "out.txt",
        ])
        let expected = SessionOptions(
            configPath: "rules.json", store: "s.sqlite", noColor: true, bail: true, historyFile: "h",
            commands: ["up"], files: ["f.txt"], echo: true, output: "out.txt", quiet: true, noPager: true,
            uploadDelayMilliseconds: 5, busyTimeoutMilliseconds: 7, uploadTime: 9)
        #expect(parsed.session == expected)
    }

    @Test("validate is recognised by its name before the parser picks its root")
    func validateName() {
        #expect(PlayerFormCommand.Validate._commandName == "validate")
    }
}
