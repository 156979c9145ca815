import Foundation
import Testing

/// The built binary with its score file: where it is, what survives a restart, and what happens
/// when the file is damaged or cannot be used.
@Suite("playerform and its score file")
struct RosterEndToEndTests {
    @Test("a second run with the same --store sees the first run's uploads, and adds to them")
    func restart() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = ["--store", folder.appendingPathComponent("scores.jsonl").path]

        let first = try BuiltBinary.run(store, input: Data("upload\nadd Bob 120\n".utf8))
        #expect(first.status == 0)
        #expect(first.outputLines.contains("+ 1 Colin 100"))
        #expect(first.outputLines.contains("+ 2 Bob 120"))

        let second = try BuiltBinary.run(store, input: Data("players\nadd Ann 7\nadd Bob 130\n".utf8))
        #expect(second.status == 0)
        #expect(
            second.outputLines.map(timeless) == [
                "Players: rows 1-2 of 2", "  row  name   points  uploaded (UTC)       selected",
                "    1  Colin     100  1970-01-01 00:00:00",
                "    2  Bob       120  1970-01-01 00:00:00",
                "+ 3 Ann 7", "~ 2 Bob 130",
            ])

        let third = try BuiltBinary.run(store, input: Data("delete 1 --yes\nplayers\n".utf8))
        let table = [
            "  row  name  points  uploaded (UTC)       selected",
            "    1  Bob      130  1970-01-01 00:00:00",
            "    2  Ann        7  1970-01-01 00:00:00",
        ]
        #expect(third.outputLines.map(timeless) == ["- 1 Colin", "Players: rows 1-2 of 2"] + table)
        let fourth = try BuiltBinary.run(store, input: Data("players\n".utf8))
        #expect(fourth.outputLines.map(timeless) == ["Players: rows 1-2 of 2"] + table)
    }

    @Test("two sessions at once on the same --store: one's upload reaches the other before its next command")
    func concurrentSessions() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = ["--store", folder.appendingPathComponent("scores.jsonl").path]
        let first = try BuiltBinary.Session(store)
        // The first session has read the empty file once it answers players.
        try first.send("players\n")
        let answer = first.nextOutput()
        #expect(answer != nil)
        if let answer {
            #expect(answer == "Players: none yet (add NAME POINTS, or upload)\n")
        }

        let second = try BuiltBinary.run(store, input: Data("add Bob 120\nupload\n".utf8))
        #expect(second.status == 0)

        // No refresh: the first session sees the file changed before it runs its next command.
        try first.send("add Ann 7\n")
        let (rest, status) = try first.finish()
        #expect(rest == "+ 1 Bob 120\n+ 2 Colin 100\n+ 3 Ann 7\n")
        #expect(status == 0)
        let third = try BuiltBinary.run(store, input: Data("players\n".utf8))
        #expect(
            third.outputLines.map(timeless) == [
                "Players: rows 1-3 of 3", "  row  name   points  uploaded (UTC)       selected",
                "    1  Bob       120  1970-01-01 00:00:00",
                "    2  Colin     100  1970-01-01 00:00:00",
                "    3  Ann         7  1970-01-01 00:00:00",
            ])
    }

    @Test("a damaged line is reported with the file and line; the other records are shown and kept")
    func corruptLine() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("scores.jsonl")
        let store = ["--store", file.path]
        _ = try BuiltBinary.run(store, input: Data("upload\n".utf8))
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("this is not a record\n".utf8))
        try handle.close()

        let run = try BuiltBinary.run(store, input: Data("players\nadd Bob 5\nrefresh\nplayers\n".utf8))
        let problem =
            "Some scores could not be read: \(file.path):2: not a score record (not valid JSON); "
            + "the line is skipped"
        #expect(run.errorLines == ["error: " + problem, "line 3: " + problem])
        #expect(
            run.outputLines.map(timeless) == [
                "Players: rows 1-1 of 1", "  row  name   points  uploaded (UTC)       selected",
                "    1  Colin     100  1970-01-01 00:00:00", "+ 2 Bob 5",
                "Players: rows 1-2 of 2", "  row  name   points  uploaded (UTC)       selected",
                "    1  Colin     100  1970-01-01 00:00:00",
                "    2  Bob         5  1970-01-01 00:00:00",
            ])
        #expect(run.status == 1)
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3 && lines[1] == "this is not a record")
    }

    @Test("a store that cannot be read or written gives errors naming it; the session goes on")
    func unusableStore() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A folder where the file should be: neither reading nor writing can succeed, even as root.
        let path = folder.path
        let run = try BuiltBinary.run(
            ["--store", path], input: Data("upload\nadd Bob 5\nname Ann\nplayers\n".utf8))
        #expect(
            run.errorLines == [
                "error: Could not read the scores: \(path): cannot read the file: Is a directory",
                "line 1: Upload of Colin failed: \(path): cannot write the file: Is a directory",
                "line 2: Could not add Bob: \(path): cannot write the file: Is a directory",
            ])
        #expect(run.outputLines.contains("name: \"Ann\""))
        #expect(run.outputLines.last == "Players: none yet (add NAME POINTS, or upload)")
        #expect(run.status == 1)
    }

    @Test("the default store is $XDG_DATA_HOME/playerform/scores.jsonl, else under ~/.local/share")
    func defaultStore() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try BuiltBinary.run(
            input: Data("add Bob 5\n".utf8), environment: ["XDG_DATA_HOME": folder.path + "/data"])
        #expect(data.status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/data/playerform/scores.jsonl"))
        let home = try BuiltBinary.run(
            input: Data("add Ann 5\n".utf8), environment: ["XDG_DATA_HOME": "relative", "HOME": folder.path])
        #expect(home.status == 0)
        #expect(
            FileManager.default.fileExists(atPath: folder.path + "/.local/share/playerform/scores.jsonl"))
    }

    @Test("with no --store and no usable XDG_DATA_HOME or HOME, a usage error asks for --store")
    func noDefaultStore() throws {
        let run = try BuiltBinary.run(
            input: Data("upload\n".utf8), environment: ["XDG_DATA_HOME": "", "HOME": ""])
        #expect(run.status == 64)
        #expect(
            run.errorLines.first
                == "error: Cannot tell where to keep scores: neither XDG_DATA_HOME nor HOME is an absolute path. "
                + "Pass --store <file>, such as --store ~/scores.jsonl.")
        #expect(run.outputLines.isEmpty)
        let empty = try BuiltBinary.run(["--store", ""])
        #expect(empty.status == 64)
        #expect(
            empty.errorLines.first
                == "error: --store needs the path of a score file, such as --store scores.jsonl.")
    }

    @Test("validate keeps no scores, so it needs no store")
    func validateNeedsNoStore() throws {
        let run = try BuiltBinary.run(
            ["validate", "-"], input: Data(), environment: ["XDG_DATA_HOME": "", "HOME": ""])
        #expect(run.status == 0)
    }
}

/// `line` with every upload time of a `players` table replaced by 1970-01-01 00:00:00, for runs
/// that stamp uploads with the clock.
func timeless(_ line: String) -> String {
    line.replacing(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/, with: "1970-01-01 00:00:00")
}
