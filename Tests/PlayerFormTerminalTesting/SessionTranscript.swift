import Foundation
import Testing

/// A recorded REPL session: the lines typed and what the program answered.
///
/// The files in `Examples/sessions/` are transcripts; specs replay them and compare.
///
/// The format, one item a line:
/// - `# text`: a comment for the reader; it is part of the script, which ignores it.
/// - `# options: --bail`: a comment that also sets command-line options (only `--bail`).
/// - `> text`: a line of input (`>` alone is an empty line).
///
/// Errors name lines of the script, which holds the comments and the input lines, in order.
/// - `! text`: a line the program writes to standard error.
/// - `exit: N`: the exit status expected (0 when absent), as the last line.
/// - anything else: a line the program writes to standard output.
///
/// Sessions are replayed with an empty score store whose uploads are all stamped
/// ``uploadTime``, so that `players --json` prints the same `uploadedAt` on every run. A replay
/// checks the whole file, each line written under the line of the script that caused it
/// (``expectReplay(of:output:outputBeforeLine:exitStatus:recording:sourceLocation:)``).
public struct SessionTranscript: Equatable, Sendable {
    /// The time every upload of a replayed session is stamped with, in seconds since 1970
    /// (2026-09-21T14:13:20Z).
    public static let uploadTime: Double = 1_790_000_000

    /// One line the program wrote.
    public enum Output: Equatable, Sendable {
        /// On standard output.
        case out(String)
        /// On standard error.
        case error(String)
    }

    /// The lines of the script, comments included, in order.
    public var input: [String] = []
    /// What the program wrote, in order.
    public var output: [Output] = []
    /// The exit status.
    public var exitStatus: Int32 = 0
    /// Whether the session runs with `--bail`.
    public var bail = false

    /// Reads a transcript.
    public init(parsing text: String) {
        for line in Self.lines(of: text) {
            switch Item(line) {
            case .blank: break
            case .script(let text):
                input.append(text)
                if text.hasPrefix("# options:") { bail = text.contains("--bail") }
            case .output(let written): output.append(written)
            case .exit(let status): exitStatus = status
            }
        }
    }

    /// What one line of a transcript holds.
    enum Item: Equatable {
        /// An empty line, for the reader's eye.
        case blank
        /// A line of the script (a comment or a line of input), as the session reads it.
        case script(String)
        /// A line the program writes.
        case output(Output)
        /// The exit status.
        case exit(Int32)

        init(_ line: String) {
            if line.isEmpty {
                self = .blank
            } else if line.hasPrefix("#") {
                self = .script(line)
            } else if line == ">" {
                self = .script("")
            } else if line.hasPrefix("> ") {
                self = .script(String(line.dropFirst(2)))
            } else if line.hasPrefix("! ") {
                self = .output(.error(String(line.dropFirst(2))))
            } else if line.hasPrefix("exit: "), let status = Int32(line.dropFirst(6)) {
                self = .exit(status)
            } else {
                self = .output(.out(line))
            }
        }
    }

    /// The lines of `text`, without the empty line after its last line ending.
    static func lines(of text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The input as a script: the lines joined with newlines.
    public var script: String {
        input.map { $0 + "\n" }.joined()
    }

    /// The expected standard output.
    public var standardOutput: [String] {
        output.compactMap { if case .out(let text) = $0 { text } else { nil } }
    }

    /// The expected standard error.
    public var standardError: [String] {
        output.compactMap { if case .error(let text) = $0 { text } else { nil } }
    }
}

extension SessionTranscript {
    /// The environment variable that makes a replay write what the session answered back into its
    /// transcript: `PLAYERFORM_RECORD_TRANSCRIPTS=1 swift test --filter TranscriptTests`.
    public static let recordingVariable = "PLAYERFORM_RECORD_TRANSCRIPTS"

    /// Whether ``recordingVariable`` is set to anything but empty or `0`.
    public static var isRecording: Bool {
        guard let value = ProcessInfo.processInfo.environment[recordingVariable] else { return false }
        return !value.isEmpty && value != "0"
    }

