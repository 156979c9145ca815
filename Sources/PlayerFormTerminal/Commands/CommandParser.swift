import PlayerFormRules
import PlayerFormText

/// Reads one line of input as a command of ``CommandCatalog`` and its arguments.
///
/// The parser knows the syntax of commands only; whether a value is acceptable for the form is
/// for the view model to say.
///
/// ```swift
/// try CommandParser.read("up 3")            // the entry of up, and 3
/// try CommandParser.read("name \" Ann \"")  // the entry of name, and " Ann "
/// try CommandParser.read("points 1e999")    // throws: too large
/// ```
public enum CommandParser {
    /// Reads `line`, which must not be blank: the entry of the command its first word names, and
    /// the arguments that entry's handler is given.
    /// - Throws: ``CommandError`` saying what was wrong and what is accepted.
    static func read(_ line: String) throws(CommandError) -> (
        entry: CommandCatalog.Entry, arguments: any Sendable
    ) {
        let (entry, arguments) = try command(of: line)
        return (entry, try entry.arguments(arguments))
    }

    /// The entry of the command that `line`'s first word names, and the arguments for it, not yet
    /// read.
    /// - Throws: ``CommandError`` when the word is no command, saying which it may have meant.
    static func command(of line: String) throws(CommandError) -> (CommandCatalog.Entry, CommandArguments) {
        let (word, rest, hasCapitals) = splitWord(line)
        let typed = hasCapitals ? word.lowercased() : word
        guard let entry = CommandCatalog.entry(forWord: typed) else {
            throw CommandError(unknownCommand(word, typed: typed))
        }
        return (entry, CommandArguments(word: typed, text: rest))
    }

    /// `Unknown command "nmae". Did you mean name? Type help for the list of commands.`, made in
    /// one string: scripts with a mistyped word meet it on line after line.
    static func unknownCommand(_ word: String, typed: String) -> String {
        var message = ""
        message.reserveCapacity(112 + 2 * word.utf8.count)
        message += "Unknown command "
        // psql's backslash forms and sqlite3's dot forms are shown as typed (\pset, not "\\pset"),
        // when nothing in them needs escaping.
        if let first = word.utf8.first, first == UInt8(ascii: "\\") || first == UInt8(ascii: "."),
            word.utf8.count > 1, word.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        {
            message += word
        } else {
            TerminalText.appendQuoted(word, to: &message)
        }
        message += "."
        message += hint(for: typed)
        message += " Type help for the list of commands."
        return message
    }

    // MARK: Arguments of the commands

    /// `name [TEXT]`: nil without TEXT.
    static func optionalName(_ arguments: CommandArguments) throws(CommandError) -> String? {
        arguments.text.isEmpty ? nil : try nameArgument(arguments.text)
    }

    /// `up [N]`: a count, 1 without one.
    static func pressCount(_ arguments: CommandArguments) throws(CommandError) -> Int {
        try countArgument(arguments.text, command: arguments.word)
    }

    /// `points [N]`: nil without N.
    static func optionalNumber(_ arguments: CommandArguments) throws(CommandError) -> Double? {
        arguments.text.isEmpty ? nil : try numberArgument(arguments.text, command: arguments.word)
    }

    /// `step N`: one number.
    static func oneNumber(_ arguments: CommandArguments) throws(CommandError) -> Double {
        try numberArgument(arguments.text, command: arguments.word)
    }

    /// Nothing.
    static func noArguments(_ arguments: CommandArguments) throws(CommandError) {
        try noArgument(arguments.text, command: arguments.word)
    }

    /// `show [--json]`: whether `--json` was given.
    static func jsonFlag(_ arguments: CommandArguments) throws(CommandError) -> Bool {
        if arguments.text.isEmpty { return false }
        if arguments.text == "--json" { return true }
        throw CommandError(
            "\(arguments.word) accepts only --json, not \(TerminalText.quoted(arguments.text)).")
    }

    /// `players [N | --page N | --all | --json | --csv]`.
    static func playersRequest(_ arguments: CommandArguments) throws(CommandError) -> PlayersRequest {
        try playersArguments(arguments.text)
    }

    /// `add NAME POINTS`.
    static func nameAndPoints(_ arguments: CommandArguments) throws(CommandError) -> (
        name: String, points: Double
    ) {
        try addArguments(arguments.text)
    }

