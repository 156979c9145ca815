import ArgumentParser
import Testing

@testable import playerform

@Suite("The form session's options")
struct SessionOptionsTests {
    @Test("an empty command line starts a session from the defaults")
    func emptyLine() throws {
        let parsed = try PlayerFormCommand.parse([])
        #expect(parsed.rulesFile.path == nil && parsed.store == nil && parsed.historyFile == nil)
        #expect(parsed.commands.isEmpty && parsed.files.isEmpty)
        #expect(!parsed.noColor && !parsed.bail && !parsed.echo && !parsed.quiet && !parsed.noPager)
        #expect(parsed.uploadDelayMilliseconds == nil && parsed.busyTimeoutMilliseconds == nil)
        #expect(parsed.uploadTime == nil)
    }

    @Test("every option of the form session reaches its value")
    func everyOptionReachesItsValue() throws {
        let parsed = try PlayerFormCommand.parse([
            "--config", "rules.json", "--store", "s.sqlite", "--no-color", "--bail", "--history-file", "h",
            "-c", "up", "-f", "f.txt", "--echo", "--quiet", "--no-pager", "--upload-delay-milliseconds", "5",
            "--busy-timeout-milliseconds", "7", "--upload-time", "9",
        ])
        #expect(parsed.rulesFile.path == "rules.json" && parsed.store == "s.sqlite")
        #expect(parsed.historyFile == "h" && parsed.commands == ["up"] && parsed.files == ["f.txt"])
        #expect(parsed.noColor && parsed.bail && parsed.echo && parsed.quiet && parsed.noPager)
        #expect(parsed.uploadDelayMilliseconds == 5 && parsed.busyTimeoutMilliseconds == 7)
        #expect(parsed.uploadTime == 9)
    }

    @Test("validate is recognised by its name before the parser picks its root")
    func validateName() {
        #expect(PlayerFormCommand.Validate._commandName == "validate")
    }
}