    /// The transcript `text` as a replay of it answered: its comments, lines of input and blank
    /// lines stay as they are; under each line of the script come the lines written after it was
    /// read and before the next one was, then `exit: N` when the status is not 0.
    ///
    /// - Parameters:
    ///   - text: the transcript as its file holds it.
    ///   - output: every line the session wrote, in order.
    ///   - outputBeforeLine: for each line of the script the session read, how many lines it had
    ///     written before (``TranscriptLineReader/outputBeforeLine``). Lines never read (after
    ///     `--bail` stopped the session) come after all the output.
    ///   - exitStatus: the status the session ended with.
    /// - Returns: the transcript's text with the session's answers in place.
    public static func answered(
        _ text: String, output: [Output], outputBeforeLine: [Int], exitStatus: Int32
    ) -> String {
        var lines: [String] = []
        var blanks = 0
        var written = 0
        var scriptLines = 0
        func write(upTo end: Int) {
            let end = min(max(end, written), output.count)
            lines += output[written..<end].map(\.transcriptLine)
            written = end
        }
        for line in Self.lines(of: text) {
            switch Item(line) {
            case .blank:
                blanks += 1
            case .script:
                write(
                    upTo: scriptLines < outputBeforeLine.count ? outputBeforeLine[scriptLines] : output.count)
                lines += Array(repeating: "", count: blanks)
                blanks = 0
                lines.append(line)
                scriptLines += 1
            case .output, .exit:
                break
            }
        }
        write(upTo: output.count)
        lines += Array(repeating: "", count: blanks)
        if exitStatus != 0 { lines.append("exit: \(exitStatus)") }
        return lines.map { $0 + "\n" }.joined()
    }

    /// Checks a replay of the transcript in `file` against it: on a difference, records an issue
    /// with a line diff of the file (``LineDiff``).
    ///
    /// When `recording`, it writes what the session answered into `file` instead and records an
    /// issue saying so, changed or not, so that a run that re-records never passes.
    ///
    /// Output that a transcript cannot hold (an empty line, or one that reads as a line of the
    /// script or an exit status) is never written; the issue shows it.
    ///
    /// - Parameters:
    ///   - file: the transcript file.
    ///   - output: every line the replay wrote, as ``answered(_:output:outputBeforeLine:exitStatus:)``
    ///     takes it.
    ///   - outputBeforeLine: how many lines were written before each line of the script was read.
    ///   - exitStatus: the status the replay ended with.
    ///   - recording: whether to write the file; ``isRecording`` by default.
    ///   - sourceLocation: where issues are reported.
    /// - Throws: when `file` cannot be read or written.
    public static func expectReplay(
        of file: URL, output: [Output], outputBeforeLine: [Int], exitStatus: Int32,
        recording: Bool = isRecording, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let name = file.lastPathComponent
        let text = try String(contentsOf: file, encoding: .utf8)
        let answers = answered(
            text, output: output, outputBeforeLine: outputBeforeLine, exitStatus: exitStatus)
        let held = SessionTranscript(parsing: answers)
        guard held.output == output, held.exitStatus == exitStatus else {
            let difference =
                LineDiff.lines(
                    held.output.map(\.transcriptLine) + ["exit: \(held.exitStatus)"],
                    output.map(\.transcriptLine) + ["exit: \(exitStatus)"]) ?? ""
            Issue.record(
                Comment(
                    rawValue: "The session wrote lines that \(name) cannot hold: an empty line, or one that "
                        + "reads as input, a comment or an exit status (- read back, + written):\n\n"
                        + difference),
                sourceLocation: sourceLocation)
            return
        }
        let difference = LineDiff.lines(lines(of: text), lines(of: answers))
        if recording {
            guard let difference else {
                Issue.record(
                    Comment(
                        rawValue: "\(recordingVariable) is set: \(name) already holds what the session "
                            + "answered; nothing was written. Unset it to check the transcripts."),
                    sourceLocation: sourceLocation)
                return
            }
            try Data(answers.utf8).write(to: file, options: .atomic)
            Issue.record(
                Comment(
                    rawValue: "Re-recorded \(name) with what the session answered (- was, + now); review "
                        + "the change, commit it, and unset \(recordingVariable):\n\n\(difference)"),
                sourceLocation: sourceLocation)
        } else if let difference {
            Issue.record(
                Comment(
                    rawValue: "The session does not answer as \(name) says (- transcript, + session; lines "
                        + "of the file):\n\n\(difference)\n\nTo write the answers into the transcript: "
                        + "\(recordingVariable)=1 swift test --filter TranscriptTests"),
                sourceLocation: sourceLocation)
        }
    }
}

extension SessionTranscript.Output {
    /// The line as a transcript writes it: an error after `! `.
    var transcriptLine: String {
        switch self {
        case .out(let text): text
        case .error(let text): "! " + text
        }
    }
}
