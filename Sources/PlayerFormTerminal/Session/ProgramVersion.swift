/// The program's version, as `playerform --version` and the REPL's `version` print it.
public enum ProgramVersion {
    /// The version number.
    public static let text = "0.1.0"
}
