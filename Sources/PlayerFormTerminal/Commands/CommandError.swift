/// Why a line could not be read as a command.
///
/// The message says what was wrong and what is accepted; text from the user in it is already
/// escaped for a terminal.
public struct CommandError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The message for the user.
    public let message: String

    /// Creates an error with a message.
    public init(_ message: String) {
        self.message = message
    }

    /// The message: ``message``.
    public var description: String { message }
}
