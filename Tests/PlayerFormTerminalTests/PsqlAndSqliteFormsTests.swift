import Foundation
import Glibc
import PlayerForm
import PlayerFormScores
import PlayerFormTerminalTesting
import Synchronization
import Testing

@testable import PlayerFormTerminal

/// A new, empty folder for a spec's files, which the spec removes.
private func newFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "playerform-spec-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// The forms of the REPL's commands that psql and sqlite3 users type, and `timing`.
@Suite("psql's backslash forms, sqlite3's dot forms, and timing")
struct PsqlAndSqliteFormsTests {
    @Test("every backslash and dot form runs its command, in any case, as the command's own word does")
    func formsParse() throws {
        let expected: [(String, Command)] = [
            (".quit", .quit), ("\\q", .quit), (".exit", .quit), (".QUIT", .quit),
            ("\\?", .help(nil)), ("\\h", .help(nil)), (".help", .help(nil)), (".help \\q", .help("quit")),
            (".read setup.txt", .source("setup.txt")), ("\\include setup.txt", .source("setup.txt")),
            ("\\i setup.txt", .source("setup.txt")), (".version", .version),
            ("\\timing", .timing(nil)), ("\\timing on", .timing(true)), (".timer off", .timing(false)),
            ("timing", .timing(nil)), ("\\TIMING OFF", .timing(false)), ("\\quit", .quit),
            ("\\timing true", .timing(true)), (".timer no", .timing(false)), ("pager 1", .pager(true)),
            (".headers 0", .headers(false)), ("\\x yes", .expanded(true)), ("\\t FALSE", .tuples(false)),
            // psql reads a boolean's unique prefixes too.
            ("\\x t", .expanded(true)), ("headers n", .headers(false)), ("\\t of", .tuples(false)),
        ]
        for (line, command) in expected {
            #expect(try CommandParser.parse(line) == command, "\(line)")
        }
        #expect(
            throws: CommandError(
                #".timer takes on or off (or true, false, yes, no, 1, 0, as psql does), not "maybe"."#)
        ) {
            try CommandParser.parse(".timer maybe")
        }
        // A path's quotes are a path's, in the words of the command typed.
        #expect(throws: CommandError(#"The path has no closing quote; type .output "FILE" or .output FILE."#))
        {
            try CommandParser.parse(#".output "my file"#)
        }
        #expect(
            throws: CommandError(
                #"The path has no closing quote; type \i 'FILE', or \i "'FILE" for a path that starts with '."#
            )
        ) {
            try CommandParser.parse(#"\i 'my file"#)
        }
        #expect(try CommandParser.parse("\\o 'my file.txt'") == .output("my file.txt"))
    }

    @Test(
        "an unknown backslash or dot command is shown as typed, with a suggestion of its own family; anything unprintable is still escaped"
    )
    func unknownForms() {
        let cases: [(String, String)] = [
            (".quti", "Unknown command .quti. Did you mean .quit? Type help for the list of commands."),
            ("\\tim", "Unknown command \\tim. Did you mean \\timing? Type help for the list of commands."),
            (".rea x", "Unknown command .rea. Did you mean .read? Type help for the list of commands."),
            ("\\qq", "Unknown command \\qq. Did you mean \\q? Type help for the list of commands."),
            ("\\zzzzzz", "Unknown command \\zzzzzz. Type help for the list of commands."),
            // A lone backslash or dot is shown quoted, as any other word, and suggests nothing.
            (".", #"Unknown command ".". Type help for the list of commands."#),
            ("\\", #"Unknown command "\\". Type help for the list of commands."#),
            // A control character in the word: quoted and escaped as all text from users is.
            (
                "\\q\u{1B}[2J",
                #"Unknown command "\\q\u{1B}[2J". Type help for the list of commands."#
            ),
            // A plain word still gets a command name, not a form.
            ("qiut", #"Unknown command "qiut". Did you mean quit? Type help for the list of commands."#),
        ]
        for (line, message) in cases {
            #expect(throws: CommandError(message), "\(line)") { try CommandParser.parse(line) }
        }
    }

    @Test(
        "help lists each command's backslash and dot forms beside it, and help of a form explains its command"
    )
    func helpListsForms() async {
        let output = CapturedOutput()
        let session = REPLSession(
            form: PlayerViewModel(store: InMemoryScoreStore()),
            reader: ScriptedLineReader(text: "help\n\\? \\q\n"), output: output)
        #expect(await session.run() == .succeeded)
        let results = output.results
        #expect(results.contains("  quit   (also \\q, \\quit, .quit)"))
        #expect(results.contains("  source FILE   (also \\i, \\include, .read)"))
        #expect(results.contains("  timing [on | off]   (also \\timing, .timer)"))
        #expect(results.contains("usage: quit   (also \\q, \\quit, .quit)"), "\(results.suffix(3))")
    }

    @Test(
        "timing writes each command's time after its output, on standard error in a script, as psql writes it; not for blank lines, nor for turning it off"
    )
    func timingInAScript() async {
        // Two readings of the clock a command (one for a blank line or a comment, whose time is
        // not written); the second `up` takes more than a minute.
        let readings = Mutex<[UInt64]>([
            0, 1_500_000, 2_000_000, 2_100_000, 3_000_000, 4_250_000, 10_000_000, 71_244_500_000,
        ])
        let clock: @Sendable () -> UInt64 = { readings.withLock { $0.isEmpty ? 0 : $0.removeFirst() } }
        let output = CapturedOutput()
        let session = REPLSession(
            form: PlayerViewModel(store: InMemoryScoreStore()),
            reader: ScriptedLineReader(text: "\\timing\nname Ann\n\n# comment\nfly\nup\n\\timing\nup\n"),
            output: output, options: REPLSession.Options(nanoseconds: clock))
        #expect(await session.run() == .failed)
        #expect(
            output.lines == [
                .out("Timing is on."),
                .out("name: \"Ann\""), .error("Time: 1.500 ms"),
                .error(
                    "line 5: Unknown command \"fly\". Type help for the list of commands."),
                .error("Time: 1.250 ms"),
                .out("points: 101"), .out("point updates left: 9"), .error("Time: 71234.500 ms (01:11.235)"),
                .out("Timing is off."),
                .out("points: 102"), .out("point updates left: 8"),
            ])
    }

    @Test(
        "timing writes the time of each line of a sourced file, and not once more for source itself, as psql's \\i"
    )
    func timingOfSource() async throws {
        let folder = try newFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("two.txt")
        try Data("name A\nname B\n".utf8).write(to: file)
        let ticks = Mutex<UInt64>(0)
        let clock: @Sendable () -> UInt64 = {
            ticks.withLock {
                $0 += 1_000_000; return $0
            }
        }
        let output = CapturedOutput()
        let session = REPLSession(
            form: PlayerViewModel(store: InMemoryScoreStore()),
            reader: ScriptedLineReader(text: "\\timing\nsource \(file.path)\nname C\n"),
            output: output, options: REPLSession.Options(nanoseconds: clock))
        #expect(await session.run() == .succeeded)
        #expect(
            output.lines == [
                .out("Timing is on."), .out(#"name: "A""#), .error("Time: 1.000 ms"), .out(#"name: "B""#),
                .error("Time: 1.000 ms"), .out(#"name: "C""#), .error("Time: 1.000 ms"),
            ])
    }
}

/// Commands that change a setting or read the store again answer, never with silence.
@Suite("pager and refresh always answer")
struct AnsweringCommandsTests {
    @Test("pager on and pager off say what they set, as pager alone says it")
    func pagerSays() async {
        let output = CapturedOutput()
        let session = REPLSession(
            form: PlayerViewModel(store: InMemoryScoreStore()),
            reader: ScriptedLineReader(text: "pager off\npager on\npager\n"), output: output)
        #expect(await session.run() == .succeeded)
        // A script never pages, and says so each time.
        #expect(output.results == ["pager: not used here", "pager: not used here", "pager: not used here"])
        // At a terminal with a pager.
        let atTerminal = CapturedOutput()
        let interactive = REPLSession(
            form: PlayerViewModel(store: InMemoryScoreStore()),
            reader: PlaybackReader(lines: ["pager off", "pager", "pager on"], interactive: true),
            output: atTerminal,
            terminal: REPLSession.Terminal(
                pager: PagerSettings(command: "less -FRX", rows: { 24 }, columns: { 80 })))
        _ = await interactive.run()
        #expect(
            atTerminal.results.filter { $0.hasPrefix("pager:") } == ["pager: off", "pager: off", "pager: on"])
    }

    @Test(
        "refresh ends with the count it read: alone when nothing changed, after the change lines when something did"
    )
    func refreshSays() async throws {
        let store = InMemoryScoreStore()
        _ = try await store.upload(name: "Ann", points: 1)
        let (form, roster) = sessionViewModels(rules: .defaults, store: store, uploadDelay: .zero)
        let output = CapturedOutput()
        // Another session's upload lands while the script reads its second line.
        let reader = ReaderWithAnUpload(lines: ["refresh", "refresh"], store: store)
        let session = REPLSession(form: form, roster: roster, reader: reader, output: output)
        #expect(await session.run() == .succeeded)
        #expect(output.results == ["Up to date: 1 player.", "+ 2 Bob 2", "Up to date: 2 players."])
    }
}

/// A script of lines in which another session uploads Bob while the second line is read.
private final class ReaderWithAnUpload: LineReader, @unchecked Sendable {
    // @unchecked: used by one session at a time, from one task.
    private var lines: [String]
    private var read = 0
    private let store: InMemoryScoreStore
    let isInteractive = false

    init(lines: [String], store: InMemoryScoreStore) {
        self.lines = lines
        self.store = store
    }

    func read(prompt: String) async -> LineInput {
        read += 1
        if read == 2 { _ = try? await store.upload(name: "Bob", points: 2) }
        return lines.isEmpty ? .end : .line(Array(lines.removeFirst().utf8))
    }
}

/// `output FILE` (psql's `\o`, sqlite3's `.output`) and `once FILE` (`.once`).
@Suite("results sent to a file for a while")
struct ResultsToAFileTests {
    /// A new folder, removed by the caller.
    private static func folder() throws -> URL { try newFolder() }

    /// Runs `script` in a session whose output is coloured, as at a terminal; its output.
    private static func run(
        _ script: String, refusing refusal: (@Sendable (String) -> String?)? = nil
    ) async -> (REPLSession.Outcome, CapturedOutput) {
        let output = CapturedOutput()
        let session = REPLSession(
            form: PlayerViewModel(store: InMemoryScoreStore()), reader: ScriptedLineReader(text: script),
            output: output, terminal: REPLSession.Terminal(style: TerminalStyle(usesColor: true)),
            options: REPLSession.Options(resultsFileRefusal: refusal))
        return (await session.run(), output)
    }

    @Test(
        "output FILE sends the results of the commands that follow to FILE as plain text until output alone; errors stay on the terminal"
    )
    func outputUntilRestored() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("results.txt")
        try Data("old contents\n".utf8).write(to: file)
        let (outcome, output) = await Self.run(
            "show\n\\o \(file.path)\nshow\nname Bob\nfly\n.output\nname Cy\n")
        #expect(outcome == .failed)
        let written = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        let shown = output.results.prefix { !$0.hasPrefix("name:") }
        // The form drawn at the terminal, in colour, and the same drawn into the file, plain.
        #expect(shown.contains { $0.contains("\u{1B}[32myes\u{1B}[0m") }, "\(shown)")
        #expect(
            written == shown.map(TerminalStyle.withoutColours).joined(separator: "\n") + "\nname: \"Bob\"\n")
        #expect(!written.contains("\u{1B}"))
        #expect(output.results.last == #"name: "Cy""#)
        #expect(output.results.count == shown.count + 1)
        #expect(output.errors.count == 1 && output.errors[0].contains("fly"))
    }

    @Test(
        "at a terminal, each command's time is written after its output on the terminal, never into the results' file"
    )
    func timingAtATerminal() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("timed.txt")
        let readings = Mutex<UInt64>(0)
        let clock: @Sendable () -> UInt64 = {
            readings.withLock {
                $0 += 2_000_000; return $0
            }
        }
        let output = CapturedOutput()
        let session = REPLSession(
            form: PlayerViewModel(store: InMemoryScoreStore()),
            reader: PlaybackReader(
                lines: ["timing on", "\\o \(file.path)", "name Bob", "\\o"], interactive: true),
            output: output, options: REPLSession.Options(nanoseconds: clock))
        _ = await session.run()
        #expect(
            output.lines == [
                .out("Timing is on."), .out("Time: 2.000 ms"), .out("Time: 2.000 ms"), .out("Time: 2.000 ms"),
            ])
        #expect(String(decoding: try Data(contentsOf: file), as: UTF8.self) == "name: \"Bob\"\n")
    }

    @Test(
        "a FIFO no program reads is refused at once; a file whose writes fail fails the command and sends results back; a file being read is refused; stdout and - mean output alone"
    )
    func hostileFiles() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let script = folder.appendingPathComponent("script.txt")
        try Data("\\o \(script.path)\nname Sourced\n".utf8).write(to: script)
        let (outcome, output) = await Self.run(
            "\\o \(fifo)\n\\o /dev/full\nname Full\nname Back\nsource \(script.path)\n.output stdout\n\\o -\n"
        )
        #expect(outcome == .failed)
        #expect(
            output.errors.prefix(1) == [
                "line 1: Cannot write the results to \"\(fifo)\": it is a FIFO that no program reads."
            ])
        // The failed write is said on the process's standard error (once, naming the file); the
        // command failed, and its result is lost with the file, not written twice.
        #expect(
            output.errors.contains {
                $0.hasPrefix("\(script.path):1: \"\(script.path)\" is being read")
            }, "\(output.errors)")
        #expect(
            output.results.map(TerminalStyle.withoutColours) == [
                #"name: "Back""#, #"name: "Sourced""#,
            ])
        #expect(try String(contentsOf: script, encoding: .utf8).hasPrefix("\\o "), "the script is whole")
        let (full, fullOutput) = await Self.run("\\o /dev/full\nname Full\nname Back\n")
        #expect(full == .failed, "a write to the file that failed fails the command")
        #expect(fullOutput.results.map(TerminalStyle.withoutColours) == [#"name: "Back""#])
    }

    @Test(
        "once inside output sends the next command to its own file, then back to output's; once before source covers the whole source"
    )
    func onceWithOthers() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (outer, once, sourced) = (
            folder.appendingPathComponent("outer.txt"), folder.appendingPathComponent("once.txt"),
            folder.appendingPathComponent("sourced.txt")
        )
        let sub = folder.appendingPathComponent("sub.txt")
        try Data("name A\nname B\n".utf8).write(to: sub)
        let (outcome, output) = await Self.run(
            "\\o \(outer.path)\n.once \(once.path)\nname Once\nname Outer\n\\o\n"
                + ".once \(sourced.path)\nsource \(sub.path)\nname After\n")
        #expect(outcome == .succeeded)
        #expect(try String(contentsOf: once, encoding: .utf8) == "name: \"Once\"\n")
        #expect(try String(contentsOf: outer, encoding: .utf8) == "name: \"Outer\"\n")
        #expect(try String(contentsOf: sourced, encoding: .utf8) == "name: \"A\"\nname: \"B\"\n")
        #expect(output.results.map(TerminalStyle.withoutColours) == [#"name: "After""#])
    }

    @Test("once FILE sends the next command's results only; blank lines and comments between do not count")
    func onceForTheNextCommand() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("once.txt")
        let (outcome, output) = await Self.run(".once \(file.path)\n\n# a comment\nname Bob\nname Cy\n")
        #expect(outcome == .succeeded)
        #expect(String(decoding: try Data(contentsOf: file), as: UTF8.self) == "name: \"Bob\"\n")
        #expect(output.results.map(TerminalStyle.withoutColours) == [#"name: "Cy""#])
    }

    @Test(
        "a file that must not be emptied, or cannot be written, is refused and the results stay where they were"
    )
    func refusedFiles() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let kept = folder.appendingPathComponent("scores.sqlite")
        try Data("a database\n".utf8).write(to: kept)
        let (outcome, output) = await Self.run(
            "\\o \(kept.path)\n\\o \(folder.path)\n\\o |cat\nname Bob\n",
            refusing: { $0 == kept.path ? "\($0) is the score database" : nil })
        #expect(outcome == .failed)
        #expect(try Data(contentsOf: kept) == Data("a database\n".utf8), "the refused file is left as it was")
        #expect(
            output.errors == [
                "line 1: \(kept.path) is the score database",
                "line 2: Cannot write the results to \"\(folder.path)\": Is a directory.",
                "line 3: \\o writes to a file; to send results to a program, run playerform -c ... | PROGRAM.",
            ])
        #expect(output.results.map(TerminalStyle.withoutColours) == [#"name: "Bob""#])
    }
}

