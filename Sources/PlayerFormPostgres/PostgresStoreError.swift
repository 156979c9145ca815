/// Why the shared league on PostgreSQL could not be reached, read or written.
///
/// Every case that concerns the server names it (``PostgresLocation/endpoint``); none shows a
/// password. ``exitStatus`` is the status a command ends with because of it.
public enum PostgresStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `--store` URL is not one this program reads; the URL shown has its password masked.
    case badURL(String, reason: String)
    /// No connection could be made to the server.
    case unreachable(endpoint: String, reason: String)
    /// The server refused the user: a wrong password, no password, or no permission.
    case authentication(user: String, endpoint: String, reason: String)
    /// The server asks for a password and none was given (by the URL, `PGPASSWORD`, the password
    /// file or, at a terminal, typed).
    case passwordRequired(user: String, endpoint: String)
    /// The connection was lost during an operation; the next operation connects again.
    case connectionLost(endpoint: String)
    /// The server stopped a statement that took longer than the statement timeout.
    case timedOut(endpoint: String, milliseconds: Int)
    /// The league was made by a newer version of playerform, whose schema this one does not know.
    case newerSchema(endpoint: String, version: Int)
    /// A record reuses the identifier of a stored record that differs from it.
    case conflictingRecord(id: String)
    /// Points that are not a finite number cannot be stored.
    case notFinite(points: Double)
    /// Any other error the server reported, with its SQLSTATE and message.
    case server(endpoint: String, state: String, message: String)

    /// What went wrong, naming the league without its password.
    public var description: String {
        switch self {
        case .badURL(let url, let reason):
            "\(url): not a PostgreSQL URL this program reads: \(reason) "
                + "(accepted: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require|verify-ca|verify-full&sslrootcert=FILE&host=/socket/folder])"
        case .unreachable(let endpoint, let reason):
            "cannot reach the PostgreSQL server at \(endpoint): \(reason)"
        case .authentication(let user, let endpoint, let reason):
            "the PostgreSQL server at \(endpoint) refused the user \(user): \(reason)"
        case .passwordRequired(let user, let endpoint):
            "the PostgreSQL server at \(endpoint) refused the user \(user): it asks for a password and none was "
                + "given; give it in the URL (postgres://USER:PASSWORD@...), in PGPASSWORD, or in the password "
                + "file (PGPASSFILE, else ~/.pgpass)"
        case .connectionLost(let endpoint):
            "lost the connection to the PostgreSQL server at \(endpoint); the command was not completed "
                + "(an upload is kept at most once); the next command connects again"
        case .timedOut(let endpoint, let milliseconds):
            "the PostgreSQL server at \(endpoint) stopped a statement after \(Double(milliseconds) / 1000) s "
                + "(statement_timeout); nothing was changed, try again"
        case .newerSchema(let endpoint, let version):
            "the league at \(endpoint) has schema version \(version), written by a newer version of "
                + "playerform; use that version"
        case .conflictingRecord(let id):
            "a different record with the id \(id) is already stored; the record is not kept"
        case .notFinite(let points):
            "points must be a finite number to be stored, not \(points)"
        case .server(let endpoint, let state, let message):
            "the PostgreSQL server at \(endpoint) reported \(state): \(message)"
        }
    }

    /// The exit status of a command that fails with this error, from sysexits.h: 64 (EX_USAGE)
    /// for a bad URL, 65 (EX_DATAERR) for a newer schema, a conflicting record or points that are
    /// not finite, 69 (EX_UNAVAILABLE) for a server that cannot be reached or went away, 75
    /// (EX_TEMPFAIL) for a statement timeout, 76 (EX_PROTOCOL) for another server error, 77
    /// (EX_NOPERM) for a refused user or a password missing.
    public var exitStatus: Int32 {
        switch self {
        case .badURL: 64
        case .newerSchema, .conflictingRecord, .notFinite: 65
        case .unreachable, .connectionLost: 69
        case .timedOut: 75
        case .server: 76
        case .authentication, .passwordRequired: 77
        }
    }
}
