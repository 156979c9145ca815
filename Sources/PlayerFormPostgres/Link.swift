import Foundation
import PostgresNIO
import Synchronization

/// The one connection of a ``PostgresScoreStore``: made on first use and again after it was lost,
/// used by one operation at a time (a transaction must not interleave with another), with the
/// server's errors turned into `PostgresStoreError`s.
actor Link {
    /// Thrown by a write that changed nothing: its transaction is rolled back, the revision stays.
    struct Unchanged: Error {
        /// What the write returns, when it has something to say (counts of what it found kept);
        /// nil to return what `write`'s `unchanged` gives.
        var result: (any Sendable)? = nil
    }

    /// Thrown out of a failed write: the connection is dropped, closing it in the background, so
    /// that the next operation starts a fresh session rather than one in a failed transaction.
    struct Reset: Error {
        var underlying: any Error
    }

    static let logger: Logger = {
        var logger = Logger(label: "playerform.postgres")
        logger.logLevel = .critical
        return logger
    }()

    private let location: PostgresLocation
    private let password: String?
    /// The PostgreSQL schema of the league's tables.
    let schema: String
    private let statementTimeout: Duration
    private var connection: PostgresConnection?
    private var migrated = false
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var nextID = 1
    /// Listens on the connection, while it lasts, and tells ``feed`` what it hears.
    private var listener: Task<Void, Never>?

    private let applicationName: String
    /// What the connection hears of changes by any client.
    let feed: ChangeFeed

    init(
        location: PostgresLocation, password: String?, schema: String, statementTimeout: Duration,
        applicationName: String
    ) {
        self.applicationName = applicationName
        self.location = location
        self.password = password
        self.schema = schema
        feed = ChangeFeed(schema: schema)
        self.statementTimeout = statementTimeout
    }

    deinit {
        listener?.cancel()
        // A connection is closed before it goes; the task keeps it until then.
        if let connection { Task { try? await connection.close() } }
    }

    /// Runs `work` on the connection, alone.
    func run<T: Sendable>(_ work: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        let connection = try await connected()
        do {
            return try await work(connection)
        } catch let reset as Reset {
            let error = lost(translate(reset.underlying))
            if let old = self.connection {
                self.connection = nil
                Task { try? await old.close() }
            }
            throw error
        } catch {
            throw lost(translate(error))
        }
    }

    /// Runs `work` in one transaction that first bumps the revision (which also orders writers);
    /// when `work` throws ``Unchanged``, rolls back and returns `unchanged()`.
    func write<T: Sendable>(
        _ work: @Sendable (PostgresConnection) async throws -> T, unchanged: @Sendable () -> T
    ) async throws -> T {
        try await run { connection in
            try await connection.perform("BEGIN", logger: Self.logger)
            do {
                // The notification is sent at commit, to every client listening; not at all when
                // rolled back. One statement, one round trip.
                try await connection.perform(
                    """
                    UPDATE meta SET revision = revision + 1
                    RETURNING pg_notify(\(ChangeFeed.channel), \(schema))
                    """, logger: Self.logger)
                let result = try await work(connection)
                try await connection.perform("COMMIT", logger: Self.logger)
                return result
            } catch let nothing as Unchanged {
                try await connection.perform("ROLLBACK", logger: Self.logger)
                return nothing.result as? T ?? unchanged()
            } catch {
                // A fresh session is the surest way out of a failed transaction: the next
                // operation connects again.
                throw Reset(underlying: error)
            }
        }
    }

    /// Closes the connection.
    func close() async {
        await acquire()
        defer { release() }
        stopListening()
        if let connection { try? await connection.close() }
        connection = nil
    }

    /// Listens for the notifications of writes to this league on `connection`, and returns once
    /// the server listens (or listening failed: then changes are found by polling).
    private func listen(on connection: PostgresConnection) async {
        listener?.cancel()
        let (started, starting) = AsyncStream.makeStream(of: Bool.self)
        let feed = self.feed
        let generation = feed.replaceListener()
        listener = Task.detached {
            do {
                try await connection.listen(on: ChangeFeed.channel) { notifications in
                    feed.listening(true, generation: generation)
                    starting.yield(true)
                    for try await notification in notifications {
                        feed.received(payload: notification.payload)
                    }
                }
            } catch {}
            // The connection went (or never listened): until another listens, changes are polled.
            feed.listening(false, generation: generation)
            starting.yield(false)
        }
        for await _ in started { break }
    }

    private func stopListening() {
        listener?.cancel()
        listener = nil
        _ = feed.replaceListener()
    }

    private func acquire() async {
        if !busy {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }

    /// `error`, after forgetting a connection that it shows is gone.
    private func lost(_ error: any Error) -> any Error {
        if let known = error as? PostgresStoreError, case .connectionLost = known {
            if let old = connection { Task { try? await old.close() } }
            connection = nil
        } else if let connection, connection.isClosed {
            self.connection = nil
        }
        return error
    }

    /// The TLS of a connection to `location`, as libpq's `sslmode` means it: `prefer` and
    /// `require` encrypt without checking the server's certificate, unless a file of root
    /// certificates is there (`sslrootcert`, else `~/.postgresql/root.crt`), which they then check
    /// it against as `verify-ca` does; `verify-ca` checks that it chains to the trusted roots,
    /// `verify-full` also that it names the host.
    /// - Throws: `PostgresStoreError.unreachable(endpoint:reason:)` when the trusted roots
    ///   cannot be read.
    static func tls(for location: PostgresLocation, environment: [String: String]) throws(PostgresStoreError)
        -> PostgresConnection.Configuration.TLS
    {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch location.sslMode {
        case .disable: return .disable
        case .allow, .prefer, .require:
            if case .file(let path)? = location.rootCertificates(environment: environment),
                FileManager.default.isReadableFile(atPath: path)
            {
                configuration.certificateVerification = .noHostnameVerification
                configuration.trustRoots = .file(path)
            } else {
                configuration.certificateVerification = .none
            }
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        if location.sslMode.verifies {
            switch location.rootCertificates(environment: environment) {
            case .system?:
                configuration.trustRoots = .default
            case .file(let path)?:
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw .unreachable(
                        endpoint: location.endpoint,
                        reason:
                            "sslmode=\(location.sslMode.rawValue) checks the server's certificate against "
                            + "trusted root certificates, and \(path) cannot be read; give the file with "
                            + "sslrootcert=FILE, or sslrootcert=system for the system's")
                }
                configuration.trustRoots = .file(path)
            case nil:
                throw .unreachable(
                    endpoint: location.endpoint,
                    reason: "sslmode=\(location.sslMode.rawValue) checks the server's certificate, and no "
                        + "trusted root certificates are given; give them with sslrootcert=FILE or sslrootcert=system"
                )
            }
        }
        let versions: [String: TLSVersion] = [
            "TLSv1": .tlsv1, "TLSv1.1": .tlsv11, "TLSv1.2": .tlsv12, "TLSv1.3": .tlsv13,
        ]
        configuration.minimumTLSVersion = versions[location.minimumTLSVersion] ?? .tlsv12
        configuration.maximumTLSVersion = location.maximumTLSVersion.flatMap { versions[$0] }
        do {
            let context = try NIOSSLContext(configuration: configuration)
            return location.sslMode == .prefer || location.sslMode == .allow
                ? .prefer(context) : .require(context)
        } catch {
            throw .unreachable(endpoint: location.endpoint, reason: "TLS: \(error)")
        }
    }

    /// The open connection, made (and the schema migrated, once) when there is none.
    private func connected() async throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        connection = nil
        var configuration: PostgresConnection.Configuration
        if let folder = location.socketFolder {
            configuration = .init(
                unixSocketPath: "\(folder)/.s.PGSQL.\(location.port)", username: location.user,
                password: password, database: location.database)
        } else {
            let tls = try Self.tls(for: location, environment: ProcessInfo.processInfo.environment)
            configuration = .init(
                host: location.hostAddress ?? location.host, port: location.port, username: location.user,
                password: password, database: location.database, tls: tls)
            // The certificate is checked against the host's name; an address has no name to send.
            if location.hostAddress != nil, !PostgresLocation.isNumericAddress(location.host) {
                configuration.options.tlsServerName = location.host
            }
        }
        // As libpq: `options` only when the address gives some (a connection pooler such as
        // PgBouncer refuses it unless told to expect it); the client's encoding always.
        configuration.options.additionalStartupParameters = [
            ("application_name", applicationName), ("client_encoding", "UTF8"),
        ]
        if let options = location.serverOptions {
            configuration.options.additionalStartupParameters.append(("options", options))
        }
        let made: PostgresConnection
        do {
            made = try await Self.connect(
                configuration, id: nextID, within: location.connectTimeout.map { .seconds($0) })
        } catch {
            throw connectingError(error)
        }
        nextID += 1
        do {
            // The address's options may set the statement timeout; only when they do not does
            // the program set its own.
            if location.serverOptions?.contains("statement_timeout") != true {
                try await made.perform(
                    PostgresQuery(unsafeSQL: "SET statement_timeout = \(timeoutMilliseconds)"),
                    logger: Self.logger)
            }
            if schema != "public" {
                let quoted = "\"" + schema.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                try await made.perform(
                    PostgresQuery(unsafeSQL: "SET search_path = \(quoted)"), logger: Self.logger)
            }
            if !migrated {
                try await Migrations.migrate(made, schema: schema, endpoint: location.endpoint)
                migrated = true
            }
        } catch {
            try? await made.close()
            throw connectingError(error)
        }
        connection = made
        await listen(on: made)
        return made
    }

    /// Thrown when connecting took longer than `connect_timeout`.
    struct ConnectTimedOut: Error {
        var limit: Duration
    }

    /// A connection made with `configuration`, or ``ConnectTimedOut`` when making it, TLS and
    /// authentication included, takes longer than `limit` (as libpq's `connect_timeout`).
    ///
    /// Without a limit the system's own timeouts apply, as with libpq; postgres-nio's limit on
    /// opening the socket is then set out of the way.
    private static func connect(
        _ configuration: PostgresConnection.Configuration, id: Int, within limit: Duration?
    ) async throws -> PostgresConnection {
        var configuration = configuration
        guard let limit else {
            configuration.options.connectTimeout = .hours(1)
            return try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
        }
        configuration.options.connectTimeout = .nanoseconds(Int64(limit.components.seconds) * 1_000_000_000)
        let race = Race()
        let first = race.claim
        let configured = configuration
        return try await withCheckedThrowingContinuation { continuation in
            let attempt = Task {
                do {
                    let made = try await PostgresConnection.connect(
                        configuration: configured, id: id, logger: logger)
                    if first() {
                        continuation.resume(returning: made)
                    } else {
                        try? await made.close()
                    }
                } catch {
                    if first() { continuation.resume(throwing: error) }
                }
            }
            let timer = Task {
                try? await Task.sleep(for: limit)
                guard first() else { return }
                continuation.resume(throwing: ConnectTimedOut(limit: limit))
                attempt.cancel()
            }
            // The timer ends with the attempt, whichever comes first.
            Task {
                _ = await attempt.result
                timer.cancel()
            }
        }
    }

    /// Who settles a race first: the connection or the timer.
    private final class Race: Sendable {
        private let settled = Mutex(false)

        /// Whether this call is the first.
        @Sendable func claim() -> Bool {
            settled.withLock { done in
                defer { done = true }
                return !done
            }
        }
    }

    /// An error from connecting, as a `PostgresStoreError`.
    private func connectingError(_ error: any Error) -> any Error {
        if let timedOut = error as? ConnectTimedOut {
            return PostgresStoreError.unreachable(
                endpoint: location.endpoint,
                reason: "no connection within connect_timeout=\(timedOut.limit.components.seconds) seconds")
        }
        if let error = error as? PSQLError {
            switch error.code {
            case .connectionError:
                let reason = tlsReason(error.underlying) ?? Self.reason(error.underlying)
                if reason == "connection timed out", let seconds = location.connectTimeout {
                    // postgres-nio's own limit, set to connect_timeout, came first.
                    return PostgresStoreError.unreachable(
                        endpoint: location.endpoint,
                        reason: "no connection within connect_timeout=\(seconds) seconds")
                }
                return PostgresStoreError.unreachable(endpoint: location.endpoint, reason: reason)
            case .sslUnsupported:
                return PostgresStoreError.unreachable(
                    endpoint: location.endpoint,
                    reason:
                        "the server does not offer TLS, which sslmode=\(location.sslMode.rawValue) requires")
            case .authMechanismRequiresPassword:
                return PostgresStoreError.passwordRequired(user: location.user, endpoint: location.endpoint)
            case .server:
                let state = error.serverInfo?[.sqlState] ?? ""
                let message = error.serverInfo?[.message] ?? "refused"
                if state.hasPrefix("28") {
                    return PostgresStoreError.authentication(
                        user: location.user, endpoint: location.endpoint, reason: message)
                }
                if state == "3D000" || state == "57P03" || state == "53300" {
                    return PostgresStoreError.unreachable(endpoint: location.endpoint, reason: message)
                }
            default: break
            }
        }
        let translated = translate(error)
        if let known = translated as? PostgresStoreError, case .connectionLost = known {
            return PostgresStoreError.unreachable(
                endpoint: location.endpoint, reason: "the server closed the connection")
        }
        return translated
    }

    /// The statement timeout in whole milliseconds, at least 1 (0 would turn it off).
    private var timeoutMilliseconds: Int {
        let components = statementTimeout.components
        return max(1, Int(components.seconds) * 1000 + Int(components.attoseconds / 1_000_000_000_000_000))
    }

    /// Why the server's certificate was refused, when it was.
    private func tlsReason(_ error: (any Error)?) -> String? {
        guard let error else { return nil }
        let mode = "sslmode=\(location.sslMode.rawValue)"
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return "the server's certificate does not name \(location.host), as \(mode) requires "
                + "(sslmode=verify-ca checks the certificate but not the name)"
        }
        if let error = error as? NIOSSLError, case .handshakeFailed = error,
            "\(error)".contains("CERTIFICATE_VERIFY_FAILED")
        {
            let roots: String
            switch location.rootCertificates(environment: ProcessInfo.processInfo.environment) {
            case .file(let path)?: roots = "the root certificates in \(path)"
            default: roots = "the system's root certificates"
            }
            return "the server's certificate does not chain to \(roots), as \(mode) requires"
        }
        return nil
    }

    /// What the owner of a league grants `user` so that it can keep scores there: the words of a
    /// refusal for want of a privilege (SQLSTATE 42501).
    static func grantsNeeded(user: String, schema: String) -> String {
        let role = "\"" + user.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let place = "\"" + schema.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        return "a scorekeeper other than the league's owner needs, from the owner: "
            + "GRANT USAGE ON SCHEMA \(place) TO \(role); "
            + "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA \(place) TO \(role); "
            + "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA \(place) TO \(role)"
    }

    /// A short reason from NIO's connection error.
    private static func reason(_ error: (any Error)?) -> String {
        guard let error else { return "no connection" }
        let text = "\(error)"
        if text.contains("refused") || text.contains("ECONNREFUSED") { return "connection refused" }
        if text.contains("ENOENT") || text.contains("No such file") { return "no such socket" }
        if text.lowercased().contains("timeout") || text.contains("timed out") {
            return "connection timed out"
        }
        if text.contains("resolve") || text.contains("NXDOMAIN") { return "the host name cannot be resolved" }
        return text
    }

    /// `error` from an operation, as a `PostgresStoreError` (or itself when it already is one).
    private func translate(_ error: any Error) -> any Error {
        if error is PostgresStoreError || error is CancellationError { return error }
        if let error = error as? PSQLError {
            switch error.code {
            case .server:
                let state = error.serverInfo?[.sqlState] ?? ""
                let message = error.serverInfo?[.message] ?? "error"
                if state == "57014" {
                    return PostgresStoreError.timedOut(
                        endpoint: location.endpoint, milliseconds: timeoutMilliseconds)
                }
                if state.hasPrefix("57P") || state.hasPrefix("08") {
                    return PostgresStoreError.connectionLost(endpoint: location.endpoint)
                }
                if state == "42501" {
                    return PostgresStoreError.server(
                        endpoint: location.endpoint, state: state,
                        message: message + "; " + Self.grantsNeeded(user: location.user, schema: schema))
                }
                return PostgresStoreError.server(endpoint: location.endpoint, state: state, message: message)
            case .serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown:
                return PostgresStoreError.connectionLost(endpoint: location.endpoint)
            case .queryCancelled:
                return CancellationError()
            default:
                return PostgresStoreError.server(
                    endpoint: location.endpoint, state: "", message: "\(error.code)")
            }
        }
        if let error = error as? PostgresDecodingError {
            return PostgresStoreError.server(
                endpoint: location.endpoint, state: "", message: "unexpected data in \(error.columnName)")
        }
        if let connection, connection.isClosed {
            return PostgresStoreError.connectionLost(endpoint: location.endpoint)
        }
        return error
    }
}

