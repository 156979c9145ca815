/// The formats of player record files.
public enum RecordFormat: String, Sendable, CaseIterable {
    /// JSON Lines: one JSON object per line with a string `name` and a number `points`.
    case jsonl
    /// CSV (RFC 4180) with a header row naming the columns `name` and `points`.
    case csv

    /// The format a file's extension names: `.jsonl` and `.ndjson` are JSON Lines, `.csv` is CSV,
    /// in any case; nil for any other extension.
    public init?(fileExtensionOf path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "jsonl", "ndjson": self = .jsonl
        case "csv": self = .csv
        default: return nil
        }
    }
}