    /// `select N`: a row number.
    static func row(_ arguments: CommandArguments) throws(CommandError) -> Int {
        try rowArgument(arguments.text, command: arguments.word)
    }

    /// `select N`, `select NAME`.
    static func playerChoice(_ arguments: CommandArguments) throws(CommandError) -> PlayerChoice {
        try choiceArgument(arguments.text, command: arguments.word)
    }

    /// `find TEXT`: the start of a name, read as `name` reads its text.
    static func namePrefix(_ arguments: CommandArguments) throws(CommandError) -> String {
        guard !arguments.text.isEmpty else {
            throw CommandError(
                "\(arguments.word) needs the start of a name, such as \(arguments.word) ann; players lists every player."
            )
        }
        return try nameArgument(arguments.text, command: arguments.word)
    }

    /// `delete N [--yes]`, `delete NAME [--yes]`.
    static func choiceAndConfirmation(_ arguments: CommandArguments) throws(CommandError) -> (
        choice: PlayerChoice, confirmed: Bool
    ) {
        try deleteArguments(arguments.text)
    }

    /// `source FILE`: the path, read as a name is.
    static func path(_ arguments: CommandArguments) throws(CommandError) -> String {
        guard !arguments.text.isEmpty else {
            throw CommandError(
                "\(arguments.word) needs the path of a file of commands, such as \(arguments.word) setup.txt."
            )
        }
        return try nameArgument(arguments.text, what: "path", command: arguments.word)
    }

    /// `output [FILE]`: the file results go to; nil without one (back to standard output).
    static func optionalResultsFile(_ arguments: CommandArguments) throws(CommandError) -> String? {
        if arguments.text.isEmpty { return nil }
        if arguments.text.hasPrefix("|") {
            throw CommandError(
                "\(arguments.word) writes to a file; to send results to a program, run playerform -c ... | PROGRAM."
            )
        }
        return try nameArgument(arguments.text, what: "path", command: arguments.word)
    }

    /// `once FILE`: the file the next command's results go to.
    static func resultsFile(_ arguments: CommandArguments) throws(CommandError) -> String {
        guard let path = try optionalResultsFile(arguments) else {
            throw CommandError(
                "\(arguments.word) needs the file for the next command's results, such as \(arguments.word) out.txt."
            )
        }
        return path
    }

    /// `mode [table | csv | json | line | unaligned]` (also `\pset format ...`): nil without a mode.
    ///
    /// sqlite3's `column`, `box` and `markdown`, and psql's `aligned` and `wrapped`, are tables;
    /// sqlite3's `list` is psql's `unaligned`.
    static func outputMode(_ arguments: CommandArguments) throws(CommandError) -> OutputMode? {
        var words = arguments.text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" })
        // psql's form: \pset format csv.
        if words.first == "format" { words.removeFirst() }
        guard let word = words.first else { return nil }
        if word == "pager" {
            throw CommandError("The pager is turned on and off with pager on and pager off.")
        }
        let accepted =
            "table, csv, json, line or unaligned (psql's aligned is table, sqlite3's list is unaligned)"
        guard words.count == 1 else {
            throw CommandError("\(arguments.word) takes one mode, \(accepted).")
        }
        switch word {
        case "table", "column", "box", "markdown", "aligned", "wrapped": return .table
        case "csv": return .csv
        case "json": return .json
        case "line": return .line
        case "unaligned", "list": return .unaligned
        default:
            throw CommandError(
                "\(arguments.word) takes \(accepted), not \(TerminalText.quoted(String(word))).")
        }
    }

    /// `pager [on | off]`: nil without either.
    static func onOrOff(_ arguments: CommandArguments) throws(CommandError) -> Bool? {
        switch arguments.text.lowercased() {
        case "": return nil
        // psql's words for a boolean setting too.
        case "on", "true", "t", "tr", "tru", "yes", "y", "ye", "1": return true
        case "off", "of", "false", "f", "fa", "fal", "fals", "no", "n", "0": return false
        default:
            throw CommandError(
                "\(arguments.word) takes on or off (or true, false, yes, no, 1, 0, as psql does), not"
                    + " \(TerminalText.quoted(arguments.text)).")
        }
    }