/// The schema's versions.
///
/// A migration, once released, is never edited; a change is a new one.
enum Migrations {
    /// A lock number of this program's own ("PlFm"), held with the schema's hash while migrating,
    /// so that leagues in different schemas do not wait for each other.
    static let lockKey: Int32 = 0x506C_466D

    static let steps: [(version: Int, sql: [String])] = [
        (
            1,
            [
                """
                CREATE TABLE meta (
                    id integer PRIMARY KEY CHECK (id = 1),
                    revision bigint NOT NULL
                )
                """,
                "INSERT INTO meta (id, revision) VALUES (1, 0)",
                """
                CREATE TABLE player (
                    id bigserial PRIMARY KEY,
                    key text NOT NULL UNIQUE,
                    position bigint NOT NULL,
                    first_score bigint NOT NULL,
                    name text NOT NULL,
                    points double precision NOT NULL,
                    uploaded_at bigint NOT NULL,
                    uploads integer NOT NULL
                )
                """,
                "CREATE INDEX player_position ON player (position)",
                """
                CREATE TABLE score (
                    seq bigserial PRIMARY KEY,
                    id uuid NOT NULL UNIQUE,
                    player_id bigint NOT NULL REFERENCES player (id) ON DELETE CASCADE,
                    name text NOT NULL,
                    points double precision NOT NULL,
                    uploaded_at bigint NOT NULL
                )
                """,
                "CREATE INDEX score_player ON score (player_id, seq)",
            ]
        ),
        (
            // A player's id becomes the seq of its first record, so the player table's own order is
            // the roster's; `roster_block` counts the players of each block of 4,096 ids, so that
            // a page, a count and a place need no dense position, and deleting a player no longer
            // moves every player after it.
            2,
            [
                // First, the lock every writer takes first: clients of the earlier version that
                // are writing finish, and those that come later wait, then fail on the new tables.
                "UPDATE meta SET revision = revision + 1",
                """
                CREATE TABLE new_player (
                    id bigint PRIMARY KEY,
                    key text NOT NULL UNIQUE,
                    name text NOT NULL,
                    points double precision NOT NULL,
                    uploaded_at bigint NOT NULL,
                    uploads integer NOT NULL
                )
                """,
                """
                INSERT INTO new_player (id, key, name, points, uploaded_at, uploads)
                SELECT first.seq, p.key, p.name, p.points, p.uploaded_at, p.uploads
                FROM player AS p
                JOIN (SELECT player_id, min(seq) AS seq FROM score GROUP BY player_id) AS first
                    ON first.player_id = p.id
                """,
                "ALTER TABLE score DROP CONSTRAINT score_player_id_fkey",
                """
                UPDATE score AS s SET player_id = first.seq
                FROM (SELECT player_id, min(seq) AS seq FROM score GROUP BY player_id) AS first
                WHERE s.player_id = first.player_id
                """,
                "DROP TABLE player",
                "ALTER TABLE new_player RENAME TO player",
                """
                ALTER TABLE score ADD CONSTRAINT score_player_id_fkey FOREIGN KEY (player_id)
                    REFERENCES player (id) ON DELETE CASCADE ON UPDATE CASCADE
                """,
                "CREATE TABLE roster_block (block bigint PRIMARY KEY, players bigint NOT NULL)",
                "INSERT INTO roster_block (block, players) SELECT id >> 12, count(*) FROM player GROUP BY 1",
            ]
        ),
        (
            // A player shows its newest record by time, not the one kept last: players that an
            // earlier version showed with an older record show their newest.
            3,
            [
                "UPDATE meta SET revision = revision + 1",
                """
                UPDATE player AS p SET name = newest.name, points = newest.points,
                    uploaded_at = newest.uploaded_at
                FROM (
                    SELECT DISTINCT ON (player_id) player_id, name, points, uploaded_at FROM score
                    ORDER BY player_id, uploaded_at DESC, seq DESC
                ) AS newest
                WHERE newest.player_id = p.id AND newest.uploaded_at > p.uploaded_at
                """,
                // Players are unique by the SHA-256 of their key, not by the key itself: a key
                // longer than a B-tree entry (about 2,700 bytes) could not be indexed, and a name
                // the form accepts could not be kept. The client computes the digest.
                "ALTER TABLE player ADD COLUMN key_digest bytea",
                "UPDATE player SET key_digest = sha256(convert_to(key, 'UTF8'))",
                "ALTER TABLE player ALTER COLUMN key_digest SET NOT NULL",
                "CREATE UNIQUE INDEX player_key_digest ON player (key_digest)",
                """
                DO $$
                DECLARE unique_key text;
                BEGIN
                    SELECT conname INTO unique_key FROM pg_constraint
                    WHERE conrelid = 'player'::regclass AND contype = 'u';
                    EXECUTE format('ALTER TABLE player DROP CONSTRAINT %I', unique_key);
                END $$
                """,
            ]
        ),
        (
            // Players found by the start of their name (find, completion): an index of the
            // keys' first 64 characters in byte order, short enough for a B-tree entry whatever
            // the key's length.
            4,
            [#"CREATE INDEX player_key_prefix ON player ((left(key, 64) COLLATE "C"))"#]
        ),
        (
            // An upload in one round trip: one call of a function that does in the statement's own
            // transaction what the client did in five messages (begin, the revision, the record's
            // id and seq, the player, block and score, commit).
            5,
            [Self.keepRecordFunction, Self.keepStagedFunction]
        ),
    ]

    /// The temporary table an import copies its records into (`COPY ... FROM STDIN`), one per
    /// session, emptied at each commit; `playerform_keep_staged()` keeps them.
    static let stagingTable = """
        CREATE TEMP TABLE IF NOT EXISTS playerform_staged (
            pos integer NOT NULL, id uuid NOT NULL, name text NOT NULL, key text NOT NULL,
            digest bytea NOT NULL, points double precision NOT NULL, uploaded_at bigint NOT NULL
        ) ON COMMIT DELETE ROWS
        """

    /// `playerform_keep_staged()`: keeps the records of `playerform_staged` in one set-based pass,
    /// as `playerform_keep_record` would one after another in the order of `pos`, in the caller's
    /// transaction (which has bumped the revision), and empties the table.
    ///
    /// A record whose id is kept, or comes earlier in the table, is left out: with the same
    /// content it is said kept already (outcome 1), else conflicting (outcome 2); the rows
    /// returned are those, by position, and one row (-1, N) with the number of records kept. New
    /// records take seqs of the sequence in the order of `pos`. Each player shows its
    /// newest record by time, the last of equal times; a new player's id is the seq of its first
    /// record, and its block counts it.
    static let keepStagedFunction = """
        CREATE OR REPLACE FUNCTION playerform_keep_staged()
        RETURNS TABLE (position_in_batch integer, outcome bigint) LANGUAGE plpgsql AS $$
        DECLARE
            fresh_count bigint;
            seqs bigint[];
        BEGIN
            PERFORM 1 FROM meta WHERE id = 1 FOR UPDATE;
            -- A temporary table has no statistics until analyzed: without them a join of
            -- thousands of rows can be planned as nested loops.
            ANALYZE playerform_staged;
            CREATE TEMP TABLE IF NOT EXISTS playerform_fresh (
                n bigint, id uuid, name text, key text, digest bytea, points double precision,
                uploaded_at bigint
            ) ON COMMIT DELETE ROWS;
            CREATE TEMP TABLE IF NOT EXISTS playerform_seen (
                id uuid, name text, points double precision, uploaded_at bigint
            ) ON COMMIT DELETE ROWS;
            TRUNCATE playerform_fresh, playerform_seen;
            -- One look at the kept records, by the index of their ids: the batch's ids as an
            -- array, so that the cost follows the batch, not the league.
            INSERT INTO playerform_seen
                SELECT k.id, k.name, k.points, k.uploaded_at FROM score AS k
                WHERE k.id = ANY ((SELECT array_agg(id) FROM playerform_staged)::uuid[]);
            ANALYZE playerform_seen;
            -- What is left out: ids kept already, or earlier in the batch.
            RETURN QUERY
                SELECT s.pos, CASE WHEN k.name = s.name AND k.points = s.points
                    AND k.uploaded_at = s.uploaded_at THEN 1::bigint ELSE 2::bigint END
                FROM playerform_staged AS s JOIN playerform_seen AS k ON k.id = s.id;
            RETURN QUERY
                SELECT later.pos, CASE WHEN earliest.name = later.name AND earliest.points = later.points
                    AND earliest.uploaded_at = later.uploaded_at THEN 1::bigint ELSE 2::bigint END
                FROM (SELECT DISTINCT ON (id) * FROM playerform_staged ORDER BY id, pos) AS earliest
                JOIN playerform_staged AS later ON later.id = earliest.id AND later.pos > earliest.pos
                WHERE NOT EXISTS (SELECT 1 FROM playerform_seen AS k WHERE k.id = earliest.id);
            -- The new records, numbered in the order of the batch.
            INSERT INTO playerform_fresh (n, id, name, key, digest, points, uploaded_at)
                SELECT row_number() OVER (ORDER BY pos), id, name, key, digest, points, uploaded_at
                FROM (
                    SELECT DISTINCT ON (s.id) s.* FROM playerform_staged AS s
                    WHERE NOT EXISTS (SELECT 1 FROM playerform_seen AS k WHERE k.id = s.id)
                    ORDER BY s.id, s.pos
                ) AS unkept;
            GET DIAGNOSTICS fresh_count = ROW_COUNT;
            IF fresh_count > 0 THEN
                ANALYZE playerform_fresh;
                -- A seq for each new record, in order: nextval needs only USAGE on the sequence,
                -- which a scorekeeper has, where setval would need UPDATE.
                seqs := ARRAY(
                    SELECT nextval('score_seq_seq') FROM generate_series(1, fresh_count) ORDER BY 1);
                WITH grouped AS (
                    SELECT DISTINCT ON (digest) digest, key, name, points, uploaded_at,
                        seqs[min(n) OVER (PARTITION BY digest)] AS first_record,
                        count(*) OVER (PARTITION BY digest) AS records
                    FROM playerform_fresh ORDER BY digest, uploaded_at DESC, n DESC
                ), kept AS (
                    INSERT INTO player AS p (id, key, key_digest, name, points, uploaded_at, uploads)
                    SELECT first_record, key, digest, name, points, uploaded_at, records FROM grouped
                    ON CONFLICT (key_digest) DO UPDATE SET
                        name = CASE WHEN EXCLUDED.uploaded_at >= p.uploaded_at THEN EXCLUDED.name ELSE p.name END,
                        points = CASE WHEN EXCLUDED.uploaded_at >= p.uploaded_at THEN EXCLUDED.points ELSE p.points END,
                        uploaded_at = greatest(EXCLUDED.uploaded_at, p.uploaded_at),
                        uploads = p.uploads + EXCLUDED.uploads
                    RETURNING p.id, p.key_digest
                ), counted AS (
                    INSERT INTO roster_block AS b (block, players)
                    SELECT kept.id >> 12, count(*) FROM kept JOIN grouped ON grouped.digest = kept.key_digest
                    WHERE kept.id = grouped.first_record GROUP BY 1
                    ON CONFLICT (block) DO UPDATE SET players = b.players + EXCLUDED.players
                )
                INSERT INTO score (seq, id, player_id, name, points, uploaded_at)
                SELECT seqs[f.n], f.id, kept.id, f.name, f.points, f.uploaded_at
                FROM playerform_fresh AS f JOIN kept ON kept.key_digest = f.digest
                ORDER BY f.n;
            END IF;
            TRUNCATE playerform_staged;
            RETURN QUERY SELECT -1, fresh_count;
        END $$
        """

    /// `playerform_keep_record(...)`: keeps a record unless one with its id is kept, and says
    /// which: 0 kept, 1 the same record was kept already, 2 a different record has its id.
    ///
    /// Every writer first locks the one `meta` row, which orders writers; a record already kept
    /// changes nothing else (no revision, no notification), as a rolled-back transaction did. A new
    /// record bumps the revision, notifies listeners at commit, and keeps the player (a new one's
    /// id is the seq of its first record, which no other player has), its block's count when it is
    /// new, and the score. The player shows its newest record by time.
    static let keepRecordFunction = """
        CREATE OR REPLACE FUNCTION playerform_keep_record(
            record_id uuid, record_name text, record_key text, record_digest bytea,
            record_points double precision, record_time bigint, channel text, payload text
        ) RETURNS integer LANGUAGE plpgsql AS $$
        DECLARE
            kept score%ROWTYPE;
            new_seq bigint;
            kept_player bigint;
        BEGIN
            PERFORM 1 FROM meta WHERE id = 1 FOR UPDATE;
            SELECT * INTO kept FROM score WHERE id = record_id;
            IF FOUND THEN
                IF kept.name = record_name AND kept.points = record_points
                    AND kept.uploaded_at = record_time THEN
                    RETURN 1;
                END IF;
                RETURN 2;
            END IF;
            UPDATE meta SET revision = revision + 1 WHERE id = 1;
            PERFORM pg_notify(channel, payload);
            new_seq := nextval('score_seq_seq');
            INSERT INTO player AS p (id, key, key_digest, name, points, uploaded_at, uploads)
            VALUES (new_seq, record_key, record_digest, record_name, record_points, record_time, 1)
            ON CONFLICT (key_digest) DO UPDATE SET
                name = CASE WHEN EXCLUDED.uploaded_at >= p.uploaded_at THEN EXCLUDED.name ELSE p.name END,
                points = CASE WHEN EXCLUDED.uploaded_at >= p.uploaded_at THEN EXCLUDED.points ELSE p.points END,
                uploaded_at = greatest(EXCLUDED.uploaded_at, p.uploaded_at), uploads = p.uploads + 1
            RETURNING id INTO kept_player;
            IF kept_player = new_seq THEN
                INSERT INTO roster_block AS b (block, players) VALUES (new_seq >> 12, 1)
                ON CONFLICT (block) DO UPDATE SET players = b.players + 1;
            END IF;
            INSERT INTO score (seq, id, player_id, name, points, uploaded_at)
            VALUES (new_seq, record_id, kept_player, record_name, record_points, record_time);
            RETURN 0;
        END $$
        """

    /// Brings the schema up to date in one transaction under an advisory lock, so that clients
    /// connecting at once migrate once; refuses a schema newer than this program's.
    ///
    /// A league already up to date, the common case, is found so by one statement that takes no
    /// lock and changes nothing; only a league without the version table, or of an earlier
    /// version, takes the locked path, which looks again.
    static func migrate(_ connection: PostgresConnection, schema: String, endpoint: String) async throws {
        if try await version(connection) == PostgresScoreStore.schemaVersion { return }
        try await migrateLocked(connection, schema: schema, endpoint: endpoint)
    }

    /// The league's schema version, or nil when it has no version table.
    private static func version(_ connection: PostgresConnection) async throws -> Int? {
        do {
            var current = 0
            for try await value in try await connection.query(
                "SELECT coalesce(max(version), 0) FROM schema_version", logger: Link.logger
            ).decode(Int.self) { current = value }
            return current
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42P01" {
            // undefined_table: a new league, or a schema of another program.
            return nil
        }
    }

    /// ``migrate(_:schema:endpoint:)`` under the advisory lock, in one transaction.
    private static func migrateLocked(
        _ connection: PostgresConnection, schema: String, endpoint: String
    ) async throws {
        let logger = Link.logger
        try await connection.perform("BEGIN", logger: logger)
        do {
            try await connection.perform(
                "SELECT pg_advisory_xact_lock(\(lockKey), hashtext(\(schema)))", logger: logger)
            if schema != "public" {
                let quoted = "\"" + schema.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                try await connection.perform(
                    PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(quoted)"), logger: logger)
            }
            try await connection.perform(
                """
                CREATE TABLE IF NOT EXISTS schema_version (
                    version integer PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """, logger: logger)
            var current = 0
            for try await value in try await connection.query(
                "SELECT coalesce(max(version), 0) FROM schema_version", logger: logger
            ).decode(Int.self) { current = value }
            if current > PostgresScoreStore.schemaVersion {
                throw PostgresStoreError.newerSchema(endpoint: endpoint, version: current)
            }
            if current < PostgresScoreStore.schemaVersion {
                // Rewriting a large league can take longer than one operation is allowed.
                try await connection.perform("SET LOCAL statement_timeout = 0", logger: logger)
            }
            for step in steps where step.version > current {
                for statement in step.sql {
                    try await connection.perform(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.perform(
                    "INSERT INTO schema_version (version) VALUES (\(step.version))", logger: logger)
            }
            try await connection.perform("COMMIT", logger: logger)
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }
}

extension PostgresConnection {
    /// Runs a statement whose rows are not wanted, reading its answer to the end, so that an error
    /// the server reports while running it (a lock wait cut short by the statement timeout) is
    /// thrown here and not left in the unread rows.
    func perform(_ query: PostgresQuery, logger: Logger) async throws {
        for try await _ in try await self.query(query, logger: logger) {}
    }
}
