import CReadline

/// The program's version, as `playerform --version` and the REPL's `version` print it.
public enum ProgramVersion {
    /// The version number.
    public static let text = "0.1.0"

    /// The version of GNU readline the terminal front end runs with.
    public static var readline: String { String(cString: playerform_rl_library_version()) }

    /// What `--version`, `-V` and `version` print: the program's name and version, then the
    /// libraries it keeps, reads and edits with, as psql names the server it was built for:
    /// `playerform 0.1.0 (SQLite 3.46.1, PostgreSQL protocol 3.0, GNU readline 8.2)`.
    ///
    /// - Parameter sqlite: the version of the SQLite library that keeps score databases, which
    ///   this module does not link.
    /// - Returns: the line.
    public static func described(sqlite: String) -> String {
        "playerform \(text) (SQLite \(sqlite), PostgreSQL protocol 3.0, GNU readline \(readline))"
    }
}
