import Foundation
import PlayerFormPostgres
import PostgresNIO

/// The PostgreSQL server the specs of the shared league run against: the URL in
/// `PLAYERFORM_TEST_POSTGRES_URL` (`.ci/run` starts a throwaway server and sets it).
///
/// Without it those specs are skipped, and the first to ask says so once on standard error.
enum PostgresTestServer {
    static let variable = "PLAYERFORM_TEST_POSTGRES_URL"

    /// The server's URL, or nil when the specs on PostgreSQL are skipped.
    static let url: String? = {
        if let url = ProcessInfo.processInfo.environment[variable], !url.isEmpty { return url }
        FileHandle.standardError.write(
            Data(
                "PostgreSQL specs skipped: \(variable) is not set (.ci/run starts a server and sets it)\n"
                    .utf8))
        return nil
    }()

    /// The folder of the test server's certificates (`PLAYERFORM_TEST_POSTGRES_TLS`), or nil when
    /// the specs over TLS are skipped.
    static let tlsFolder: String? = {
        let variable = "PLAYERFORM_TEST_POSTGRES_TLS"
        if let folder = ProcessInfo.processInfo.environment[variable], !folder.isEmpty { return folder }
        if url != nil {
            FileHandle.standardError.write(
                Data("PostgreSQL TLS specs skipped: \(variable) is not set (.ci/run sets it)\n".utf8))
        }
        return nil
    }()

    /// Whether the specs on PostgreSQL run.
    static var isAvailable: Bool { url != nil }

    /// A schema name no other spec uses, so that each spec starts from an empty league.
    static func freshSchema() -> String {
        "spec_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}

extension PostgresTestServer {
    /// Runs `work` on a plain connection of a spec's own to the server of `location` (no TLS, named
    /// `spec admin`), for doing to a league what another program would; closed after.
    @discardableResult
    static func withAdmin<T: Sendable>(
        at location: PostgresLocation, _ work: @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        var configuration: PostgresConnection.Configuration
        if let folder = location.socketFolder {
            configuration = .init(
                unixSocketPath: "\(folder)/.s.PGSQL.\(location.port)", username: location.user, password: nil,
                database: location.database)
        } else {
            configuration = .init(
                host: location.host, port: location.port, username: location.user, password: nil,
                database: location.database, tls: .disable)
        }
        configuration.options.additionalStartupParameters = [("application_name", "spec admin")]
        let connection = try await PostgresConnection.connect(
            configuration: configuration, id: 0, logger: logger)
        do {
            let result = try await work(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Whether the connection named `name` (its `application_name`) is encrypted, as the server of
    /// `location` sees it; nil when the server has no such connection.
    static func encryption(ofConnectionNamed name: String, at location: PostgresLocation) async throws
        -> Bool?
    {
        try await withAdmin(at: location) { connection in
            var answer: Bool?
            for try await ssl in try await connection.query(
                """
                SELECT s.ssl FROM pg_stat_ssl AS s JOIN pg_stat_activity AS a USING (pid)
                WHERE a.application_name = \(name)
                """, logger: logger
            ).decode(Bool.self) { answer = ssl }
            return answer
        }
    }

    /// The logger of the specs' own connections: quiet.
    static let logger: Logger = {
        var logger = Logger(label: "spec")
        logger.logLevel = .critical
        return logger
    }()
}
