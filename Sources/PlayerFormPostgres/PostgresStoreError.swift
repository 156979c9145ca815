import PlayerFormScores
import PostgresNIO

/// Why the shared league on PostgreSQL could not be reached, read or written, as this store
/// finds it.
///
/// Internal: every public method throws it as a `ScoreStoreError`, through
/// `ScoreStoreError.translating(_:league:)`; the words are the front end's. No case shows a
/// password.
enum PostgresStoreError: Error, Equatable, Sendable {
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
}

extension ScoreStoreError {
    /// `error` from the league (a `PostgresStoreError`, a cancellation, or anything else) as the
    /// error every score store throws: the PostgreSQL store's one mapping to it.
    static func translating(_ error: any Error, league location: PostgresLocation) -> ScoreStoreError {
        let server = ScoreStorePlace.server(endpoint: location.endpoint)
        switch error {
        case let error as ScoreStoreError: return error
        case is CancellationError: return .cancelled
        case let error as PostgresStoreError:
            switch error {
            case .unreachable(let endpoint, let reason):
                return .unreachable(.server(endpoint: endpoint), reason: reason)
            case .authentication(let user, let endpoint, let reason):
                return .refused(.server(endpoint: endpoint), user: user, reason: reason)
            case .passwordRequired(let user, let endpoint):
                return .passwordRequired(.server(endpoint: endpoint), user: user)
            case .connectionLost(let endpoint): return .connectionLost(.server(endpoint: endpoint))
            case .timedOut(let endpoint, let milliseconds):
                return .timedOut(.server(endpoint: endpoint), milliseconds: milliseconds)
            case .newerSchema(let endpoint, let version):
                return .newerSchema(.server(endpoint: endpoint), version: version)
            case .conflictingRecord(let id): return .conflictingRecord(id: id)
            case .notFinite(let points): return .notFinite(points: points)
            case .server(let endpoint, let state, let message):
                return .failed(.server(endpoint: endpoint), code: state, message: message)
            }
        default: return .failed(server, code: "", message: "\(error)")
        }
    }
}

extension PostgresScoreStore {
    /// Runs `work`, turning what it throws into a `ScoreStoreError`.
    func typed<T: Sendable>(_ work: () async throws -> T) async throws(ScoreStoreError) -> T {
        do {
            return try await work()
        } catch {
            throw .translating(error, league: location)
        }
    }
}

extension PostgresScoreStore {
    /// `Link.run(_:)` for a `ScoreStore` method that only reads: its errors as `ScoreStoreError`.
    ///
    /// A read whose connection turns out to be lost is sent once more, on a new connection: the
    /// server may have dropped the connection while it was idle (a restart, an idle timeout, an
    /// administrator), before the read was sent, and reading twice changes nothing. A second
    /// loss fails the read.
    func run<T: Sendable>(
        _ work: @Sendable (PostgresConnection) async throws -> T
    ) async throws(ScoreStoreError) -> T {
        try await typed {
            do {
                return try await link.run(work)
            } catch PostgresStoreError.connectionLost {
                return try await link.run(work)
            }
        }
    }

    /// `Link.write(_:unchanged:)` for a `ScoreStore` method: its errors as `ScoreStoreError`.
    func write<T: Sendable>(
        _ work: @Sendable (PostgresConnection) async throws -> T, unchanged: @Sendable () -> T
    ) async throws(ScoreStoreError) -> T {
        try await typed { try await link.write(work, unchanged: unchanged) }
    }
}
