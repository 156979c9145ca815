import ArgumentParser
import Foundation
import Glibc
import PlayerFormRules
import PlayerFormSQLite
import PlayerFormSystem
import PlayerFormTerminal
import PlayerFormText

/// `playerform`: the player form at a terminal, and batch tools that share its rules.
struct PlayerFormCommand: AsyncParsableCommand {
    /// What `--version`, `-V` and the REPL's `version` print, with the libraries in use.
    static let versionLine = ProgramVersion.described(sqlite: SQLiteScoreStore.libraryVersion)

    static let configuration = CommandConfiguration(
        commandName: "playerform",
        abstract: "A player form: edit a name and points, validate them, upload them.",
        usage: """
            playerform [--config <file>] [--store <file>] [--no-color] [--bail] [--history-file <file>] [--quiet] [-o <file>]
            playerform [<options>] [--echo] (-c <command> | -f <file>)...
            playerform <subcommand>
            """,
        discussion: """
            With a terminal on standard input, starts an interactive session (type help). \
            Otherwise reads commands from standard input, one a line, and exits with status 0 \
            when every command succeeded, 1 when one failed. With -c or -f, runs those commands \
            and files in the order given, the same way, and exits. Uploads are kept in a score database \
            (--store), which the roster commands (players, add, select, delete) show and edit.

            A --store that cannot be used ends the program at once: 65 not a score database (a \
            JSON Lines score file of an earlier version is imported with playerform import), 66 \
            not a regular file or cannot be opened, 73 its folder cannot be made, 74 an I/O \
            error or a full disk, 75 another process kept it locked for 5 seconds. A league on \
            PostgreSQL (--store postgres://...) that cannot be reached ends it with 69, a refused \
            user, or one without the privileges a scorekeeper needs (the message gives the GRANTs), \
            with 77, a statement the server stopped with 75, another error of the server with 76, \
            an address that cannot be read with 64. A --store shaped like the address of \
            a server in another scheme (such as postgress:// or pg://) is refused with 64 and \
            nothing is created.
            """,
        version: versionLine,
        subcommands: [Validate.self, Import.self, Export.self, Check.self]
    )

    @OptionGroup var rulesFile: RulesFileOption

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The score database, or a shared league: postgres://USER@HOST[:PORT]/DB or libpq's keywords, such as 'service=league' (default: $PLAYERFORM_STORE, else $XDG_DATA_HOME/playerform/scores.sqlite, else ~/.local/share/playerform/scores.sqlite).",
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

    @Option(
        name: [.customShort("c"), .customLong("command")],
        help: ArgumentHelp("Run COMMAND as a script line, then exit (repeatable).", valueName: "command"))
    var commands: [String] = []

    @Option(
        name: [.customShort("f"), .customLong("file")],
        help: ArgumentHelp(
            "Run the commands in FILE (- for standard input), then exit (repeatable).", valueName: "file"))
    var files: [String] = []

