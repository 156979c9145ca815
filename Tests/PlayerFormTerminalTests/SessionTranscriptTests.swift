import Foundation
import PlayerFormTerminalTesting
import Testing

@Suite("Session transcript")
struct SessionTranscriptTests {
    @Test("a transcript is read into the script, the output of each stream and the exit status")
    func parsing() {
        let transcript = SessionTranscript(
            parsing: "# options: --bail\n> name Dana\nname: \"Dana\"\n>\n\n! line 3: oops\nexit: 1\n")
        #expect(transcript.input == ["# options: --bail", "name Dana", ""])
        #expect(transcript.output == [.out("name: \"Dana\""), .error("line 3: oops")])
        #expect(transcript.exitStatus == 1)
        #expect(transcript.bail)
        #expect(transcript.script == "# options: --bail\nname Dana\n\n")
    }

    @Test("the answered transcript puts each line written under the line of the script read before it")
    func answered() {
        let text = "# a comment\n> name Dana\nold answer\n> frob\n! old error\n> show\nexit: 1\n"
        let answered = SessionTranscript.answered(
            text, output: [.out("name: \"Dana\""), .error("line 3: Unknown"), .out("Name: [Dana]")],
            outputBeforeLine: [0, 0, 1, 2, 3], exitStatus: 1)
        #expect(
            answered
                == "# a comment\n> name Dana\nname: \"Dana\"\n> frob\n! line 3: Unknown\n> show\nName: [Dana]\nexit: 1\n"
        )
    }

    @Test(
        "lines never read come after all the output, blank lines stay before their line, status 0 is not written"
    )
    func unreadLines() {
        let answered = SessionTranscript.answered(
            "> a\n\n> b\n> c\nexit: 1\n", output: [.out("x"), .out("y")], outputBeforeLine: [0], exitStatus: 0
        )
        #expect(answered == "> a\nx\ny\n\n> b\n> c\n")
    }

    @Test("a replay that matches records nothing; one whose output a transcript cannot hold is not written")
    func cannotHold() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(UUID().uuidString).session")
        try Data("> show\nName: [Colin]\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try SessionTranscript.expectReplay(
            of: file, output: [.out("Name: [Colin]")], outputBeforeLine: [0, 1], exitStatus: 0,
            recording: false)
        try withKnownIssue {
            try SessionTranscript.expectReplay(
                of: file, output: [.out("> not input")], outputBeforeLine: [0, 1], exitStatus: 0,
                recording: true)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("cannot hold") && text.contains("+   1  > not input")
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == "> show\nName: [Colin]\n")
    }
}
