/// What a line reader got from the user.
public enum LineInput: Equatable, Sendable {
    /// A line, without its line ending, as bytes: it may not be valid UTF-8.
    case line([UInt8])
    /// A line longer than ``LineLimits/maxBytes``; its bytes were read and dropped.
    case tooLong(byteCount: Int)
    /// The user pressed Ctrl-C: the line was abandoned.
    case interrupted
    /// The input ended (Ctrl-D at a terminal, end of file otherwise).
    case end
}

/// How long a line may be.
public enum LineLimits {
    /// The longest line accepted, in bytes.
    ///
    /// Longer lines are reported, not buffered.
    public static let maxBytes = 64 * 1024
}

/// Where the REPL gets its lines: readline at a terminal, a script otherwise, or a list of lines
/// in a spec.
public protocol LineReader: AnyObject {
    /// Reads the next line, showing `prompt` first when the reader is interactive.
    func read(prompt: String) async -> LineInput
    /// Whether the reader talks to a person at a terminal (prompts, history, Ctrl-C).
    var isInteractive: Bool { get }
    /// Reads the answer to a question, such as `Delete Bob? [y/N] `; unlike a command, an
    /// answer is not kept in the history.
    func answer(prompt: String) async -> LineInput
    /// Shows `lines` above the prompt while a line is being read, keeping what is being typed;
    /// returns false when the reader cannot, and the caller writes them itself. Called from another
    /// task while ``read(prompt:)`` runs, so it must be safe to call from any thread.
    func showAbovePrompt(_ lines: [String]) -> Bool
}

extension LineReader {
    /// Reads the answer as a line; readers that keep no history need nothing more.
    public func answer(prompt: String) async -> LineInput {
        await read(prompt: prompt)
    }

    /// Cannot: readers with no prompt on screen leave the lines to their caller.
    public func showAbovePrompt(_ lines: [String]) -> Bool {
        false
    }
}
