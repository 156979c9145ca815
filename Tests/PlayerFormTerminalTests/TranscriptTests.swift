import Foundation
import PlayerFormScores
import PlayerFormTerminalTesting
import Testing

@testable import PlayerFormTerminal

/// Replays every session in `Examples/sessions/` and compares the transcript it answers with the
/// file, line by line: each line written under the line of the script that caused it, and the
/// exit status.
///
/// `PLAYERFORM_RECORD_TRANSCRIPTS=1` writes the answers back into the files.
@Suite("Transcripts in Examples/sessions")
struct TranscriptTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/sessions")

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".session") }.sorted()
    }

    @Test("there are transcripts to replay")
    func present() {
        #expect(Self.files.count >= 5)
    }

    @Test("the session answers as its transcript says", arguments: files)
    func replay(_ file: String) async throws {
        try await Self.replay(Self.folder.appendingPathComponent(file))
    }

    /// A copy of `basics.session` in a temporary folder with its third line, `Name:    [Colin]`,
    /// changed to `Name:    [Zed]`; and the text of the original.
    static func alteredCopy() throws -> (file: URL, original: String) {
        let original = try String(
            contentsOf: folder.appendingPathComponent("basics.session"), encoding: .utf8)
        var lines = original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines[2] == "Name:    [Colin]")
        lines[2] = "Name:    [Zed]"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(UUID().uuidString).session")
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        return (file, original)
    }

    /// The text of every comment of `issue`.
    static func text(_ issue: Issue) -> String {
        issue.comments.map(\.rawValue).joined(separator: "\n")
    }

    @Test("a replay that does not match shows a line diff of the transcript file and leaves the file alone")
    func mismatch() async throws {
        let (file, _) = try Self.alteredCopy()
        defer { try? FileManager.default.removeItem(at: file) }
        let altered = try String(contentsOf: file, encoding: .utf8)
        try await withKnownIssue {
            try await Self.replay(file, recording: false)
        } matching: { issue in
            let lines = Self.text(issue).split(separator: "\n")
            return Self.text(issue).hasPrefix("The session does not answer as \(file.lastPathComponent) says")
                && lines.contains { $0.wholeMatch(of: #/-  +3 +Name:    \[Zed\]/#) != nil }
                && lines.contains { $0.wholeMatch(of: #/\+ +3  Name:    \[Colin\]/#) != nil }
                && lines.contains { $0.wholeMatch(of: #/  +2 +2  > show/#) != nil }
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == altered)
    }

    @Test("re-recording a copy of a transcript writes what the session answered into it and says so")
    func rerecord() async throws {
        let (file, original) = try Self.alteredCopy()
        defer { try? FileManager.default.removeItem(at: file) }
        try await withKnownIssue {
            try await Self.replay(file, recording: true)
        } matching: { issue in
            Self.text(issue).hasPrefix("Re-recorded \(file.lastPathComponent)")
                && Self.text(issue).contains("Name:    [Zed]")
                && Self.text(issue).contains("Name:    [Colin]")
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == original)
        // Re-recording again changes nothing, and still does not pass silently.
        try await withKnownIssue {
            try await Self.replay(file, recording: true)
        } matching: { issue in
            Self.text(issue).contains("already holds what the session answered")
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == original)
    }

    /// Replays the transcript at `file` and checks what the session wrote against it; re-records
    /// it when `recording`.
    static func replay(
        _ file: URL, recording: Bool = SessionTranscript.isRecording,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        let transcript = SessionTranscript(parsing: text)
        let output = CapturedOutput()
        let reader = TranscriptLineReader(ScriptedLineReader(text: transcript.script), output: output)
        let store = InMemoryScoreStore(now: { Date(timeIntervalSince1970: SessionTranscript.uploadTime) })
        let (form, roster) = sessionViewModels(rules: .defaults, store: store, uploadDelay: .zero)
        let session = REPLSession(
            form: form, roster: roster, reader: reader, output: output,
            options: REPLSession.Options(bail: transcript.bail))
        let outcome = await session.run()
        let written = output.lines.map { line -> SessionTranscript.Output in
            switch line {
            case .out(let text): .out(text)
            case .error(let text): .error(text)
            }
        }
        try SessionTranscript.expectReplay(
            of: file, output: written, outputBeforeLine: reader.outputBeforeLine,
            exitStatus: outcome.exitStatus, recording: recording, sourceLocation: sourceLocation)
    }
}