/// `select NAME` and `delete NAME`: players found by name, as psql users find rows by a key.
@Suite("players found by name")
struct PlayersByNameTests {
    @Test(
        "select and delete take a row number or a name: a number is a row, anything else (or quoted) a name")
    func parse() throws {
        #expect(try CommandParser.parse("select 12") == .select(row: 12))
        #expect(try CommandParser.parse("select Ann Lee") == .selectNamed("Ann Lee"))
        #expect(try CommandParser.parse(#"select "12""#) == .selectNamed("12"))
        #expect(try CommandParser.parse(#"select " Ann ""#) == .selectNamed(" Ann "))
        #expect(try CommandParser.parse("delete Ann Lee --yes") == .deleteNamed("Ann Lee", confirmed: true))
        #expect(try CommandParser.parse("delete --yes Bob") == .deleteNamed("Bob", confirmed: true))
        #expect(try CommandParser.parse(#"delete "--yes""#) == .deleteNamed("--yes", confirmed: false))
        #expect(try CommandParser.parse("delete 3 --yes") == .delete(row: 3, confirmed: true))
        #expect(try CommandParser.parse("find ann lee") == .find("ann lee"))
        #expect(try CommandParser.parse(#"find " ann""#) == .find(" ann"))
        #expect(
            throws: CommandError(
                "find needs the start of a name, such as find ann; players lists every player.")
        ) {
            try CommandParser.parse("find")
        }
    }

    @Test(
        "a name in single quotes is read as psql reads a literal: two quotes are one, a quote inside a name is kept, and an unclosed one is refused"
    )
    func singleQuotes() throws {
        #expect(try CommandParser.parse("add 'Single Quoted' 5") == .add(name: "Single Quoted", points: 5))
        #expect(try CommandParser.parse("name ' Ann '") == .name(" Ann "))
        #expect(try CommandParser.parse("name 'O''Brien'") == .name("O'Brien"))
        #expect(try CommandParser.parse(#"name 'say "hi"\n'"#) == .name(#"say "hi"\n"#))
        #expect(try CommandParser.parse("name O'Brien") == .name("O'Brien"))
        #expect(try CommandParser.parse("select '12'") == .selectNamed("12"))
        #expect(try CommandParser.parse(#"name "'Ace""#) == .name("'Ace"))
        #expect(try CommandParser.parse("add 'x' 5 ") == .add(name: "x", points: 5))
        #expect(
            throws: CommandError(
                #"The name has no closing quote; type name 'TEXT', or name "'TEXT" for a name that starts with '."#
            )
        ) { try CommandParser.parse("name 'Ace") }
        #expect(
            throws: CommandError(
                "Nothing may follow the closing quote of a name; to put a ' inside single quotes, type ''.")
        ) { try CommandParser.parse("name 'Ann' Lee") }
        // The way out names the command typed, not name.
        #expect(
            throws: CommandError(
                #"The name has no closing quote; type find 'TEXT', or find "'TEXT" for a name that starts with '."#
            )
        ) { try CommandParser.parse("find 'O''") }
        #expect(throws: CommandError(#"The name has no closing quote; type select "TEXT" or select TEXT."#)) {
            try CommandParser.parse(#"select "Ann"#)
        }
        #expect(
            throws: CommandError(
                "add needs points after the name; type add NAME POINTS, such as add Bob 120.")
        ) {
            try CommandParser.parse("add 'Ann Lee'")
        }
    }

    @Test(
        "find lists the players whose names start with TEXT, case and width aside, in the order of their names, with their row numbers, a page at most, in the session's mode"
    )
    func find() async throws {
        let records = ["Colin", "anna", "Ann Lee", "ＡＮＮＥ", "Bob"].enumerated().map { index, name in
            ScoreRecord(
                id: UUID(), name: name, points: Double(index), uploadedAt: Date(timeIntervalSince1970: 0))
        }
        let store = PagedReadsStore(InMemoryScoreStore(records: records + numberedRecords(700)))
        let (form, roster) = sessionViewModels(rules: .defaults, store: store, uploadDelay: .zero)
        let output = CapturedOutput()
        let session = REPLSession(
            form: form, roster: roster,
            reader: ScriptedLineReader(
                text: "select 3\nfind ANN\nfind zz\nfind player 1\nmode csv\nfind 'ａｎｎ'\nmode json\nfind zz\n"
            ),
            output: output)
        store.asked.withLock { $0.limits = [] }
        #expect(await session.run() == .succeeded)
        let results = output.results.map(TerminalStyle.withoutColours)
        let header = "  row  name      points  uploaded (UTC)       selected"
        #expect(
            Array(results.prefix(7)) == [
                "~ 3 Ann Lee 2 *",
                #"Players whose names start with "ANN": 3"#,
                header,
                "    3  Ann Lee        2  1970-01-01 00:00:00  *",
                "    2  anna           1  1970-01-01 00:00:00",
                "    4  ＡＮＮＥ       3  1970-01-01 00:00:00",
                #"No player's name starts with "zz"."#,
            ])
        // 111 names start with "Player 1": the first page of them by name, and a title that says so.
        #expect(
            results[7]
                == #"Players whose names start with "player 1": the first 40 by name; type more of the name for the others"#
        )
        let numbers = results[9..<(9 + 40)].map { $0.split(separator: " ")[0] }
        #expect(numbers.prefix(5) == ["6", "15", "105", "106", "107"], "Player 1, 10, 100, 101, 102")
        #expect(numbers.count == 40 && !results[49].hasPrefix(" "))
        #expect(
            Array(results[49...]) == [
                "mode: csv",
                "name,points,uploadedAt,selected",
                "Ann Lee,2,1970-01-01T00:00:00.000Z,true",
                "anna,1,1970-01-01T00:00:00.000Z,false",
                "ＡＮＮＥ,3,1970-01-01T00:00:00.000Z,false",
                "mode: json",
                "[]",
            ])
        let asked = store.asked.withLock { $0 }
        #expect(!asked.readEverything && asked.limits.count <= 3, "no page read to find: \(asked.limits)")
    }

    @Test(
        "the name typed so far is the text after select, delete (past --yes), find or add, whatever words it holds; other commands, quotes and options complete no name"
    )
    func typedName() {
        let cases: [(before: String, word: String, typed: String?)] = [
            ("select ", "", ""), ("select Ann ", "L", "Ann L"), ("  SELECT  ann  ", "l", "ann  l"),
            ("delete --yes ", "Bo", "Bo"), ("delete ", "B", "B"), ("find ", "an", "an"),
            ("add Ann ", "Le", "Ann Le"), ("\\i ", "x", nil), ("name ", "Ann", nil), ("step ", "1", nil),
            ("select ", "--y", nil), ("delete --yes ", "-", nil), ("select \"", "Ann", nil),
            ("select '", "Ann", nil), ("nonsense ", "a", nil),
        ]
        for (before, word, typed) in cases {
            #expect(CommandCatalog.typedPlayerName(before: before, word: word) == typed, "\(before)|\(word)")
        }
    }

    @Test(
        "a name completes as the store spells it from where the word being typed starts; names typed only in quotes are not offered"
    )
    func nameCompletions() {
        let names = ["Ann Lee", "anna", "Annie Hall", "ann\u{202E}x", " Ann", "12", "Ann\u{1B}[2J", "ANNA"]
        #expect(
            CommandCatalog.playerNameCompletions(typed: "ann", word: "ann", names: names)
                == ["Ann Lee", "anna", "Annie Hall", "ANNA"])
        #expect(
            CommandCatalog.playerNameCompletions(typed: "ann l", word: "l", names: names) == ["Lee"])
        #expect(
            CommandCatalog.playerNameCompletions(typed: "Annie Hall", word: "Hall", names: names) == ["Hall"])
        #expect(CommandCatalog.playerNameCompletions(typed: "1", word: "1", names: names).isEmpty)
        #expect(CommandCatalog.playerNameCompletions(typed: "bo", word: "bo", names: names).isEmpty)
    }

    @Test(
        "find without its title (csv, unaligned, headers off) says on standard error when it left players out"
    )
    func findSaysWhatItLeftOut() async {
        for (setting, rows) in [("mode csv", 41), ("\\pset format unaligned", 41), ("headers off", 40)] {
            let store = InMemoryScoreStore(records: numberedRecords(45))
            let (form, roster) = sessionViewModels(rules: .defaults, store: store, uploadDelay: .zero)
            let output = CapturedOutput()
            let session = REPLSession(
                form: form, roster: roster,
                reader: ScriptedLineReader(text: setting + "\nfind player\nfind player 4\n"),
                output: output)
            #expect(await session.run() == .succeeded)
            #expect(
                output.errors == [
                    "note: find wrote the first 40 by name; type more of the name for the others"
                ],
                "\(setting)")
            // The header (when on), 40 of the 45, then all 7 of "player 4...", with no note.
            #expect(output.results.count == 1 + rows + rows - 40 + 7, "\(setting): \(output.results)")
        }
    }

    @Test(
        "select and delete of a name no player has name the players whose names start with it, as find lists them"
    )
    func candidates() async throws {
        let store = InMemoryScoreStore(records: numberedRecords(30))
        let (form, roster) = sessionViewModels(rules: .defaults, store: store, uploadDelay: .zero)
        let output = CapturedOutput()
        let session = REPLSession(
            form: form, roster: roster,
            reader: ScriptedLineReader(
                text: "select playe\ndelete 'Player 3' --yes\ndelete Player 2 \nselect Zed\\u{200B}\n"),
            output: output)
        #expect(await session.run() == .failed)
        #expect(
            output.errors == [
                #"line 1: No player is named "playe"; names that start with it: "Player 1" (row 1), "Player 10" (row 10), "Player 11" (row 11), "Player 12" (row 12), "Player 13" (row 13), and more (find "playe" lists them)."#,
                #"line 3: delete asks before deleting, and a script cannot answer; type delete "Player 2" --yes."#,
                #"line 4: No player is named "Zed\\u{200B}"; players lists them (a name that is a number is typed in quotes). A name the table shows with escapes such as \u{200B} is typed in double quotes."#,
            ])
        #expect(output.results == ["- 3 Player 3"])
        #expect(try await store.playerCount() == 29)
    }

    @Test(
        "select NAME and delete NAME find the player by one lookup of its key, in view or not, case and width aside; a name no player has is refused"
    )
    func byName() async throws {
        let store = PagedReadsStore(InMemoryScoreStore(records: numberedRecords(700)))
        let (form, roster) = sessionViewModels(rules: .defaults, store: store, uploadDelay: .zero)
        let output = CapturedOutput()
        let session = REPLSession(
            form: form, roster: roster,
            reader: ScriptedLineReader(
                text:
                    "select player 650\nselect ＰＬＡＹＥＲ 650\ndelete \"Player 699\" --yes\nselect Nobody\ndelete Nobody --yes\n"
            ), output: output)
        store.asked.withLock { $0.limits = [] }
        #expect(await session.run() == .failed)
        #expect(
            output.results == [
                "selected row 650: Player 650", "deselected row 650: Player 650",
                "deleted row 699: Player 699",
            ])
        #expect(
            output.errors == [
                #"line 4: No player is named "Nobody"; players lists them (a name that is a number is typed in quotes)."#,
                #"line 5: No player is named "Nobody"; players lists them (a name that is a number is typed in quotes)."#,
            ])
        // No page of the roster was read to find them, and nothing read every record.
        let asked = store.asked.withLock { $0 }
        #expect(!asked.readEverything)
        #expect(
            asked.limits.count <= 3 && asked.limits.allSatisfy { $0 <= REPLSession.defaultPageSize },
            "pages read: \(asked.limits)")
        #expect(try await store.player(named: "Player 699") == nil)
    }
}

