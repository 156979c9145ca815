import Glibc
import PlayerFormSystem

/// The program's messages on standard error.
///
/// A message that cannot be written (standard error closed, on a full disk, or a pipe whose
/// reader has gone while `SIGPIPE` is ignored) is dropped: there is nowhere left to say so, and the
/// exit status still tells what happened. Foundation's `FileHandle.write(_:)` would stop the
/// program there instead.
enum StandardError {
    /// Writes `text` as it is.
    static func write(_ text: String) {
        Descriptor.writeAll(Array(text.utf8), to: STDERR_FILENO)
    }
}
