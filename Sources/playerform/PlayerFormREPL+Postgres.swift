import Foundation
import PlayerFormPostgres
import PlayerFormScores
import PlayerFormTerminal
import PlayerFormText

extension PlayerFormREPL {
    /// A store that could not be opened, after its message on standard error.
    public struct StoreUnavailable: Error, Sendable {
        /// The status the program ends with.
        public var exitStatus: Int32
    }

    /// Opens the store of `options`: the shared league when ``Options/storePath`` is a
    /// `postgres://` URL (connected and migrated here, so that a server that cannot be reached is
    /// reported at once), else the SQLite database as ``openStore(_:creating:now:)`` opens it.
    /// - Returns: the store, or the exit status after a message on standard error, which shows
    ///   no password.
    public static func openAnyStore(
        _ options: Options, environment: [String: String], creating: Bool = true,
        now: @escaping @Sendable () -> Date = { Date() }
    ) async -> Result<any ScoreStore, StoreUnavailable> {
        guard PostgresLocation.isLeague(options.storePath) else {
            return await openStore(options, creating: creating, now: now).map { $0 as any ScoreStore }
        }
        switch await openLeague(options.storePath, environment: environment, now: now) {
        case .success(let store): return .success(store)
        case .failure(let error):
            return .failure(StoreUnavailable(exitStatus: StoreFailure.exitStatus(error)))
        }
    }

    /// Connects to the league at `url`; says on standard error why it cannot.
    ///
    /// When the server asks for a password and none was given (URL, `PGPASSWORD`, password file),
    /// `askPassword` asks for one with a prompt it is given; without it (in a script) the error says where a
    /// password may come from.
    public static func openLeague(
        _ url: String, environment: [String: String], now: @escaping @Sendable () -> Date = { Date() },
        askPassword: ((String) -> String?)? = PasswordPrompt.atTerminal()
    ) async -> Result<PostgresScoreStore, ScoreStoreError> {
        do throws(ScoreStoreError) {
            let location = try PostgresLocation(url, environment: environment)
            let password = location.password { warning in
                StandardError.write("warning: " + TerminalText.escaped(warning) + "\n")
            }
            var store = PostgresScoreStore(location: location, password: password, now: now)
            do {
                try await store.open()
            } catch .passwordRequired(let place, let user) where password == nil {
                guard case .server(let endpoint) = place else { throw .passwordRequired(place, user: user) }
                let prompt =
                    "Password for user \(TerminalText.escaped(user)) at \(TerminalText.escaped(endpoint)): "
                guard let askPassword, let typed = askPassword(prompt) else {
                    throw .passwordRequired(place, user: user)
                }
                store = PostgresScoreStore(location: location, password: typed, now: now)
                try await store.open()
            }
            return .success(store)
        } catch {
            reportError(StoreFailure.words(error))
            return .failure(error)
        }
    }

    /// The ticks at which an idle prompt asks the store for changes by others: for a league,
    /// each notification of a change (and once a second while it cannot listen); else once a
    /// second.
    static func idleTicks(for store: any ScoreStore) -> @Sendable () -> AsyncStream<Void> {
        guard let league = store as? PostgresScoreStore else { return { everySecond() } }
        return { league.changes() }
    }

    private static func reportError(_ line: String) {
        StandardError.write("error: " + TerminalText.escaped(line) + "\n")
    }
}
