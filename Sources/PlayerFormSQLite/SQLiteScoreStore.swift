import Foundation
import GRDB
import GRDBSQLite
import PlayerFormRules
import PlayerFormScores
import Synchronization

/// The score store in a SQLite database, shared safely by several processes.
///
/// - The database is in WAL mode with `synchronous=FULL`: an upload returns only after its
///   transaction is committed and synced, so a record reported as kept survives a crash or a
///   power cut.
/// - A player is a row of its own (`player`), keyed by `PlayerName.comparisonKey(_:)`, with
///   the name, points and time of its newest record (by `uploaded_at`, then by arrival) and its
///   count of uploads. Its row id is the sequence number of its first record, so the table's own
///   order is the roster's order (order of first record). Scores are rows of `score`, each with its 16-byte id and its player's row
///   id. `roster_block` counts the players of each block of 4,096 row ids, which turns a roster
///   index into a row id. So every question of the roster costs O(log n) or O(rows asked for)
///   plus one read of the block counts (a row per 4,096 records): a page is a range of row ids,
///   a name is one index lookup, the count is the sum of the blocks, and deleting a player
///   removes its rows and decrements one block.
/// - Every write transaction increments `meta.revision`, so ``revision()`` changes after any
///   commit by any process.
/// - A database another process keeps locked is waited for a bounded time (``busyTimeout``),
///   saying so; Ctrl-C (cancelling the task) stops the wait.
///
/// ```swift
/// let store = try SQLiteScoreStore(path: "scores.sqlite")
/// let record = try await store.upload(name: "Colin", points: 100)
/// ```
public final class SQLiteScoreStore: ScoreStore, Sendable {
    /// The database file.
    public let path: String
    /// How long an operation waits for a database that another process keeps locked.
    public let busyTimeout: Duration
    private let queue: DatabaseQueue
    private let busy: BusyWait
    /// How many operations are on the queue's thread, which may be waiting for a lock: while any
    /// is, an operation does not try this thread first, which would hold it until they end.
    private let queued = Atomic<Int>(0)
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID

    /// The `application_id` of a playerform score database ("PlFm"), set when the database is
    /// created and checked when it is opened, so a SQLite file of another program is refused.
    public static let applicationID: Int32 = 0x506C_466D

    /// Opens the database at `path`, creating it (and its folders) when missing.
    ///
    /// - Parameters:
    ///   - path: the database file.
    ///   - busyTimeout: how long to wait for a database another process keeps locked.
    ///   - waiting: told once per operation that waits for such a lock, and once when a database
    ///     of an earlier version is brought up to date, with a sentence to show.
    ///   - now: the clock that stamps uploads.
    ///   - makeID: makes the identifier of each record.
    ///   - stopWaiting: asked while an operation waits for such a lock; true stops the wait, and
    ///     the operation fails as cancelled (a script's program ending by a signal).
    ///   - creating: whether a missing database is created; when false (for a command that only
    ///     reads), a missing or empty file is refused as ``SQLiteStoreError/cannotOpen(path:reason:)``
    ///     and nothing is created.
    /// - Throws: ``SQLiteStoreError`` naming the path: not a regular file, not a score database,
    ///   a JSON Lines score file, locked for longer than `busyTimeout`, and so on.
    public init(
        path: String,
        busyTimeout: Duration = .seconds(5),
        waiting: @escaping @Sendable (String) -> Void = { _ in },
        now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> UUID = { UUID() },
        stopWaiting: @escaping @Sendable () -> Bool = { false },
        creating: Bool = true
    ) throws(SQLiteStoreError) {
        self.path = path
        self.busyTimeout = busyTimeout
        self.now = now
        self.makeID = makeID
        let busy = BusyWait(path: path, timeout: busyTimeout, announce: waiting, stopWaiting: stopWaiting)
        self.busy = busy

        let state = try StoreFile.inspect(path)
        if !creating, state != .database || StoreFile.isEmpty(path) {
            throw .cannotOpen(
                path: path,
                reason: state == .missing
                    ? "there is no score database there; nothing was created"
                    : "the file is empty, not a score database; nothing was written")
        }
        if state == .missing { try StoreFile.makeParentDirectories(of: path) }

        var configuration = Configuration()
        // WAL is set here rather than with GRDB's `journalMode = .wal`, which writes to the
        // database on opening when the WAL file is empty, and so waits for any other writer.
        configuration.prepareDatabase { db in
            let connection = try Self.connection(of: db)
            // A database of another program is refused before anything changes it: switching
            // to WAL rewrites its header.
            try Self.refuseForeign(connection, path: path)
            if try RawStatement.text(connection, "PRAGMA journal_mode") != "wal" {
                try RawStatement.execute(connection, "PRAGMA journal_mode = WAL")
            }
            // FULL syncs the WAL at every commit, so an acknowledged upload survives a power cut.
            try RawStatement.execute(connection, "PRAGMA synchronous = FULL")
            try RawStatement.execute(connection, "PRAGMA foreign_keys = ON")
        }
        configuration.busyMode = .callback { busy.shouldRetry($0) }
        // Turned on above, as GRDB would, without its SQL literals.
        configuration.foreignKeysEnabled = false
        configuration.label = "scores"
        let token = busy.makeToken()
        busy.begin(token)
        defer { busy.end() }
        let deadline = ContinuousClock.now + busyTimeout
        do {
            queue = try Self.retryingWhileBusy(until: deadline) {
                try DatabaseQueue(path: path, configuration: configuration)
            }
        } catch {
            // SQLite says only "unable to open database file"; the permissions usually say why.
            let why =
                state == .missing
                ? Glibc.access(Self.folder(of: path), W_OK | X_OK) == 0 ? 0 : errno
                : Glibc.access(path, R_OK | W_OK) == 0 ? 0 : errno
            throw Self.openingError(error, path: path, systemErrno: why, busy: busy)
        }
        if state == .missing { StoreFile.syncParent(of: path) }
        let queue = self.queue
        do {
            let updating = try Self.retryingWhileBusy(until: deadline) {
                try queue.writeWithoutTransaction { db in
                    do {
                        return try Self.bringUpToDate(db, path: path, announce: waiting)
                    } catch {
                        let code = db.sqliteConnection.map { sqlite3_system_errno($0) } ?? 0
                        throw Self.openingError(error, path: path, systemErrno: code, busy: busy)
                    }
                }
            }
            try Self.retryingWhileBusy(until: deadline) {
                try queue.writeWithoutTransaction { db in
                    do {
                        try Self.followKeyRule(db) { if !updating { waiting(Self.updatingSentence(path)) } }
                    } catch {
                        let code = db.sqliteConnection.map { sqlite3_system_errno($0) } ?? 0
                        throw Self.openingError(error, path: path, systemErrno: code, busy: busy)
                    }
                }
            }
        } catch {
            throw Self.openingError(error, path: path, systemErrno: 0, busy: busy)
        }
    }

