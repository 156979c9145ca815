import BuiltBinaryTesting
import Foundation
import Testing

/// The built binary used the way psql and sqlite3 users expect: `-c`, `-f`, `source`, `--echo`,
/// `rules`, the `players` table and `players --csv`.
@Suite("playerform: one-shot commands, script files and tables")
struct ScriptHabitsTests {
    /// Runs the binary in a fresh folder holding `files`, with its score file there.
    static func run(
        _ arguments: [String], files: [String: String] = [:], input: String = ""
    ) throws -> BuiltBinary.Run {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        return try BuiltBinary.run(
            ["--store", folder.appendingPathComponent("scores.jsonl").path, "--upload-time", "1790000000"]
                + arguments, input: Data(input.utf8), directory: folder)
    }

    @Test(
        "a REPL command after the options, sqlite3's habit, is refused with 64 and a command line using -c that works when pasted into a shell"
    )
    func commandWithoutC() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("my scores.sqlite").path
        let refused = try BuiltBinary.run(["--store", store, "add", "O\"Neil Lee", "5"])
        #expect(refused.status == 64)
        let first = try #require(refused.errorLines.first)
        let marker = "give it to -c: "
        #expect(
            first.hasPrefix("error: add is a command of the REPL, not of the command line; " + marker),
            "\(first)")
        #expect(!FileManager.default.fileExists(atPath: store), "nothing was created")
        // The suggestion, pasted into a shell with this build in place of playerform, runs.
        let suggested = try #require(first.range(of: marker)).upperBound
        let line = first[suggested...].replacingOccurrences(
            of: "playerform ", with: "'" + BuiltBinary.path + "' ", options: .anchored)
        let pasted = try ProgramRunner.run(
            "/bin/sh",
            ["-c", line + " && '" + BuiltBinary.path + "' --store '" + store + "' -c 'players --csv'"])
        #expect(pasted.status == 0, "\(pasted.errors)")
        #expect(pasted.outputLines.last?.hasPrefix(#""O""Neil Lee",5,"#) == true, "\(pasted.outputLines)")
        // Each of psql's and sqlite3's forms gets the same hint; a word that is no command does not.
        #expect(
            try BuiltBinary.run(["--store", store, ".quit"]).errorLines.first?.contains("-c .quit") == true)
        let unknown = try BuiltBinary.run(["--store", store, "nothing"])
        #expect(unknown.status == 64 && unknown.errorLines.first == "error: Unexpected argument 'nothing'")
    }

    @Test(
        "\\o FILE sends results to FILE until \\o alone; \\o naming the score database or a script of -f is refused and leaves it whole"
    )
    func outputToAFile() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("scores.sqlite").path
        let results = folder.appendingPathComponent("results.csv").path
        let script = folder.appendingPathComponent("setup.txt")
        try Data("add Ann 5\n\\o \(script.path)\n".utf8).write(to: script)
        let run = try BuiltBinary.run(
            [
                "--store", store, "-f", script.path, "-c", "\\o \(results)", "-c", "players --csv", "-c",
                "\\o",
                "-c", "\\o \(store)", "-c", "version",
            ])
        #expect(run.status == 1)
        #expect(
            try String(contentsOfFile: results, encoding: .utf8).split(separator: "\n").map {
                String($0.prefix(6))
            }
                == ["name,p", "Ann,5,"])
        #expect(run.outputLines.first == "+ 1 Ann 5")
        #expect(run.outputLines.last?.hasPrefix("playerform ") == true, "after \\o alone, results come back")
        #expect(
            run.errorLines == [
                "\(script.path):2: \(script.path) is the script -f \(script.path); name another file for the results",
                "-c:4: \(store) is the score database; name another file for the results",
            ], "\(run.errorLines)")
        #expect(try String(contentsOf: script, encoding: .utf8).hasPrefix("add Ann 5"))
        // The database's journal and shared memory are the database too.
        let parts = try BuiltBinary.run(
            [
                "--store", store, "-c", "add Bob 7", "-c", "\\o \(store)-wal", "-c", "\\o \(store)-shm", "-c",
                "add Cy 3",
            ])
        #expect(parts.status == 1)
        #expect(
            parts.errorLines.count == 2
                && parts.errorLines.allSatisfy { $0.contains("part of the score database") })
        #expect(try BuiltBinary.run(["--store", store, "-c", "players --csv"]).outputLines.count == 4)
    }

    @Test(
        "the start-up file in $XDG_CONFIG_HOME/playerform, else ~/.playerformrc, runs before a script; -X and --no-rc skip it"
    )
    func startupFile() throws {
        let home = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let config = home.appendingPathComponent("config")
        try FileManager.default.createDirectory(
            at: config.appendingPathComponent("playerform"), withIntermediateDirectories: true)
        try Data("max 50\n".utf8).write(to: home.appendingPathComponent(".playerformrc"))
        let store = home.appendingPathComponent("scores.sqlite").path
        let maxOf = { (run: BuiltBinary.Run) in run.outputLines.last?.firstMatch(of: /"max":(\d+)/)?.1 }
        // ~/.playerformrc, with no file in the configuration folder.
        let environment = ["HOME": home.path, "XDG_CONFIG_HOME": config.path]
        let fromHome = try BuiltBinary.run(["--store", store, "-c", "show --json"], environment: environment)
        #expect(fromHome.status == 0 && maxOf(fromHome) == "50", "\(fromHome.output)")
        // The configuration folder's file comes first.
        try Data("max 70\nfly\n".utf8).write(to: config.appendingPathComponent("playerform/playerformrc"))
        let fromConfig = try BuiltBinary.run(
            ["--store", store, "-c", "show --json"], environment: environment)
        #expect(fromConfig.status == 0 && maxOf(fromConfig) == "70")
        #expect(
            fromConfig.errorLines == [
                "\(config.path)/playerform/playerformrc:2: Unknown command \"fly\". Type help for the list of commands."
            ])
        for skip in ["-X", "--no-rc"] {
            let skipped = try BuiltBinary.run(
                [skip, "--store", store, "-c", "show --json"], environment: environment)
            #expect(skipped.status == 0 && maxOf(skipped) == "10000" && skipped.errorLines.isEmpty, "\(skip)")
        }
    }

    @Test(
        "--csv, --json and -A on the command line choose the session's mode, as sqlite3's -csv and -json and psql's -A; -t leaves out the headers"
    )
    func modeFlags() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = [
            "--store", folder.appendingPathComponent("scores.sqlite").path, "--upload-time", "1790000000",
        ]
        #expect(try BuiltBinary.run(store + ["-c", "add Ann 5"]).status == 0)
        let csv = try BuiltBinary.run(store + ["--csv", "-c", "players"])
        #expect(
            csv.outputLines == ["name,points,uploadedAt,selected", "Ann,5,2026-09-21T14:13:20.000Z,false"])
        let json = try BuiltBinary.run(store + ["--json", "-c", "players", "-c", "show"])
        #expect(
            json.outputLines.first
                == #"[{"name":"Ann","points":5,"uploadedAt":"2026-09-21T14:13:20.000Z","selected":false}]"#)
        #expect(json.outputLines.last?.hasPrefix(#"{"name":"Colin","#) == true)
        let both = try BuiltBinary.run(store + ["--csv", "--json", "-c", "players"])
        #expect(both.status == 64)
        // psql's -A and -t: unaligned rows alone.
        let unaligned = try BuiltBinary.run(store + ["-At", "-c", "players"])
        #expect(unaligned.outputLines == ["Ann|5|2026-09-21T14:13:20.000Z|false"])
        let aligned = try BuiltBinary.run(store + ["--tuples-only", "-c", "players"])
        #expect(aligned.outputLines == ["    1  Ann        5  2026-09-21 14:13:20"])
    }

    @Test("-c runs each command in order and exits 0 when all succeed, without reading stdin")
    func oneShot() throws {
        let run = try Self.run(
            ["-c", "name Dana", "-c", "up 2", "-c", "show --json"], input: "name Ignored\n")
        #expect(run.status == 0)
        #expect(run.outputLines.first == #"name: "Dana""#)
        #expect(run.outputLines.last?.hasPrefix(#"{"name":"Dana","points":102,"#) == true)
        #expect(run.errorLines.isEmpty)
    }

    @Test(
        "-o FILE writes the results there, replacing it; errors stay on standard error; - is standard output")
    func resultsToFile() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let results = folder.appendingPathComponent("results.txt")
        try Data("an older run\n".utf8).write(to: results)
        let store = folder.appendingPathComponent("scores.sqlite").path
        let run = try BuiltBinary.run(
            ["--store", store, "-o", "results.txt", "-c", "name Dana", "-c", "vaildate", "-c", "name"],
            directory: folder)
        #expect(run.status == 1)
        #expect(run.outputLines.isEmpty)
        #expect(run.errorLines == [#"-c:2: Unknown command "vaildate". Type help for the list of commands."#])
        #expect(try String(contentsOf: results, encoding: .utf8) == "name: \"Dana\"\nname: \"Dana\"\n")
        let piped = try BuiltBinary.run(
            ["--store", store, "--output=-"], input: Data("name Eve\n".utf8), directory: folder)
        #expect(piped.status == 0)
        #expect(piped.outputLines == [#"name: "Eve""#])
    }

    @Test(
        "-o a file that cannot be made ends with 73 before the store is touched; one that fills up with 1; the store or a script is refused"
    )
    func resultsFileRefused() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("scores.sqlite").path
        let missing = try BuiltBinary.run(
            ["--store", store, "-o", "no/such/folder/r.txt", "-c", "upload"], directory: folder)
        #expect(missing.status == 73)
        #expect(
            missing.errorLines == [
                "error: cannot write the results to no/such/folder/r.txt: No such file or directory"
            ])
        #expect(!FileManager.default.fileExists(atPath: store))
        let full = try BuiltBinary.run(
            ["--store", store, "-o", "/dev/full", "-c", "show"], directory: folder)
        #expect(full.status == 1)
        #expect(full.errorLines == ["error: cannot write to /dev/full: No space left on device"])
        // The score database or a script named as the results' file would be emptied: refused.
        #expect(try BuiltBinary.run(["--store", store, "-c", "upload"], directory: folder).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let onStore = try BuiltBinary.run(
            ["--store", store, "-o", store, "-c", "players"], directory: folder)
        #expect(onStore.status == 64)
        #expect(
            onStore.errorLines == [
                "error: -o \(store) is the score database; name another file for the results"
            ])
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        let script = folder.appendingPathComponent("cmds.txt")
        try Data("players\n".utf8).write(to: script)
        let onScript = try BuiltBinary.run(
            ["--store", store, "-f", "cmds.txt", "-o", "./cmds.txt"], directory: folder)
        #expect(onScript.status == 64)
        #expect(try String(contentsOf: script, encoding: .utf8) == "players\n")
        let empty = try BuiltBinary.run(["--store", store, "-o", "", "-c", "show"], directory: folder)
        #expect(empty.status == 64)
        #expect(empty.errorLines.first?.contains("--output needs the path of a file") == true)
    }

    @Test("-c exits 1 when a command fails, naming it -c:N, and --bail stops there")
    func oneShotFailure() throws {
        let run = try Self.run(["-c", "up", "-c", "vaildate", "-c", "up"])
        #expect(run.status == 1)
        #expect(run.errorLines == [#"-c:2: Unknown command "vaildate". Type help for the list of commands."#])
        #expect(run.outputLines.contains("points: 102"))
        let bailed = try Self.run(["--bail", "-c", "up", "-c", "points x", "-c", "up"])
        #expect(bailed.status == 1)
        #expect(!bailed.outputLines.contains("points: 102"))
    }

    @Test("-f runs a file, naming FILE:LINE in errors; -f - reads standard input")
    func scriptFile() throws {
        let run = try Self.run(
            ["-f", "setup.txt", "-f", "-"], files: ["setup.txt": "# setup\nname Dana\nmax x\n"],
            input: "up\nshow --json\n")
        #expect(run.status == 1)
        #expect(run.errorLines.count == 1)
        #expect(run.errorLines.first?.hasPrefix("setup.txt:3: ") == true)
        #expect(run.outputLines.contains("points: 101"))
        #expect(run.outputLines.last?.hasPrefix(#"{"name":"Dana","points":101"#) == true)
    }

    @Test("-c and -f run in the order given; -c:N counts every -c of the run")
    func order() throws {
        let run = try Self.run(
            ["-c", "name Ann", "--file", "setup.txt", "--command=points x", "-c", "name"],
            files: ["setup.txt": "name Dana\n"])
        #expect(run.outputLines == [#"name: "Ann""#, #"name: "Dana""#, #"name: "Dana""#])
        #expect(run.errorLines.count == 1)
        #expect(run.errorLines.first?.hasPrefix("-c:2: ") == true)
        #expect(run.status == 1)
    }

    @Test("-f with a missing file says which, and exits 1")
    func missingScriptFile() throws {
        let run = try Self.run(["-f", "nowhere.txt"])
        #expect(run.status == 1)
        #expect(run.errorLines == [#"error: Cannot read "nowhere.txt": No such file or directory."#])
    }

    @Test("source and \\i run a file inside a session; errors name FILE:LINE and the session goes on")
    func source() throws {
        let run = try Self.run(
            [],
            files: [
                "outer.txt": "name Dana\n\\i inner.txt\nup\n",
                "inner.txt": "up 2\npoints nope\n",
            ],
            input: "source outer.txt\npoints\nsource missing.txt\n")
        #expect(run.status == 1)
        #expect(
            run.errorLines == [
                #"inner.txt:2: "nope" is not a number; type a decimal number such as 12, -3.5 or 1e3."#,
                #"line 3: Cannot read "missing.txt": No such file or directory."#,
            ])
        #expect(run.outputLines.suffix(1) == ["points: 103"])
    }

    @Test("a file that sources itself stops at the depth limit with an error")
    func sourceLoop() throws {
        let run = try Self.run(
            [], files: ["loop.txt": "# again\nsource loop.txt\n"], input: "source loop.txt\npoints\n")
        #expect(run.status == 1)
        #expect(
            run.errorLines == ["loop.txt:2: source nests more than 16 files deep; does a file source itself?"]
        )
        #expect(run.outputLines == ["points: 100"])
    }

    @Test("--echo prints each line of a script before its output")
    func echo() throws {
        let run = try Self.run(["--echo", "-c", "up", "-c", "points"])
        #expect(run.outputLines == ["up", "points: 101", "point updates left: 9", "points", "points: 101"])
        let piped = try Self.run(["--echo"], input: "# comment\nname Dana\n")
        #expect(piped.outputLines == ["# comment", "name Dana", #"name: "Dana""#])
    }

    @Test("rules prints the rules in force, with what is left and where they came from")
    func rules() throws {
        let run = try Self.run(["-c", "up 3", "-c", "rules", "-c", "rules --json"])
        #expect(
            run.outputLines.suffix(8) == [
                "step: 1", "min: 0", "max: 10000", "point updates: at most 10 (7 left)",
                "uploads: at most 5 (5 left)",
                #"forbidden names: "dag nabbit", "darn", "poop" (compared ignoring case, surrounding spaces, compatibility forms and invisible characters)"#,
                "from: defaults",
                #"{"step":1,"min":0,"max":10000,"maxPointUpdates":10,"pointUpdatesRemaining":7,"maxUploads":5,"uploadsRemaining":5,"forbiddenNames":["dag nabbit","darn","poop"],"source":"defaults"}"#,
            ])
        let configured = try Self.run(
            ["--config", "rules.json", "-c", "rules", "-c", "help up"],
            files: ["rules.json": #"{"maxPointUpdates": 3, "forbiddenNames": ["bad\u001b[31m"]}"#])
        #expect(configured.outputLines.contains("point updates: at most 3 (3 left)"))
        #expect(configured.outputLines.contains("from: rules.json"))
        #expect(configured.outputLines.contains { $0.hasPrefix(#"forbidden names: "bad\u{1B}[31m""#) })
        #expect(configured.outputLines.contains { $0.contains("at most 3 point updates (3 left)") })
    }

    @Test("help wraps between words within 80 columns and help COMMAND tells its rule")
    func help() throws {
        let run = try Self.run(["-c", "help"])
        #expect(run.status == 0)
        #expect(run.outputLines.allSatisfy { $0.count <= 80 })
        let words = Set(
            run.outputLines.joined(separator: " ").split(separator: " ").map(String.init))
        // Every word of a summary appears whole: no word is cut at the end of a line.
        #expect(words.contains("significant"))
        #expect(words.contains("configured") || words.contains("starting"))
        let topic = try Self.run(["-c", "up 3", "-c", "help up", "-c", "help name"])
        let text = topic.outputLines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.contains("at most 10 point updates (7 left)"))
        #expect(text.contains(#"none of the forbidden names ("dag nabbit", "darn", "poop")"#))
    }

    @Test("players draws a table with a header, long names cut with …, columns fitting the page")
    func playersTable() throws {
        let long = String(repeating: "Maximilian", count: 5)
        let run = try Self.run([
            "-c", "add Bob 5", "-c", "add \(long) 1234.5", "-c", "select 1", "-c", "players",
        ])
        #expect(
            run.outputLines.suffix(4) == [
                "Players: rows 1-2 of 2",
                "  row  name                            points  uploaded (UTC)       selected",
                "    1  Bob                                  5  2026-09-21 14:13:20  *",
                "    2  MaximilianMaximilianMaximilia…  1234.5  2026-09-21 14:13:20",
            ])
    }

    @Test("players --csv quotes per RFC 4180 and defuses names a spreadsheet would run as formulas")
    func playersCSV() throws {
        let run = try Self.run([
            "-c", #"add "Lee, Ann" 7.5"#, "-c", #"add "say \"hi\"" 3"#, "-c", "add =SUM(A1) 1", "-c",
            "add @x 2",
            "-c", "players --csv",
        ])
        #expect(run.status == 0)
        #expect(
            run.outputLines.suffix(5) == [
                "name,points,uploadedAt,selected",
                #""Lee, Ann",7.5,2026-09-21T14:13:20.000Z,false"#,
                #""say ""hi""",3,2026-09-21T14:13:20.000Z,false"#,
                "'=SUM(A1),1,2026-09-21T14:13:20.000Z,false",
                "'@x,2,2026-09-21T14:13:20.000Z,false",
            ])
    }

    @Test("a mistyped subcommand gets a did you mean, in the one error style, exit 64")
    func mistypedSubcommand() throws {
        let run = try BuiltBinary.run(["vaildate"])
        #expect(run.status == 64)
        #expect(run.errorLines.first == "error: Unknown subcommand 'vaildate'. Did you mean 'validate'?")
        let far = try BuiltBinary.run(["zebra"])
        #expect(far.status == 64)
        #expect(far.errorLines.first == "error: Unexpected argument 'zebra'")
    }

    @Test(
        "a usage error shows the words of the command line with escapes: an escape sequence or a right-to-left override typed there never reaches the terminal",
        arguments: [
            ["valid\u{1B}ce"], ["--bogus\u{1B}[2J"], ["validate", "--format", "\u{1B}]0;x\u{07}"],
            ["\u{1B}[2J"], ["--store", "db", "add", "\u{202E}evil", "5"],
        ])
    func usageErrorsEscaped(arguments: [String]) throws {
        let run = try BuiltBinary.run(arguments)
        #expect(run.status == 64)
        let shown = String(decoding: run.standardError, as: UTF8.self)
        #expect(
            !shown.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{202E}" },
            "\(shown)")
        #expect(shown.contains("\\u{1B}") || shown.contains("\\u{202E}"), "\(shown)")
    }
}
