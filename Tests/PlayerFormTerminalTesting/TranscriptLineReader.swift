import PlayerFormTerminal
import Synchronization

/// A line reader that notes, each time a line is read, how many lines the session had written,
/// so that a replayed session's output can be put back under the line of the script that caused
/// it (``SessionTranscript/answered(_:output:outputBeforeLine:exitStatus:)``).
public final class TranscriptLineReader: LineReader {
    private let base: any LineReader
    private let output: CapturedOutput
    private let marks = Mutex<[Int]>([])

    /// Reads from `base`, counting the lines written to `output`.
    public init(_ base: any LineReader, output: CapturedOutput) {
        self.base = base
        self.output = output
    }

    /// For each line read so far, in order (answers to questions included), how many lines had
    /// been written before it was read.
    public var outputBeforeLine: [Int] { marks.withLock { $0 } }

    /// Whether the reader it wraps is interactive.
    public var isInteractive: Bool { base.isInteractive }

    /// Notes how many lines were written so far, then reads a line of the script.
    public func read(prompt: String) async -> LineInput {
        mark()
        return await base.read(prompt: prompt)
    }

    /// Notes how many lines were written so far, then reads the answer to a question.
    public func answer(prompt: String) async -> LineInput {
        mark()
        return await base.answer(prompt: prompt)
    }

    /// Passes `lines` to the reader it wraps.
    public func showAbovePrompt(_ lines: [String]) -> Bool {
        base.showAbovePrompt(lines)
    }

    private func mark() {
        let written = output.lines.count
        marks.withLock { $0.append(written) }
    }
}
