import Foundation
import Glibc

/// Asks for a password at the terminal, as psql does: the prompt on the terminal, the answer read
/// from standard input with echo off, never in a script.
public enum PasswordPrompt {
    /// A prompt when standard input is a terminal; nil in a script, where nobody can answer.
    public static func atTerminal() -> (@Sendable (String) -> String?)? {
        guard isatty(0) == 1 else { return nil }
        return { @Sendable prompt in read(prompt: prompt) }
    }

    /// Shows `prompt` and reads a line typed without echo, editing with Backspace and Ctrl-U.
    ///
    /// Returns nil when Ctrl-C is pressed, Ctrl-D on an empty line, or input ends. The terminal
    /// is put back as it was in every case.
    static func read(prompt: String) -> String? {
        var saved = termios()
        guard tcgetattr(0, &saved) == 0 else { return nil }
        var quiet = saved
        // Byte by byte, no echo, and Ctrl-C read as a byte, so that the terminal is always put back.
        quiet.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG)
        withUnsafeMutableBytes(of: &quiet.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        let terminal = Glibc.open("/dev/tty", O_WRONLY | O_CLOEXEC)
        let out = terminal >= 0 ? terminal : 2
        defer { if terminal >= 0 { close(terminal) } }
        func say(_ text: String) {
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { Glibc.write(out, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                bytes = bytes.dropFirst(written)
            }
        }
        say(prompt)
        guard tcsetattr(0, TCSAFLUSH, &quiet) == 0 else { return nil }
        defer {
            tcsetattr(0, TCSAFLUSH, &saved)
            say("\n")
        }
        var typed: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = Glibc.read(0, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return nil }
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                return String(decoding: typed, as: UTF8.self)
            case 0x03:
                return nil
            case 0x04:
                if typed.isEmpty { return nil }
            case 0x7F, 0x08:
                // One character: its continuation bytes, then its first byte.
                while let last = typed.last, last & 0xC0 == 0x80 { typed.removeLast() }
                if !typed.isEmpty { typed.removeLast() }
            case 0x15:
                typed.removeAll()
            default:
                typed.append(byte)
            }
        }
    }
}
