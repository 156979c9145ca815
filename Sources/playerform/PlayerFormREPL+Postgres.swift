import Foundation
import PlayerFormPostgres
import PlayerFormScores
import PlayerFormText

extension PlayerFormREPL {
    /// A store that could not be opened, after its message on standard error.
    public struct StoreUnavailable: Error, Sendable {
        /// The status the program ends with.
        public var exitStatus: Int32
    }

    /// Opens the store of `options`: the shared league when ``Options/storePath`` is a
    /// `postgres://` URL (connected and migrated here, so that a server that cannot be reached is
    /// reported at once), else the SQLite database as ``openStore(_:now:)`` opens it.
    /// - Returns: the store, or the exit status after a message on standard error, which shows
    ///   no password.
    public static func openAnyStore(
        _ options: Options, environment: [String: String], now: @escaping @Sendable () -> Date = { Date() }
    ) async -> Result<any ScoreStore, StoreUnavailable> {
        guard PostgresLocation.isURL(options.storePath) else {
            return openStore(options, now: now).map { $0 as any ScoreStore }.mapError {
                StoreUnavailable(exitStatus: $0.exitStatus)
            }
        }
        switch await openLeague(options.storePath, environment: environment, now: now) {
        case .success(let store): return .success(store)
        case .failure(let error): return .failure(StoreUnavailable(exitStatus: error.exitStatus))
        }
    }

    /// Connects to the league at `url`; says on standard error why it cannot.
    public static func openLeague(
        _ url: String, environment: [String: String], now: @escaping @Sendable () -> Date = { Date() }
    ) async -> Result<PostgresScoreStore, PostgresStoreError> {
        do {
            let location = try PostgresLocation(url: url)
            let store = PostgresScoreStore(
                location: location, password: location.password(environment: environment), now: now)
            try await store.open()
            return .success(store)
        } catch let error as PostgresStoreError {
            reportError(error.description)
            return .failure(error)
        } catch {
            reportError("\(error)")
            return .failure(.server(endpoint: PostgresLocation.masking(url), state: "", message: "\(error)"))
        }
    }

    private static func reportError(_ line: String) {
        FileHandle.standardError.write(Data(("error: " + TerminalText.escaped(line) + "\n").utf8))
    }
}
