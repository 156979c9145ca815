import Foundation
import Testing

/// The built binary on a shared league (`--store postgres://...`): several processes at once,
/// a server that cannot be reached, a password that is never shown.
///
/// The specs that need a server run when `PLAYERFORM_TEST_POSTGRES_URL` names one (`.ci/run` starts
/// one) and are skipped, saying so, otherwise.
@Suite("playerform on a shared PostgreSQL league")
struct LeagueEndToEndTests {
    static let serverURL: String? = {
        let url = ProcessInfo.processInfo.environment["PLAYERFORM_TEST_POSTGRES_URL"]
        if url?.isEmpty != false {
            FileHandle.standardError.write(
                Data("PostgreSQL end-to-end specs skipped: PLAYERFORM_TEST_POSTGRES_URL is not set\n".utf8))
            return nil
        }
        return url
    }()

    /// A new, empty database on the test server, made with psql; its URL.
    static func freshLeague() throws -> String {
        let server = try #require(serverURL)
        let name = "league_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let psql = Process()
        psql.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        psql.arguments = ["psql", "-q", "-v", "ON_ERROR_STOP=1", server, "-c", "CREATE DATABASE \(name)"]
        try psql.run()
        psql.waitUntilExit()
        try #require(psql.terminationStatus == 0)
        let base = server.split(separator: "?", maxSplits: 1)
        let withoutDatabase = base[0][..<(base[0].lastIndex(of: "/") ?? base[0].endIndex)]
        return withoutDatabase + "/" + name + (base.count > 1 ? "?" + base[1] : "")
    }

