import BuiltBinaryTesting
import Foundation
import Testing

/// Runs the built `playerform` with rules files: `validate --config` and the form's `--config`
/// read them the same way, and an option before the wrong command is a usage error.
@Suite("Rules files, end to end")
struct RulesFileEndToEndTests {
    struct Outcome: Equatable {
        let status: Int32
        let output: String
        let errors: String
    }

    /// Runs `executable` (the built playerform unless told) with `arguments` in `folder`.
    func run(
        _ arguments: [String], in folder: URL, input: String = "",
        executable: String = EndToEndTests.executable.path
    ) throws -> Outcome {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = folder.path
        let run = try ProgramRunner.run(
            executable, arguments, input: Data(input.utf8), environment: environment, directory: folder)
        return Outcome(status: run.status, output: run.output, errors: run.errors)
    }

    /// The `players.csv` and `rules.json` of the article "Validating files of players", written as
    /// it writes them.
    func readmeFiles() throws -> Scratch {
        let scratch = try Scratch()
        _ = try scratch.file(
            "players.csv", "name,points\nColin,100\n\"Jean \"\"JJ\"\" Jacques\",1e3\nｄａｒｎ,NaN\n")
        _ = try scratch.file("rules.json", #"{"max": 50, "forbiddenNames": ["colin"]}"# + "\n")
        return scratch
    }

    static let readmeTranscript = """
        $ echo '{"max": 50, "forbiddenNames": ["colin"]}' > rules.json
        $ playerform validate --config rules.json players.csv
        players.csv:2: "Colin": The name Colin has been forbidden. Points 100 are above the maximum of 50.
        players.csv:3: "Jean \\"JJ\\" Jacques": Points 1000 are above the maximum of 50.
        players.csv:4: "ｄａｒｎ": Points must be a finite number.
        reason               records   share  first lines
        aboveMax                   2   66.7%  2, 3
        forbiddenName              1   33.3%  2
        notFinite                  1   33.3%  4
        3 records, 3 invalid
        $ echo $?
        1
        """

    @Test("the validate article's example: validate --config applies the rules file to every record")
    func readmeExample() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Sources/PlayerFormRecords/PlayerFormRecords.docc/Validating.md")
        #expect(try String(contentsOf: readme, encoding: .utf8).contains(Self.readmeTranscript))
        let scratch = try readmeFiles()
        let outcome = try run(["validate", "--config", "rules.json", "players.csv"], in: scratch.folder)
        let lines = Self.readmeTranscript.split(separator: "\n").map(String.init)
        #expect(outcome.output == lines[2...4].joined(separator: "\n") + "\n")
        #expect(outcome.errors == lines[5...9].joined(separator: "\n") + "\n")
        #expect(outcome.status == 1)
        // Options after the files are validate's too.
        #expect(
            try run(["validate", "players.csv", "--config", "rules.json"], in: scratch.folder) == outcome)
    }

    @Test("--config before validate is a usage error that names where it goes; nothing is validated")
    func configBeforeValidate() throws {
        let scratch = try readmeFiles()
        let outcome = try run(["--config", "rules.json", "validate", "players.csv"], in: scratch.folder)
        #expect(outcome.status == 64)
        #expect(outcome.output == "")
        #expect(
            outcome.errors.split(separator: "\n").first
                == "error: --config goes after the subcommand; write: playerform validate --config rules.json players.csv"
        )
        let joined = try run(
            ["--config=rules.json", "validate", "--quiet", "players.csv"], in: scratch.folder)
        #expect(joined.status == 64)
        #expect(
            joined.errors.contains("write: playerform validate --config=rules.json --quiet players.csv\n"))
        // The line to write is quoted for the shell and escaped for the terminal, whose rule shows a
        // backslash as `\\`.
        let odd = try run(["--config", "my rules.json", "validate", "it's\u{1B}[2J.csv"], in: scratch.folder)
        #expect(odd.status == 64)
        #expect(
            odd.errors.contains(
                #"write: playerform validate --config 'my rules.json' 'it'\\''s\u{1B}[2J.csv'"#))
        #expect(!odd.errors.utf8.contains(0x1B))
    }

    @Test("the form's other options are refused before validate, and unknown after it")
    func formOptionsWithValidate() throws {
        let scratch = try readmeFiles()
        let before = try run(
            [
                "--no-color", "--store", "my scores.jsonl", "--config", "rules.json", "validate",
                "players.csv",
            ],
            in: scratch.folder)
        #expect(before.status == 64)
        let expected =
            "error: validate does not take --no-color, --store (options of the form session), and --config "
            + "goes after the subcommand; write: playerform validate --config rules.json players.csv"
        #expect(before.errors.split(separator: "\n").first.map(String.init) == expected)
        let after = try run(["validate", "--store", "s.jsonl", "players.csv"], in: scratch.folder)
        #expect(after.status == 64)
        #expect(after.errors.split(separator: "\n").first == "error: Unknown option '--store'")
        // A value that reads "validate" is the option's, not the subcommand.
        let named = try run(["--store", "validate", "validate", "players.csv"], in: scratch.folder)
        #expect(named.errors.contains("write: playerform validate players.csv\n"))
        // --quiet is validate's too: it moves after the subcommand.
        let quiet = try run(
            ["--quiet", "--config", "rules.json", "validate", "players.csv"], in: scratch.folder)
        #expect(quiet.status == 64)
        let moved =
            "error: --quiet and --config go after the subcommand; write: playerform validate --quiet "
            + "--config rules.json players.csv"
        #expect(quiet.errors.split(separator: "\n").first.map(String.init) == moved)
    }

    @Test(
        "the form and validate refuse a rules file with the same message and status",
        arguments: [
            (
                "dup.json", "{\"forbiddenNames\":[\"heck\"],\n \"forbiddenNames\":[]}", 65,
                #"dup.json:2:2: duplicate key "forbiddenNames""#
            ),
            ("comma.json", #"{"max": 5,}"#, 65, "comma.json:1:10: found ',' before '}', a trailing comma"),
            (
                "big.json", #"{"maxUploads": 1000000000000}"#, 65,
                "accepted: a whole number from 0 to 1000000000"
            ),
            ("empty.json", "", 65, "empty.json: the file is empty"),
            ("escape.json", "{\"\\u001b[2J\": 1}", 65, #"escape.json:1:2: unknown key "\u{1B}[2J""#),
            ("folder", nil, 66, "cannot read rules file folder: it is a directory"),
            ("missing.json", nil, 66, "cannot read rules file missing.json: No such file or directory"),
        ] as [(String, String?, Int32, String)])
    func sameRefusal(name: String, content: String?, status: Int32, message: String) throws {
        let scratch = try readmeFiles()
        if let content {
            _ = try scratch.file(name, content)
        } else if name == "folder" {
            try FileManager.default.createDirectory(
                at: scratch.folder.appendingPathComponent(name), withIntermediateDirectories: false)
        }
        let form = try run(["--config", name], in: scratch.folder, input: "show\n")
        let validate = try run(["validate", "--config", name, "players.csv"], in: scratch.folder)
        #expect(form.status == status)
        // The program's one style: a message placed in the file starts with FILE:LINE:COLUMN, any
        // other with `error: `.
        let placed = form.errors.prefixMatch(of: #/[^:\n]+:\d+:\d+: /#) != nil
        #expect(placed || form.errors.hasPrefix("error: "))
        #expect(form.errors.contains(message))
        #expect(form.output == "")
        #expect(validate == form)
        #expect(!form.errors.utf8.contains(0x1B))
    }

    @Test("a rules file from a pipe: /dev/stdin and a process substitution <(...)")
    func streams() throws {
        let scratch = try readmeFiles()
        let stdin = try run(
            ["validate", "--config", "/dev/stdin", "players.csv"], in: scratch.folder,
            input: #"{"forbiddenNames": ["jean \"jj\" jacques"]}"#)
        #expect(stdin.status == 1)
        #expect(stdin.output.hasPrefix(#"players.csv:3: "Jean \"JJ\" Jacques": The name"#))
        let substitution = try run(
            [
                "-c", #""$0" validate --config <(echo '{"max": 500, "forbiddenNames": []}') players.csv"#,
                EndToEndTests.executable.path,
            ], in: scratch.folder, executable: "/bin/bash")
        #expect(substitution.status == 1)
        #expect(
            substitution.output
                == "players.csv:3: \"Jean \\\"JJ\\\" Jacques\": Points 1000 are above the maximum of 500.\n"
                + "players.csv:4: \"ｄａｒｎ\": Points must be a finite number.\n")
        let form = try run(
            ["-c", #""$0" --config <(echo '{"max": 500}') --store s.jsonl"#, EndToEndTests.executable.path],
            in: scratch.folder, input: "show --json\n", executable: "/bin/bash")
        #expect(form.status == 0)
        #expect(form.output.contains(#""max":500,"#))
    }
}
