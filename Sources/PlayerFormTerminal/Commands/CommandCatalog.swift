import PlayerFormRules
import PlayerFormText
import Synchronization

/// The commands the REPL understands: one table, from which the parser, `help`, `help COMMAND`,
/// tab completion, "did you mean" suggestions and the session's dispatch are all derived.
///
/// A new command is one entry here and its handler in ``REPLSession``.
public enum CommandCatalog {
    /// Every command, in the order `help` lists them.
    public static let entries: [Entry] = [
        Entry(
            "name", usage: "name [TEXT]",
            summary:
                "Set the name to the rest of the line; quote it to keep leading or trailing spaces"
                + " (name \"\" clears it). Without TEXT, show the name.",
            rule: { $0.nameRule },
            arguments: CommandParser.optionalName,
            run: .immediate { session, text in session.editName(text) }),
        Entry(
            "up", usage: "up [N]",
            summary:
                "Press the stepper's + button N times (default 1). Each press that changes the points"
                + " uses one point update; pressing stops at the maximum, and fails when no update is"
                + " left or a press is refused, saying how many presses counted.",
            rule: { $0.pressRule },
            arguments: CommandParser.pressCount,
            run: .immediate { session, times in session.pressUp(times: times) }),
        Entry(
            "down", usage: "down [N]",
            summary:
                "Press the stepper's - button N times (default 1). Each press that changes the points"
                + " uses one point update; pressing stops at the minimum, and fails when no update is"
                + " left or a press is refused, saying how many presses counted.",
            rule: { $0.pressRule },
            arguments: CommandParser.pressCount,
            run: .immediate { session, times in session.pressDown(times: times) }),
        Entry(
            "points", usage: "points [N]",
            summary:
                "Set the stepper to N (kept within min and max); a change of the points uses one point"
                + " update. Without N, show the points.",
            rule: { $0.pointsRule },
            arguments: CommandParser.optionalNumber,
            run: .immediate { session, value in session.setPoints(value) }),
        Entry(
            "step", usage: "step N",
            summary:
                "Change how far one press of the stepper moves the points. A press moves them by"
                + " exactly the step; one whose result would need more than 15 significant digits,"
                + " or would not change them at all, is refused.",
            rule: { $0.stepperRule },
            arguments: CommandParser.oneNumber,
            run: .immediate { session, value in session.changeStep(to: value) }),
        Entry(
            "min", usage: "min N", summary: "Change the lowest valid number of points.",
            rule: { $0.stepperRule },
            arguments: CommandParser.oneNumber,
            run: .immediate { session, value in session.changeMin(to: value) }),
        Entry(
            "max", usage: "max N", summary: "Change the highest valid number of points.",
            rule: { $0.stepperRule },
            arguments: CommandParser.oneNumber,
            run: .immediate { session, value in session.changeMax(to: value) }),
        Entry(
            "upload", usage: "upload", summary: "Upload the name and points (Ctrl-C cancels).",
            rule: { $0.uploadRule },
            run: .session { session, _ in await session.upload() }),
        Entry(
            "reset", usage: "reset",
            summary:
                "Return the name, points, step, min, max and forbidden names to their starting values."
                + " Spent point updates and uploads are not given back, so with no update left the"
                + " stepper stays hidden.",
            rule: { $0.resetRule },
            run: .immediate { session, _ in session.reset() }),
        Entry(
            "show", usage: "show [--json]",
            summary: "Draw the whole form; with --json, print it as one JSON object on one line.",
            pagesOutput: true,
            arguments: CommandParser.jsonFlag,
            run: .immediate { session, json in session.show(json: json) }),
        Entry(
            "players", usage: "players [N | --page N | --all | --json | --csv]",
            summary:
                "Draw the page of the roster in view as a table with a header: row number, name, points,"
                + " when uploaded, * when selected; names too long for the column end in …. With N, page"
                + " N. With --all, every row; with --json, the whole roster as one JSON array on one line"
                + " (keys name, points, uploadedAt, selected); with --csv, as CSV with a header row (a"
                + " name starting with = + - or @ gets a leading ' so that spreadsheets show it as text)."
                + " Ctrl-C stops --all, --json and --csv before their next page; so does quitting the pager.",
            pagesOutput: true,
            arguments: CommandParser.playersRequest,
            run: .roster { session, view, request in await session.showPlayers(request, in: view) }),
        Entry(
            "watch", aliases: ["\\watch"], usage: "watch [SECONDS [COUNT]]",
            summary:
                "Draw the page of players, then again each time it changes, by this session or any"
                + " other sharing the store, at most every SECONDS (default 2; 0 for every change),"
                + " each drawing under a line with its time, as psql's \\watch; until Ctrl-C, or"
                + " COUNT drawings (a script needs COUNT). watch players 2 and \\watch i=SECONDS c=COUNT"
                + " work too.",
            arguments: CommandParser.watchRequest,
            run: .roster { session, view, request in await session.watch(request, in: view) }),
        Entry(
            "add", usage: "add NAME POINTS",
            summary:
                "Add a player to the roster, or new points for a player in it, by the form's rules;"
                + " quote the name to keep spaces at its ends (add \"Ann Lee\" 120).",
            rule: { $0.addRule },
            completesPlayerNames: true,
            arguments: CommandParser.nameAndPoints,
            run: .roster { session, view, player in
                await session.add(name: player.name, points: player.points, to: view)
            }),
        Entry(
            "find", usage: "find TEXT",
            summary:
                "List the players whose names start with TEXT (case, width and invisible characters"
                + " aside), in the order of their names, with their row numbers in the roster; at most"
                + " a page of them, found through the store's index of names whatever the roster's"
                + " size. Written in the session's mode, as players writes a page.",
            pagesOutput: true,
            completesPlayerNames: true,
            arguments: CommandParser.namePrefix,
            run: .roster { session, view, text in await session.findPlayers(text, in: view) }),
        Entry(
            "select", usage: "select N | NAME",
            summary:
                "Select or deselect the player in row N of the roster, on any page, or the player"
                + " named NAME (case, width and invisible characters aside; quote a name that is a"
                + " number or has spaces at its ends).",
            completesPlayerNames: true,
            arguments: CommandParser.playerChoice,
            run: .roster { session, view, choice in await session.select(choice, in: view) }),
        Entry(
            "delete", usage: "delete N | NAME [--yes]",
            summary:
                "Delete the player in row N of the roster (on any page), or the player named NAME,"
                + " and every score of it. At a terminal it asks first, unless --yes is given; in a"
                + " script --yes is required.",
            completesPlayerNames: true,
            arguments: CommandParser.choiceAndConfirmation,
            run: .roster { session, view, delete in
                await session.delete(delete.choice, confirmed: delete.confirmed, in: view)
            }),
        Entry(
            "refresh", usage: "refresh", summary: "Read the score store again and show what changed.",
            run: .roster { session, view, _ in await session.refresh(view) }),
        Entry(
            "rules", usage: "rules [--json]",
            summary:
                "Print the rules in force: step, min, max, the point update and upload limits with what"
                + " is left, the forbidden names, and where the rules came from; with --json, as one JSON"
                + " object on one line.",
            pagesOutput: true,
            arguments: CommandParser.jsonFlag,
            run: .immediate { session, json in session.showRules(json: json) }),
        Entry(
            "source", aliases: ["\\i", "\\include", ".read"], usage: "source FILE",
            summary:
                "Run the commands in FILE, one a line, as if typed. Errors name the file and line"
                + " (FILE:LINE:); a file may source others, up to 16 deep.",
            arguments: CommandParser.path,
            run: .session { session, path in await session.source(path) }),
        Entry(
            "mode", aliases: [".mode", "\\pset"], usage: "mode [table | csv | json | line | unaligned]",
            summary:
                "Choose how players writes its rows for the rest of the session: aligned in a table"
                + " (the default), as CSV, as one JSON array, one column = value line each (players"
                + " --all writes a table then), or unaligned, fields between | (psql's -A, sqlite3's"
                + " list); in json mode, show and rules write JSON too. --csv, --json and -A on the"
                + " command line choose it at the start, and a command's own --json or --csv still"
                + " wins. Without a mode, say which. \\pset format csv works too.",
            arguments: CommandParser.outputMode,
            run: .immediate { session, mode in session.setMode(mode) }),
        Entry(
            "headers", aliases: [".headers"], usage: "headers [on | off]",
            summary:
                "Write the title and the header row of players' table and CSV (on, the default), or"
                + " the rows alone (off, as psql's \\t). Without on or off, say which.",
            arguments: CommandParser.onOrOff,
            run: .immediate { session, on in session.setHeaders(on) }),
        Entry(
            "expanded", aliases: ["\\x"], usage: "expanded [on | off]",
            summary:
                "psql's expanded display: on is line mode (one column = value line each), off the"
                + " mode before it; alone, turn it the other way.",
            arguments: CommandParser.onOrOff,
            run: .immediate { session, on in session.setExpanded(on) }),
        Entry(
            "tuples", aliases: ["\\t"], usage: "tuples [on | off]",
            summary:
                "psql's tuples only: on writes players' rows alone, as headers off does; off writes"
                + " the title and the header row again; alone, turn it the other way. -t on the"
                + " command line starts with it on.",
            arguments: CommandParser.onOrOff,
            run: .immediate { session, on in session.setTuplesOnly(on) }),
        Entry(
            "output", aliases: ["\\o", ".output"], usage: "output [FILE]",
            summary:
                "Send the results of the commands that follow to FILE, emptied first (made when"
                + " missing), as plain text; errors stay on the terminal. Without FILE, send them"
                + " back to standard output (or to -o's file).",
            arguments: CommandParser.optionalResultsFile,
            run: .immediate { session, path in session.sendResults(to: path, once: false) }),
        Entry(
            "once", aliases: [".once"], usage: "once FILE",
            summary: "Send the results of the next command only to FILE, as output FILE does.",
            arguments: CommandParser.resultsFile,
            run: .immediate { session, path in session.sendResults(to: path, once: true) }),
        Entry(
            "timing", aliases: ["\\timing", ".timer"], usage: "timing [on | off]",
            summary:
                "Show how long each command took, after its output (Time: 1.234 ms); on standard"
                + " error in a script, so that its output stays as it was. Without on or off, turn it"
                + " the other way, as psql's \\timing does.",
            arguments: CommandParser.onOrOff,
            run: .immediate { session, on in session.setTiming(on) }),
        Entry(
            "pager", usage: "pager [on | off]",
            summary:
                "At a terminal, output longer than the screen goes through $PAGER (default less -FRX);"
                + " pager off writes it directly, pager on pages again, pager alone says which. Scripts"
                + " never page.",
            arguments: CommandParser.onOrOff,
            run: .immediate { session, on in session.setPager(on) }),
        Entry(
            "version", aliases: [".version"], usage: "version",
            summary: "Print the program's version, as playerform --version does.",
            run: .immediate { session, _ in session.showVersion() }),
        Entry(
            "help", aliases: ["\\?", "\\h", ".help"], usage: "help [COMMAND]",
            summary: "List the commands, or explain one and the rule of the form that governs it.",
            completes: { before, word in before.isEmpty ? CommandCatalog.completions(of: word) : [] },
            pagesOutput: true,
            arguments: CommandParser.helpTopic,
            run: .immediate { session, topic in session.help(topic) }),
        Entry(
            "quit", aliases: ["\\q", "\\quit", ".quit"], usage: "quit",
            summary: "End the session; so do exit and Ctrl-D.",
            run: .immediate { _, _ in .quit }),
        // Listed and completed in its own right, as shells have it.
        Entry(
            "exit", aliases: [".exit"], usage: "exit", summary: "End the session; so do quit and Ctrl-D.",
            run: .immediate { _, _ in .quit }),
    ]

