import ArgumentParser
import PlayerFormTerminal

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
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[0] = errorLine(lines[0], message: root.message(for: error))
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
        if message.hasPrefix(prefix), message.hasSuffix("'"), let first = arguments.first,
            message == prefix + first + "'", !first.hasPrefix("-")
        {
            let names = configuration.subcommands.map { $0._commandName }
            if let meant = CommandCatalog.closest(to: first, among: names) {
                return "error: Unknown subcommand '\(first)'. Did you mean '\(meant)'?"
            }
        }
        return line.hasPrefix("Error: ") ? "error: " + line.dropFirst("Error: ".count) : line
    }
}