    /// Runs `body` again while it fails because another connection holds the database, until
    /// `deadline`.
    ///
    /// Opening is several steps, and when connections open a new database at once SQLite answers
    /// some of them busy at once, without calling the busy handler that waits (a full test suite
    /// on two cores saw it); the wait for a lock is then made here, as long as it may last.
    private static func retryingWhileBusy<T>(until deadline: ContinuousClock.Instant, _ body: () throws -> T)
        throws -> T
    {
        while true {
            do {
                return try body()
            } catch {
                let busy: Bool
                switch error {
                case let error as DatabaseError: busy = error.resultCode == .SQLITE_BUSY
                case SQLiteStoreError.busy: busy = true
                default: busy = false
                }
                guard busy, ContinuousClock.now < deadline else { throw error }
                usleep(2_000)
            }
        }
    }

    /// Checks that the database is a score database and applies the migrations it lacks; returns
    /// whether it was of an earlier version, which `announce` was then told.
    ///
    /// A database already up to date is one read. Any other is looked at again, and migrated, in
    /// one immediate transaction: when several processes open a new or older database at once,
    /// one migrates it while the others wait, then find it up to date. Looked at outside that
    /// transaction, a database another process is migrating could seem half made.
    private static func bringUpToDate(_ db: Database, path: String, announce: (String) -> Void) throws -> Bool
    {
        var seen: [String]?
        // Through SQLite's C interface: GRDB's transaction costs a session's start more.
        if let connection = db.sqliteConnection {
            seen = try? RawStatement.inReadTransaction(connection) { try checkOwnership(db, path: path) }
        }
        if let seen, migrationIdentifiers.allSatisfy(seen.contains) { return false }
        var updating = false
        try db.inTransaction(.immediate) {
            let applied = try checkOwnership(db, path: path)
            guard !migrationIdentifiers.allSatisfy(applied.contains) else { return .commit }
            // Rewriting a database of an earlier version takes a while when it is large: said once.
            if !applied.isEmpty {
                updating = true
                announce(updatingSentence(path))
            }
            try db.execute(
                sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            for (identifier, migration) in zip(migrationIdentifiers, migrations)
            where !applied.contains(identifier) {
                try migration(db)
                try db.execute(
                    sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [identifier])
            }
            return .commit
        }
        return updating
    }

    /// Closes the database now, rather than when the store is released.
    ///
    /// The last connection to the database, in this process or another, checkpoints the WAL into
    /// it and removes the `-wal` file. Every operation after this fails. For a program about to end, which then need not release
    /// the store and what holds it.
    /// - Throws: ``SQLiteStoreError`` when SQLite cannot close the connection (it stays open).
    public func close() throws(SQLiteStoreError) {
        do {
            try queue.close()
        } catch {
            throw Self.openingError(error, path: path, systemErrno: 0, busy: busy)
        }
    }

    /// The folder holding the file at `path`.
    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// What is said while a database of an earlier version is brought up to date.
    static func updatingSentence(_ path: String) -> String {
        "updating \(path) for this version of playerform, once; a large database takes a while"
    }

    /// `error` from opening the database, as a ``SQLiteStoreError``.
    private static func openingError(
        _ error: any Error, path: String, systemErrno: Int32, busy: BusyWait
    ) -> SQLiteStoreError {
        switch translate(error, path: path, systemErrno: systemErrno, busy: busy) {
        case let error as SQLiteStoreError: error
        case is CancellationError: .busy(path: path, waitedSeconds: busy.timeoutSeconds)
        case let error: .sqlite(path: path, message: "\(error)")
        }
    }

    // MARK: Schema

    /// The identifiers of the migrations of ``migrator``, in order: what GRDB keeps in
    /// `grdb_migrations` once each is applied.
    static let migrationIdentifiers = [
        "v1: players and scores",
        "v2: the name rule the player keys were made with",
        "v3: players by first score, 16-byte ids, block counts",
        "v4: players show their newest score by time",
    ]

    /// The versioned schema as GRDB's migrator, which specs use to make databases of earlier
    /// versions; opening applies ``migrations`` itself, in one transaction.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for (identifier, migration) in zip(migrationIdentifiers, migrations) {
            migrator.registerMigration(identifier, migrate: migration)
        }
        return migrator
    }

    /// The versioned schema: the migration of each of ``migrationIdentifiers``, in order.
    ///
    /// A migration, once released, is never edited; a change is a new one.
    static let migrations: [@Sendable (Database) throws -> Void] = [
        { db in
            try db.execute(
                sql: """
                    PRAGMA application_id = \(applicationID);
                    CREATE TABLE meta (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        revision INTEGER NOT NULL,
                        legacy_import TEXT
                    );
                    INSERT INTO meta (id, revision) VALUES (1, 0);
                    CREATE TABLE player (
                        id INTEGER PRIMARY KEY,
                        key TEXT NOT NULL UNIQUE,
                        position INTEGER NOT NULL,
                        first_score INTEGER NOT NULL,
                        name TEXT NOT NULL,
                        points REAL NOT NULL,
                        uploaded_at INTEGER NOT NULL,
                        uploads INTEGER NOT NULL
                    );
                    CREATE INDEX player_position ON player (position);
                    CREATE TABLE score (
                        seq INTEGER PRIMARY KEY,
                        id TEXT NOT NULL UNIQUE,
                        player_id INTEGER NOT NULL REFERENCES player (id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        points REAL NOT NULL,
                        uploaded_at INTEGER NOT NULL
                    );
                    CREATE INDEX score_player ON score (player_id, seq);
                    """)
        },
        { db in
            try db.execute(sql: "ALTER TABLE meta ADD COLUMN key_rule TEXT")
        },
        { db in
            // Ids kept as text by v1 become their 16 bytes; a text that is not a UUID fails the
            // migration, which leaves the database as it was, saying which score it is.
            db.add(
                function: DatabaseFunction("playerform_uuid_bytes", argumentCount: 1, pure: true) { values in
                    String.fromDatabaseValue(values[0]).flatMap { UUID(uuidString: $0) }
                })
            if let bad = try Row.fetchOne(
                db, sql: "SELECT seq, id FROM score WHERE playerform_uuid_bytes(id) IS NULL LIMIT 1")
            {
                let seq: Int64 = bad[0]
                let id = (String.fromDatabaseValue(bad[1]) ?? "?").prefix(60)
                throw DatabaseError(
                    resultCode: .SQLITE_CORRUPT,
                    message: "score \(seq) has the id \"\(id)\", which is not a UUID, so this "
                        + "version cannot bring the database up to date; export it with the version that wrote it"
                )
            }
            try db.execute(
                sql: """
                    CREATE TABLE new_player (
                        id INTEGER PRIMARY KEY,
                        key TEXT NOT NULL UNIQUE,
                        name TEXT NOT NULL,
                        points REAL NOT NULL,
                        uploaded_at INTEGER NOT NULL,
                        uploads INTEGER NOT NULL
                    );
                    INSERT INTO new_player (id, key, name, points, uploaded_at, uploads)
                    SELECT (SELECT min(seq) FROM score WHERE player_id = player.id),
                           key, name, points, uploaded_at, uploads
                    FROM player WHERE EXISTS (SELECT 1 FROM score WHERE player_id = player.id);
                    CREATE TABLE new_score (
                        seq INTEGER PRIMARY KEY,
                        id BLOB NOT NULL UNIQUE,
                        player_id INTEGER NOT NULL,
                        name TEXT NOT NULL,
                        points REAL NOT NULL,
                        uploaded_at INTEGER NOT NULL
                    );
                    INSERT INTO new_score (seq, id, player_id, name, points, uploaded_at)
                    SELECT seq, playerform_uuid_bytes(id),
                           (SELECT min(first.seq) FROM score AS first WHERE first.player_id = score.player_id),
                           name, points, uploaded_at
                    FROM score ORDER BY seq;
                    DROP TABLE score;
                    DROP TABLE player;
                    ALTER TABLE new_player RENAME TO player;
                    ALTER TABLE new_score RENAME TO score;
                    CREATE INDEX score_player ON score (player_id, seq);
                    CREATE TABLE roster_block (
                        block INTEGER PRIMARY KEY,
                        players INTEGER NOT NULL
                    );
                    INSERT INTO roster_block (block, players)
                    SELECT id >> \(blockShift), count(*) FROM player GROUP BY 1;
                    """)
        },
        { db in
            // Players that an earlier version showed with the score kept last rather than the
            // newest by time show their newest.
            try db.execute(
                sql: """
                    UPDATE player SET (name, points, uploaded_at) =
                        (SELECT name, points, uploaded_at FROM score WHERE player_id = player.id
                         ORDER BY uploaded_at DESC, seq DESC LIMIT 1)
                    WHERE EXISTS (
                        SELECT 1 FROM score WHERE player_id = player.id AND uploaded_at > player.uploaded_at);
                    UPDATE meta SET revision = revision + 1;
                    """)
        },
    ]

    /// A player's block in `roster_block` is its row id shifted right by this: 4,096 records a
    /// block, so a million one-record players make 245 blocks, and a page skips fewer than 4,096
    /// row ids within its first block.
    static let blockShift: Int64 = 12

    // MARK: The name rule

    /// Names that tell one version of `PlayerName.comparisonKey(_:)` from another: case, blanks,
    /// compatibility forms, invisible characters, and letters whose case mapping differs by rule.
    static let keyRuleProbes = [
        "Bob", " bOB\t", "B\u{200B}ob", "Bo\u{00AD}b", "\u{FEFF}Bob", "Bo\u{2060}b", "Bo\u{200D}b",
        "\u{FB01}sh", "\u{FF22}ob", "\u{212A}elvin", "\u{216B}", "x\u{00B2}", "Cafe\u{0301}", "Caf\u{00E9}",
        "STRASSE", "Stra\u{00DF}e", "\u{0130}stanbul", "\u{03A3}\u{039F}\u{03A3}", "\u{1E9E}",
        "\u{2764}\u{FE0F}",
        "\u{1100}\u{1161}", "\u{3000}Ann\u{00A0}", "d\u{0307}", "",
    ]

    /// The keys of ``keyRuleProbes`` under the rule this program was built with, as stored in the
    /// database's `meta.key_rule`.
    ///
    /// Written out rather than worked out at each opening: working them out is the first use of
    /// Foundation's Unicode mappings, which costs a session start about a third of a millisecond.
    /// The mappings are those of the toolchain the program is built with (linked in, or its own
    /// copy of Foundation), and a spec compares this with ``probedKeyRule``: a toolchain whose
    /// mappings differ fails the suite until the keys here are brought up to date.
    static let keyRule = joiningKeys([
        "bob", "bob", "bob", "bob", "bob", "bob", "bob", "fish", "bob", "kelvin", "xii", "x2", "caf\u{E9}",
        "caf\u{E9}", "strasse", "stra\u{DF}e", "i\u{307}stanbul", "\u{3C3}\u{3BF}\u{3C3}", "\u{DF}",
        "\u{2764}",
        "\u{AC00}", "ann", "\u{1E0B}", "",
    ])

    /// The keys of ``keyRuleProbes`` as `PlayerName.comparisonKey(_:)` makes them.
    static var probedKeyRule: String {
        joiningKeys(keyRuleProbes.map(PlayerName.comparisonKey))
    }

    /// `keys`, each after a unit separator (U+001F) but the first.
    ///
    /// A loop rather than `joined(separator:)`, whose unspecialised code looks up `String`'s
    /// conformances by name at its first use, a tenth of a millisecond of a session's start.
    static func joiningKeys(_ keys: [String]) -> String {
        var joined = ""
        for (index, key) in keys.enumerated() {
            if index > 0 { joined += "\u{1F}" }
            joined += key
        }
        return joined
    }

    /// Makes the player keys follow this program's name rule.
    ///
    /// When the database's keys were made with another version of the rule, the players are made
    /// again from the scores, in one transaction, O(records) once; otherwise this is one read.
    static func followKeyRule(_ db: Database, announce: () -> Void = {}) throws {
        let current = keyRule
        guard try RawStatement.text(connection(of: db), "SELECT key_rule FROM meta") != current else {
            return
        }
        try db.inTransaction(.immediate) {
            // Looked at again under the write lock: another connection opening the database at
            // the same time may have made the players again already.
            guard try RawStatement.text(connection(of: db), "SELECT key_rule FROM meta") != current else {
                return .commit
            }
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM player)") ?? false {
                announce()
                try rebuildPlayers(db)
            }
            try db.execute(sql: "UPDATE meta SET key_rule = ?", arguments: [current])
            try bumpRevision(db)
            return .commit
        }
    }

    /// Makes every player again from the scores, in upload order, with this program's keys.
    static func rebuildPlayers(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM player; DELETE FROM roster_block")
        let connection = try Self.connection(of: db)
        let scores = try RawStatement(
            connection, "SELECT seq, name, points, uploaded_at FROM score ORDER BY seq")
        let find = try RawStatement(connection, "SELECT id FROM player WHERE key = ?1")
        let update = try RawStatement(
            connection,
            """
            UPDATE player SET name = iif(?3 >= uploaded_at, ?1, name), points = iif(?3 >= uploaded_at, ?2, points),
                uploaded_at = max(?3, uploaded_at), uploads = uploads + 1
            WHERE id = ?4
            """)
        let insert = try RawStatement(
            connection,
            "INSERT INTO player (id, key, name, points, uploaded_at, uploads) VALUES (?1, ?2, ?3, ?4, ?5, 1)")
        // Each score's new player, written once the reading is done: a table is not changed
        // under a statement that is reading it.
        var owners: [(seq: Int64, player: Int64)] = []
        while try scores.step() {
            let (seq, name, points, time) = (scores.int(0), scores.text(1), scores.double(2), scores.int(3))
            let key = PlayerName.comparisonKey(name)
            find.bind(1, key)
            let playerID: Int64
            if try find.step() {
                playerID = find.int(0)
                find.reset()
                update.bind(1, name)
                update.bind(2, points)
                update.bind(3, time)
                update.bind(4, playerID)
                try update.run()
            } else {
                find.reset()
                // The player's row id is the sequence number of its first score.
                playerID = seq
                insert.bind(1, seq)
                insert.bind(2, key)
                insert.bind(3, name)
                insert.bind(4, points)
                insert.bind(5, time)
                try insert.run()
            }
            owners.append((seq, playerID))
        }
        scores.reset()
        let attach = try RawStatement(connection, "UPDATE score SET player_id = ?1 WHERE seq = ?2")
        for (seq, player) in owners {
            attach.bind(1, player)
            attach.bind(2, seq)
            try attach.run()
        }
        try db.execute(
            sql: """
                INSERT INTO roster_block (block, players)
                SELECT id >> \(blockShift), count(*) FROM player GROUP BY 1
                """)
    }

    /// Refuses a database that holds tables but is not marked as a score database, reading only.
    private static func refuseForeign(_ connection: OpaquePointer, path: String) throws {
        let application = try RawStatement.integer(connection, "PRAGMA application_id") ?? 0
        if application == applicationID { return }
        let objects = try RawStatement.integer(connection, "SELECT count(*) FROM sqlite_master") ?? 0
        if application != 0 || objects > 0 { throw SQLiteStoreError.foreignDatabase(path: path) }
    }

    /// Refuses a database of another program, or of a newer schema (one that applied a migration
    /// this version does not know, as GRDB's `hasBeenSuperseded` says); returns the identifiers
    /// of the migrations applied, none for a new database.
    private static func checkOwnership(_ db: Database, path: String) throws -> [String] {
        let application = try RawStatement.integer(connection(of: db), "PRAGMA application_id") ?? 0
        if application == applicationID {
            let applied = try appliedMigrations(db)
            if applied.contains(where: { !migrationIdentifiers.contains($0) }) {
                throw SQLiteStoreError.newerSchema(path: path)
            }
            return applied
        }
        let objects = try RawStatement.integer(connection(of: db), "SELECT count(*) FROM sqlite_master") ?? 0
        if application != 0 || objects > 0 { throw SQLiteStoreError.foreignDatabase(path: path) }
        // No table at all: nothing was migrated.
        return []
    }

    /// The identifiers in `grdb_migrations`, none when it is missing.
    ///
    /// One statement through SQLite's C interface: opening asked GRDB's migrator three times
    /// (superseded, completed, any applied), each reading the table through generic cursors.
    private static func appliedMigrations(_ db: Database) throws -> [String] {
        let statement: RawStatement
        do {
            statement = try RawStatement(try connection(of: db), "SELECT identifier FROM grdb_migrations")
        } catch {
            // As GRDB's migrator does: a table that cannot be seen is none; any other failure is
            // the statement's own.
            if (try? db.tableExists("grdb_migrations")) == false { return [] }
            throw error
        }
        var identifiers: [String] = []
        while try statement.step() { identifiers.append(statement.text(0)) }
        return identifiers
    }

    // MARK: ScoreStore

    /// Keeps a record of `name` and `points` in one transaction; returns once it is committed and
    /// synced.
    public func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
        guard points.isFinite else { throw .notFinite(points: points) }
        let record = ScoreRecord(
            id: makeID(), name: name, points: points, uploadedAt: Timestamp.rounded(now()))
        return try await write { db in
            _ = try Self.insert(record, into: db)
            return record
        }
    }

    /// Every record kept, oldest first: by time, records of the same time in the order kept.
    public func records() async throws(ScoreStoreError) -> [ScoreRecord] {
        try await read { db in
            try Row.fetchAll(db, sql: Self.recordsSQL).map { try Self.record($0, path: self.path) }
        }
    }

    /// Removes the records with these ids in one transaction; other ids are ignored.
    public func delete(ids: [UUID]) async throws(ScoreStoreError) {
        guard !ids.isEmpty else { return }
        try await write { db in try Self.delete(ids: ids, in: db) }
    }

    /// The number of players: the sum of the block counts.
    public func playerCount() async throws(ScoreStoreError) -> Int {
        try await read { db in try Self.count(db) }
    }

    /// The players from `offset` in roster order, at most `limit`, each with its record ids: a
    /// range of row ids, found through the block counts.
    public func players(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player] {
        guard limit > 0 else { return [] }
        let path = self.path
        return try await read { db in
            try Self.players(from: offset, limit: limit, connection: Self.connection(of: db), path: path)
        }
    }

    /// The revision, the count and the players of ``players(from:limit:)``, in one read
    /// transaction.
    public func rosterWindow(from offset: Int, limit: Int) async throws(ScoreStoreError) -> RosterWindow {
        let path = self.path
        return try await read { db in
            let connection = try Self.connection(of: db)
            let revision = try RawStatement.integer(connection, "SELECT revision FROM meta") ?? 0
            let count = try Self.count(db)
            let players =
                limit > 0
                ? try Self.players(from: offset, limit: limit, connection: connection, path: path) : []
            return RosterWindow(revision: UInt64(bitPattern: revision), playerCount: count, players: players)
        }
    }

    /// The players from `offset`, at most `limit` (above 0), each with its record ids, read in the
    /// transaction open on `connection` to the database at `path`.
    private static func players(
        from offset: Int, limit: Int, connection: SQLiteConnection, path: String
    ) throws -> [Player] {
        guard let start = try Self.seek(offset, connection) else { return [] }
        // One statement: the window of players by row id, each with its record ids.
        let statement = try RawStatement(
            connection,
            """
            SELECT p.id, p.name, p.points, p.uploaded_at, s.id, p.key
            FROM (SELECT id, name, points, uploaded_at, key FROM player
                  WHERE id >= ?1 ORDER BY id LIMIT ?2 OFFSET ?3) AS p
            JOIN score AS s ON s.player_id = p.id
            ORDER BY p.id, s.seq
            """)
        statement.bind(1, start.from)
        statement.bind(2, Int64(limit))
        statement.bind(3, start.skip)
        var players: [Player] = []
        var current: (id: Int64, name: String, points: Double, time: Int64, key: String, records: [UUID])?
        func finish() {
            guard let done = current else { return }
            players.append(
                Player(
                    name: done.name, points: done.points, uploadedAt: Timestamp.date(milliseconds: done.time),
                    recordIDs: done.records, key: done.key))
        }
        while try statement.step() {
            let id = statement.int(0)
            if current?.id != id {
                finish()
                current = (
                    id, statement.text(1), statement.double(2), statement.int(3), statement.text(5), []
                )
            }
            guard let record = statement.uuid(4) else {
                throw SQLiteStoreError.corrupt(path: path, reason: "a score's id is not 16 bytes")
            }
            current?.records.append(record)
        }
        finish()
        return players
    }

    /// The players of ``players(from:limit:)`` without their record ids: a range of row ids in
    /// the player table alone, so a listing of every player reads no score.
    public func playerListing(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player] {
        guard limit > 0 else { return [] }
        return try await read { db in
            let connection = try SQLiteScoreStore.connection(of: db)
            guard let start = try Self.seek(offset, connection) else { return [] }
            let statement = try RawStatement(
                connection,
                """
                SELECT name, points, uploaded_at, key FROM player
                WHERE id >= ?1 ORDER BY id LIMIT ?2 OFFSET ?3
                """)
            statement.bind(1, start.from)
            statement.bind(2, Int64(limit))
            statement.bind(3, start.skip)
            var players: [Player] = []
            players.reserveCapacity(min(limit, 4_096))
            while try statement.step() {
                players.append(
                    Player(
                        name: statement.text(0), points: statement.double(1),
                        uploadedAt: Timestamp.date(milliseconds: statement.int(2)), recordIDs: [],
                        key: statement.text(3)))
            }
            return players
        }
    }

    /// The player whose name has the comparison key of `name`, and its index in the roster: one
    /// lookup of the key, and the players before it counted through the blocks.
    public func player(named name: String) async throws(ScoreStoreError) -> (index: Int, player: Player)? {
        let key = PlayerName.comparisonKey(name)
        return try await read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: Self.playerByKeySQL, arguments: [Self.bytes(key)])
            else { return nil }
            return (try Self.index(ofPlayer: row[0], in: db), try Self.players([row], in: db)[0])
        }
    }

    /// Removes every record of the player named `name`, including records other sessions kept
    /// since this one last looked; nil when there is no such player.
    public func deletePlayer(named name: String) async throws(ScoreStoreError) -> Player? {
        let key = PlayerName.comparisonKey(name)
        return try await write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: Self.playerByKeySQL, arguments: [Self.bytes(key)])
            else { return nil }
            let player = try Self.players([row], in: db)[0]
            try Self.removePlayer(id: row[0], in: db)
            return player
        }
    }

    /// The revision every write transaction increments, in any process.
    public func revision() async throws(ScoreStoreError) -> UInt64 {
        try await read { db in
            UInt64(
                bitPattern: try RawStatement.integer(Self.connection(of: db), "SELECT revision FROM meta")
                    ?? 0)
        }
    }

    // MARK: Writing

    /// A record made ready for the database: its player's comparison key and its time in
    /// milliseconds, computed by whoever reads the records, so that an import does this work on
    /// another thread than the one that writes.
    struct PreparedRecord: Sendable {
        var record: ScoreRecord
        var key: String
        var milliseconds: Int64

        init(_ record: ScoreRecord, key: String? = nil) {
            self.record = record
            self.key = key ?? PlayerName.comparisonKey(record.name)
            milliseconds = Timestamp.milliseconds(record.uploadedAt)
        }
    }

    /// A prepared insertion for many records at once, within one transaction: the statements,
    /// bound and stepped through SQLite's C interface, the next sequence number, and the players
    /// added to each block, counted in `roster_block` by ``finish()``.
    ///
    /// A record costs two statements: an upsert of its player that returns the player's row id,
    /// and the insertion of the score, which does nothing when the id is kept already.
    final class InsertCursor {
        private(set) var nextSeq: Int64
        private var added: [Int64: Int64] = [:]
        private let connection: OpaquePointer
        private let findScore: RawStatement
        private let upsertPlayer: RawStatement
        private let removeNewPlayer: RawStatement
        private let restorePlayer: RawStatement
        private let insertScore: RawStatement
        private let countBlock: RawStatement

        init(_ db: Database) throws {
            nextSeq = (try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(seq), 0) + 1 FROM score")) ?? 1
            let connection = try SQLiteScoreStore.connection(of: db)
            self.connection = connection
            findScore = try RawStatement(
                connection, "SELECT name, points, uploaded_at FROM score WHERE id = ?1")
            // A new player's row id is the sequence number of its first score, which no other
            // player has: every player's row id is the number of a score of its own.
            upsertPlayer = try RawStatement(
                connection,
                """
                INSERT INTO player (id, key, name, points, uploaded_at, uploads)
                VALUES (?1, ?2, ?3, ?4, ?5, 1)
                ON CONFLICT (key) DO UPDATE SET
                    name = iif(excluded.uploaded_at >= uploaded_at, excluded.name, name),
                    points = iif(excluded.uploaded_at >= uploaded_at, excluded.points, points),
                    uploaded_at = max(excluded.uploaded_at, uploaded_at), uploads = uploads + 1
                RETURNING id
                """)
            removeNewPlayer = try RawStatement(connection, "DELETE FROM player WHERE id = ?1")
            restorePlayer = try RawStatement(
                connection,
                """
                UPDATE player SET (name, points, uploaded_at) =
                    (SELECT name, points, uploaded_at FROM score WHERE player_id = ?1
                        ORDER BY uploaded_at DESC, seq DESC LIMIT 1),
                    uploads = uploads - 1
                WHERE id = ?1
                """)
            insertScore = try RawStatement(
                connection,
                """
                INSERT INTO score (seq, id, player_id, name, points, uploaded_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                ON CONFLICT (id) DO NOTHING
                """
            )
            countBlock = try RawStatement(connection, SQLiteScoreStore.countBlockSQL)
        }

        /// Keeps `record`.
        ///
        /// See ``insert(_:)-(PreparedRecord)``.
        func insert(_ record: ScoreRecord) throws -> Bool {
            try insert(PreparedRecord(record))
        }

        /// Keeps `prepared`.
        ///
        /// Returns false when an identical record with its id is already kept
        /// (a repeated import); throws when a different one is.
        func insert(_ prepared: PreparedRecord) throws -> Bool {
            let record = prepared.record
            let seq = nextSeq
            upsertPlayer.bind(1, seq)
            upsertPlayer.bind(2, prepared.key)
            upsertPlayer.bind(3, record.name)
            upsertPlayer.bind(4, record.points)
            upsertPlayer.bind(5, prepared.milliseconds)
            guard try upsertPlayer.step() else {
                upsertPlayer.reset()
                throw DatabaseError(
                    resultCode: .SQLITE_INTERNAL, message: "the player's upsert returned no row id")
            }
            let playerID = upsertPlayer.int(0)
            upsertPlayer.reset()
            insertScore.bind(1, seq)
            insertScore.bind(2, record.id)
            insertScore.bind(3, playerID)
            insertScore.bind(4, record.name)
            insertScore.bind(5, record.points)
            insertScore.bind(6, prepared.milliseconds)
            try insertScore.run()
            guard sqlite3_changes(connection) == 1 else {
                // The id is kept already: a player made for this record goes again, and one that
                // was there shows its latest record again.
                let undo = playerID == seq ? removeNewPlayer : restorePlayer
                undo.bind(1, playerID)
                try undo.run()
                return try isKept(prepared)
            }
            if playerID == seq { added[seq >> SQLiteScoreStore.blockShift, default: 0] += 1 }
            nextSeq += 1
            return true
        }

        /// Counts the players added since the last call in `roster_block`.
        ///
        /// Called before the transaction commits, and before anything else in it reads or changes
        /// the counts.
        func finish() throws {
            for (block, players) in added {
                countBlock.bind(1, block)
                countBlock.bind(2, players)
                try countBlock.run()
            }
            added.removeAll(keepingCapacity: true)
        }

        /// Returns false when the record kept with `prepared`'s id is the same; throws when it
        /// differs.
        private func isKept(_ prepared: PreparedRecord) throws -> Bool {
            findScore.bind(1, prepared.record.id)
            defer { findScore.reset() }
            guard try findScore.step() else { return false }
            let same =
                findScore.text(0) == prepared.record.name && findScore.double(1) == prepared.record.points
                && findScore.int(2) == prepared.milliseconds
            guard same else { throw SQLiteStoreError.conflictingRecord(id: prepared.record.id.uuidString) }
            return false
        }
    }

    /// Adds `?2` players to block `?1` of `roster_block`.
    static let countBlockSQL = """
        INSERT INTO roster_block (block, players) VALUES (?1, ?2)
        ON CONFLICT (block) DO UPDATE SET players = players + excluded.players
        """

    /// Keeps `record` in `db`'s open transaction; see ``InsertCursor/insert(_:)``.
    static func insert(_ record: ScoreRecord, into db: Database) throws -> Bool {
        let cursor = try InsertCursor(db)
        let kept = try cursor.insert(record)
        try cursor.finish()
        return kept
    }

    /// Removes the records with `ids` in `db`'s open transaction, and brings their players up to
    /// date: a player with no record left is removed, one whose first record went moves to the
    /// place of its new first record, one whose latest went shows its new latest.
    static func delete(ids: [UUID], in db: Database) throws {
        var affected: [Int64: Int] = [:]
        for id in ids {
            guard
                let playerID = try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT player_id FROM score WHERE id = ?"), arguments: [id])
            else { continue }
            try db.cachedStatement(sql: "DELETE FROM score WHERE id = ?").execute(arguments: [id])
            affected[playerID, default: 0] += 1
        }
        for (playerID, removed) in affected.sorted(by: { $0.key < $1.key }) {
            guard
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM score WHERE player_id = ?)", arguments: [playerID])
                    == true
            else {
                try removePlayer(id: playerID, in: db)
                continue
            }
            // The latest score's values are copied in SQL: a name read into Swift by GRDB would
            // stop at a NUL byte.
            try db.execute(
                sql: """
                    UPDATE player SET (name, points, uploaded_at) =
                        (SELECT name, points, uploaded_at FROM score WHERE player_id = ?1
                        ORDER BY uploaded_at DESC, seq DESC LIMIT 1),
                        uploads = uploads - ?2
                    WHERE id = ?1
                    """,
                arguments: [playerID, removed])
            let first =
                try Int64.fetchOne(
                    db, sql: "SELECT seq FROM score WHERE player_id = ? ORDER BY seq LIMIT 1",
                    arguments: [playerID]) ?? playerID
            if first != playerID {
                // The player's first record went: it moves to the place of its new first record,
                // taking that record's number as its row id. O(its records).
                try db.execute(
                    sql: "UPDATE score SET player_id = ? WHERE player_id = ?", arguments: [first, playerID])
                try db.execute(sql: "UPDATE player SET id = ? WHERE id = ?", arguments: [first, playerID])
                try count(players: -1, inBlockOf: playerID, db)
                try count(players: 1, inBlockOf: first, db)
            }
        }
        if !affected.isEmpty { try bumpRevision(db) }
    }

    /// Removes a player and its scores, and takes it off its block's count: O(its records).
    static func removePlayer(id: Int64, in db: Database) throws {
        try db.execute(sql: "DELETE FROM score WHERE player_id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM player WHERE id = ?", arguments: [id])
        try count(players: -1, inBlockOf: id, db)
        try bumpRevision(db)
    }

    /// Adds `players` (negative to take away) to the count of the block of row id `id`; a block
    /// left with no player has no row.
    private static func count(players: Int64, inBlockOf id: Int64, _ db: Database) throws {
        let block = id >> blockShift
        try db.cachedStatement(sql: countBlockSQL).execute(arguments: [block, players])
        if players < 0 {
            try db.cachedStatement(sql: "DELETE FROM roster_block WHERE block = ? AND players = 0")
                .execute(arguments: [block])
        }
    }

    static func bumpRevision(_ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE meta SET revision = revision + 1").execute()
    }

    // MARK: Reading

    static func count(_ db: Database) throws -> Int {
        Int(
            try RawStatement.integer(connection(of: db), "SELECT IFNULL(SUM(players), 0) FROM roster_block")
                ?? 0)
    }

    /// Where the player at roster index `offset` is; nil past the end.
    ///
    /// Returns the first row id of the player's block, and how many players of the block come
    /// before it. Reads the block counts, a row per 4,096 records, and nothing else.
    static func seek(_ offset: Int, _ connection: OpaquePointer) throws -> (from: Int64, skip: Int64)? {
        let blocks = try RawStatement(connection, "SELECT block, players FROM roster_block ORDER BY block")
        var before: Int64 = 0
        let target = Int64(max(offset, 0))
        while try blocks.step() {
            let players = blocks.int(1)
            if before + players > target { return (blocks.int(0) << blockShift, target - before) }
            before += players
        }
        return nil
    }

    /// The roster index of the player with row id `id`: the players of the blocks before its own,
    /// and those of its own block before it.
    static func index(ofPlayer id: Int64, in db: Database) throws -> Int {
        let block = id >> blockShift
        let before =
            try Int.fetchOne(
                db, sql: "SELECT IFNULL(SUM(players), 0) FROM roster_block WHERE block < ?",
                arguments: [block])
            ?? 0
        let within =
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM player WHERE id >= ? AND id < ?",
                arguments: [block << blockShift, id]) ?? 0
        return before + within
    }

    /// The players of `rows` (id, name, points, uploaded_at, key), with their record ids.
    private static func players(_ rows: [Row], in db: Database) throws -> [Player] {
        guard !rows.isEmpty else { return [] }
        let ids: [Int64] = rows.map { $0[0] }
        var recordIDs: [Int64: [UUID]] = [:]
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ",")
        let cursor = try Row.fetchCursor(
            db, sql: "SELECT player_id, id FROM score WHERE player_id IN (\(marks)) ORDER BY player_id, seq",
            arguments: StatementArguments(ids))
        while let row = try cursor.next() {
            if let id = UUID.fromDatabaseValue(row[1]) { recordIDs[row[0], default: []].append(id) }
        }
        return rows.map { row in
            Player(
                name: name(row[1]), points: row[2], uploadedAt: Timestamp.date(milliseconds: row[3]),
                recordIDs: recordIDs[row[0]] ?? [], key: name(row[4]))
        }
    }

    static func record(_ row: Row, path: String) throws -> ScoreRecord {
        let value: DatabaseValue = row[0]
        guard case .blob(let bytes) = value.storage, bytes.count == 16, let id = UUID.fromDatabaseValue(value)
        else {
            throw SQLiteStoreError.corrupt(path: path, reason: "a score's id is not 16 bytes")
        }
        return ScoreRecord(
            id: id, name: name(row[1]), points: row[2], uploadedAt: Timestamp.date(milliseconds: row[3]))
    }

    /// Every record, oldest first (by time, then in the order kept), for ``record(_:path:)``.
    static let recordsSQL =
        "SELECT id, CAST(name AS BLOB), points, uploaded_at FROM score ORDER BY uploaded_at, seq"

    /// The player whose key is bound as bytes, for ``players(_:in:)``.
    private static let playerByKeySQL =
        "SELECT id, CAST(name AS BLOB), points, uploaded_at, CAST(key AS BLOB) FROM player WHERE key = CAST(? AS TEXT)"

    /// `text`'s bytes, bound as `CAST(? AS TEXT)`: GRDB binds a String only up to its first NUL
    /// byte, and a name may hold one.
    static func bytes(_ text: String) -> Data { Data(text.utf8) }

    /// The name in `value`, selected as `CAST(name AS BLOB)`: GRDB reads a text value only up to
    /// its first NUL byte, and a name may hold one.
    static func name(_ value: DatabaseValue) -> String {
        if case .blob(let bytes) = value.storage { return String(decoding: bytes, as: UTF8.self) }
        return String.fromDatabaseValue(value) ?? ""
    }

    // MARK: Access

    /// Runs `work` in one immediate write transaction that bumps the revision; returns once the
    /// transaction is committed and synced.
    func write<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws(ScoreStoreError)
        -> T
    {
        do {
            return try await access { db in
                try Self.checkInPlace(db, path: self.path)
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try work(db)
                    try Self.bumpRevision(db)
                    return .commit
                }
                return result!
            }
        } catch {
            throw .translating(error, database: path)
        }
    }

    /// Throws when the database file was deleted, or another file put at its path, since the
    /// store opened it (SQLite's `SQLITE_FCNTL_HAS_MOVED`, one `stat` of the path).
    ///
    /// SQLite would go on reading and writing the file it opened: uploads acknowledged there would
    /// be lost with it, unseen by every other session.
    static func checkInPlace(_ db: Database, path: String) throws {
        var moved: Int32 = 0
        let code = sqlite3_file_control(try connection(of: db), "main", SQLITE_FCNTL_HAS_MOVED, &moved)
        if code == SQLITE_OK && moved != 0 {
            throw SQLiteStoreError.ioError(
                path: path,
                reason: "the file was deleted or replaced since it was opened; nothing was changed, "
                    + "start playerform again to use the file there now")
        }
    }

    /// The SQLite handle of `db`, for statements run without GRDB's own.
    static func connection(of db: Database) throws -> SQLiteConnection {
        guard let connection = db.sqliteConnection else { throw DatabaseError(resultCode: .SQLITE_MISUSE) }
        return connection
    }

    /// Runs `work` in one read transaction.
    func read<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws(ScoreStoreError)
        -> T
    {
        do {
            return try await access { db in
                try Self.checkInPlace(db, path: self.path)
                return try RawStatement.inReadTransaction(Self.connection(of: db)) { try work(db) }
            }
        } catch {
            throw .translating(error, database: path)
        }
    }

    /// Runs `work` on the connection, turning SQLite's errors into ``SQLiteStoreError``s naming
    /// the file, and a cancelled task into `CancellationError`, also while waiting for a lock.
    func access<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        // A task cancelled already runs nothing, as GRDB's asynchronous access does.
        try Task.checkCancellation()
        let busy = self.busy
        let path = self.path
        let token = busy.makeToken()
        defer { busy.forget(token) }
        return try await withTaskCancellationHandler {
            // First on this thread, without waiting for a lock: the database is nearly always free,
            // and a hop to the queue's thread and back took most of a short operation's time (a
            // session's start read the roster through four of them). A lock found sends the
            // operation, from its start, to the queue's thread, to wait there as long as allowed
            // without holding this one; so does another operation there already.
            if queued.load(ordering: .acquiring) == 0, let done = try attemptWithoutWaiting(token, work) {
                return done
            }
            queued.add(1, ordering: .acquiringAndReleasing)
            defer { queued.subtract(1, ordering: .acquiringAndReleasing) }
            return try await queue.writeWithoutTransaction { db in
                busy.begin(token)
                defer { busy.end() }
                do {
                    return try work(db)
                } catch {
                    throw Self.translate(error, path: path, db: db, busy: busy)
                }
            }
        } onCancel: {
            busy.cancel(token)
        }
    }

    /// The result of `work`, run on the connection on this thread, or nil when it found the
    /// database locked (SQLite then undid what it did); never waits for a lock.
    private func attemptWithoutWaiting<T>(_ token: UInt64, _ work: (Database) throws -> T) throws -> T? {
        let busy = self.busy
        let path = self.path
        return try queue.writeWithoutTransaction { db -> T? in
            busy.begin(token, waiting: false)
            do {
                // Cancelled since the task was looked at: nothing runs.
                if busy.isCancelled { throw CancellationError() }
                let result = try work(db)
                busy.end()
                return result
            } catch {
                let translated = Self.translate(error, path: path, db: db, busy: busy)
                if busy.end() && !(translated is CancellationError) { return nil }
                throw translated
            }
        }
    }

    /// Runs `work` on the connection synchronously, for batch work off the cooperative pool.
    func accessSynchronously<T>(_ work: (Database) throws -> T) throws -> T {
        let busy = self.busy
        let path = self.path
        let token = busy.makeToken()
        return try queue.writeWithoutTransaction { db in
            busy.begin(token)
            defer { busy.end() }
            do {
                try Self.checkInPlace(db, path: path)
                return try work(db)
            } catch {
                throw Self.translate(error, path: path, db: db, busy: busy)
            }
        }
    }

    private static func translate(_ error: any Error, path: String, db: Database, busy: BusyWait) -> any Error
    {
        let code = db.sqliteConnection.map { sqlite3_system_errno($0) } ?? 0
        return translate(error, path: path, systemErrno: code, busy: busy)
    }

    private static func translate(
        _ error: any Error, path: String, systemErrno: Int32, busy: BusyWait
    ) -> any Error {
        if error is SQLiteStoreError || error is CancellationError { return error }
        guard let error = error as? DatabaseError else { return error }
        let reason = systemErrno != 0 ? StoreFile.reason(systemErrno) : (error.message ?? "\(error)")
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            if busy.isCancelled { return CancellationError() }
            return SQLiteStoreError.busy(path: path, waitedSeconds: busy.timeoutSeconds)
        case .SQLITE_INTERRUPT:
            return CancellationError()
        case .SQLITE_FULL:
            return SQLiteStoreError.diskFull(
                path: path, reason: systemErrno != 0 ? reason : StoreFile.reason(ENOSPC))
        case .SQLITE_IOERR:
            return SQLiteStoreError.ioError(path: path, reason: reason)
        case .SQLITE_NOTADB:
            return SQLiteStoreError.notADatabase(path: path)
        case .SQLITE_CORRUPT:
            return SQLiteStoreError.corrupt(path: path, reason: error.message ?? "integrity check failed")
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH:
            return SQLiteStoreError.cannotOpen(path: path, reason: reason)
        case .SQLITE_CONSTRAINT:
            return SQLiteStoreError.sqlite(path: path, message: error.message ?? "constraint failed")
        default:
            return SQLiteStoreError.sqlite(path: path, message: error.message ?? "\(error)")
        }
    }
}
