import Foundation
import PlayerFormScores
import PostgresNIO
import Testing

@testable import PlayerFormPostgres

/// Each source of a league's connection, against the test server: the environment alone, a keyword
/// string, a service file, the unix socket from `PGHOST` and from a percent-encoded URL, `hostaddr`,
/// the application's name, and libpq's default `sslmode=prefer`.
///
/// Skipped without `PLAYERFORM_TEST_POSTGRES_URL`, saying so.
@Suite(
    "A league reached through each of libpq's sources",
    .enabled(if: PostgresTestServer.isAvailable, "PLAYERFORM_TEST_POSTGRES_URL is not set"),
    .timeLimit(.minutes(5)))
struct ConnectionSourcesServerTests {
    let base: PostgresLocation
    let schema = PostgresTestServer.freshSchema()
    /// Whether the server offers TLS (`.ci/run` turns it on and says where its certificates are).
    let serverOffersTLS = PostgresTestServer.tlsFolder != nil

    init() throws {
        base = try PostgresLocation(
            PostgresTestServer.url ?? "postgres://nobody@localhost/none", environment: [:])
    }

    /// A name no other connection has, for finding this spec's connection in `pg_stat_activity`.
    func uniqueName(_ what: String) -> String { "spec-\(what)-\(UUID().uuidString.prefix(8))" }

    /// Whether the server sees a connection named `name`, and whether it is encrypted.
    func seen(_ name: String) async throws -> (connected: Bool, encrypted: Bool) {
        let encrypted = try await PostgresTestServer.encryption(ofConnectionNamed: name, at: base)
        return (encrypted != nil, encrypted ?? false)
    }

    /// The folder of the server's unix socket, as the server says.
    func socketFolder() async throws -> String {
        try await PostgresTestServer.withAdmin(at: base) { connection in
            var folders = ""
            for try await text in try await connection.query(
                "SHOW unix_socket_directories", logger: PostgresTestServer.logger
            ).decode(String.self) {
                folders = text
            }
            return String(folders.split(separator: ",").first ?? "").trimmingCharacters(in: .whitespaces)
        }
    }

    /// Opens a store at the league that `text` and `environment` give, uploads to it, and says how
    /// the server sees the connection named `name`.
    func connect(_ text: String, _ environment: [String: String], name: String) async throws -> (
        connected: Bool, encrypted: Bool
    ) {
        let location = try PostgresLocation(text, environment: environment, systemUser: "nobody-here")
        let store = PostgresScoreStore(location: location, password: nil, schema: schema)
        let record = try await store.upload(name: "Ann", points: 3)
        #expect(record.points == 3)
        let seen = try await seen(name)
        await store.close()
        return seen
    }

    @Test("the environment alone: PGHOST, PGPORT, PGUSER, PGDATABASE and PGAPPNAME under postgresql://")
    func environmentAlone() async throws {
        let name = uniqueName("environment")
        let environment = [
            "PGHOST": base.host, "PGPORT": "\(base.port)", "PGUSER": base.user, "PGDATABASE": base.database,
            "PGAPPNAME": name,
        ]
        let seen = try await connect("postgresql://", environment, name: name)
        #expect(
            seen.connected && seen.encrypted == serverOffersTLS,
            "sslmode=prefer encrypts when the server offers TLS")
        let plain = uniqueName("disable")
        let disabled = try await connect(
            "postgresql://", environment.merging(["PGAPPNAME": plain, "PGSSLMODE": "disable"]) { $1 },
            name: plain)
        #expect(disabled.connected && !disabled.encrypted)
    }

    @Test("a keyword string, with application_name, and fallback_application_name when no name is given")
    func keywordString() async throws {
        let name = uniqueName("keywords")
        let text = "host=\(base.host) port=\(base.port) user=\(base.user) dbname='\(base.database)'"
        #expect(try await connect(text + " application_name=\(name)", [:], name: name).connected)
        let fallback = uniqueName("fallback")
        #expect(
            try await connect(text + " fallback_application_name=\(fallback)", [:], name: fallback).connected)
    }

    @Test("a service file named by PGSERVICEFILE, its section chosen by service= and by PGSERVICE")
    func serviceFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pgservice-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pg_service.conf").path
        let name = uniqueName("service")
        try """
        [spec]
        host=\(base.host)
        port=\(base.port)
        user=\(base.user)
        dbname=\(base.database)
        application_name=\(name)
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let environment = ["PGSERVICEFILE": file, "PGSYSCONFDIR": folder.path + "/none"]
        #expect(try await connect("service=spec", environment, name: name).connected)
        #expect(
            try await connect("postgresql://", environment.merging(["PGSERVICE": "spec"]) { $1 }, name: name)
                .connected)
    }

    @Test(
        "the unix socket: a folder in PGHOST under postgres:///DATABASE, and a percent-encoded folder as the URL's host"
    )
    func unixSocket() async throws {
        let folder = try await socketFolder()
        try #require(folder.hasPrefix("/"), "the server has a unix socket")
        let name = uniqueName("socket")
        let fromEnvironment = try await connect(
            "postgres:///\(base.database)?port=\(base.port)&application_name=\(name)",
            ["PGHOST": folder, "PGUSER": base.user], name: name)
        #expect(
            fromEnvironment.connected && !fromEnvironment.encrypted,
            "a socket is never encrypted, as with libpq")
        let encoded = folder.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? folder
        let other = uniqueName("encoded")
        #expect(
            try await connect(
                "postgres://\(base.user)@\(encoded):\(base.port)/\(base.database)?application_name=\(other)",
                [:],
                name: other
            ).connected)
    }

    @Test("options reach the server's session, after playerform's own (PGOPTIONS too)")
    func serverOptions() async throws {
        let text = "host=\(base.host) port=\(base.port) user=\(base.user) dbname=\(base.database)"
        _ = try await connect(text, [:], name: uniqueName("made"))
        for (address, environment) in [
            (text + " options='-c default_transaction_read_only=on'", [String: String]()),
            (text, ["PGOPTIONS": "-c default_transaction_read_only=on"]),
        ] {
            let location = try PostgresLocation(address, environment: environment, systemUser: "nobody-here")
            let store = PostgresScoreStore(location: location, password: nil, schema: schema)
            let error = await #expect(throws: ScoreStoreError.self) {
                try await store.upload(name: "Bob", points: 1)
            }
            #expect(
                String(describing: error).contains("read-only transaction"), "\(String(describing: error))")
            await store.close()
        }
    }

    @Test("hostaddr is the address connected to while host is the name the certificate is checked against")
    func hostAddress() async throws {
        let name = uniqueName("hostaddr")
        var text =
            "host=localhost hostaddr=127.0.0.2 port=\(base.port) user=\(base.user) dbname=\(base.database)"
        if let tls = PostgresTestServer.tlsFolder {
            // The certificate names localhost, not 127.0.0.2, which is only where the server is.
            text += " sslmode=verify-full sslrootcert=\(tls)/root.crt"
        }
        let seen = try await connect(text + " application_name=\(name)", [:], name: name)
        #expect(seen.connected && seen.encrypted == serverOffersTLS)
        // An address alone: no name to check, none sent (TLS refuses an address as a name).
        let bare = uniqueName("address")
        let alone = try await connect(
            "hostaddr=127.0.0.1 port=\(base.port) user=\(base.user) dbname=\(base.database) application_name=\(bare)",
            [:], name: bare)
        #expect(alone.connected && alone.encrypted == serverOffersTLS)
    }
}
