/// The XDG base directories the program keeps files in.
///
/// The rule is the XDG base directory specification's: the variable's value when it is an
/// absolute path, else the fallback under `$HOME` when `HOME` is an absolute path. An empty or
/// relative value is ignored. Trailing slashes are dropped.
public enum BaseDirectory: Sendable, CaseIterable {
    /// User data (`XDG_DATA_HOME`, else `~/.local/share`): the scores.
    case data
    /// State worth keeping between runs but not user data (`XDG_STATE_HOME`, else
    /// `~/.local/state`): the REPL's history.
    case state

    /// The environment variable that names the folder.
    public var variable: String {
        switch self {
        case .data: "XDG_DATA_HOME"
        case .state: "XDG_STATE_HOME"
        }
    }

    /// The folder under `$HOME` used when the variable is not an absolute path.
    public var fallback: String {
        switch self {
        case .data: ".local/share"
        case .state: ".local/state"
        }
    }

    /// The folder of `kind` for `environment`, with no trailing slash (`""` for `/`), or nil when
    /// neither its variable nor `HOME` is an absolute path.
    ///
    /// ```swift
    /// BaseDirectory.folder(.data, environment: ["HOME": "/home/ana"])  // "/home/ana/.local/share"
    /// ```
    public static func folder(_ kind: BaseDirectory, environment: [String: String]) -> String? {
        if let own = absolute(environment[kind.variable]) { return own }
        if let home = absolute(environment["HOME"]) { return home + "/" + kind.fallback }
        return nil
    }

    /// `value` without trailing slashes, when it is an absolute path.
    private static func absolute(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/") else { return nil }
        var trimmed = Substring(value)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return trimmed == "/" ? "" : String(trimmed)
    }
}
