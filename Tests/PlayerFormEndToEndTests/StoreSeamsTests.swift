import BuiltBinaryTesting
import Foundation
import Testing

/// The built binary where scores cross from one part to another: the address of a store, the
/// order records arrive in, commands that only read, and files of other programs.
@Suite("playerform at the seams of its stores")
struct StoreSeamsTests {
    /// Texts shaped like the address of a server that are not a league URL this program reads.
    static let addresses = [
        "postgress://ann:secret@host/league", "pg://ann:secret@host/league", "postgres:/league",
        "postgresql+asyncpg://ann:secret@host/league", "hots=localhost dbname=league password=secret",
        "HTTP://example.com/scores", "file:/tmp/scores.sqlite", "postgre://ann@host/league?password=secret",
        // Blanks before it, a scheme inside another, none at all, look-alike letters, SQLite's own names.
        "  postgress://ann:secret@host/league", "\tpg://ann:secret@host",
        "jdbc:postgresql://host/league?password=secret",
        "postgres:ann:secret@host/league", "p\u{043E}stgres://ann:secret@host/league",
        "Postgres ://ann:secret@host/db",
        "postgress:/ann:secret@host/db", ":memory:", "file::memory:",
    ]

    /// The files and folders in `folder`, recursively.
    static func contents(of folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test(
        "a store named like another server's address is a usage error (64) naming the accepted forms; nothing is created and no password shown",
        arguments: addresses)
    func addressesRefused(address: String) throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.jsonl")
        try Data().write(to: input)
        let work = folder.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let runs = [
            try BuiltBinary.run(["--store", address, "-c", "add Ann 5"], directory: work),
            try BuiltBinary.run(["--store", address, "export"], directory: work),
            try BuiltBinary.run(["--store", address, "import", input.path], directory: work),
            try BuiltBinary.run(
                ["-c", "add Ann 5"], environment: ["PLAYERFORM_STORE": address], directory: work),
        ]
        for run in runs {
            #expect(run.status == 64, "\(run.errors)")
            #expect(run.errors.contains("postgres://USER@HOST[:PORT]/DATABASE"), "\(run.errors)")
            #expect(!run.errors.contains("secret"), "the password is not shown: \(run.errors)")
        }
        #expect(runs[3].errors.contains("PLAYERFORM_STORE"))
        #expect(Self.contents(of: work).isEmpty, "nothing is created: \(Self.contents(of: work))")
    }