/// The start-up file, psql's `~/.psqlrc`.
@Suite("the start-up file")
struct StartupFileTests {
    @Test(
        "the start-up file runs before the first command, every line of it: its results are not shown, its errors are with FILE:LINE, and none fails the session, --bail or not"
    )
    func runsFirst() async throws {
        let folder = try newFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rc = folder.appendingPathComponent("playerformrc")
        try Data("name Rc\nfly\nmax 50\n# a comment\n".utf8).write(to: rc)
        for bail in [false, true] {
            let output = CapturedOutput()
            let session = REPLSession(
                form: PlayerViewModel(store: InMemoryScoreStore()),
                reader: ScriptedLineReader(text: "show --json\n"),
                output: output, options: REPLSession.Options(bail: bail, startupFile: rc.path))
            #expect(await session.run() == .succeeded, "bail: \(bail)")
            #expect(
                output.errors == [
                    "\(rc.path):2: Unknown command \"fly\". Type help for the list of commands."
                ])
            #expect(output.results.count == 1)
            #expect(
                output.results.first?.hasPrefix(#"{"name":"Rc","#) == true
                    && output.results.first?.contains(#""max":50,"#) == true,
                "the file's settings hold: \(output.results)")
        }
    }

    @Test("a start-up file that cannot be read is said, with how to skip it, and the session goes on")
    func unreadable() async {
        let output = CapturedOutput()
        let session = REPLSession(
            form: PlayerViewModel(store: InMemoryScoreStore()),
            reader: ScriptedLineReader(text: "name Bob\n"),
            output: output, options: REPLSession.Options(startupFile: "/nonexistent/playerformrc"))
        #expect(await session.run() == .succeeded)
        #expect(output.results == [#"name: "Bob""#])
        #expect(output.errors.count == 1 && output.errors[0].hasSuffix("(the start-up file; -X skips it)"))
    }
}