    /// Every command word.
    public static let names: [String] = entries.map(\.name)

    /// The words a mistyped word is compared with, by its first character: psql's backslash
    /// forms for `\`, sqlite3's dot forms for `.`, the command names for any other.
    private static let families: [UInt8?: (words: [String], bytes: [[UInt8]])] = {
        let aliases = entries.flatMap(\.aliases)
        var families: [UInt8?: (words: [String], bytes: [[UInt8]])] = [:]
        for (first, words) in [
            (UInt8?.none, names), (UInt8(ascii: "\\"), aliases), (UInt8(ascii: "."), aliases),
        ] {
            let chosen = first.map { first in words.filter { $0.utf8.first == first } } ?? words
            families[first] = (chosen, chosen.map { Array($0.utf8) })
        }
        return families
    }()

    /// The family of ``families`` a typed word belongs to.
    private static func family(of word: UnsafeBufferPointer<UInt8>) -> (words: [String], bytes: [[UInt8]]) {
        if let first = word.first, first == UInt8(ascii: "\\") || first == UInt8(ascii: ".") {
            return families[first]!
        }
        return families[nil]!
    }

    /// Every command word and alias, one after another in `bytes`, each with where its bytes
    /// start, how many there are, its first eight bytes packed in one integer, and the position of
    /// its entry in ``entries``, in the order of the entries.
    ///
    /// Looking a typed word up compares its length and packed bytes with each, and the rest of its
    /// bytes only for words longer than eight, with no hashing and no String comparison (every
    /// command word is ASCII, so equal bytes are equal words); the first entry with the word wins.
    private static let wordTable: (bytes: [UInt8], words: [Word]) = {
        var bytes: [UInt8] = []
        var words: [Word] = []
        for (position, entry) in entries.enumerated() {
            for word in [entry.name] + entry.aliases {
                let utf8 = Array(word.utf8)
                let packed = utf8.withUnsafeBufferPointer { packedPrefix($0) }
                words.append(Word(start: bytes.count, count: utf8.count, packed: packed, index: position))
                bytes.append(contentsOf: utf8)
            }
        }
        return (bytes, words)
    }()