    @Test(
        "a league whose server cannot be reached ends the run with 69, naming host and port, never the password"
    )
    func unreachable() throws {
        let url = "postgres://bob:s3cret@127.0.0.1:1/league"
        for run in [
            try BuiltBinary.run(["--store", url], input: Data("players\n".utf8)),
            try BuiltBinary.run([], input: Data("players\n".utf8), environment: ["PLAYERFORM_STORE": url]),
            try BuiltBinary.run(["--store", url, "export"]),
        ] {
            #expect(run.status == 69)
            #expect(
                run.errorLines == [
                    "error: cannot reach the PostgreSQL server at 127.0.0.1:1: connection refused"
                ])
            #expect(
                !String(decoding: run.standardOutput + run.standardError, as: UTF8.self).contains("s3cret"))
        }
    }

    @Test("a league URL that cannot be used is refused with its password masked, exit 64")
    func badURL() throws {
        let run = try BuiltBinary.run(["--store", "postgres://bob:s3cret@db:port/league"], input: Data())
        #expect(run.status == 64)
        #expect(run.errorLines.count == 1)
        #expect(run.errorLines.first?.contains("postgres://bob:***@db:port/league") == true)
        #expect(!String(decoding: run.standardError, as: UTF8.self).contains("s3cret"))
    }

    /// Runs psql with `sql` on `url`; its unaligned, tuples-only output.
    static func psql(_ url: String, _ sql: String) throws -> String {
        let psql = Process()
        psql.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        psql.arguments = ["psql", "-qAtX", "-v", "ON_ERROR_STOP=1", url, "-c", sql]
        let output = Pipe()
        psql.standardOutput = output
        try psql.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        psql.waitUntilExit()
        try #require(psql.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(
        "eight processes uploading 300 scores each and deleting at once while another reads: nothing lost, nothing doubled",
        .enabled(if: serverURL != nil, "PLAYERFORM_TEST_POSTGRES_URL is not set"))
    func concurrentProcesses() throws {
        let league = try Self.freshLeague()
        let (processes, uploads, deleteEvery, listings) = (8, 300, 10, 200)
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for process in 0..<processes {
            // Every name is uploaded once, with points that say who uploaded it; every tenth
            // command deletes the oldest player, whoever uploaded it, so deletes race each other
            // and the uploads.
            var script = ""
            for upload in 0..<uploads {
                script += "add P\(process)x\(upload) \(process * 1000 + upload)\n"
                if upload % deleteEvery == deleteEvery - 1 { script += "delete 1 --yes\n" }
            }
            try script.write(
                to: folder.appendingPathComponent("in\(process)"), atomically: true, encoding: .utf8)
        }
        try String(repeating: "players\n", count: listings).write(
            to: folder.appendingPathComponent("in\(processes)"), atomically: true, encoding: .utf8)
        // One shell starts every process at once (the last one only reads) and waits for them all.
        let shell = """
            for i in $(seq 0 \(processes)); do
                ("$0" --store "$1" <"$2/in$i" >"$2/out$i" 2>"$2/err$i"; echo $? >"$2/status$i") &
            done
            for job in $(jobs -p); do wait "$job"; done
            """
        let runner = Process()
        runner.executableURL = URL(fileURLWithPath: "/bin/sh")
        runner.arguments = ["-c", shell, BuiltBinary.path, league, folder.path]
        try runner.run()
        runner.waitUntilExit()
        #expect(runner.terminationStatus == 0)
        // A delete fails only when another process deleted the same oldest player first.
        var deleted = 0
        for process in 0..<processes {
            let errors = BuiltBinary.Run.lines(
                try Data(contentsOf: folder.appendingPathComponent("err\(process)")))
            for line in errors {
                #expect(
                    line.contains("There is no player named P") || line.contains("there is no row 1"),
                    "\(line)")
            }
            deleted += uploads / deleteEvery - errors.count
            // A script with a failed command ends with 1.
            let status = try String(
                contentsOf: folder.appendingPathComponent("status\(process)"), encoding: .utf8)
            #expect(status == (errors.isEmpty ? "0\n" : "1\n"))
        }
        #expect(deleted > 0)
        let reader = BuiltBinary.Run.lines(
            try Data(contentsOf: folder.appendingPathComponent("err\(processes)")))
        #expect(reader == [])
        let readerStatus = try String(
            contentsOf: folder.appendingPathComponent("status\(processes)"), encoding: .utf8)
        #expect(readerStatus == "0\n")
        let titles = BuiltBinary.Run.lines(
            try Data(contentsOf: folder.appendingPathComponent("out\(processes)"))
        )
        .filter { $0.hasPrefix("Players:") }
        #expect(titles.count == listings)
        #expect(titles.allSatisfy { $0.contains(" of ") || $0.contains("none yet") })

        let export = try BuiltBinary.run(["--store", league, "export"])
        #expect(export.status == 0)
        let lines = export.outputLines
        #expect(lines.count == processes * uploads - deleted)
        let ids = Set(lines.map { $0.dropFirst(7).prefix(36) })
        #expect(ids.count == lines.count)
        // Each record left is one that was uploaded, with its own points, once.
        var names = Set<String>()
        for line in lines {
            guard let nameStart = line.range(of: "\"name\":\"P"), let points = line.range(of: "\"points\":")
            else {
                Issue.record("not a record of this spec: \(line)")
                continue
            }
            let name = line[nameStart.upperBound...].prefix { $0 != "\"" }
            let parts = name.split(separator: "x").compactMap { Int($0) }
            let value = Int(line[points.upperBound...].prefix { $0.isNumber })
            #expect(parts.count == 2 && value == parts[0] * 1000 + parts[1], "\(line)")
            #expect(names.insert(String(name)).inserted, "\(name) is kept twice")
        }
        // The tables agree: one row per record and per player, each player's id the seq of its
        // first record, and the block counts the players.
        let counts = try Self.psql(
            league,
            "SELECT (SELECT count(*) FROM score), (SELECT count(DISTINCT id) FROM score), "
                + "(SELECT count(*) FROM player), (SELECT coalesce(sum(players), 0) FROM roster_block), "
                + "(SELECT count(*) FROM player AS p WHERE p.id = (SELECT min(seq) FROM score WHERE player_id = p.id))"
        )
        let kept = processes * uploads - deleted
        #expect(counts == "\(kept)|\(kept)|\(kept)|\(kept)|\(kept)")
    }

    @Test(
        "a league imports a database's export once, and exports the same bytes as the database",
        .enabled(if: serverURL != nil, "PLAYERFORM_TEST_POSTGRES_URL is not set"))
    func importExport() throws {
        let league = try Self.freshLeague()
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = ["--store", folder.appendingPathComponent("scores.sqlite").path]
        let made = try BuiltBinary.run(
            database, input: Data("add Ann 1\nadd \"Bo, b\" 2.5\nadd ann 3\n".utf8))
        #expect(made.status == 0)
        let exported = folder.appendingPathComponent("scores.jsonl").path
        try BuiltBinary.run(database + ["export"]).standardOutput.write(to: URL(fileURLWithPath: exported))
        let first = try BuiltBinary.run(["--store", league, "import", exported])
        #expect(first.status == 0)
        #expect(first.errorLines == ["note: \(exported): 3 records added, 0 already kept"])
        let again = try BuiltBinary.run(["--store", league, "import", exported])
        #expect(again.errorLines == ["note: \(exported): 0 records added, 3 already kept"])
        for format in ["jsonl", "csv"] {
            let fromLeague = try BuiltBinary.run(["--store", league, "export", "--format", format])
            let fromDatabase = try BuiltBinary.run(database + ["export", "--format", format])
            #expect(fromLeague.status == 0)
            #expect(fromLeague.standardOutput == fromDatabase.standardOutput)
            #expect(fromLeague.outputLines.count == (format == "csv" ? 4 : 3))
        }
    }

    @Test(
        "a second scorekeeper without privileges is refused (77) with the GRANTs it needs, and can keep scores once granted them",
        .enabled(if: serverURL != nil, "PLAYERFORM_TEST_POSTGRES_URL is not set"))
    func secondScorekeeperGrants() throws {
        let league = try Self.freshLeague()
        #expect(try BuiltBinary.run(["--store", league, "-c", "add Ann 1"]).status == 0)
        let role = "keeper_" + UUID().uuidString.prefix(8).lowercased()
        _ = try Self.psql(league, "CREATE ROLE \(role) LOGIN")
        // The same server and database, as the other user.
        let other = league.replacingOccurrences(of: "://postgres@", with: "://\(role)@")
        let refused = try BuiltBinary.run(["--store", other, "-c", "add Bob 2"])
        #expect(refused.status == 77, "\(refused.errors)")
        #expect(
            refused.errors.contains("GRANT USAGE ON SCHEMA \"public\" TO \"\(role)\""), "\(refused.errors)")
        // The GRANTs the message and the README give.
        _ = try Self.psql(
            league,
            "GRANT USAGE ON SCHEMA public TO \(role); "
                + "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO \(role); "
                + "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO \(role)")
        let granted = try BuiltBinary.run(["--store", other, "-c", "add Bob 2", "-c", "delete 1 --yes"])
        #expect(granted.status == 0, "\(granted.errors)")
        #expect(try Self.psql(league, "SELECT string_agg(name, ',') FROM player") == "Bob")
    }

    @Test(
        "a league keeps a name of thousands of characters, and an import keeps every record but one the server refuses",
        .enabled(if: serverURL != nil, "PLAYERFORM_TEST_POSTGRES_URL is not set"))
    func longNamesAndRefusedRecords() throws {
        let league = try Self.freshLeague()
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let long = String((0..<3_000).map { Character(Unicode.Scalar(0x4E00 + ($0 * 7_919) % 20_000)!) })
        let added = try BuiltBinary.run(["--store", league, "-c", "add \"\(long)\" 5"])
        #expect(added.status == 0, "\(added.errors)")
        // PostgreSQL's text holds no NUL character; the other records of the file are kept.
        let file = folder.appendingPathComponent("in.jsonl")
        let lines = [
            #"{"name":"Ann","points":1}"#, #"{"name":"B\u0000b","points":2}"#,
            #"{"name":"\#(long)x","points":3}"#,
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let imported = try BuiltBinary.run(["--store", league, "import", file.path])
        #expect(imported.status == 65)
        #expect(imported.errorLines.count == 2, "\(imported.errors)")
        #expect(imported.errorLines.first?.hasPrefix("\(file.path):2: the league refused the record") == true)
        #expect(
            imported.errorLines.last == "note: \(file.path): 2 records added, 0 already kept, 1 not imported")
        let listed = try BuiltBinary.run(["--store", league, "-c", "players --csv"])
        #expect(listed.outputLines.count == 4, "\(listed.output)")
    }

    @Test(
        "check finds a league's players that disagree with their scores after a change made with psql; --repair mends them",
        .enabled(if: serverURL != nil, "PLAYERFORM_TEST_POSTGRES_URL is not set"))
    func checkAndRepair() throws {
        let league = try Self.freshLeague()
        let store = ["--store", league]
        let added = try BuiltBinary.run(
            store + ["-c", "add Ann 1", "-c", "add Bob 2", "-c", "add Cy 3", "-c", "add Ann 4"])
        try #require(added.status == 0, "\(added.errors)")
        let sound = try BuiltBinary.run(store + ["check"])
        #expect(sound.status == 0, "\(sound.errors)")
        #expect(sound.errorLines == ["note: \(league): sound"])
        // Behind the program's back: the only score of a player, Ann's first score given
        // another name, and a digest the league looks a player up by.
        _ = try Self.psql(
            league,
            "DELETE FROM score WHERE name = 'Cy'; "
                + "UPDATE score SET name = 'Zed' WHERE seq = (SELECT min(seq) FROM score WHERE name = 'Ann'); "
                + "UPDATE player SET key_digest = '\\x00' WHERE name = 'Bob'")
        let found = try BuiltBinary.run(store + ["check"])
        #expect(found.status == 65)
        #expect(
            found.errorLines == [
                "error: \(league): players with no score left: 1",
                "error: \(league): players whose count of uploads is not their count of scores: 1",
                "error: \(league): players who do not show their newest score, or are not placed by their first: 1",
                "error: \(league): scores whose name is another player's: 1",
                "error: \(league): players whose key digest is not their key's: 1",
                "note: \(league): the players disagree with the scores; playerform check --repair makes them "
                    + "again from the scores",
            ], "\(found.errors)")
        let repaired = try BuiltBinary.run(store + ["check", "--repair"])
        #expect(repaired.status == 0, "\(repaired.errors)")
        #expect(
            repaired.errorLines.last
                == "note: \(league): repaired: the players were made again from the scores")
        #expect(try BuiltBinary.run(store + ["check"]).status == 0)
        // Zed takes the place of the first record it now holds, and Ann that of her newest; Bob is
        // found by his digest again, so a new upload is his, not a second Bob's.
        try #require(try BuiltBinary.run(store + ["-c", "add Bob 5"]).status == 0)
        let listed = try BuiltBinary.run(store + ["-c", "players --csv"])
        #expect(listed.outputLines.dropFirst().map { String($0.prefix(5)) } == ["Zed,1", "Bob,5", "Ann,4"])
        #expect(
            try Self.psql(league, "SELECT string_agg(block || ':' || players, ',') FROM roster_block")
                == "0:3")
    }
}