    /// `help [COMMAND]`: the name of the command, also when an alias was typed; nil without one.
    static func helpTopic(_ arguments: CommandArguments) throws(CommandError) -> String? {
        if arguments.text.isEmpty { return nil }
        let topic = arguments.text.lowercased()
        guard let entry = CommandCatalog.entry(forWord: topic) else {
            throw CommandError(
                "There is no help on \(TerminalText.quoted(arguments.text)).\(hint(for: topic)) Topics: "
                    + CommandCatalog.names.joined(separator: ", ") + ".")
        }
        return entry.name
    }

    /// Reads a number typed by a user: a decimal literal such as `12`, `-3.5`, `.5` or `1e3`.
    ///
    /// `-0` is 0.
    /// - Throws: ``CommandError`` for anything else (`NaN`, `inf`, `0x10`, `12abc`) and for
    ///   numbers too large for a Double (`1e999`).
    public static func number(_ text: String) throws(CommandError) -> Double {
        guard DecimalText.isLiteral(text) else {
            throw CommandError(
                "\(TerminalText.quoted(text)) is not a number; type a decimal number such as 12, -3.5 or 1e3."
            )
        }
        var bytes = text
        let value = bytes.withUTF8 { DecimalText.value(of: $0) }
        guard value.isFinite else {
            throw CommandError(
                "\(TerminalText.quoted(text)) is too large; numbers must lie between -1.79e308 and 1.79e308.")
        }
        return value == 0 ? 0 : value
    }