    /// A command word in ``wordTable``.
    private struct Word {
        let start: Int
        let count: Int
        let packed: UInt64
        let index: Int
    }

    /// The first eight bytes of `bytes` (fewer when it is shorter) as one integer.
    private static func packedPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var packed: UInt64 = 0
        for (position, byte) in bytes.prefix(8).enumerated() { packed |= UInt64(byte) << (8 * position) }
        return packed
    }

    /// The entry for `name`, if it is a command.
    public static func entry(named name: String) -> Entry? {
        entries.first { $0.name == name }
    }

    /// The entry of the command that `word`, a name or an alias in lower case, runs.
    public static func entry(forWord word: String) -> Entry? {
        var word = word
        let index = word.withUTF8 { typed -> Int? in
            let packed = packedPrefix(typed)
            return wordTable.bytes.withUnsafeBufferPointer { bytes in
                for candidate in wordTable.words
                where candidate.count == typed.count && candidate.packed == packed {
                    if candidate.count <= 8 { return candidate.index }
                    let end = candidate.start + candidate.count
                    if UnsafeBufferPointer(rebasing: bytes[candidate.start..<end]).elementsEqual(typed) {
                        return candidate.index
                    }
                }
                return nil
            }
        }
        return index.map { entries[$0] }
    }

    /// Command words that start with `prefix`, ignoring case as the parser does, for tab
    /// completion: `SH` offers `show`.
    public static func completions(of prefix: String) -> [String] {
        let prefix = prefix.lowercased()
        return names.filter { $0.hasPrefix(prefix) }
    }

    /// The command most likely meant by `word`, or nil when none is close.
    ///
    /// One that starts with it, or one at most two edits away (one for words of up to three
    /// characters). A word that starts with a backslash or a dot is given a form of its own family
    /// (`\tim` gets `\timing`, `.quti` gets `.quit`).
    ///
    /// A script that repeats a mistyped word asks again and again: the last answer is kept, for
    /// a word of the same bytes.
    public static func suggestion(for word: String) -> String? {
        let kept = lastSuggestion.withLock { last -> String?? in
            guard let last, last.word.utf8.elementsEqual(word.utf8) else { return nil }
            return .some(last.suggestion)
        }
        if let kept { return kept }
        let suggestion = closestCommand(to: word)
        lastSuggestion.withLock { $0 = (word, suggestion) }
        return suggestion
    }

    /// The last word ``suggestion(for:)`` was asked about, and its answer.
    private static let lastSuggestion = Mutex<(word: String, suggestion: String?)?>(nil)

    /// The answer of ``suggestion(for:)``, worked out.
    static func closestCommand(to word: String) -> String? {
        guard !word.isEmpty else { return nil }
        let limit = word.count <= 3 ? 1 : 2
        var typed = word
        // The first of the closest names wins; nothing is allocated per name.
        let best = typed.withUTF8 { typed -> (word: String, distance: Int)? in
            let family = family(of: typed)
            // A backslash or a dot alone starts every word of its family: no word is meant.
            if family.words != names && typed.count == 1 { return nil }
            if let prefixed = family.bytes.firstIndex(where: { $0.starts(with: typed) }) {
                return (family.words[prefixed], 0)
            }
            var best: (word: String, distance: Int)?
            for (index, name) in family.bytes.enumerated() {
                let distance = editDistance(
                    typed, name, limit: Swift.min(limit, (best?.distance ?? .max) - 1))
                if distance <= limit, distance < best?.distance ?? .max {
                    best = (family.words[index], distance)
                }
            }
            return best
        }
        return best?.word
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
        let distances = typed.withUTF8 { typed in
            names.map { editDistance(typed, Array($0.utf8), limit: limit) }
        }
        guard let best = distances.indices.min(by: { distances[$0] < distances[$1] }),
            distances[best] <= limit
        else { return nil }
        return names[best]
    }

    /// Levenshtein distance over UTF-8 bytes (command names are ASCII), or any number above
    /// `limit` when it is above `limit`: the work stops as soon as every way of matching the two
    /// has cost more than that, so that scoring an unknown word against every command is cheap.
    static func editDistance(_ a: UnsafeBufferPointer<UInt8>, _ b: [UInt8], limit: Int) -> Int {
        // The distance is at least the difference of the lengths.
        if abs(a.count - b.count) > limit { return limit + 1 }
        let width = b.count + 1
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * width) { rows in
            var previous = rows.baseAddress!
            var current = previous + width
            for j in 0..<width { previous[j] = j }
            for (i, left) in a.enumerated() {
                current[0] = i + 1
                var rowMinimum = current[0]
                for (j, right) in b.enumerated() {
                    current[j + 1] = Swift.min(
                        previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
                    rowMinimum = Swift.min(rowMinimum, current[j + 1])
                }
                // Every later row only adds to the smallest value of this one.
                if rowMinimum > limit { return limit + 1 }
                swap(&previous, &current)
            }
            return Swift.min(previous[b.count], limit + 1)
        }
    }
}

