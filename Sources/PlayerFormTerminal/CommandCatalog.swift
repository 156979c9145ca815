/// The commands the REPL understands, with their usage and help text, for `help`, completion and
/// "did you mean" suggestions.
public enum CommandCatalog {
    /// A command's documentation.
    public struct Entry: Sendable, Equatable {
        /// The command word.
        public let name: String
        /// How to type it.
        public let usage: String
        /// What it does.
        public let summary: String
    }

    /// Every command, in the order `help` lists them.
    public static let entries: [Entry] = [
        Entry(
            name: "name", usage: "name [TEXT]",
            summary:
                "Set the name to the rest of the line; quote it to keep leading or trailing spaces"
                + " (name \"\" clears it). Without TEXT, show the name."),
        Entry(
            name: "up", usage: "up [N]",
            summary:
                "Press the stepper's + button N times (default 1). Each press that changes the points"
                + " uses one point update; pressing stops at the maximum, and fails when no update is"
                + " left or a press is refused, saying how many presses counted."),
        Entry(
            name: "down", usage: "down [N]",
            summary:
                "Press the stepper's - button N times (default 1). Each press that changes the points"
                + " uses one point update; pressing stops at the minimum, and fails when no update is"
                + " left or a press is refused, saying how many presses counted."),
        Entry(
            name: "points", usage: "points [N]",
            summary:
                "Set the stepper to N (kept within min and max); a change of the points uses one point"
                + " update. Without N, show the points."),
        Entry(
            name: "step", usage: "step N",
            summary:
                "Change how far one press of the stepper moves the points. A press moves them by"
                + " exactly the step; one whose result would need more than 15 significant digits,"
                + " or would not change them at all, is refused."),
        Entry(name: "min", usage: "min N", summary: "Change the lowest valid number of points."),
        Entry(name: "max", usage: "max N", summary: "Change the highest valid number of points."),
        Entry(name: "upload", usage: "upload", summary: "Upload the name and points (Ctrl-C cancels)."),
        Entry(
            name: "reset", usage: "reset",
            summary:
                "Return the name, points, step, min, max and forbidden names to their starting values."
                + " Spent point updates and uploads are not given back, so with no update left the"
                + " stepper stays hidden."),
        Entry(
            name: "show", usage: "show [--json]",
            summary: "Draw the whole form; with --json, print it as one JSON object on one line."),
        Entry(
            name: "players", usage: "players [N | --page N | --all | --json | --csv]",
            summary:
                "Draw the page of the roster in view as a table with a header: row number, name, points,"
                + " when uploaded, * when selected; names too long for the column end in …. With N, page"
                + " N. With --all, every row; with --json, the whole roster as one JSON array on one line"
                + " (keys name, points, uploadedAt, selected); with --csv, as CSV with a header row (a"
                + " name starting with = + - or @ gets a leading ' so that spreadsheets show it as text)."),
        Entry(
            name: "add", usage: "add NAME POINTS",
            summary:
                "Add a player to the roster, or new points for a player in it, by the form's rules;"
                + " quote the name to keep spaces at its ends (add \"Ann Lee\" 120)."),
        Entry(
            name: "select", usage: "select N",
            summary: "Select or deselect the player in row N of the roster, on any page."),
        Entry(
            name: "delete", usage: "delete N [--yes]",
            summary:
                "Delete the player in row N of the roster (on any page) and every score of it. At a"
                + " terminal it asks first,"
                + " unless --yes is given; in a script --yes is required."),
        Entry(
            name: "refresh", usage: "refresh", summary: "Read the score store again and show what changed."),
        Entry(
            name: "rules", usage: "rules [--json]",
            summary:
                "Print the rules in force: step, min, max, the point update and upload limits with what"
                + " is left, the forbidden names, and where the rules came from; with --json, as one JSON"
                + " object on one line."),
        Entry(
            name: "source", usage: "source FILE",
            summary:
                "Run the commands in FILE, one a line, as if typed (also: \\i FILE). Errors name the"
                + " file and line (FILE:LINE:); a file may source others, up to 16 deep."),
        Entry(
            name: "pager", usage: "pager [on | off]",
            summary:
                "At a terminal, output longer than the screen goes through $PAGER (default less -FRX);"
                + " pager off writes it directly, pager on pages again, pager alone says which. Scripts"
                + " never page."),
        Entry(
            name: "help", usage: "help [COMMAND]",
            summary: "List the commands, or explain one and the rule of the form that governs it."),
        Entry(name: "quit", usage: "quit", summary: "End the session (also: exit, Ctrl-D)."),
        Entry(name: "exit", usage: "exit", summary: "End the session (also: quit, Ctrl-D)."),
    ]