    @Test(
        "a league URL with a parameter this program does not read is refused with every password parameter masked"
    )
    func passwordParametersMasked() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try BuiltBinary.run(
            ["--store", "postgres://ann@127.0.0.1:1/db?sslpassword=secret", "export"], directory: folder)
        #expect(run.status == 64, "\(run.errors)")
        #expect(run.errors.contains("sslpassword=***") && !run.errors.contains("secret"), "\(run.errors)")
    }

    @Test(
        "a league URL's scheme is read in any case, and a libpq keyword string is a league too: neither is a file",
        arguments: [
            "PostgreSQL://ann@127.0.0.1:1/league", "host=127.0.0.1 port=1 dbname=league password=secret",
            " service = league",
        ])
    func leagueAddresses(address: String) throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "[league]\nhost=127.0.0.1\nport=1\n".write(
            to: folder.appendingPathComponent("services"), atomically: true, encoding: .utf8)
        // Port 1 on this machine: nothing listens, so the league cannot be reached (69).
        let run = try BuiltBinary.run(
            ["--store", address, "-c", "players"],
            environment: ["PGSERVICEFILE": folder.path + "/services", "PGSYSCONFDIR": folder.path],
            directory: folder)
        #expect(run.status == 69, "\(run.errors)")
        #expect(run.errors.contains("127.0.0.1:1") && !run.errors.contains("secret"), "\(run.errors)")
        #expect(Self.contents(of: folder) == ["services"])
    }

    /// A JSON Lines score file of one record, as `export` writes it.
    static func recordLine(_ id: UUID, _ name: String, _ points: Int, _ time: String) -> String {
        #"{"id":"\#(id.uuidString)","name":"\#(name)","points":\#(points),"uploadedAt":"\#(time)"}"#
    }

    @Test("importing a colleague's older export rolls no one back; export lists records oldest first by time")
    func importOlderExport() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (newer, older, bob) = (UUID(), UUID(), UUID())
        let mine = folder.appendingPathComponent("mine.jsonl")
        try (Self.recordLine(newer, "Ann", 9, "2026-11-27T20:07:10.000Z") + "\n").write(
            to: mine, atomically: true, encoding: .utf8)
        let theirs = folder.appendingPathComponent("theirs.jsonl")
        try
            (Self.recordLine(older, "ann", 5, "2026-11-27T20:07:08.000Z") + "\n"
            + Self.recordLine(bob, "Bob", 1, "2026-11-27T20:07:09.000Z") + "\n").write(
                to: theirs, atomically: true, encoding: .utf8)
        for (name, files) in [("a", [mine, theirs]), ("b", [theirs, mine])] {
            let store = ["--store", folder.appendingPathComponent("\(name).sqlite").path]
            for file in files { #expect(try BuiltBinary.run(store + ["import", file.path]).status == 0) }
            let listed = try BuiltBinary.run(store + ["-c", "players --json"])
            #expect(
                listed.output.contains(#""name":"Ann","points":9,"uploadedAt":"2026-11-27T20:07:10.000Z""#))
            let exported = try BuiltBinary.run(store + ["export"])
            #expect(
                exported.outputLines.map { String($0.dropFirst(7).prefix(36)) }
                    == [older, bob, newer].map(\.uuidString), "order \(name)")
        }
    }

    @Test("export of a store that is not there, or is an empty file, ends with 66 and creates nothing")
    func exportCreatesNothing() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let typo = folder.appendingPathComponent("typo.sqlite").path
        let named = try BuiltBinary.run(["--store", typo, "export"])
        #expect(named.status == 66)
        #expect(named.errors.contains("typo.sqlite") && named.errors.contains("nothing was created"))
        #expect(!FileManager.default.fileExists(atPath: typo))
        // The default store, as under cron: a data folder with no database in it.
        let data = folder.appendingPathComponent("data")
        let byDefault = try BuiltBinary.run(["export"], environment: ["XDG_DATA_HOME": data.path])
        #expect(byDefault.status == 66)
        #expect(!FileManager.default.fileExists(atPath: data.path))
        let empty = folder.appendingPathComponent("empty.sqlite")
        try Data().write(to: empty)
        #expect(try BuiltBinary.run(["--store", empty.path, "export"]).status == 66)
        #expect(try Data(contentsOf: empty).isEmpty)
    }

    @Test("a SQLite database of another program is refused (65) with every byte as it was")
    func foreignDatabaseUntouched() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notes = folder.appendingPathComponent("notes.db")
        let made = try ProgramRunner.run(
            "/usr/bin/env",
            ["sqlite3", notes.path, "CREATE TABLE note (text); INSERT INTO note VALUES ('x');"])
        try #require(made.status == 0, "sqlite3: \(made.errors)")
        let before = try Data(contentsOf: notes)
        for arguments in [["-c", "players"], ["export"], ["import", "-"]] {
            let run = try BuiltBinary.run(["--store", notes.path] + arguments)
            #expect(run.status == 65, "\(arguments): \(run.errors)")
            #expect(run.errors.contains("another program"))
            #expect(try Data(contentsOf: notes) == before, "\(arguments) left the file as it was")
        }
        #expect(Self.contents(of: folder) == ["notes.db"])
    }
}

/// `playerform check` on a database changed behind the program's back.
@Suite("playerform check")
struct StoreCheckTests {
    @Test(
        "check finds players that disagree with their scores after rows were deleted with sqlite3; --repair mends them"
    )
    func checkAndRepair() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("s.sqlite").path
        let store = ["--store", path]
        #expect(
            try BuiltBinary.run(store + ["-c", "add Ann 1", "-c", "add Bob 2", "-c", "add Cy 3"]).status == 0)
        let sound = try BuiltBinary.run(store + ["check"])
        #expect(sound.status == 0)
        #expect(sound.errorLines == ["note: \(path): sound"])
        // Behind the program's back: a player row, and the only score of another.
        let changed = try ProgramRunner.run(
            "/usr/bin/env",
            ["sqlite3", path, "DELETE FROM player WHERE name = 'Bob'; DELETE FROM score WHERE name = 'Cy'"])
        try #require(changed.status == 0)
        let found = try BuiltBinary.run(store + ["check"])
        #expect(found.status == 65)
        #expect(found.errors.contains("players with no score left: 1"), "\(found.errors)")
        #expect(found.errors.contains("scores of no player: 1"))
        #expect(found.errors.contains("blocks of the roster whose count of players is wrong: 1"))
        let repaired = try BuiltBinary.run(store + ["check", "--repair"])
        #expect(repaired.status == 0, "\(repaired.errors)")
        #expect(try BuiltBinary.run(store + ["check"]).status == 0)
        let listed = try BuiltBinary.run(store + ["-c", "players --csv"])
        #expect(listed.outputLines.dropFirst().map { String($0.prefix(5)) } == ["Ann,1", "Bob,2"])
        // A score renamed behind the program's back belongs to another player now.
        let renamed = try ProgramRunner.run(
            "/usr/bin/env", ["sqlite3", path, "UPDATE score SET name = 'Zed' WHERE name = 'Bob'"])
        try #require(renamed.status == 0)
        let misplaced = try BuiltBinary.run(store + ["check"])
        #expect(misplaced.status == 65)
        #expect(misplaced.errors.contains("scores whose name is another player's: 1"), "\(misplaced.errors)")
        #expect(try BuiltBinary.run(store + ["check", "--repair"]).status == 0)
        #expect(try BuiltBinary.run(store + ["-c", "players --csv"]).output.contains("Zed,2"))
    }
}