/// Tab completion after a command word.
@Suite("completion of options and file names")
struct CompletionPlacesTests {
    @Test("an option completes from the command's usage, ignoring case, without the options typed already")
    func options() {
        #expect(CommandCatalog.completions(before: "players ", word: "--j") == ["--json"])
        #expect(CommandCatalog.completions(before: "PLAYERS ", word: "--C") == ["--csv"])
        #expect(
            CommandCatalog.completions(before: "players ", word: "--") == [
                "--page", "--all", "--json", "--csv",
            ])
        #expect(CommandCatalog.completions(before: "delete 3 ", word: "-") == ["--yes"])
        #expect(CommandCatalog.completions(before: "delete --yes ", word: "--") == [])
        #expect(CommandCatalog.completions(before: "show ", word: "--") == ["--json"])
        #expect(CommandCatalog.completions(before: "name ", word: "--") == [])
        // help still completes topics, not options.
        #expect(CommandCatalog.completions(before: "help ", word: "ti") == ["timing"])
    }

    @Test("the word after source, output, once and their backslash and dot forms completes as a file name")
    func fileNames() {
        for word in [
            "source", "\\i", "\\include", ".read", "output", "\\o", ".output", "once", ".once", "\\O",
        ] {
            #expect(CommandCatalog.completesFileName(before: word + " "), "\(word)")
        }
        for before in ["", "players ", "source a ", "name ", "help "] {
            #expect(!CommandCatalog.completesFileName(before: before), "\(before)")
        }
    }
}

