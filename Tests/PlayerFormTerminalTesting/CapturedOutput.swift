import PlayerFormTerminal
import Synchronization

/// A terminal output that keeps every line, results and errors in the order they were written.
public final class CapturedOutput: TerminalOutput {
    /// One line written.
    public enum Line: Equatable, Sendable {
        /// A result, on standard output.
        case out(String)
        /// An error, on standard error.
        case error(String)
    }

    private let kept = Mutex<(lines: [Line], part: String)>(([], ""))

    /// Creates an empty output.
    public init() {}

    /// Keeps one line of results.
    public func write(_ line: String) {
        kept.withLock { kept in
            kept.lines.append(.out(kept.part + line))
            kept.part = ""
        }
    }

    /// Keeps part of a line of results; the next ``write(_:)`` ends the line.
    public func writePart(_ text: String) {
        kept.withLock { $0.part += text }
    }

    /// Keeps one line about an error.
    public func writeError(_ line: String) {
        kept.withLock { $0.lines.append(.error(line)) }
    }

    /// Does nothing: what is kept is visible at once.
    public func flush() {}

    /// Every line, in order.
    public var lines: [Line] { kept.withLock { $0.lines } }

    /// The results only.
    public var results: [String] {
        lines.compactMap { if case .out(let text) = $0 { text } else { nil } }
    }

    /// The errors only.
    public var errors: [String] {
        lines.compactMap { if case .error(let text) = $0 { text } else { nil } }
    }
}
