import Foundation
import PlayerFormScores
import PlayerFormTerminalTesting
import Testing

@testable import PlayerFormTerminal

/// Replays every session in `Examples/sessions/` and compares the output, line by line and
/// stream by stream, and the exit status.
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
        let text = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
        let transcript = SessionTranscript(parsing: text)
        let output = CapturedOutput()
        let store = InMemoryScoreStore(now: { Date(timeIntervalSince1970: SessionTranscript.uploadTime) })
        let (form, roster) = REPLSession.viewModels(rules: .defaults, store: store, uploadDelay: .zero)
        let session = REPLSession(
            form: form, roster: roster, reader: ScriptedLineReader(text: transcript.script),
            output: output, bail: transcript.bail)
        let outcome = await session.run()
        let written = output.lines.map { line -> SessionTranscript.Output in
            switch line {
            case .out(let text): .out(text)
            case .error(let text): .error(text)
            }
        }
        #expect(written == transcript.output)
        #expect(outcome.exitStatus == transcript.exitStatus)
    }
}
