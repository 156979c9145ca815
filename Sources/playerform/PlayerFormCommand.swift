import ArgumentParser
import Foundation
import PlayerForm
import PlayerFormTerminal

/// `playerform`: the player form at a terminal, and batch tools that share its rules.
@main
struct PlayerFormCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playerform",
        abstract: "A player form: edit a name and points, validate them, upload them.",
        usage: """
            playerform [--config <file>] [--store <file>] [--no-color] [--bail] [--history-file <file>]
            playerform <subcommand>
            """,
        discussion: """
            With a terminal on standard input, starts an interactive session (type help). \
            Otherwise reads commands from standard input, one a line, and exits with status 0 \
            when every command succeeded, 1 when one failed. Uploads are kept in a score file \
            (--store), which the roster commands (players, add, select, delete) show and edit.
            """,
        version: "0.1.0",
        subcommands: [Validate.self]
    )

    @OptionGroup var rulesFile: RulesFileOption

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The score file (default: $XDG_DATA_HOME/playerform/scores.jsonl, else ~/.local/share/playerform/scores.jsonl).",
            valueName: "file"))
    var store: String?

    @Flag(name: .long, help: "Never colour the output (NO_COLOR=1 does the same).")
    var noColor = false

    @Flag(name: .long, help: "When reading a script, stop at the first failed command.")
    var bail = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where to keep the history (default: $XDG_STATE_HOME/playerform/history; /dev/null turns it off).",
            valueName: "file"))
    var historyFile: String?

    @Option(name: .long, help: .hidden)
    var uploadDelayMilliseconds: Int?

    /// Stamps every upload with this time (seconds since 1970), so that recorded sessions show
    /// the same `uploadedAt` on every run.
    @Option(name: .long, help: .hidden)
    var uploadTime: Double?

    mutating func validate() throws {
        if let delay = uploadDelayMilliseconds, delay < 0 {
            throw ValidationError("--upload-delay-milliseconds must be 0 or more.")
        }
        if store?.isEmpty == true {
            throw ValidationError("--store needs the path of a score file, such as --store scores.jsonl.")
        }
        if let uploadTime, !uploadTime.isFinite {
            throw ValidationError("--upload-time must be a number of seconds since 1970.")
        }
    }

    func run() async throws {
        let rules = try rulesFile.rules()
        // Resolved here, not in validate(), which also runs before subcommands that keep no scores.
        let environment = ProcessInfo.processInfo.environment
        let storePath: String
        do {
            storePath = try PlayerFormREPL.storePath(option: store, environment: environment)
        } catch {
            throw ValidationError(
                "Cannot tell where to keep scores: neither XDG_DATA_HOME nor HOME is an absolute path. "
                    + "Pass --store <file>, such as --store ~/scores.jsonl.")
        }
        let options = PlayerFormREPL.Options(
            rules: rules, noColor: noColor, bail: bail, historyFile: historyFile,
            uploadDelay: uploadDelayMilliseconds.map { .milliseconds($0) }, storePath: storePath,
            uploadTime: uploadTime.map { Date(timeIntervalSince1970: $0) })
        let status = await PlayerFormREPL.run(options, environment: environment)
        if status != 0 { throw ExitCode(status) }
    }
}