    @Flag(name: .long, help: "In a script, print each line before what it prints.")
    var echo = false

    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp(
            "Write the results to FILE, replacing it (- for standard output); prompts and errors stay where they are.",
            valueName: "file"))
    var output: String?

    @Flag(name: [.customShort("q"), .long], help: "Start an interactive session without the greeting line.")
    var quiet = false

    /// The session's output mode at the start, as sqlite3's `-csv` and `-json` and psql's `-A`.
    @Flag var format: StartMode?

    /// psql's `-t`: the rows alone from the start.
    @Flag(
        name: [.customShort("t"), .customLong("tuples-only")],
        help: "Write players' rows without the title and the header row from the start, as tuples on does.")
    var tuplesOnly = false

    @Flag(
        name: [.customShort("X"), .customLong("no-rc")],
        help: "Do not run the start-up file (~/.config/playerform/playerformrc, else ~/.playerformrc).")
    var noStartupFile = false

    /// psql's and sqlite3's habit; `--version` is the argument parser's own.
    @Flag(name: .customShort("V"), help: "Print the version and the libraries in use, as --version does.")
    var printVersion = false

    @Flag(
        name: .long, help: "At a terminal, write long output directly instead of through $PAGER (less -FRX).")
    var noPager = false

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
        if output?.isEmpty == true {
            throw ValidationError(
                "--output needs the path of a file, such as -o results.txt, or - for standard output.")
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

    /// The values of the form session's options.
    var session: SessionOptions {
        SessionOptions(
            configPath: rulesFile.path, store: store, noColor: noColor, bail: bail, historyFile: historyFile,
            commands: commands, files: files, echo: echo, output: output, quiet: quiet, noPager: noPager,
            uploadDelayMilliseconds: uploadDelayMilliseconds,
            busyTimeoutMilliseconds: busyTimeoutMilliseconds, uploadTime: uploadTime,
            noStartupFile: noStartupFile, format: format, tuplesOnly: tuplesOnly)
    }

    func run() async throws {
        if printVersion {
            print(Self.versionLine)
            return
        }
        try await Self.runSession(session)
    }

    /// Runs the form session `arguments` ask for; throws the exit status when it is not 0.
    static func runSession(_ arguments: SessionOptions) async throws {
        let rules = try RulesFileOption.rules(path: arguments.configPath)
        // Resolved here, not in validate(), which also runs before subcommands that keep no scores.
        let environment = ProcessEnvironment.current()
        let place = try StorePlace(option: arguments.store, environment: environment)
        var options = PlayerFormREPL.Options(
            rules: rules, noColor: arguments.noColor, bail: arguments.bail,
            historyFile: arguments.historyFile,
            uploadDelay: arguments.uploadDelayMilliseconds.map { .milliseconds($0) }, storePath: place.path,
            legacyStorePath: place.legacyPath,
            busyTimeout: arguments.busyTimeoutMilliseconds.map { .milliseconds($0) } ?? .seconds(5),
            uploadTime: arguments.uploadTime.map { Date(timeIntervalSince1970: $0) })
        options.scripts = Self.scripts(
            commands: arguments.commands, files: arguments.files,
            order: Self.scriptOrder(Array(CommandLine.arguments.dropFirst())))
        options.echo = arguments.echo
        options.outputPath = arguments.output == "-" ? nil : arguments.output
        options.noPager = arguments.noPager
        options.greeting =
            arguments.quiet
            ? nil
            : "playerform \(ProgramVersion.text): type help for the commands, quit or Ctrl-D to leave."
        options.rulesOrigin = arguments.configPath ?? "defaults"
        options.startupFile = arguments.noStartupFile ? nil : StartupFile.path(environment: environment)
        options.mode = arguments.format?.mode ?? .table
        options.headers = !arguments.tuplesOnly
        let status = await PlayerFormREPL.run(options, environment: environment)
        if status != 0 { throw ExitCode(status) }
    }

    /// The order in which `-c` and `-f` were given in `arguments`: `c` or `f` for each, as the
    /// argument parser reads them (an option's value is the next argument, or follows `=`).
    static func scriptOrder(_ arguments: [String]) -> [Character] {
        var order: [Character] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { break }
            switch argument {
            case "-c", "--command": order.append("c"); index += 1
            case "-f", "--file": order.append("f"); index += 1
            default:
                if argument.hasPrefix("--command=") { order.append("c") }
                if argument.hasPrefix("--file=") { order.append("f") }
            }
            index += 1
        }
        return order
    }

    /// The scripts of `-c` and `-f`, in the order given: consecutive `-c` commands form one
    /// script.
    ///
    /// When `order` does not account for every value, all `-c` commands run first.
    static func scripts(commands: [String], files: [String], order: [Character]) -> [REPLSession.Script] {
        func file(_ path: String) -> REPLSession.Script { path == "-" ? .standardInput : .file(path) }
        guard order.count(where: { $0 == "c" }) == commands.count,
            order.count(where: { $0 == "f" }) == files.count
        else {
            return (commands.isEmpty ? [] : [.commands(commands)]) + files.map(file)
        }
        var scripts: [REPLSession.Script] = []
        var pending: [String] = []
        var nextCommand = commands.makeIterator()
        var nextFile = files.makeIterator()
        for kind in order {
            if kind == "c", let command = nextCommand.next() {
                pending.append(command)
            } else if let path = nextFile.next() {
                if !pending.isEmpty { scripts.append(.commands(pending)) }
                pending = []
                scripts.append(file(path))
            }
        }
        if !pending.isEmpty { scripts.append(.commands(pending)) }
        return scripts
    }
}

/// The values of the form session's options, as a plain value a session starts from: the parser's
/// (``PlayerFormCommand/session``), or the defaults of an empty command line, which starts a
/// session without the parser (see ``PlayerFormCommand/main()``).
struct SessionOptions: Equatable {
    var configPath: String? = nil
    var store: String? = nil
    var noColor = false
    var bail = false
    var historyFile: String? = nil
    var commands: [String] = []
    var files: [String] = []
    var echo = false
    var output: String? = nil
    var quiet = false
    var noPager = false
    var uploadDelayMilliseconds: Int? = nil
    var busyTimeoutMilliseconds: Int? = nil
    var uploadTime: Double? = nil
    var noStartupFile = false
    var format: StartMode? = nil
    var tuplesOnly = false
}

/// `--csv`, `--json` or `-A`: the session's output mode at the start.
enum StartMode: String, EnumerableFlag {
    case csv, json, noAlign

    static func name(for value: StartMode) -> NameSpecification {
        value == .noAlign ? [.customShort("A"), .customLong("no-align")] : .long
    }

    static func help(for value: StartMode) -> ArgumentHelp? {
        switch value {
        case .csv, .json:
            "Write players' rows (and show and rules) as CSV or as JSON from the start, as the mode command does."
        case .noAlign: "Write players' rows unaligned, fields between |, from the start, as psql's -A does."
        }
    }

    var mode: OutputMode {
        switch self {
        case .csv: .csv
        case .json: .json
        case .noAlign: .unaligned
        }
    }
}

/// The start-up file, psql's `~/.psqlrc` and sqlite3's `~/.sqliterc`: commands run before an
/// interactive session or a script, unless `-X` is given.
enum StartupFile {
    /// The start-up file to run, or nil when there is none.
    ///
    /// The first of `$XDG_CONFIG_HOME/playerform/playerformrc` (`$XDG_CONFIG_HOME` being
    /// `~/.config` when unset, as the XDG base directories have it) and `~/.playerformrc` that
    /// exists. Relative variables are ignored, as the XDG rules say.
    static func path(environment: [String: String]) -> String? {
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        let config =
            environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? home.map { $0 + "/.config" }
        let candidates = [config.map { $0 + "/playerform/playerformrc" }, home.map { $0 + "/.playerformrc" }]
        return candidates.compactMap { $0 }.first { access($0, F_OK) == 0 }
    }
}
