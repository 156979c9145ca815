import PlayerFormSystem

/// Where the scores are kept when no path is given.
public enum StoreLocation {
    /// The JSON Lines score file of earlier versions, inside the data folder; imported once into
    /// the database.
    public static let relativePath = "playerform/scores.jsonl"
    /// The score database inside the data folder.
    public static let databaseRelativePath = "playerform/scores.sqlite"

    /// The default score database for `environment`: ``defaultPath(environment:)``'s folder,
    /// `$XDG_DATA_HOME/playerform/scores.sqlite`, else `$HOME/.local/share/playerform/scores.sqlite`.
    /// - Throws: ``StoreError/noDataDirectory`` when neither variable is an absolute path.
    public static func databasePath(environment: [String: String]) throws(StoreError) -> String {
        let legacy = try defaultPath(environment: environment)
        return String(legacy.dropLast(relativePath.count)) + databaseRelativePath
    }

    /// The default JSON Lines score file of earlier versions for `environment`, following the XDG base directory rules:
    /// `$XDG_DATA_HOME/playerform/scores.jsonl` when `XDG_DATA_HOME` is an absolute path, else
    /// `$HOME/.local/share/playerform/scores.jsonl` when `HOME` is.
    ///
    /// A relative or empty value is ignored, as the XDG specification asks.
    ///
    /// ```swift
    /// try StoreLocation.defaultPath(environment: ["HOME": "/home/ana"])
    /// // "/home/ana/.local/share/playerform/scores.jsonl"
    /// ```
    /// - Throws: ``StoreError/noDataDirectory`` when neither variable is an absolute path.
    public static func defaultPath(environment: [String: String]) throws(StoreError) -> String {
        guard let data = BaseDirectory.folder(.data, environment: environment) else { throw .noDataDirectory }
        return data + "/" + relativePath
    }
}