extension CommandCatalog {
    /// What tab completion offers for `word`, given the text of the line `before` it: command names
    /// for the first word, and after it what the command's entry completes (command names as
    /// topics after `help`, nothing elsewhere).
    public static func completions(before: String, word: String) -> [String] {
        let words = before.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let first = words.first else { return completions(of: word) }
        return entry(forWord: first.lowercased())?.completions(after: Array(words.dropFirst()), word: word)
            ?? []
    }

    /// The part of a player's name typed so far when completing `word` after `before`: the text
    /// after a command that takes a name (`select`, `delete`, `find`, `add`), without `delete`'s
    /// `--yes` before it; nil when the command takes no name, or the name is quoted or typed as a
    /// row number.
    public static func typedPlayerName(before: String, word: String) -> String? {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let line = before.drop(while: isBlank)
        let command = line.prefix(while: { !isBlank($0) })
        guard !command.isEmpty, entry(forWord: command.lowercased())?.completesPlayerNames == true else {
            return nil
        }
        var rest = line.dropFirst(command.count).drop(while: isBlank)
        if rest.lowercased().hasPrefix("--yes "), command.lowercased() == "delete" {
            rest = rest.dropFirst(6).drop(while: isBlank)
        }
        let typed = String(rest) + word
        guard !typed.hasPrefix("-"), !CommandParser.startsQuoted(typed) else { return nil }
        return typed
    }