/// The built binary against a PostgreSQL server of each spec's own (``ThrowawayServer``): one
/// that dies in the middle of a session, one that asks for a password.
///
/// Skipped, saying why, when `initdb` and `pg_ctl` are not installed.
@Suite("playerform with a PostgreSQL server of its own")
struct LeagueOwnServerTests {
    @Test(
        "a server killed mid-session: that command fails saying so, the next one connects again, nothing acknowledged is lost or kept twice",
        .enabled(if: ThrowawayServer.unavailableReason == nil, "initdb and pg_ctl cannot be run"),
        .timeLimit(.minutes(5)))
    func serverRestarts() throws {
        let server = try ThrowawayServer()
        try server.start()
        let url = server.url()
        let session = try BuiltBinary.Session(["--store", url], mergingErrors: true)
        try session.send("add Ann 1\n")
        #expect(session.output(until: "+ 1 Ann 1").contains("+ 1 Ann 1"))
        try server.kill()
        try session.send("add Bob 2\n")
        // Said once, before the command: the roster can no longer be read, and as of when it is.
        var failed = session.output(until: "line 2: ")
        failed += session.output(until: "\n")
        let lines = failed.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(failed)")
        #expect(lines.first?.hasPrefix("note: ") == true, "\(failed)")
        #expect(lines.first?.contains("; the roster is as of ") == true, "\(failed)")
        #expect(lines.last?.hasPrefix("line 2: ") == true, "\(failed)")
        #expect(failed.contains("PostgreSQL server at \(server.folder.path)/.s.PGSQL.5432"), "\(failed)")
        #expect(!failed.contains("Bob 2"))
        try server.start()
        try session.send("add Cy 3\nadd Ann 4\n")
        let after = session.output(until: "Ann 4")
        #expect(after.hasPrefix("note: the score store can be read again"), "\(after)")
        #expect(after.contains("+ 2 Cy 3") && after.contains("~ 1 Ann 4"), "\(after)")
        let (rest, status) = try session.finish()
        #expect(!rest.contains("error"), "\(rest)")
        // A script with a failed command ends with 1.
        #expect(status == 1)
        let export = try BuiltBinary.run(["--store", url, "export"])
        #expect(export.status == 0)
        let records = export.outputLines.map { line in
            let name =
                line.range(of: "\"name\":\"").map { line[$0.upperBound...].prefix { $0 != "\"" } } ?? ""
            let points =
                line.range(of: "\"points\":").map { line[$0.upperBound...].prefix { $0.isNumber } } ?? ""
            return "\(name) \(points)"
        }
        #expect(records == ["Ann 1", "Cy 3", "Ann 4"])
    }

