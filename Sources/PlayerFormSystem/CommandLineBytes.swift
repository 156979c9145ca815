import Glibc

/// The bytes of the program's command-line arguments, for paths that are not UTF-8.
///
/// Swift reads each argument as UTF-8 and replaces the bytes that are not with U+FFFD, so a file
/// named `bad\xFF.jsonl` reaches the argument parser as `bad\u{FFFD}.jsonl`, a name no file has.
/// A path is opened by the bytes it was typed with: those of the argument it was read from.
public enum CommandLineBytes {
    /// The bytes of `value`, a whole argument or the value of an option written `--name=value`, as
    /// the program's command line gives them; `value`'s UTF-8 when it was not replaced.
    public static func bytes(of value: String) -> [UInt8] {
        guard value.unicodeScalars.contains("\u{FFFD}") else { return Array(value.utf8) }
        let arguments = (0..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
        }
        return bytes(of: value, in: arguments)
    }

    /// The bytes of `value` among `arguments`: the first argument, or the part after the first `=`
    /// of one, that reads as `value` once its bytes that are not UTF-8 are replaced; `value`'s
    /// UTF-8 when none does.
    public static func bytes(of value: String, in arguments: [[UInt8]]) -> [UInt8] {
        for argument in arguments {
            if String(decoding: argument, as: UTF8.self) == value { return argument }
            if let equals = argument.firstIndex(of: UInt8(ascii: "=")),
                String(decoding: argument[(equals + 1)...], as: UTF8.self) == value
            {
                return Array(argument[(equals + 1)...])
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
