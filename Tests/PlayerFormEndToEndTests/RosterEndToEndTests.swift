import BuiltBinaryTesting
import Foundation
import Glibc
import Testing

/// The built binary with its score database: where it is, what survives a restart, what happens
/// when it cannot be used, and how scores move in and out of it.
@Suite("playerform and its score database")
struct RosterEndToEndTests {
    @Test("a second run with the same --store sees the first run's uploads, and adds to them")
    func restart() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = ["--store", folder.appendingPathComponent("scores.sqlite").path]

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

    @Test(
        "a script, from standard input or -c, ends with its database closed: no -wal file, the uploads kept")
    func scriptClosesDatabase() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("scores.sqlite").path
        let piped = try BuiltBinary.run(["--store", path], input: Data("upload\nquit\n".utf8))
        #expect(piped.status == 0)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        let commands = try BuiltBinary.run(["--store", path, "-c", "add Bob 120"], input: Data())
        #expect(commands.status == 0)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let read = try BuiltBinary.run(["--store", path], input: Data("players\n".utf8))
        #expect(
            read.outputLines.map(timeless).suffix(2) == [
                "    1  Colin     100  1970-01-01 00:00:00", "    2  Bob       120  1970-01-01 00:00:00",
            ])
    }

    @Test("two sessions at once on the same --store: one's upload reaches the other before its next command")
    func concurrentSessions() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = ["--store", folder.appendingPathComponent("scores.sqlite").path]
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

    @Test(
        "a --store that is a folder, a FIFO, a device, not a database, or a score file is refused at once, naming it"
    )
    func refusedStores() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let notes = folder.appendingPathComponent("notes.txt")
        try Data("some notes\n".utf8).write(to: notes)
        let old = folder.appendingPathComponent("scores.jsonl")
        let line =
            #"{"id":"6F1C2B1E-0000-4000-8000-000000000001","kind":"score","name":"Colin","points":100,"#
            + #""uploadedAt":"2026-11-21T07:13:09.123Z"}"#
        try Data((line + "\n").utf8).write(to: old)
        let cases: [(path: String, status: Int32, message: String)] = [
            (folder.path, 66, "is a folder, not a score database; name a regular file"),
            (fifo, 66, "is a FIFO (named pipe), not a score database; name a regular file"),
            ("/dev/zero", 66, "is a device, not a score database; name a regular file"),
            (notes.path, 65, "is not a SQLite database; name a score database or a new file"),
            (
                old.path, 65,
                "is a file of score records, not a score database; import it with: playerform import \(old.path)"
            ),
        ]
        for (path, status, message) in cases {
            let run = try BuiltBinary.run(["--store", path], input: Data("upload\nplayers\n".utf8))
            #expect(run.status == status)
            #expect(run.errorLines == ["error: \(path): \(message)"])
            #expect(run.outputLines.isEmpty)
        }
        #expect(try String(contentsOf: notes, encoding: .utf8) == "some notes\n")
        #expect(try String(contentsOf: old, encoding: .utf8) == line + "\n")
    }

    @Test("a database another process holds: an upload waits, says so, then fails; the session goes on")
    func lockedStore() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("scores.sqlite").path
        let store = ["--store", path]
        #expect(try BuiltBinary.run(store, input: Data("add Bob 1\n".utf8)).status == 0)
        let holder = try BuiltBinary.Session(
            ["-cmd", "BEGIN EXCLUSIVE;", "-cmd", "SELECT 'holding';", path], executable: "/usr/bin/sqlite3")
        #expect(holder.nextOutput() == "holding\n")
        let run = try BuiltBinary.run(
            store + ["--busy-timeout-milliseconds", "500"], input: Data("add Ann 2\nplayers\n".utf8))
        _ = try holder.finish()
        let waiting =
            "\(path): another process is using the score database; waiting up to 0.5 s (Ctrl-C stops waiting)"
        let failed =
            "\(path): another process kept the score database locked for 0.5 s; nothing was changed, try again"
        #expect(run.errorLines == ["note: " + waiting, "line 1: Could not add Ann: " + failed])
        #expect(
            run.outputLines.map(timeless) == [
                "Players: rows 1-1 of 1", "  row  name  points  uploaded (UTC)       selected",
                "    1  Bob        1  1970-01-01 00:00:00",
            ])
        #expect(run.status == 1)

        let imported = try BuiltBinary.run(store + ["import", "-"], input: Data())
        #expect(imported.status == 0)
    }

    @Test("export writes every record; validate reads it; import of it into another database is idempotent")
    func exportImport() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = ["--store", folder.appendingPathComponent("first.sqlite").path]
        let second = ["--store", folder.appendingPathComponent("second.sqlite").path]
        _ = try BuiltBinary.run(first, input: Data("add Bob 120\nadd \"Ann, \\\"A\\\"\" 7\nadd bob 5\n".utf8))
        for format in ["jsonl", "csv"] {
            let exported = try BuiltBinary.run(first + ["export", "--format", format])
            #expect(exported.status == 0)
            #expect(exported.outputLines.count == (format == "csv" ? 4 : 3))
            let validated = try BuiltBinary.run(
                ["validate", "--input-format", format, "-"], input: exported.standardOutput)
            #expect(validated.status == 0)
            #expect(validated.errorLines == ["3 records, 0 invalid"])
            let file = folder.appendingPathComponent("export.\(format)").path
            try exported.standardOutput.write(to: URL(fileURLWithPath: file))
            let imported = try BuiltBinary.run(second + ["import", file])
            #expect(imported.status == 0)
            let added =
                format == "jsonl" ? "3 records added, 0 already kept" : "0 records added, 3 already kept"
            #expect(imported.errorLines == ["note: \(file): \(added)"])
        }
        let copy = try BuiltBinary.run(second + ["export"])
        #expect(copy.standardOutput == (try BuiltBinary.run(first + ["export"])).standardOutput)
        #expect(
            try BuiltBinary.run(second, input: Data("players\n".utf8)).outputLines.map(timeless) == [
                "Players: rows 1-2 of 2", "  row  name      points  uploaded (UTC)       selected",
                "    1  bob            5  1970-01-01 00:00:00",
                "    2  Ann, \"A\"       7  1970-01-01 00:00:00",
            ])
    }

    @Test(
        "the score file of earlier versions at the default place is imported once, saying so, and left as it was"
    )
    func legacyImport() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (data, old, database) = try BuiltBinary.defaultPlace(in: folder)
        let lines = [
            #"{"id":"6F1C2B1E-0000-4000-8000-000000000001","kind":"score","name":"Colin","points":100,"#
                + #""uploadedAt":"2026-11-21T07:13:09.123Z"}"#,
            #"{"id":"6F1C2B1E-0000-4000-8000-000000000002","kind":"score","name":"Gone","points":1,"#
                + #""uploadedAt":"2026-11-21T07:13:10.000Z"}"#,
            #"{"deletedAt":"2026-11-21T07:20:00.000Z","ids":["6F1C2B1E-0000-4000-8000-000000000002"],"kind":"delete"}"#,
        ]
        let text = lines.joined(separator: "\n") + "\n"
        try Data(text.utf8).write(to: old)
        let environment = ["XDG_DATA_HOME": data.path]

        let first = try BuiltBinary.run(
            input: Data("players\ndelete 1 --yes\n".utf8), environment: environment)
        #expect(
            first.errorLines == [
                "note: imported 1 score from \(old.path) into \(database); the old file is left as it was"
            ])
        #expect(
            first.outputLines.map(timeless) == [
                "Players: rows 1-1 of 1", "  row  name   points  uploaded (UTC)       selected",
                "    1  Colin     100  1970-01-01 00:00:00", "- 1 Colin",
            ])
        let second = try BuiltBinary.run(input: Data("players\n".utf8), environment: environment)
        #expect(second.errorLines == [])
        #expect(second.outputLines == ["Players: none yet (add NAME POINTS, or upload)"])
        #expect(try String(contentsOf: old, encoding: .utf8) == text)
    }

    @Test(
        "an old score file that cannot be read stops the program with a message naming it, touching nothing")
    func legacyUnreadable() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = folder.appendingPathComponent("data/playerform/scores.jsonl").path
        try FileManager.default.createDirectory(atPath: old, withIntermediateDirectories: true)
        let run = try BuiltBinary.run(
            input: Data("players\n".utf8), environment: ["XDG_DATA_HOME": folder.path + "/data"])
        #expect(
            run.errorLines == [
                "error: could not import the old score file: \(old): cannot read the file: Is a directory"
            ])
        #expect(run.status == 74)
        #expect(run.outputLines.isEmpty)
    }

    @Test("import reports each line it cannot import and exits 65; a file it cannot open, 66; both go on")
    func importProblems() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = ["--store", folder.appendingPathComponent("scores.sqlite").path]
        let file = folder.appendingPathComponent("in.jsonl").path
        let good =
            #"{"id":"6F1C2B1E-0000-4000-8000-000000000001","name":"Colin","points":1,"#
            + #""uploadedAt":"2026-11-21T07:13:09.123Z"}"#
        let clash =
            #"{"id":"6F1C2B1E-0000-4000-8000-000000000001","name":"Bob","points":1,"#
            + #""uploadedAt":"2026-11-21T07:13:09.123Z"}"#
        try Data([good, "oops", clash].joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
        let missing = folder.appendingPathComponent("missing.jsonl").path
        let run = try BuiltBinary.run(store + ["import", file, missing])
        #expect(
            run.errorLines == [
                "\(file):2: not a score record (not valid JSON)",
                "\(file):3: a different record with the id 6F1C2B1E-0000-4000-8000-000000000001 "
                    + "is already stored; the record is not kept",
                "note: \(file): 1 record added, 0 already kept, 2 not imported",
                "error: \(missing): cannot read the file: No such file or directory",
            ])
        #expect(run.status == 66)
        let again = try BuiltBinary.run(store + ["import", file])
        #expect(again.status == 65)
        #expect(try BuiltBinary.run(store + ["export"]).outputLines == [good])
    }

    @Test("the default store is $XDG_DATA_HOME/playerform/scores.sqlite, else under ~/.local/share")
    func defaultStore() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try BuiltBinary.run(
            input: Data("add Bob 5\n".utf8), environment: ["XDG_DATA_HOME": folder.path + "/data"])
        #expect(data.status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/data/playerform/scores.sqlite"))
        let home = try BuiltBinary.run(
            input: Data("add Ann 5\n".utf8), environment: ["XDG_DATA_HOME": "relative", "HOME": folder.path])
        #expect(home.status == 0)
        #expect(
            FileManager.default.fileExists(atPath: folder.path + "/.local/share/playerform/scores.sqlite"))
    }

    @Test("with no --store and no usable XDG_DATA_HOME or HOME, a usage error asks for --store")
    func noDefaultStore() throws {
        let run = try BuiltBinary.run(
            input: Data("upload\n".utf8), environment: ["XDG_DATA_HOME": "", "HOME": ""])
        #expect(run.status == 64)
        #expect(
            run.errorLines.first
                == "error: Cannot tell where to keep scores: neither XDG_DATA_HOME nor HOME is an absolute path. "
                + "Pass --store <file>, such as --store ~/scores.sqlite.")
        #expect(run.outputLines.isEmpty)
        let empty = try BuiltBinary.run(["--store", ""])
        #expect(empty.status == 64)
        #expect(
            empty.errorLines.first
                == "error: --store needs the path of a score database, such as --store scores.sqlite.")
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