    /// Every command word.
    public static let names: [String] = entries.map(\.name)

    private static let nameBytes: [[UInt8]] = names.map { Array($0.utf8) }

    /// The entry for `name`, if it is a command.
    public static func entry(named name: String) -> Entry? {
        entries.first { $0.name == name }
    }

    /// Command words that start with `prefix`, ignoring case as the parser does, for tab
    /// completion: `SH` offers `show`.
    public static func completions(of prefix: String) -> [String] {
        let prefix = prefix.lowercased()
        return names.filter { $0.hasPrefix(prefix) }
    }

    /// The command most likely meant by `word`: one that starts with it, or one at most two edits
    /// away (one for words of up to three characters); nil when none is close.
    public static func suggestion(for word: String) -> String? {
        guard !word.isEmpty else { return nil }
        if let prefixed = names.first(where: { $0.hasPrefix(word) }) { return prefixed }
        let limit = word.count <= 3 ? 1 : 2
        var typed = word
        // The first of the closest names wins; nothing is allocated per name.
        let best = typed.withUTF8 { typed -> (index: Int, distance: Int)? in
            var best: (index: Int, distance: Int)?
            for (index, name) in nameBytes.enumerated() {
                let distance = editDistance(typed, name)
                if distance <= limit, distance < best?.distance ?? .max { best = (index, distance) }
            }
            return best
        }
        return best.map { names[$0.index] }
    }

    /// The name in `names` most likely meant by `word`, by the rule of ``suggestion(for:)``
    /// without prefixes: at most two edits away (one for words of up to three characters); nil when
    /// none is close.
    ///
    /// For mistyped subcommands of the executable.
    public static func closest(to word: String, among names: [String]) -> String? {
        guard !word.isEmpty else { return nil }
        let limit = word.count <= 3 ? 1 : 2
        var typed = word
        let distances = typed.withUTF8 { typed in names.map { editDistance(typed, Array($0.utf8)) } }
        guard let best = distances.indices.min(by: { distances[$0] < distances[$1] }),
            distances[best] <= limit
        else { return nil }
        return names[best]
    }

    /// Levenshtein distance over UTF-8 bytes (command names are ASCII), with an early exit for
    /// words far longer than any command.
    ///
    /// The two rows live on the stack.
    static func editDistance(_ a: UnsafeBufferPointer<UInt8>, _ b: [UInt8]) -> Int {
        if abs(a.count - b.count) > 2 { return Swift.max(a.count, b.count) }
        let width = b.count + 1
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * width) { rows in
            var previous = rows.baseAddress!
            var current = previous + width
            for j in 0..<width { previous[j] = j }
            for (i, left) in a.enumerated() {
                current[0] = i + 1
                for (j, right) in b.enumerated() {
                    current[j + 1] = Swift.min(
                        previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
                }
                swap(&previous, &current)
            }
            return previous[b.count]
        }
    }
}

extension CommandCatalog {
    /// What tab completion offers for `word`, given the text of the line `before` it: command names
    /// for the first word, command names as topics after `help`, nothing elsewhere.
    public static func completions(before: String, word: String) -> [String] {
        let words = before.split(whereSeparator: { $0 == " " || $0 == "\t" })
        switch words.count {
        case 0: return completions(of: word)
        case 1 where words[0].lowercased() == "help": return completions(of: word)
        default: return []
        }
    }
}
