@testable import PlayerFormTerminal

/// One command typed at the REPL as the parser read it: the entry's name and its arguments, in one
/// value that specs compare.
///
/// The session runs a command by its entry in `CommandCatalog`; this enum is the specs' way of
/// writing down what a line reads as.
enum Command: Equatable, Sendable {
    /// `name TEXT` sets the name; `name` alone (nil) shows it.
    case name(String?)
    /// `up [N]` presses the stepper's plus button N times.
    case up(Int)
    /// `down [N]` presses the stepper's minus button N times.
    case down(Int)
    /// `points N` sets the stepper's value; `points` alone (nil) shows the points.
    case points(Double?)
    /// `step N` changes how far one press moves the points.
    case step(Double)
    /// `min N` changes the minimum.
    case min(Double)
    /// `max N` changes the maximum.
    case max(Double)
    /// `upload` uploads the name and points.
    case upload
    /// `reset` returns the form to its configured values.
    case reset
    /// `show` draws the whole form; `show --json` prints it as one JSON object.
    case show(json: Bool)
    /// `players` draws a page of the roster; `players N` (or `players --page N`) page N,
    /// `players --all` every row, `players --json` the whole roster as one JSON array, `players --csv`
    /// as CSV.
    case players(PlayersRequest)
    /// `add NAME POINTS` adds a player to the roster (or new points for a player in it).
    case add(name: String, points: Double)
    /// `select N` selects or deselects the player in row N (counting from 1).
    case select(row: Int)
    /// `select NAME` selects or deselects the player named NAME.
    case selectNamed(String)
    /// `delete N [--yes]` deletes the player in row N (counting from 1); `--yes` skips the
    /// question asked at a terminal, and is required in a script.
    case delete(row: Int, confirmed: Bool)
    /// `delete NAME [--yes]` deletes the player named NAME.
    case deleteNamed(String, confirmed: Bool)
    /// `find TEXT` lists the players whose names start with TEXT.
    case find(String)
    /// `watch [players] [SECONDS [COUNT]]` (`\watch`) draws the page as it changes.
    case watch(WatchRequest)
    /// `expanded on|off` (`\x`) turns line mode on or off; alone (nil) the other way.
    case expanded(Bool?)
    /// `tuples on|off` (`\t`) turns headers off or on; alone (nil) the other way.
    case tuples(Bool?)
    /// `refresh` reads the score store again.
    case refresh
    /// `help` lists the commands; `help COMMAND` explains one.
    case help(String?)
    /// `rules` prints the rules in force; `rules --json` prints them as one JSON object.
    case rules(json: Bool)
    /// `source FILE` (or `\i FILE`) runs the commands in FILE, one a line.
    case source(String)
    /// `pager on` or `pager off` turns the pager on or off; `pager` alone (nil) says which.
    case pager(Bool?)
    /// `mode MODE` (`.mode`, `\pset format`) chooses how results are written; alone (nil) says.
    case mode(OutputMode?)
    /// `headers on|off` (`.headers`); alone (nil) says which.
    case headers(Bool?)
    /// `output FILE` (`\o`, `.output`) sends results to FILE; `output` alone (nil) back.
    case output(String?)
    /// `once FILE` (`.once`) sends the next command's results to FILE.
    case once(String)
    /// `timing on` or `timing off` (`\timing`, `.timer`) shows each command's time or stops;
    /// `timing` alone (nil) turns it the other way.
    case timing(Bool?)
    /// `version` prints the program's version.
    case version
    /// `quit` or `exit` ends the session.
    case quit
    /// A command this enum has no case for yet: equal to no other command a spec expects.
    case unknown(entry: String)
}

extension CommandParser {
    /// Reads `line` as ``read(_:)`` does, as a ``Command``.
    /// - Throws: ``CommandError`` saying what was wrong and what is accepted.
    static func parse(_ line: String) throws(CommandError) -> Command {
        let (entry, arguments) = try read(line)
        return Command(entry: entry.name, arguments: arguments)
    }
}

extension Command {
    /// The command of the entry `name` given `arguments`, of the type that entry's handler takes.
    init(entry name: String, arguments: any Sendable) {
        switch name {
        case "name": self = .name(arguments as! String?)
        case "up": self = .up(arguments as! Int)
        case "down": self = .down(arguments as! Int)
        case "points": self = .points(arguments as! Double?)
        case "step": self = .step(arguments as! Double)
        case "min": self = .min(arguments as! Double)
        case "max": self = .max(arguments as! Double)
        case "upload": self = .upload
        case "reset": self = .reset
        case "show": self = .show(json: arguments as! Bool)
        case "players": self = .players(arguments as! PlayersRequest)
        case "add":
            let player = arguments as! (name: String, points: Double)
            self = .add(name: player.name, points: player.points)
        case "select":
            switch arguments as! PlayerChoice {
            case .row(let row): self = .select(row: row)
            case .name(let name): self = .selectNamed(name)
            }
        case "delete":
            let delete = arguments as! (choice: PlayerChoice, confirmed: Bool)
            switch delete.choice {
            case .row(let row): self = .delete(row: row, confirmed: delete.confirmed)
            case .name(let name): self = .deleteNamed(name, confirmed: delete.confirmed)
            }
        case "find": self = .find(arguments as! String)
        case "watch": self = .watch(arguments as! WatchRequest)
        case "expanded": self = .expanded(arguments as! Bool?)
        case "tuples": self = .tuples(arguments as! Bool?)
        case "refresh": self = .refresh
        case "help": self = .help(arguments as! String?)
        case "rules": self = .rules(json: arguments as! Bool)
        case "source": self = .source(arguments as! String)
        case "pager": self = .pager(arguments as! Bool?)
        case "timing": self = .timing(arguments as! Bool?)
        case "output": self = .output(arguments as! String?)
        case "mode": self = .mode(arguments as! OutputMode?)
        case "headers": self = .headers(arguments as! Bool?)
        case "once": self = .once(arguments as! String)
        case "version": self = .version
        case "quit", "exit": self = .quit
        default: self = .unknown(entry: name)
        }
    }
}
