/// One command typed at the REPL, parsed but not yet run.
public enum Command: Equatable, Sendable {
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
    /// `delete N [--yes]` deletes the player in row N (counting from 1); `--yes` skips the
    /// question asked at a terminal, and is required in a script.
    case delete(row: Int, confirmed: Bool)
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
    /// `quit` or `exit` ends the session.
    case quit
}

/// What `players` shows.
public enum PlayersRequest: Equatable, Sendable {
    /// The page the roster is on (`players`).
    case currentPage
    /// Page N, counting from 1 (`players N`, `players --page N`).
    case page(Int)
    /// Every row, read a page at a time (`players --all`).
    case all
    /// The whole roster as one JSON array on one line, read a page at a time (`players --json`).
    case json
    /// The whole roster as CSV with a header row, read a page at a time (`players --csv`).
    case csv
}