    @Test(
        "a wrong password ends the run with 77, and no output shows it, from the URL or PGPASSWORD",
        .enabled(if: ThrowawayServer.unavailableReason == nil, "initdb and pg_ctl cannot be run"),
        .timeLimit(.minutes(5)))
    func wrongPassword() throws {
        let right = "right-\(UUID().uuidString.prefix(8))"
        let server = try ThrowawayServer(password: right)
        try server.start()
        let wrong = "wr0ng-\(UUID().uuidString.prefix(8))"
        let runs = [
            try BuiltBinary.run(["--store", server.url(password: wrong)], input: Data("players\n".utf8)),
            try BuiltBinary.run(
                ["--store", server.url(), "export"], environment: ["PGPASSWORD": wrong]),
            try BuiltBinary.run(
                [], input: Data("players\n".utf8),
                environment: ["PLAYERFORM_STORE": server.url(password: wrong)]),
        ]
        for run in runs {
            #expect(run.status == 77)
            #expect(
                run.errorLines == [
                    "error: the PostgreSQL server at \(server.folder.path)/.s.PGSQL.5432 refused the user "
                        + "postgres: password authentication failed for user \"postgres\""
                ])
            let everything = String(decoding: run.standardOutput + run.standardError, as: UTF8.self)
            #expect(!everything.contains(wrong) && !everything.contains(right))
        }
        let allowed = try BuiltBinary.run(
            ["--store", server.url()], input: Data("add Ann 1\n".utf8), environment: ["PGPASSWORD": right])
        #expect(allowed.status == 0)
        #expect(allowed.outputLines == ["+ 1 Ann 1"])
    }

    @Test(
        "a script on a server that asks for a password it was not given ends with 77, saying where a password may come from",
        .enabled(if: ThrowawayServer.unavailableReason == nil, "initdb and pg_ctl cannot be run"),
        .timeLimit(.minutes(5)))
    func noPasswordInScript() throws {
        let server = try ThrowawayServer(password: "right-\(UUID().uuidString.prefix(8))")
        try server.start()
        let home = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let run = try BuiltBinary.run(
            ["--store", server.url()], input: Data("players\n".utf8),
            environment: ["HOME": home.path, "PGPASSWORD": "", "PGPASSFILE": home.path + "/none"])
        #expect(run.status == 77)
        #expect(
            run.errorLines == [
                "error: the PostgreSQL server at \(server.folder.path)/.s.PGSQL.5432 refused the user postgres: "
                    + "it asks for a password and none was given; give it in the address "
                    + "(postgres://USER:PASSWORD@... or password=...), in PGPASSWORD, or in the password file "
                    + "(passfile=, PGPASSFILE, else ~/.pgpass)"
            ])
    }

    @Test(
        "a password file that others may read is ignored with a warning, as libpq does; one only its owner reads is used",
        .enabled(if: ThrowawayServer.unavailableReason == nil, "initdb and pg_ctl cannot be run"),
        .timeLimit(.minutes(5)))
    func passwordFilePermissions() throws {
        let right = "right-\(UUID().uuidString.prefix(8))"
        let server = try ThrowawayServer(password: right)
        try server.start()
        let home = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent(".pgpass")
        // A socket in a folder other than the default one is matched by the folder, as libpq does.
        try Data("localhost:*:*:postgres:wrong\n\(server.folder.path):*:*:postgres:\(right)\n".utf8).write(
            to: file)
        // Through HOME (~/.pgpass) and through PGPASSFILE; an empty PGPASSWORD is none, as for libpq.
        let environments = [
            ["HOME": home.path, "PGPASSWORD": ""],
            ["HOME": "/nonexistent", "PGPASSFILE": file.path, "PGPASSWORD": ""],
        ]
        for environment in environments {
            for mode in [0o640, 0o604, 0o660] {
                chmod(file.path, mode_t(mode))
                let run = try BuiltBinary.run(["--store", server.url(), "export"], environment: environment)
                #expect(run.status == 77, "mode \(String(mode, radix: 8))")
                #expect(
                    run.errorLines.first
                        == "warning: the password file \(file.path) can be read or written by others than its owner, "
                        + "so it is ignored; make it u=rw (0600) or less: chmod 600 \(file.path)")
                #expect(!String(decoding: run.standardError, as: UTF8.self).contains(right))
            }
            chmod(file.path, 0o600)
            let run = try BuiltBinary.run(["--store", server.url(), "export"], environment: environment)
            #expect(run.status == 0)
            #expect(run.errorLines == [])
        }
    }
}