    /// What completion offers for `word`, the end of `typed` (see ``typedPlayerName(before:word:)``),
    /// from `names`, players whose names start with `typed` as names compare: the rest of each
    /// name from where `word` starts, as the name spells it.
    ///
    /// A name is offered only when it can be typed as it is: one that the terminal shows escaped,
    /// with spaces at its ends, or that reads as a row number, is typed in quotes, which this
    /// completion does not write.
    public static func playerNameCompletions(typed: String, word: String, names: [String]) -> [String] {
        let before = typed.count - word.count
        var offered: [String] = []
        for name in names {
            guard TerminalText.escaped(name) == name, name.first != " ", name.last != " ",
                !DecimalText.isLiteral(name), name.count >= typed.count,
                name.prefix(typed.count).lowercased() == typed.lowercased()
            else { continue }
            let completion = String(name.dropFirst(before))
            if !offered.contains(completion) { offered.append(completion) }
        }
        return offered
    }

    /// Whether the word typed after `before` is the path of a file (`source`, `\i`, `output`,
    /// `\o`, `.once`...), which the line editor completes from the file system.
    public static func completesFileName(before: String) -> Bool {
        let words = before.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count == 1, let entry = entry(forWord: words[0].lowercased()) else { return false }
        return entry.takesFile
    }
}
