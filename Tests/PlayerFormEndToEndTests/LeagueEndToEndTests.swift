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

    @Test(
        "four processes uploading 100 scores each at once to one league: nothing lost, nothing doubled",
        .enabled(if: serverURL != nil, "PLAYERFORM_TEST_POSTGRES_URL is not set"))
    func concurrentProcesses() throws {
        let league = try Self.freshLeague()
        let (processes, uploads) = (4, 100)
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for process in 0..<processes {
            // Each process shares names with the others, so they race for the same players.
            let script = (0..<uploads).map { "add Shared\($0 % 40) \(process * 1000 + $0)\n" }.joined()
            try script.write(
                to: folder.appendingPathComponent("in\(process)"), atomically: true, encoding: .utf8)
        }
        // One shell starts every process at once and waits for them all.
        let shell = """
            for i in $(seq 0 \(processes - 1)); do
                "$0" --store "$1" <"$2/in$i" >"$2/out$i" 2>"$2/err$i" & 
            done
            status=0
            for job in $(jobs -p); do wait "$job" || status=1; done
            exit $status
            """
        let runner = Process()
        runner.executableURL = URL(fileURLWithPath: "/bin/sh")
        runner.arguments = ["-c", shell, BuiltBinary.path, league, folder.path]
        try runner.run()
        runner.waitUntilExit()
        #expect(runner.terminationStatus == 0)
        for process in 0..<processes {
            let errors = try String(
                contentsOf: folder.appendingPathComponent("err\(process)"), encoding: .utf8)
            #expect(errors == "")
            let output = try String(
                contentsOf: folder.appendingPathComponent("out\(process)"), encoding: .utf8)
            #expect(output.split(separator: "\n").count >= uploads)
        }
        let export = try BuiltBinary.run(["--store", league, "export"])
        #expect(export.status == 0)
        let lines = export.outputLines
        #expect(lines.count == processes * uploads)
        let ids = Set(lines.map { $0.dropFirst(7).prefix(36) })
        #expect(ids.count == processes * uploads)
        var points = lines.compactMap { line -> Int? in
            guard let range = line.range(of: "\"points\":") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        points.sort()
        let expected = (0..<processes).flatMap { process in (0..<uploads).map { process * 1000 + $0 } }
            .sorted()
        #expect(points == expected)
        let players = try BuiltBinary.run(["--store", league], input: Data("players\n".utf8))
        #expect(players.outputLines.first?.hasSuffix(" of 40") == true)
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
}
