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
/// - `exit: N`: the exit status expected (0 when absent).
/// - anything else: a line the program writes to standard output.
///
/// Sessions are replayed with an empty score store whose uploads are all stamped
/// ``uploadTime``, so that `players --json` prints the same `uploadedAt` on every run.
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
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        for line in lines {
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                input.append(line)
                if line.hasPrefix("# options:") { bail = line.contains("--bail") }
            } else if line == ">" {
                input.append("")
            } else if line.hasPrefix("> ") {
                input.append(String(line.dropFirst(2)))
            } else if line.hasPrefix("! ") {
                output.append(.error(String(line.dropFirst(2))))
            } else if line.hasPrefix("exit: "), let status = Int32(line.dropFirst(6)) {
                exitStatus = status
            } else {
                output.append(.out(line))
            }
        }
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
