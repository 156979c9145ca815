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
            playerform [--config <file>] [--no-color] [--bail] [--history-file <file>]
            playerform <subcommand>
            """,
        discussion: """
            With a terminal on standard input, starts an interactive session (type help). \
            Otherwise reads commands from standard input, one a line, and exits with status 0 \
            when every command succeeded, 1 when one failed.
            """,
        version: "0.1.0",
        subcommands: [Validate.self]
    )

    @Option(name: .long, help: ArgumentHelp("A JSON rules file, such as {\"max\": 500}.", valueName: "file"))
    var config: String?

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

    private var rules = PlayerRules.defaults

    private enum CodingKeys: String, CodingKey {
        case config, noColor, bail, historyFile, uploadDelayMilliseconds
    }

    mutating func validate() throws {
        if let config {
            do {
                rules = try PlayerRules(configurationFile: config)
            } catch {
                throw ValidationError(error.description)
            }
        }
        if let delay = uploadDelayMilliseconds, delay < 0 {
            throw ValidationError("--upload-delay-milliseconds must be 0 or more.")
        }
    }

    func run() async throws {
        let options = PlayerFormREPL.Options(
            rules: rules, noColor: noColor, bail: bail, historyFile: historyFile,
            uploadDelay: uploadDelayMilliseconds.map { .milliseconds($0) })
        let status = await PlayerFormREPL.run(options, environment: ProcessInfo.processInfo.environment)
        if status != 0 { throw ExitCode(status) }
    }
}
