import Foundation
import PlayerFormPostgres

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
