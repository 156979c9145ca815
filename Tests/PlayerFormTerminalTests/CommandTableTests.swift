import Foundation
import PlayerForm
import PlayerFormRules
import PlayerFormScores
import PlayerFormTerminalTesting
import Testing

@testable import PlayerFormTerminal

/// The command table is the one declaration of the REPL's commands: every entry in it is parsed
/// by its words, listed and explained by help, completed, and run by its handler.
@Suite("The command table")
struct CommandTableTests {
    /// Every command's entry, by name, for the specs' arguments.
    static let names = CommandCatalog.entries.map(\.name)

    @Test("names and aliases are distinct lower-case words")
    func distinctWords() {
        let words = CommandCatalog.entries.flatMap { [$0.name] + $0.aliases }
        #expect(Set(words).count == words.count, "a word runs two commands: \(words)")
        for word in words {
            #expect(!word.isEmpty && word == word.lowercased() && !word.contains(" ") && !word.contains("\t"))
        }
    }

    @Test("every line its usage shows is parsed by its name and by each alias, in any case", arguments: names)
    func parsedByEveryWord(_ name: String) throws {
        let entry = try #require(CommandCatalog.entry(named: name))
        let samples = UsageSamples.lines(of: entry)
        #expect(!samples.isEmpty)
        for word in [entry.name] + entry.aliases {
            for arguments in samples {
                let line = word + arguments
                let read = try CommandParser.read(line)
                #expect(read.entry.name == entry.name, "\(line)")
                let command = try CommandParser.parse(line)
                #expect(command != .unknown(entry: entry.name), "the specs' Command has no case for \(line)")
                #expect(try CommandParser.parse(word.uppercased() + arguments) == command, "\(line)")
            }
        }
    }

    @Test(
        "every command is listed by help with its usage, its other forms and its summary, in the table's order"
    )
    func listedByHelp() {
        let lines = FormRenderer(style: .plain).help(width: 10_000)
        let listed = lines.filter { $0.hasPrefix("  ") && !$0.hasPrefix("      ") }
        #expect(listed == CommandCatalog.entries.map { "  " + $0.usage + Self.also($0) })
        for entry in CommandCatalog.entries {
            #expect(lines.contains("      " + entry.summary), "\(entry.name)")
        }
    }

    @Test(
        "every command is a help topic by its name and aliases, and its aliases are in its help",
        arguments: names)
    func explainedByHelp(_ name: String) throws {
        let entry = try #require(CommandCatalog.entry(named: name))
        #expect(!entry.usage.isEmpty && !entry.summary.isEmpty)
        #expect(entry.usage == entry.name || entry.usage.hasPrefix(entry.name + " "))
        for word in [entry.name] + entry.aliases {
            #expect(try CommandParser.parse("help " + word) == .help(entry.name))
            #expect(try CommandParser.parse("help " + word.uppercased()) == .help(entry.name))
        }
        let explained = FormRenderer(style: .plain).help(for: entry, width: 10_000)
        #expect(explained == ["usage: " + entry.usage + Self.also(entry), "  " + entry.summary])
    }

    /// How help writes the other words that run `entry` after its usage, every alias among them.
    private static func also(_ entry: CommandCatalog.Entry) -> String {
        entry.aliases.isEmpty ? "" : "   (also " + entry.aliases.joined(separator: ", ") + ")"
    }

    @Test(
        "every command completes from each prefix of its name, first on the line and after help",
        arguments: names)
    func completed(_ name: String) {
        for length in 1...name.count {
            let prefix = String(name.prefix(length))
            #expect(CommandCatalog.completions(before: "", word: prefix).contains(name), "\(prefix)")
            #expect(CommandCatalog.completions(before: "", word: prefix.uppercased()).contains(name))
            #expect(CommandCatalog.completions(before: "help ", word: prefix).contains(name), "\(prefix)")
        }
    }

    @Test("every command's handler runs its usage lines in a session with a roster", arguments: names)
    func handledWithRoster(_ name: String) async throws {
        let entry = try #require(CommandCatalog.entry(named: name))
        for arguments in UsageSamples.lines(of: entry) {
            let output = try await Self.run(entry.name + arguments, roster: true)
            #expect(!output.errors.contains { $0.contains("no roster") || $0.contains("Unknown command") })
        }
    }

    @Test("the roster's commands are refused without a roster, and only they", arguments: names)
    func rosterCommands(_ name: String) async throws {
        let entry = try #require(CommandCatalog.entry(named: name))
        for arguments in UsageSamples.lines(of: entry) {
            let output = try await Self.run(entry.name + arguments, roster: false)
            let refused = output.errors == ["line 1: This session has no roster."]
            #expect(refused == entry.usesRoster, "\(entry.name + arguments)")
        }
    }

    /// Runs `line` in a scripted session over a store holding one player.
    static func run(_ line: String, roster hasRoster: Bool) async throws -> CapturedOutput {
        let store = InMemoryScoreStore(now: { Date(timeIntervalSince1970: SessionTranscript.uploadTime) })
        _ = try await store.upload(name: "Ann", points: 5)
        let form = PlayerViewModel(store: store)
        let roster = hasRoster ? RosterViewModel(store: store) : nil
        let output = CapturedOutput()
        let session = REPLSession(
            form: form, roster: roster, reader: ScriptedLineReader(text: line + "\n"), output: output)
        _ = await session.run()
        return output
    }
}

/// The lines a usage shows, with sample values for its placeholders: `players [N | --all]` shows
/// ` `, ` 1` and ` --all` after the command word.
enum UsageSamples {
    /// A value for each placeholder that usages use.
    static let values = [
        "N": "1", "TEXT": "Ann", "NAME": "Bob", "POINTS": "120", "COMMAND": "up", "FILE": emptyScript,
        "SECONDS": "0", "COUNT": "1",
    ]

    /// A file of commands holding only a comment.
    static let emptyScript: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "command-table-\(getpid()).txt"
        ).path
        _ = FileManager.default.createFile(atPath: path, contents: Data("# nothing to do\n".utf8))
        return path
    }()

    /// The arguments of every line `entry`'s usage shows, each with a leading space (or empty):
    /// without its optional part, and with each alternative of it.
    static func lines(of entry: CommandCatalog.Entry) -> [String] {
        let usage = entry.usage.dropFirst(entry.name.count)
        let required: Substring
        var alternatives: [Substring] = []
        if let open = usage.firstIndex(of: "["), let close = usage.lastIndex(of: "]") {
            required = usage[..<open]
            alternatives = usage[usage.index(after: open)..<close].split(separator: "|")
        } else {
            required = usage
        }
        let base = filled(required)
        // An optional part inside another (`[SECONDS [COUNT]]`): the line without it, and with it.
        let expanded = alternatives.flatMap { alternative -> [Substring] in
            guard let open = alternative.firstIndex(of: "[") else { return [alternative] }
            return [alternative[..<open], Substring(alternative.filter { $0 != "[" && $0 != "]" })]
        }
        return [base] + expanded.map { base + filled($0) }
    }

    /// `words` with each placeholder replaced by its value, each word after a space.
    private static func filled(_ words: Substring) -> String {
        words.split(separator: " ").map { word -> String in
            guard word.allSatisfy(\.isUppercase) else { return " " + word }
            guard let value = values[String(word)] else {
                Issue.record("no sample value for the placeholder \(word); add one to UsageSamples.values")
                return " " + word
            }
            return " " + value
        }.joined()
    }
}
