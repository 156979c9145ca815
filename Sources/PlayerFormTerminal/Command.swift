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
    /// `help` lists the commands; `help COMMAND` explains one.
    case help(String?)
    /// `quit` or `exit` ends the session.
    case quit
}
