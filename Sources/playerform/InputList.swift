import Glibc
import PlayerFormSystem
import PlayerFormText

/// The list of inputs `validate --files0-from` reads: paths each ended by a NUL byte, as
/// `find -print0` and `git ls-files -z` write them.
enum InputList {
    /// Why the list cannot be used: what to say, and the exit status.
    struct Refusal: Error {
        let message: String
        let status: ValidationExit
    }

    /// The inputs listed in the file at `path` (`-`: standard input).
    ///
    /// The last path may lack its NUL. A path of `-` names standard input, except in a list read
    /// from standard input, which cannot also hold records: that is refused with 64. A list that
    /// cannot be read is refused with 66.
    static func read(_ path: String, standardInput: Int32 = 0) -> Result<[ValidationInput], Refusal> {
        let fromStandardInput = path == "-"
        // Opened so that a FIFO waits for its writer: the list is read whole, before any input.
        let descriptor = fromStandardInput ? standardInput : CommandLineBytes.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return .failure(
                Refusal(
                    message: "cannot open the list \(TerminalText.escaped(path)): \(SystemError.text(errno))",
                    status: .cannotOpen))
        }
        defer { if !fromStandardInput { close(descriptor) } }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(
                    Refusal(
                        message:
                            "cannot read the list \(TerminalText.escaped(path)): \(SystemError.text(errno))",
                        status: .cannotOpen))
            }
            bytes.append(contentsOf: buffer[..<count])
        }
        var paths = bytes.split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
        if paths.last?.isEmpty == true { paths.removeLast() }
        if fromStandardInput, paths.contains([UInt8(ascii: "-")]) {
            return .failure(
                Refusal(
                    message: "the list on standard input names - (standard input), which holds the list; "
                        + "name the file instead",
                    status: .usage))
        }
        return .success(paths.map { $0 == [UInt8(ascii: "-")] ? .standardInput : .listed($0) })
    }
}
