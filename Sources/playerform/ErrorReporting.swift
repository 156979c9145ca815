import ArgumentParser
import Foundation
import PlayerFormTerminal
import PlayerFormText

#if canImport(Glibc)
    import Glibc
#endif

extension PlayerFormCommand {
    /// Ends the program for `error`, thrown while parsing or running under `root`: usage errors in
    /// the program's one style, `error: MESSAGE` (as the REPL and `validate` do), suggesting the
    /// subcommand a mistyped one most likely meant (`playerform vaildate`: did you mean
    /// validate?), exit 64; help and the version as ArgumentParser gives them; a thrown exit code
    /// ends the program with its status at once.
    static func exit(reporting error: any Error, root: any ParsableCommand.Type) -> Never {
        // A session or a validation that ends with a status says nothing more: exit at once,
        // without asking the parser, which would first build its whole tree of options.
        if let status = error as? ExitCode { Glibc.exit(status.rawValue) }
        let code = root.exitCode(for: error)
        let text = root.fullMessage(for: error)
        // Help, the version and completion scripts, and exits with a status and no message.
        guard code != .success, !text.isEmpty else { root.exit(withError: error) }
        // The parser's messages hold words of the command line as typed: each line is shown as
        // the program's own messages are, anything a terminal would act on escaped.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[0] = errorLine(lines[0], message: root.message(for: error))
        lines = lines.map(TerminalText.message)
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(2, raw.baseAddress! + offset, raw.count - offset)
                if written < 0, errno == EINTR { continue }
                if written <= 0 { break }
                offset += written
            }
        }
        Glibc.exit(code.rawValue)
    }

    /// The first line of a usage error in the program's style.
    static func errorLine(_ line: String, message: String) -> String {
        let prefix = "Unexpected argument '"
        let arguments = CommandLine.arguments.dropFirst()
        if let hint = replCommandHint(Array(arguments)) { return hint }
        if message.hasPrefix(prefix), message.hasSuffix("'"), let first = arguments.first,
            message == prefix + first + "'", !first.hasPrefix("-")
        {
            let names = configuration.subcommands.map { $0._commandName }
            if let meant = CommandCatalog.closest(to: first, among: names) {
                return "error: Unknown subcommand '\(TerminalText.escaped(first))'. Did you mean '\(meant)'?"
            }
        }
        return line.hasPrefix("Error: ") ? "error: " + line.dropFirst("Error: ".count) : line
    }

    /// The options of the main command that take a value, so that the value is not read as a
    /// word of its own.
    private static let optionsWithValues: Set<String> = [
        "--config", "--store", "--history-file", "-o", "--output", "-c", "--command", "-f", "--file",
        "--upload-delay-milliseconds", "--busy-timeout-milliseconds", "--upload-time",
    ]

    /// For `playerform --store db players --csv`, sqlite3's habit of a query after the database:
    /// the first word that is not an option, when it is a command of the REPL, and the command
    /// line that runs it with `-c`; nil otherwise, or when an argument holds a character not shown
    /// as it is (a control or format character, such as an escape or a right-to-left override).
    static func replCommandHint(_ arguments: [String]) -> String? {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { return nil }
            if optionsWithValues.contains(argument) {
                index += 2
            } else if argument.hasPrefix("-") {
                index += 1
            } else {
                break
            }
        }
        guard index < arguments.count, CommandCatalog.entry(forWord: arguments[index].lowercased()) != nil,
            arguments.allSatisfy({ TerminalText.message($0) == $0 })
        else { return nil }
        // As the REPL reads it back: a word with a space or a quote quoted as the REPL shows
        // names, which it reads back the same.
        let command = arguments[index...].map { word in
            word.contains(where: { $0 == " " || $0 == "\"" || $0 == "\\" || $0 == "\t" })
                ? TerminalText.quoted(word) : word
        }.joined(separator: " ")
        let before = arguments[..<index].map(shellQuoted)
        let suggested = (["playerform"] + before + ["-c", shellQuoted(command)]).joined(separator: " ")
        return "error: \(shellQuoted(arguments[index])) is a command of the REPL, not of the command line; "
            + "give it to -c: \(suggested)"
    }

    /// `text` as a POSIX shell reads it back: as it is when it holds only characters no shell
    /// treats specially, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                $0.isASCII
                    && (CharacterSet.alphanumerics.contains($0) || "_./:=@%+,-".unicodeScalars.contains($0))
            }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