/// What a listing does with a database damaged midway, and with names of any length: the
/// output a script reads stays whole, and a row stays as wide as its columns.
@Suite("playerform lists a roster as far as it can, as wide as it may")
struct RosterListingEndToEndTests {
    /// A database of `count` players named `Player N`, made by importing them.
    private static func store(of count: Int, in folder: URL) throws -> String {
        let records = folder.appendingPathComponent("players.jsonl")
        let lines = (0..<count).map { #"{"name":"Player \#($0)","points":\#($0 % 100)}"# }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: records)
        let path = folder.appendingPathComponent("scores.sqlite").path
        let imported = try BuiltBinary.run(["--store", path, "import", records.path])
        try #require(imported.status == 0, "\(imported.errors)")
        return path
    }

    @Test(
        "players --json over a database damaged after its first thousand players ends its line, says why on standard error, and the next JSON starts a line"
    )
    func jsonOverDamagedPages() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.store(of: 3_000, in: folder)
        // The last leaf page of the player table, in the order of its B-tree: players a listing
        // reads after its first thousand.
        let pages = try ProgramRunner.run(
            "/usr/bin/env",
            [
                "sqlite3", path,
                "SELECT pageno FROM dbstat WHERE name = 'player' AND pagetype = 'leaf' ORDER BY path DESC LIMIT 1; "
                    + "PRAGMA page_size",
            ])
        try #require(pages.status == 0)
        let numbers = pages.outputLines.compactMap { Int($0) }
        try #require(numbers.count == 2, "\(pages.outputLines)")
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try file.seek(toOffset: UInt64((numbers[0] - 1) * numbers[1] + 100))
        try file.write(contentsOf: Data(repeating: 0xFF, count: 3_000))
        try file.close()

        let run = try BuiltBinary.run(["--store", path, "-c", "players --json", "-c", "rules --json"])
        #expect(run.status == 1)
        #expect(run.outputLines.count == 2, "\(run.output.prefix(300))")
        let listing = try #require(run.outputLines.first)
        #expect(listing.hasPrefix(#"[{"name":"Player 0","#))
        #expect(
            listing.contains(#""name":"Player 999","#), "at least the first thousand players were written")
        #expect(!listing.hasSuffix("]"), "the array is left open, so that it reads as incomplete")
        #expect(
            (try? JSONSerialization.jsonObject(with: Data(listing.utf8))) == nil,
            "an incomplete listing is not a JSON value")
        let rules = try #require(run.outputLines.last)
        #expect(
            try JSONSerialization.jsonObject(with: Data(rules.utf8)) is [String: Any], "\(rules.prefix(80))")
        #expect(run.errorLines.count == 1)
        #expect(run.errors.contains("the score database is damaged"), "\(run.errors)")
    }

    @Test(
        "a page of names of 100,000 ideographs each is listed with every row within the page's 80 columns"
    )
    func longNamesFitTheColumns() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = folder.appendingPathComponent("long.jsonl")
        // A thousand different ideographs a hundred times over, after a prefix of each player's.
        let block = String(String.UnicodeScalarView((0..<1_000).map { Unicode.Scalar(0x4E00 + $0 * 7)! }))
        let lines = (0..<12).map { player in
            let name = String(Unicode.Scalar(0x4E00 + player)!) + String(repeating: block, count: 100)
            return #"{"name":"\#(name)","points":\#(player)}"#
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: records)
        let path = folder.appendingPathComponent("scores.sqlite").path
        try #require(try BuiltBinary.run(["--store", path, "import", records.path]).status == 0)

        let run = try BuiltBinary.run(["--store", path, "-c", "players"])
        #expect(run.status == 0)
        let rows = run.outputLines.dropFirst(2)
        #expect(rows.count == 12)
        // An ideograph takes two columns; everything else on these lines takes one.
        let widths = run.outputLines.map { line in
            line.unicodeScalars.reduce(0) { $0 + ((0x4E00...0x9FFF).contains($1.value) ? 2 : 1) }
        }
        #expect(widths.allSatisfy { $0 <= 80 }, "widest row: \(widths.max() ?? 0) columns")
        #expect(rows.allSatisfy { $0.contains("…") }, "each name is cut short, and says so")
    }
}
