import Glibc
import Synchronization

/// The bytes of the program's command-line arguments, for paths that are not UTF-8.
///
/// Swift reads each argument as UTF-8 and replaces the bytes that are not with U+FFFD, so a file
/// named `bad\xFF.jsonl` reaches the argument parser as `bad\u{FFFD}.jsonl`, a name no file has.
/// A path is opened by the bytes it was typed with: those of the argument it was read from.
public enum CommandLineBytes {
    /// The bytes of `value`, a whole argument or the value of an option written `--name=value`, as
    /// the program's command line gives them; `value`'s UTF-8 when it was not replaced.
    ///
    /// Each argument is handed out once: `bad\xFF.jsonl bad\xFE.jsonl` read the same, and the
    /// first call for that text gets the first, the second call the second.
    public static func bytes(of value: String) -> [UInt8] {
        guard value.unicodeScalars.contains("\u{FFFD}") else { return Array(value.utf8) }
        let arguments = (0..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
        }
        return handedOut.withLock { bytes(of: value, in: arguments, skipping: &$0) }
    }

    /// The arguments whose bytes were handed out already.
    private static let handedOut = Mutex<Set<Int>>([])

    /// The bytes of `value` among `arguments`: the first argument not in `taken`, or the part after
    /// the first `=` of one, that reads as `value` once its bytes that are not UTF-8 are replaced,
    /// which is then added to `taken`; `value`'s UTF-8 when none does.
    public static func bytes(of value: String, in arguments: [[UInt8]], skipping taken: inout Set<Int>)
        -> [UInt8]
    {
        for (index, argument) in arguments.enumerated() where !taken.contains(index) {
            var found: [UInt8]?
            if String(decoding: argument, as: UTF8.self) == value {
                found = argument
            } else if let equals = argument.firstIndex(of: UInt8(ascii: "=")),
                String(decoding: argument[(equals + 1)...], as: UTF8.self) == value
            {
                found = Array(argument[(equals + 1)...])
            }
            if let found {
                taken.insert(index)
                return found
            }
        }
        return Array(value.utf8)
    }

    /// Opens the file whose path is `path`'s bytes (see ``bytes(of:)``), as `open(2)` does:
    /// the descriptor, or -1 with `errno` set.
    public static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        (bytes(of: path) + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, flags, mode) }
        }
    }
}