    /// Reads a count of presses: a whole number such as `3`.
    ///
    /// The sign is kept, so the view model can say which counts it accepts.
    public static func count(_ text: String) throws(CommandError) -> Int {
        let digits = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw CommandError("\(TerminalText.quoted(text)) is not a count; type a whole number such as 3.")
        }
        guard let value = Int(text) else {
            throw CommandError(
                text.hasPrefix("-")
                    ? "\(TerminalText.quoted(text)) is too small; the stepper can be pressed 1 or more times."
                    : "\(TerminalText.quoted(text)) is too large; a count is a whole number up to \(Int.max)."
            )
        }
        return value
    }

    // MARK: Pieces

    /// The first word (up to a space or tab) and the rest of the line, both without surrounding
    /// spaces and tabs, and whether the word has capital ASCII letters (the command words are
    /// matched without them), in one pass.
    static func splitWord(_ line: String) -> (word: String, rest: String, hasCapitals: Bool) {
        var line = line
        return line.withUTF8 { bytes in
            var start = 0
            while start < bytes.count && isBlank(bytes[start]) { start += 1 }
            var wordEnd = start
            var hasCapitals = false
            while wordEnd < bytes.count && !isBlank(bytes[wordEnd]) {
                hasCapitals = hasCapitals || (bytes[wordEnd] >= 0x41 && bytes[wordEnd] <= 0x5A)
                wordEnd += 1
            }
            return (string(bytes, start..<wordEnd), trimmedString(bytes, from: wordEnd), hasCapitals)
        }
    }

    static func trimmed(_ text: String) -> String {
        var text = text
        return text.withUTF8 { trimmedString($0, from: 0) }
    }

    static func trimmed(_ text: Substring) -> String {
        trimmed(String(text))
    }

    /// `bytes` from `offset` on, without spaces and tabs at either end.
    private static func trimmedString(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> String {
        var start = offset
        while start < bytes.count && isBlank(bytes[start]) { start += 1 }
        var end = bytes.count
        while end > start && isBlank(bytes[end - 1]) { end -= 1 }
        return string(bytes, start..<end)
    }

    /// The text of a range of a valid UTF-8 buffer.
    ///
    /// The ranges here start and end at a blank, the ends of the line or the ends of the text,
    /// never inside a character's bytes, since blanks are ASCII: so they are valid UTF-8 too.
    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// The name: the rest of the line as it is, or a double-quoted string read in the notation
    /// that `TerminalText.quoted(_:)` shows names in: `\"`, `\\`, `\t`, `\n`, `\r` and
    /// `\u{HEX}` stand for a quote, a backslash, a tab, a line feed, a carriage return and the
    /// code point HEX.
    ///
    /// So a name that output shows quoted reads back as the same name. A name may also be typed
    /// in single quotes, as psql reads a literal: everything up to the closing quote as it is,
    /// with two quotes for a quote inside (a name that starts with a single quote is typed in
    /// double quotes, `"'Ace"`).
    ///
    /// `what` and `command` name the argument and its command in messages (`path`, `source`).
    static func nameArgument(_ rest: String, what: String = "name", command: String = "name")
        throws(CommandError) -> String
    {
        // Scalars, not characters: a combining mark after the quote makes one character with it.
        if rest.unicodeScalars.first == "'" {
            return try singleQuotedName(rest, what: what, command: command)
        }
        guard rest.unicodeScalars.first == "\"" else { return rest }
        var result = ""
        var scalars = rest.unicodeScalars.dropFirst()
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            switch scalar {
            case "\\":
                result.unicodeScalars.append(try escape(in: &scalars, what: what))
            case "\"":
                guard trimmed(String(scalars)).isEmpty else {
                    throw CommandError(
                        "Nothing may follow the closing quote of a \(what); to put a quote inside it, type \\\"."
                    )
                }
                return result
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        let text = what == "path" ? "FILE" : "TEXT"
        throw CommandError(
            "The \(what) has no closing quote; type \(command) \"\(text)\" or \(command) \(text).")
    }

    /// A name in single quotes, two quotes standing for one inside.
    private static func singleQuotedName(_ rest: String, what: String, command: String) throws(CommandError)
        -> String
    {
        var result = ""
        var scalars = rest.unicodeScalars.dropFirst()
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            guard scalar == "'" else {
                result.unicodeScalars.append(scalar)
                continue
            }
            if scalars.first == "'" {
                scalars = scalars.dropFirst()
                result.unicodeScalars.append(scalar)
                continue
            }
            guard trimmed(String(scalars)).isEmpty else {
                throw CommandError(
                    "Nothing may follow the closing quote of a \(what); to put a ' inside single quotes, type ''."
                )
            }
            return result
        }
        throw CommandError(
            "The \(what) has no closing quote; type \(command) '\(what == "path" ? "FILE" : "TEXT")', or"
                + " \(command) \"'\(what == "path" ? "FILE" : "TEXT")\" for a \(what) that starts with '."
        )
    }

    /// Whether `text` starts with a quote that begins a quoted name.
    static func startsQuoted(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.first == "\"" || text.unicodeScalars.first == "'"
    }

    /// Reads the escape after a backslash in a quoted name.
    private static func escape(in scalars: inout Substring.UnicodeScalarView, what: String)
        throws(CommandError)
        -> Unicode.Scalar
    {
        let accepted = #"inside quotes, type \" \\ \t \n \r or \u{HEX} (such as \u{200B})"#
        guard let next = scalars.first else {
            throw CommandError("A quoted \(what) ends with a lone backslash; " + accepted + ".")
        }
        scalars = scalars.dropFirst()
        switch next {
        case "\"", "\\": return next
        case "t": return "\t"
        case "n": return "\n"
        case "r": return "\r"
        case "u":
            let digits = scalars.dropFirst().prefix { $0 != "}" }
            guard scalars.first == "{", digits.endIndex < scalars.endIndex, (1...6).contains(digits.count),
                digits.allSatisfy(\.properties.isASCIIHexDigit),
                let value = UInt32(String(digits), radix: 16), let code = Unicode.Scalar(value)
            else {
                throw CommandError(
                    "\\u in a quoted \(what) needs a code point in braces, such as \\u{200B}, from 0 to 10FFFF "
                        + "and not a surrogate.")
            }
            scalars = scalars[scalars.index(after: digits.endIndex)...]
            return code
        default:
            throw CommandError(
                "\\\(TerminalText.escaped(String(next))) is not an escape; " + accepted + ".")
        }
    }

    static func numberArgument(_ rest: String, command: String) throws(CommandError) -> Double {
        guard !rest.isEmpty else {
            throw CommandError("\(command) needs a number, such as \(command) 5.")
        }
        guard !rest.utf8.contains(where: isBlank) else {
            throw CommandError("\(command) takes one number, such as \(command) 5.")
        }
        return try number(rest)
    }

    static func countArgument(_ rest: String, command: String) throws(CommandError) -> Int {
        if rest.isEmpty { return 1 }
        guard !rest.utf8.contains(where: isBlank) else {
            throw CommandError("\(command) takes one count, such as \(command) 3.")
        }
        return try count(rest)
    }

    static func noArgument(_ rest: String, command: String) throws(CommandError) {
        guard rest.isEmpty else {
            throw CommandError("\(command) takes no arguments.")
        }
    }

    /// `add NAME POINTS`: the points are the last word; the name is everything before them,
    /// read as `name` reads its text.
    static func addArguments(_ rest: String) throws(CommandError) -> (name: String, points: Double) {
        let usage = "type add NAME POINTS, such as add Bob 120."
        let whole = trimmed(rest[...])
        // A quoted name and nothing after it: the points are missing, whatever blanks it holds.
        if startsQuoted(whole), (try? nameArgument(whole)) != nil {
            throw CommandError("add needs points after the name; " + usage)
        }
        let bytes = rest.utf8
        guard let blank = bytes.lastIndex(where: isBlank) else {
            throw CommandError("add needs a name and points; " + usage)
        }
        let name = try nameArgument(trimmed(rest[..<blank]), command: "add")
        let pointsText = String(rest[bytes.index(after: blank)...])
        let points = try number(pointsText)
        return (name, points)
    }

    /// `players`, `players N`, `players --page N`, `players --all`, `players --json`, `players --csv`.
    static func playersArguments(_ rest: String) throws(CommandError) -> PlayersRequest {
        let words = rest.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let usage =
            "type players, players N (or --page N) for page N, players --all, players --json, or players --csv."
        switch words.count {
        case 0: return .currentPage
        case 1 where words[0] == "--all": return .all
        case 1 where words[0] == "--json": return .json
        case 1 where words[0] == "--csv": return .csv
        case 1 where !words[0].hasPrefix("--"): return .page(try pageNumber(words[0]))
        case 2 where words[0] == "--page": return .page(try pageNumber(words[1]))
        default: throw CommandError("players does not accept \(TerminalText.quoted(rest)); " + usage)
        }
    }

    /// A page number: a whole number from 1.
    static func pageNumber(_ text: String) throws(CommandError) -> Int {
        guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let page = Int(text), page >= 1 else {
            throw CommandError(
                "\(TerminalText.quoted(text)) is not a page number; pages are numbered from 1, such as players 2."
            )
        }
        return page
    }

    /// `delete N [--yes]`, with `--yes` before or after N.
    static func deleteArguments(_ rest: String) throws(CommandError) -> (
        choice: PlayerChoice, confirmed: Bool
    ) {
        // --yes first or last; a name in between may hold spaces.
        var text = trimmed(rest)
        var confirmed = false
        if text == "--yes" {
            text = ""
            confirmed = true
        } else if text.hasSuffix(" --yes") || text.hasSuffix("\t--yes") {
            text = trimmed(String(text.dropLast(5)))
            confirmed = true
        } else if text.hasPrefix("--yes ") || text.hasPrefix("--yes\t") {
            text = trimmed(String(text.dropFirst(5)))
            confirmed = true
        }
        return (try choiceArgument(text, command: "delete"), confirmed)
    }

    /// The player a roster command means: a row number as the table shows it, or a name (quoted
    /// to keep spaces at its ends, or to name a player whose name is a number).
    static func choiceArgument(_ rest: String, command: String) throws(CommandError) -> PlayerChoice {
        guard !rest.isEmpty else {
            throw CommandError(
                "\(command) needs a row number or a name, such as \(command) 1 or \(command) \"Ann Lee\";"
                    + " players lists the rows.")
        }
        // A number, as the table shows rows, is a row; so is anything that reads as a number
        // (-1, 2.5), which is refused as one.
        if !startsQuoted(rest), DecimalText.isLiteral(rest) {
            return .row(try rowArgument(rest, command: command))
        }
        // Several numbers are several rows, which one command does not take.
        let words = rest.split(whereSeparator: { $0 == " " || $0 == "\t" })
        if !startsQuoted(rest), words.count > 1, words.allSatisfy({ DecimalText.isLiteral(String($0)) }) {
            throw CommandError(
                "\(command) takes one row number or one name, such as \(command) 1; type one \(command) a row."
            )
        }
        return .name(try nameArgument(rest, command: command))
    }

    /// A row number as the table shows it: a whole number from 1.
    static func rowArgument(_ rest: String, command: String) throws(CommandError) -> Int {
        guard !rest.isEmpty else {
            throw CommandError("\(command) needs a row number, such as \(command) 1; players lists the rows.")
        }
        guard !rest.utf8.contains(where: isBlank) else {
            throw CommandError("\(command) takes one row number, such as \(command) 1.")
        }
        let digits = rest.utf8.allSatisfy { (0x30...0x39).contains($0) }
        if digits, Int(rest) == nil {
            throw CommandError(
                "\(TerminalText.quoted(rest)) is too large for a row number; players lists the rows.")
        }
        guard digits, let row = Int(rest), row >= 1 else {
            throw CommandError(
                "\(TerminalText.quoted(rest)) is not a row number; rows are numbered from 1, as players shows them."
            )
        }
        return row
    }

    /// `watch [players] [SECONDS [COUNT]]`, and psql's `\watch i=SECONDS c=COUNT` (also
    /// `interval=` and `count=`): at most every SECONDS (2 by default, as psql's; 0 for every
    /// change), COUNT drawings (nil for until Ctrl-C).
    static func watchRequest(_ arguments: CommandArguments) throws(CommandError) -> WatchRequest {
        let command = arguments.word
        var words = arguments.text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        if words.first?.lowercased() == "players" { words.removeFirst() }
        var request = WatchRequest()
        var positional = 0
        let usage = "type \(command) [SECONDS [COUNT]], such as \(command) 2 or \(command) 1 5."
        for word in words {
            let (key, value): (String, String)
            if let equals = word.firstIndex(of: "=") {
                (key, value) = (word[..<equals].lowercased(), String(word[word.index(after: equals)...]))
            } else {
                positional += 1
                (key, value) = (positional == 1 ? "i" : positional == 2 ? "c" : "", word)
            }
            switch key {
            case "i", "interval":
                guard DecimalText.isLiteral(value), let seconds = Double(value),
                    (0...86_400).contains(seconds)
                else {
                    throw CommandError(
                        "\(TerminalText.quoted(value)) is not a number of seconds; \(command) takes 0 to 86400"
                            + " seconds between drawings, such as \(command) 2.")
                }
                request.seconds = seconds
            case "c", "count":
                guard value.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let count = Int(value),
                    count >= 1
                else {
                    throw CommandError(
                        "\(TerminalText.quoted(value)) is not a count; \(command) draws the page COUNT times,"
                            + " a whole number from 1, such as \(command) 1 5.")
                }
                request.count = count
            default:
                throw CommandError("\(command) does not accept \(TerminalText.quoted(word)); " + usage)
            }
        }
        return request
    }

    private static func hint(for word: String) -> String {
        guard let suggestion = CommandCatalog.suggestion(for: word) else { return "" }
        return " Did you mean \(suggestion)?"
    }
}