/// The session's output mode: sqlite3's `.mode` and `.headers`, psql's `\pset format`.
@Suite("output modes for the session")
struct OutputModeTests {
    @Test("mode, .mode and \\pset format read sqlite3's and psql's names of a table, csv, json and line")
    func parse() throws {
        let expected: [(String, Command)] = [
            (".mode csv", .mode(.csv)), ("mode JSON", .mode(.json)), (".mode line", .mode(.line)),
            (".mode column", .mode(.table)), (".mode box", .mode(.table)),
            ("\\pset format aligned", .mode(.table)),
            ("\\pset format csv", .mode(.csv)), ("\\pset", .mode(nil)), (".headers off", .headers(false)),
            ("headers", .headers(nil)), ("\\pset format unaligned", .mode(.unaligned)),
            (".mode list", .mode(.unaligned)), ("\\x", .expanded(nil)), ("\\x on", .expanded(true)),
            ("\\t", .tuples(nil)), ("\\t off", .tuples(false)), ("tuples on", .tuples(true)),
        ]
        for (line, command) in expected {
            #expect(try CommandParser.parse(line) == command, "\(line)")
        }
        #expect(
            throws: CommandError(
                #".mode takes table, csv, json, line or unaligned (psql's aligned is table, sqlite3's list is unaligned), not "tabs"."#
            )
        ) {
            try CommandParser.parse(".mode tabs")
        }
        #expect(throws: CommandError("The pager is turned on and off with pager on and pager off.")) {
            try CommandParser.parse("\\pset pager off")
        }
    }

    @Test(
        "players writes the page in the session's mode, with or without headers; a command's own --json or --csv wins; show and rules follow json"
    )
    func modes() async throws {
        let store = InMemoryScoreStore(records: numberedRecords(2))
        let (form, roster) = sessionViewModels(rules: .defaults, store: store, uploadDelay: .zero)
        let output = CapturedOutput()
        let script = [
            ".mode csv", "players", ".headers off", "players", ".mode json", "players", "players --csv",
            "rules", ".mode line", "players 1", ".mode table", "players", ".headers on", "players",
        ]
        let session = REPLSession(
            form: form, roster: roster,
            reader: ScriptedLineReader(text: script.joined(separator: "\n") + "\n"),
            output: output)
        #expect(await session.run() == .succeeded)
        let csv1 = "Player 1,1,1970-01-01T00:00:00.000Z,false"
        let csv2 = "Player 2,2,1970-01-01T00:00:00.000Z,false"
        let json =
            #"[{"name":"Player 1","points":1,"uploadedAt":"1970-01-01T00:00:00.000Z","selected":false},"#
            + #"{"name":"Player 2","points":2,"uploadedAt":"1970-01-01T00:00:00.000Z","selected":false}]"#
        let results = output.results
        let expectedStart = [
            "mode: csv", "name,points,uploadedAt,selected", csv1, csv2,
            "headers: off", csv1, csv2,
            "mode: json", json,
            // The command's own --csv wins over the mode, with the session's headers.
            csv1, csv2,
        ]
        #expect(Array(results.prefix(expectedStart.count)) == expectedStart, "\(results)")
        let rest = Array(results.dropFirst(expectedStart.count))
        #expect(rest.first?.hasPrefix(#"{"step":1,"#) == true, "rules follows json: \(rest.prefix(1))")
        #expect(
            Array(rest.dropFirst().prefix(10)) == [
                "mode: line",
                "      name = Player 1", "    points = 1", "uploadedAt = 1970-01-01T00:00:00.000Z",
                "  selected = false", "",
                "      name = Player 2", "    points = 2", "uploadedAt = 1970-01-01T00:00:00.000Z",
                "  selected = false",
            ])
        #expect(
            Array(rest.dropFirst(11)) == [
                "mode: table",
                "    1  Player 1       1  1970-01-01 00:00:00",
                "    2  Player 2       2  1970-01-01 00:00:00",
                "headers: on",
                "Players: rows 1-2 of 2",
                "  row  name      points  uploaded (UTC)       selected",
                "    1  Player 1       1  1970-01-01 00:00:00",
                "    2  Player 2       2  1970-01-01 00:00:00",
            ], "\(rest.dropFirst(11))")
    }
}

