import PlayerFormSystem

/// Where the scores are kept when no store is named.
enum StoreLocation {
    /// The score database inside the data folder.
    static let databaseRelativePath = "playerform/scores.sqlite"
    /// The JSON Lines score file of earlier versions inside the data folder, imported once into
    /// the default database.
    static let legacyRelativePath = "playerform/scores.jsonl"

    /// The default score database for `environment`, following the XDG base directory rules:
    /// `$XDG_DATA_HOME/playerform/scores.sqlite` when `XDG_DATA_HOME` is an absolute path, else
    /// `$HOME/.local/share/playerform/scores.sqlite` when `HOME` is; nil when neither is.
    ///
    /// A relative or empty value is ignored, as the XDG specification asks.
    static func databasePath(environment: [String: String]) -> String? {
        BaseDirectory.folder(.data, environment: environment).map { $0 + "/" + databaseRelativePath }
    }

    /// The JSON Lines score file of earlier versions beside the default database; nil when there
    /// is no default place.
    static func legacyPath(environment: [String: String]) -> String? {
        BaseDirectory.folder(.data, environment: environment).map { $0 + "/" + legacyRelativePath }
    }
}
