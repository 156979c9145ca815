import Foundation
import PlayerFormTerminalTesting
import Testing

/// The built `playerform` binary with a script on standard input: stdout, stderr, exit status.
@Suite("playerform in scripted mode")
struct ScriptedModeTests {
    static let sessions = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/sessions")

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: sessions.path)) ?? [])
            .filter { $0.hasSuffix(".session") }.sorted()
    }

    @Test("the binary answers each transcript on stdout and stderr with its exit status", arguments: files)
    func transcript(_ file: String) throws {
        let text = try String(contentsOf: Self.sessions.appendingPathComponent(file), encoding: .utf8)
        let transcript = SessionTranscript(parsing: text)
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let options = [
            "--store", folder.appendingPathComponent("scores.sqlite").path,
            "--upload-time", String(SessionTranscript.uploadTime),
        ]
        let run = try BuiltBinary.run(
            options + (transcript.bail ? ["--bail"] : []), input: Data(transcript.script.utf8))
        expectNoLineDifference(transcript.standardOutput, run.outputLines, "standard output of \(file)")
        expectNoLineDifference(transcript.standardError, run.errorLines, "standard error of \(file)")
        #expect(run.status == transcript.exitStatus)
    }

    @Test("bad bytes: empty lines, a 5 MB line, invalid UTF-8 and NUL bytes each get a defined result")
    func badBytes() throws {
        var input = Data("\n\n   \n".utf8)
        input.append(Data(repeating: UInt8(ascii: "x"), count: 5_000_000))
        input.append(Data("\nname A".utf8) + Data([0xFF, 0xFE]) + Data("\n".utf8))
        input.append(Data("name a".utf8) + Data([0]) + Data("b\n".utf8))
        input.append(Data([0, 0, 0x0A]))
        input.append(Data("show --json".utf8))
        let run = try BuiltBinary.run(input: input)
        #expect(
            run.errorLines == [
                "line 4: The line is 5000000 bytes long; lines of up to 65536 bytes are accepted.",
                #"line 5: The line is not valid UTF-8: name A\xFF\xFE. Type UTF-8 text."#,
                #"line 7: Unknown command "\u{0}\u{0}". Type help for the list of commands."#,
            ])
        #expect(run.outputLines.first == #"name: "a\u{0}b""#)
        #expect(run.outputLines.last?.hasPrefix(#"{"name":"a\u0000b","#) == true)
        #expect(run.status == 1)
    }

    @Test("a huge count returns promptly")
    func hugeCount() throws {
        let started = Date()
        let run = try BuiltBinary.run(input: Data("up 99999999999\nmax 1e300\nup 99999999999\n".utf8))
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(run.status == 1)
        #expect(run.errorLines.count == 2)
    }

    @Test("no input is an empty session that succeeds")
    func emptyInput() throws {
        let run = try BuiltBinary.run()
        #expect(run.outputLines.isEmpty && run.errorLines.isEmpty && run.status == 0)
    }

    @Test("scripted output has no colour even when colour is not turned off")
    func noColour() throws {
        let run = try BuiltBinary.run(
            input: Data("name \"\"\nshow\n".utf8), environment: ["TERM": "xterm-256color"])
        #expect(!run.standardOutput.contains(0x1B))
    }

    @Test("--config starts the form with the rules of the file")
    func config() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rules-\(UUID().uuidString).json")
        try Data(#"{"max": 500, "name": "Zoë"}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try BuiltBinary.run(["--config", file.path], input: Data("show --json\n".utf8))
        #expect(
            run.outputLines.first?.hasPrefix(#"{"name":"Zoë","points":100,"step":1,"min":0,"max":500,"#)
                == true)
        #expect(run.status == 0)
    }

    @Test("usage errors exit 64; a rules file that cannot be read 66, one that is not accepted 65")
    func usageErrors() throws {
        let unknown = try BuiltBinary.run(["--bogus"])
        #expect(unknown.status == 64)
        #expect(unknown.errorLines.first == "error: Unknown option '--bogus'")
        let missing = try BuiltBinary.run(["--config", "/nonexistent/rules.json"])
        #expect(missing.status == 66)
        #expect(
            missing.errorLines == [
                "error: cannot read rules file /nonexistent/rules.json: No such file or directory"
            ])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bad-\(UUID().uuidString).json")
        try Data(#"{"step": 0}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let bad = try BuiltBinary.run(["--config", file.path])
        #expect(bad.status == 65)
        #expect(bad.errorLines == ["\(file.path):1:10: \"step\" must be greater than 0, got 0"])
    }

    @Test("the REPL's version and .version, and -V, print what --version prints")
    func versionCommand() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("scores.sqlite").path
        let typed = try BuiltBinary.run(["--store", store, "-c", "version", "-c", ".version"])
        #expect(typed.status == 0, "\(typed.errors)")
        let version = try BuiltBinary.run(["--version"]).outputLines
        #expect(typed.outputLines == version + version)
        let short = try BuiltBinary.run(["-V"])
        #expect(short.status == 0 && short.outputLines == version)
    }

    @Test("--version names the version and the SQLite, PostgreSQL protocol and readline it runs with; --help")
    func versionAndHelp() throws {
        let version = try BuiltBinary.run(["--version"])
        #expect(version.status == 0)
        #expect(
            version.outputLines.count == 1
                && version.outputLines[0].wholeMatch(
                    of:
                        /playerform 0\.1\.0 \(SQLite 3\.\d+\.\d+, PostgreSQL protocol 3\.0, GNU readline \d+\.\d+\)/
                )
                    != nil,
            "\(version.outputLines)")
        let help = try BuiltBinary.run(["--help"])
        for option in ["--config", "--store", "--no-color", "--bail", "--history-file", "--version"] {
            #expect(help.outputLines.contains { $0.contains(option) })
        }
        #expect(!help.outputLines.contains { $0.contains("upload-delay") })
        #expect(!help.outputLines.contains { $0.contains("upload-time") })
    }

    @Test("with 2>&1, errors and results keep their order")
    func mergedStreams() throws {
        let run = try BuiltBinary.run(input: Data("up\nfly\nup\n".utf8), mergingErrors: true)
        #expect(
            run.outputLines == [
                "points: 101", "point updates left: 9",
                "line 2: Unknown command \"fly\". Type help for the list of commands.",
                "points: 102", "point updates left: 8",
            ])
        #expect(run.status == 1)
    }

    @Test("output is written before the program waits for more input")
    func flushesBeforeWaiting() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try BuiltBinary.Session([
            "--store", folder.appendingPathComponent("scores.sqlite").path,
        ])
        try session.send("name Dana\n")
        // The input stays open: the answer must arrive while the program waits for the next line.
        let answer = session.nextOutput()
        #expect(answer != nil)
        if let answer {
            #expect(answer == "name: \"Dana\"\n")
        }
        let (_, status) = try session.finish()
        #expect(status == 0)
    }
}