/// psql's unaligned format, expanded display and tuples only.
@Suite("unaligned, \\x and \\t")
struct UnalignedExpandedTuplesTests {
    @Test(
        "unaligned mode writes fields between |, under a header row unless tuples only, for the page and for players --all; \\x and \\t say what they turned, as psql does"
    )
    func unaligned() async {
        let store = InMemoryScoreStore(
            records: [
                ScoreRecord(
                    id: UUID(), name: "Ann|Lee", points: 5, uploadedAt: Date(timeIntervalSince1970: 0)),
                ScoreRecord(
                    id: UUID(), name: "B\u{1B}b", points: 7.5, uploadedAt: Date(timeIntervalSince1970: 0)),
            ])
        let (form, roster) = sessionViewModels(rules: .defaults, store: store, uploadDelay: .zero)
        let output = CapturedOutput()
        let session = REPLSession(
            form: form, roster: roster,
            reader: ScriptedLineReader(
                text: "players\nplayers --all\n\\t\nplayers\n\\x\nplayers 1\n\\x\nplayers\n\\t off\n"),
            output: output, options: REPLSession.Options(mode: .unaligned, headers: false))
        #expect(await session.run() == .succeeded)
        let ann = "Ann|Lee|5|1970-01-01T00:00:00.000Z|false"
        let bob = #"B\u{1B}b|7.5|1970-01-01T00:00:00.000Z|false"#
        #expect(
            output.results == [
                ann, bob, ann, bob,
                "Tuples only is off.", "name|points|uploadedAt|selected", ann, bob,
                "Expanded display is on.",
                "      name = Ann|Lee", "    points = 5", "uploadedAt = 1970-01-01T00:00:00.000Z",
                "  selected = false", "",
                #"      name = B\u{1B}b"#, "    points = 7.5", "uploadedAt = 1970-01-01T00:00:00.000Z",
                "  selected = false",
                // Expanded display off goes back to the mode before it, as psql's \x leaves the format.
                "Expanded display is off.", "name|points|uploadedAt|selected", ann, bob,
                "Tuples only is off.",
            ])
    }
}

/// `headers off` wherever the table is written.
@Suite("headers off")
struct HeadersOffTests {
    @Test(
        "headers off leaves out the title and the header row of players --all too, and an empty roster writes nothing"
    )
    func everywhere() async {
        for count in [2, 0] {
            let (form, roster) = sessionViewModels(
                rules: .defaults, store: InMemoryScoreStore(records: numberedRecords(count)),
                uploadDelay: .zero)
            let output = CapturedOutput()
            let session = REPLSession(
                form: form, roster: roster,
                reader: ScriptedLineReader(text: "headers off\nplayers --all\nplayers\n"),
                output: output)
            #expect(await session.run() == .succeeded)
            let rows = output.results.dropFirst()
            #expect(output.results.first == "headers: off")
            // Each player once from --all and once from the page, and nothing else.
            #expect(rows.count == 2 * count, "\(output.results)")
            #expect(rows.allSatisfy { $0.hasPrefix("    ") && $0.contains("Player ") }, "\(output.results)")
        }
    }
}