/// The built binary on a shared league at a terminal (tmux): changes by others at an idle prompt,
/// and the password prompt.
@Suite(
    "playerform on a shared PostgreSQL league at a terminal",
    .enabled(if: TmuxTerminal.available || ProcessInfo.processInfo.environment["CI"] != nil, "needs tmux"),
    .serialized)
struct LeagueTerminalTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
        "playerform-league-tty-\(UUID().uuidString)")

    @Test(
        "at an idle prompt, another scorekeeper's upload and delete on the league show above the prompt",
        .enabled(if: LeagueEndToEndTests.serverURL != nil, "PLAYERFORM_TEST_POSTGRES_URL is not set"))
    func changesWhileIdle() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let league = try LeagueEndToEndTests.freshLeague()
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }
        try terminal.start(["--store", league, "--history-file", "/dev/null"])
        try terminal.waitFor("Colin 100 ok> ")
        #expect(try BuiltBinary.run(["--store", league], input: Data("add Zed 9\n".utf8)).status == 0)
        try terminal.waitFor("+ 1 Zed 9")
        #expect(try BuiltBinary.run(["--store", league], input: Data("delete 1 --yes\n".utf8)).status == 0)
        try terminal.waitFor("- 1 Zed")
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test(
        "at a terminal, a server that asks for a password nobody gave gets one typed without echo; a wrong one ends with 77",
        .enabled(if: ThrowawayServer.unavailableReason == nil, "initdb and pg_ctl cannot be run"))
    func passwordPrompt() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let secret = "s3cret-\(UUID().uuidString.prefix(8))"
        let server = try ThrowawayServer(password: secret)
        try server.start()
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }
        let arguments = ["--store", server.url(), "--history-file", "/dev/null"]
        let environment = ["PGPASSFILE=\(home.path)/none"]
        let prompt = "Password for user postgres at \(server.folder.path)/.s.PGSQL.5432: "
        try terminal.start(arguments, environment: environment)
        try terminal.waitFor(prompt)
        try terminal.type(secret)
        try terminal.keys("Enter")
        try terminal.waitFor("Colin 100 ok> ")
        try terminal.type("add Ann 1")
        try terminal.keys("Enter")
        let screen = try terminal.waitFor("+ 1 Ann 1")
        #expect(!screen.contains(secret))
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)

        let wrong = "wr0ng-\(UUID().uuidString.prefix(8))"
        try terminal.start(arguments, environment: environment)
        try terminal.waitFor(prompt)
        try terminal.type(wrong)
        try terminal.keys("Enter")
        #expect(try terminal.waitForExit() == 77)
        // The message may be wrapped at the pane's width.
        let refused = try terminal.screen().replacingOccurrences(of: "\n", with: "")
        #expect(refused.contains("password authentication failed for user \"postgres\""))
        #expect(!refused.contains(wrong) && !refused.contains(secret))
    }
}
