/// The formats of player record files.
public enum RecordFormat: String, Sendable, CaseIterable {
    /// JSON Lines: one JSON object per line with a string `name` and a number `points`.
    case jsonl
    /// CSV (RFC 4180) with a header row naming the columns `name` and `points`.
    case csv

    /// The format a file's extension names: `.jsonl` and `.ndjson` are JSON Lines, `.csv` and
    /// `.tsv` are CSV (the delimiter told from the header), in any case; nil for any other
    /// extension.
    public init?(fileExtensionOf path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "jsonl", "ndjson": self = .jsonl
        case "csv", "tsv": self = .csv
        default: return nil
        }
    }
}

/// What separates the fields of a CSV input: a comma, or a semicolon or a tab as spreadsheets
/// write them in some countries and as tab-separated files do.
public enum CSVDelimiter: UInt8, Sendable, CaseIterable {
    case comma = 0x2C
    case semicolon = 0x3B
    case tab = 0x09

    /// The delimiter `text` names: the character itself (`,` `;` or a tab), `\t`, or its name
    /// (`comma`, `semicolon`, `tab`, in any case); nil for anything else.
    public init?(naming text: String) {
        switch text.lowercased() {
        case ",", "comma": self = .comma
        case ";", "semicolon": self = .semicolon
        case "\t", "\\t", "tab": self = .tab
        default: return nil
        }
    }

    /// The delimiter's name in the plural, for messages: "commas".
    var plural: String {
        switch self {
        case .comma: "commas"
        case .semicolon: "semicolons"
        case .tab: "tabs"
        }
    }

    /// How the delimiter is written on a command line: `,` `';'` `tab`.
    var shown: String {
        switch self {
        case .comma: ","
        case .semicolon: "';'"
        case .tab: "tab"
        }
    }

    /// The delimiter of a CSV whose header row is `header`: the first of comma, semicolon and tab
    /// that splits it into titles naming `name` and `points` (in any case, spaces around them
    /// dropped); nil when none does.
    static func told(byHeader header: UnsafeBufferPointer<UInt8>) -> CSVDelimiter? {
        allCases.first { delimiter in
            let titles = Self.titles(header, delimiter: delimiter.rawValue)
            return titles.contains("name") && titles.contains("points")
        }
    }

    /// The titles of `header` split at `delimiter` outside double quotes, unquoted, trimmed and
    /// lowercased (ASCII letters only: the titles looked for are ASCII).
    private static func titles(_ header: UnsafeBufferPointer<UInt8>, delimiter: UInt8) -> [String] {
        var titles: [String] = []
        var title: [UInt8] = []
        var quoted = false
        func end() {
            let trimmed = title.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }
            titles.append(
                String(
                    decoding: trimmed.reversed().map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 },
                    as: UTF8.self))
            title = []
        }
        for byte in header {
            if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if byte == delimiter && !quoted {
                end()
            } else {
                title.append(byte)
            }
        }
        end()
        return titles
    }
}
