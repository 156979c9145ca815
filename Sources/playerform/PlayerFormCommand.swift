import ArgumentParser
import Foundation
import PlayerForm
import PlayerFormTerminal
import PlayerFormText

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
            when every command succeeded, 1 when one failed. Uploads are kept in a score database \
            (--store), which the roster commands (players, add, select, delete) show and edit.

            A --store that cannot be used ends the program at once: 65 not a score database (a \
            JSON Lines score file of an earlier version is imported with playerform import), 66 \
            not a regular file or cannot be opened, 73 its folder cannot be made, 74 an I/O \
            error or a full disk, 75 another process kept it locked for 5 seconds.
            """,
        version: "0.1.0",
        subcommands: [Validate.self, Import.self, Export.self]
    )

    @OptionGroup var rulesFile: RulesFileOption

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The score database (default: $XDG_DATA_HOME/playerform/scores.sqlite, else ~/.local/share/playerform/scores.sqlite).",
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

    /// How long to wait for a score database another process keeps locked.
    @Option(name: .long, help: .hidden)
    var busyTimeoutMilliseconds: Int?

    /// Stamps every upload with this time (seconds since 1970), so that recorded sessions show
    /// the same `uploadedAt` on every run.
    @Option(name: .long, help: .hidden)
    var uploadTime: Double?

    mutating func validate() throws {
        let delays = PlayerFormREPL.Options.uploadDelays
        if let delay = uploadDelayMilliseconds, !delays.contains(delay) {
            throw ValidationError(
                "--upload-delay-milliseconds must be from \(delays.lowerBound) to \(delays.upperBound), not \(delay)."
            )
        }
        if store?.isEmpty == true {
            throw ValidationError(
                "--store needs the path of a score database, such as --store scores.sqlite.")
        }
        if let wait = busyTimeoutMilliseconds, wait < 0 {
            throw ValidationError("--busy-timeout-milliseconds must be 0 or more.")
        }
        let times = PlayerFormREPL.Options.uploadTimes
        if let uploadTime, !times.contains(uploadTime) {
            throw ValidationError(
                "--upload-time must be a number of seconds since 1970 from \(PointsFormat.text(times.lowerBound))"
                    + " (the year 1) to \(PointsFormat.text(times.upperBound)) (the end of the year 9999),"
                    + " not \(uploadTime).")
        }
    }

    func run() async throws {
        let rules = try rulesFile.rules()
        // Resolved here, not in validate(), which also runs before subcommands that keep no scores.
        let environment = ProcessInfo.processInfo.environment
        let place = try StorePlace(option: store, environment: environment)
        let options = PlayerFormREPL.Options(
            rules: rules, noColor: noColor, bail: bail, historyFile: historyFile,
            uploadDelay: uploadDelayMilliseconds.map { .milliseconds($0) }, storePath: place.path,
            legacyStorePath: place.legacyPath,
            busyTimeout: busyTimeoutMilliseconds.map { .milliseconds($0) } ?? .seconds(5),
            uploadTime: uploadTime.map { Date(timeIntervalSince1970: $0) })
        let status = await PlayerFormREPL.run(options, environment: environment)
        if status != 0 { throw ExitCode(status) }
    }
}