/// How results that are rows (`players`) and records (`show`, `rules`) are written for the
/// session: sqlite3's `.mode` and psql's `\pset format`.
public enum OutputMode: String, Equatable, Sendable, CaseIterable {
    /// Aligned columns under a header, with a title (the default).
    case table
    /// CSV with a header row, as `players --csv` writes it.
    case csv
    /// One JSON value on one line, as `--json` writes it.
    case json
    /// Each row as `column = value` lines, a blank line between rows (sqlite3's `.mode line`,
    /// psql's expanded display, `\x`).
    case line
    /// Each row on one line, its fields between `|`, under a header row (psql's `unaligned`,
    /// `-A`; sqlite3's `list`).
    case unaligned
}

/// What `watch` (`\watch`) does: how often it may draw the page, and how many times.
public struct WatchRequest: Equatable, Sendable {
    /// The least time between two drawings, in seconds.
    public var seconds: Double = 2
    /// How many drawings, the first included; nil for until Ctrl-C.
    public var count: Int?

    /// A request; by default at most every 2 seconds, until Ctrl-C.
    public init(seconds: Double = 2, count: Int? = nil) {
        self.seconds = seconds
        self.count = count
    }
}

/// Which player `select` and `delete` mean.
public enum PlayerChoice: Equatable, Sendable {
    /// The player in row N of the roster, counting from 1.
    case row(Int)
    /// The player with this name, as names are compared (case, width and invisible characters
    /// aside).
    case name(String)
}

/// What `players` shows.
public enum PlayersRequest: Equatable, Sendable {
    /// The page the roster is on (`players`).
    case currentPage
    /// Page N, counting from 1 (`players N`, `players --page N`).
    case page(Int)
    /// Every row, read a page at a time (`players --all`).
    case all
    /// The whole roster as one JSON array on one line, read a page at a time (`players --json`).
    case json
    /// The whole roster as CSV with a header row, read a page at a time (`players --csv`).
    case csv
}
