import Foundation
import GRDB
import GRDBSQLite
import PlayerFormRules
import PlayerFormScores
import PlayerFormStore

/// The score store in a SQLite database, shared safely by several processes.
///
/// - The database is in WAL mode with `synchronous=FULL`: an upload returns only after its
///   transaction is committed and synced, so a record reported as kept survives a crash or a
///   power cut.
/// - A player is a row of its own (`player`), keyed by `PlayerName.comparisonKey(_:)`, with
///   the name, points and time of its latest record, its count of uploads and a dense
///   `position` in roster order (order of first record). Scores are rows of `score`, each
///   referring to its player. So every question of the roster costs O(log n) or O(rows asked
///   for): a page is a range of `position`, a name is one index lookup, the count is the
///   largest position. Deleting a player shifts the positions after it, O(players after it).
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
    ///   - waiting: told once per operation that waits for such a lock, with a sentence to show.
    ///   - now: the clock that stamps uploads.
    ///   - makeID: makes the identifier of each record.
    /// - Throws: ``SQLiteStoreError`` naming the path: not a regular file, not a score database,
    ///   a JSON Lines score file, locked for longer than `busyTimeout`, and so on.
    public init(
        path: String,
        busyTimeout: Duration = .seconds(5),
        waiting: @escaping @Sendable (String) -> Void = { _ in },
        now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> UUID = { UUID() }
    ) throws(SQLiteStoreError) {
        self.path = path
        self.busyTimeout = busyTimeout
        self.now = now
        self.makeID = makeID
        let busy = BusyWait(path: path, timeout: busyTimeout, announce: waiting)
        self.busy = busy

        let state = try StoreFile.inspect(path)
        if state == .missing { try StoreFile.makeParentDirectories(of: path) }

        var configuration = Configuration()
        // WAL is set here rather than with GRDB's `journalMode = .wal`, which writes to the
        // database on opening when the WAL file is empty, and so waits for any other writer.
        configuration.prepareDatabase { db in
            if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                try db.execute(sql: "PRAGMA journal_mode = WAL")
            }
            // FULL syncs the WAL at every commit, so an acknowledged upload survives a power cut.
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        configuration.busyMode = .callback { busy.shouldRetry($0) }
        configuration.foreignKeysEnabled = true
        configuration.label = "scores"
        let token = busy.makeToken()
        busy.begin(token)
        defer { busy.end() }
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw Self.openingError(error, path: path, systemErrno: 0, busy: busy)
        }
        if state == .missing { StoreFile.syncParent(of: path) }
        let migrator = Self.migrator
        do {
            let complete = try queue.writeWithoutTransaction { db in
                do {
                    try Self.checkOwnership(db, path: path, migrator: migrator)
                    return try migrator.hasCompletedMigrations(db)
                } catch {
                    let code = db.sqliteConnection.map { sqlite3_system_errno($0) } ?? 0
                    throw Self.openingError(error, path: path, systemErrno: code, busy: busy)
                }
            }
            if !complete { try migrator.migrate(queue) }
            try queue.writeWithoutTransaction { db in
                do {
                    try Self.followKeyRule(db)
                } catch {
                    let code = db.sqliteConnection.map { sqlite3_system_errno($0) } ?? 0
                    throw Self.openingError(error, path: path, systemErrno: code, busy: busy)
                }
            }
        } catch {
            throw Self.openingError(error, path: path, systemErrno: 0, busy: busy)
        }
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

    /// The versioned schema.
    ///
    /// A migration, once released, is never edited; a change is a new one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: players and scores") { db in
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
        }
        migrator.registerMigration("v2: the name rule the player keys were made with") { db in
            try db.execute(sql: "ALTER TABLE meta ADD COLUMN key_rule TEXT")
        }
        return migrator
    }

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

    /// The keys of ``keyRuleProbes`` under the rule this program was built with.
    static var keyRule: String {
        keyRuleProbes.map(PlayerName.comparisonKey).joined(separator: "\u{1F}")
    }

    /// Makes the player keys follow this program's name rule.
    ///
    /// When the database's keys were made with another version of the rule, the players are made
    /// again from the scores, in one transaction, O(records) once; otherwise this is one read.
    static func followKeyRule(_ db: Database) throws {
        let current = keyRule
        guard try String.fetchOne(db, sql: "SELECT key_rule FROM meta") != current else { return }
        let hasPlayers = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM player)") ?? false
        // The scores stay while their players are made again, so deleting a player must not
        // take its scores with it: foreign keys are off until the new players are in.
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
        try db.inTransaction(.immediate) {
            if hasPlayers { try rebuildPlayers(db) }
            try db.execute(sql: "UPDATE meta SET key_rule = ?", arguments: [current])
            try bumpRevision(db)
            return .commit
        }
    }

    /// Makes every player again from the scores, in upload order, with this program's keys.
    private static func rebuildPlayers(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM player")
        let connection = try Self.connection(of: db)
        let scores = try RawStatement(
            connection, "SELECT seq, name, points, uploaded_at FROM score ORDER BY seq")
        let find = try RawStatement(connection, "SELECT id FROM player WHERE key = ?1")
        let update = try RawStatement(
            connection,
            "UPDATE player SET name = ?1, points = ?2, uploaded_at = ?3, uploads = uploads + 1 WHERE id = ?4")
        let insert = try RawStatement(
            connection,
            """
            INSERT INTO player (key, position, first_score, name, points, uploaded_at, uploads)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1)
            """)
        // Each score's new player, written once the reading is done: a table is not changed
        // under a statement that is reading it.
        var owners: [(seq: Int64, player: Int64)] = []
        var position: Int64 = 0
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
                insert.bind(1, key)
                insert.bind(2, position)
                insert.bind(3, seq)
                insert.bind(4, name)
                insert.bind(5, points)
                insert.bind(6, time)
                try insert.run()
                playerID = sqlite3_last_insert_rowid(connection)
                position += 1
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
    }

    /// Refuses a database of another program, or of a newer schema.
    private static func checkOwnership(_ db: Database, path: String, migrator: DatabaseMigrator) throws {
        let application = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        if application == applicationID {
            if try migrator.hasBeenSuperseded(db) { throw SQLiteStoreError.newerSchema(path: path) }
            return
        }
        let objects = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
        if application != 0 || objects > 0 { throw SQLiteStoreError.foreignDatabase(path: path) }
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

    /// Every record kept, oldest first.
    public func records() async throws(ScoreStoreError) -> [ScoreRecord] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, points, uploaded_at FROM score ORDER BY seq")
                .map { try Self.record($0, path: self.path) }
        }
    }

    /// Removes the records with these ids in one transaction; other ids are ignored.
    public func delete(ids: [UUID]) async throws(ScoreStoreError) {
        guard !ids.isEmpty else { return }
        try await write { db in try Self.delete(ids: ids.map(\.uuidString), in: db) }
    }

    /// Every record, with no problems: a database is read whole or not at all.
    public func read() async throws(ScoreStoreError) -> ScoreReading {
        ScoreReading(records: try await records())
    }

    /// The number of players: the largest roster position.
    public func playerCount() async throws(ScoreStoreError) -> Int {
        try await read { db in try Self.count(db) }
    }

    /// The players from `offset` in roster order, at most `limit`: a range of positions.
    public func players(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player] {
        guard limit > 0 else { return [] }
        return try await read { db in
            let connection = try SQLiteScoreStore.connection(of: db)
            // One statement: the window of players by position, each with its record ids.
            let statement = try RawStatement(
                connection,
                """
                SELECT p.id, p.name, p.points, p.uploaded_at, s.id
                FROM (SELECT id, name, points, uploaded_at, position FROM player
                      WHERE position >= ?1 ORDER BY position LIMIT ?2) AS p
                JOIN score AS s ON s.player_id = p.id
                ORDER BY p.position, s.seq
                """)
            statement.bind(1, Int64(max(offset, 0)))
            statement.bind(2, Int64(limit))
            var players: [Player] = []
            var current: (id: Int64, name: String, points: Double, time: Int64, records: [UUID])?
            while try statement.step() {
                let id = statement.int(0)
                if current?.id != id {
                    if let done = current {
                        players.append(
                            Player(
                                name: done.name, points: done.points,
                                uploadedAt: Timestamp.date(milliseconds: done.time),
                                recordIDs: done.records))
                    }
                    current = (id, statement.text(1), statement.double(2), statement.int(3), [])
                }
                let text = statement.text(4)
                guard let record = RecordID.uuid(text) else {
                    throw SQLiteStoreError.corrupt(
                        path: self.path, reason: "a score has the id \(text), which is not a UUID")
                }
                current?.records.append(record)
            }
            if let done = current {
                players.append(
                    Player(
                        name: done.name, points: done.points,
                        uploadedAt: Timestamp.date(milliseconds: done.time),
                        recordIDs: done.records))
            }
            return players
        }
    }

    /// The players of ``players(from:limit:)`` without their record ids: a range of `position`
    /// in the player table alone, so a listing of every player reads no score.
    public func playerListing(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player] {
        guard limit > 0 else { return [] }
        return try await read { db in
            let connection = try SQLiteScoreStore.connection(of: db)
            let statement = try RawStatement(
                connection,
                """
                SELECT name, points, uploaded_at FROM player
                WHERE position >= ?1 ORDER BY position LIMIT ?2
                """)
            statement.bind(1, Int64(max(offset, 0)))
            statement.bind(2, Int64(limit))
            var players: [Player] = []
            players.reserveCapacity(limit)
            while try statement.step() {
                players.append(
                    Player(
                        name: statement.text(0), points: statement.double(1),
                        uploadedAt: Timestamp.date(milliseconds: statement.int(2)), recordIDs: []))
            }
            return players
        }
    }

    /// The player whose name has the comparison key of `name`, and its index in the roster: one
    /// lookup of the key.
    public func player(named name: String) async throws(ScoreStoreError) -> (index: Int, player: Player)? {
        let key = PlayerName.comparisonKey(name)
        return try await read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT id, name, points, uploaded_at, position FROM player WHERE key = ?",
                    arguments: [key])
            else { return nil }
            return (row[4], try Self.players([row], in: db)[0])
        }
    }

    /// Removes every record of the player named `name` and moves the players after it up; nil when
    /// there is no such player.
    public func deletePlayer(named name: String) async throws(ScoreStoreError) -> Player? {
        let key = PlayerName.comparisonKey(name)
        return try await write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT id, name, points, uploaded_at, position FROM player WHERE key = ?",
                    arguments: [key])
            else { return nil }
            let player = try Self.players([row], in: db)[0]
            try Self.removePlayer(id: row[0], position: row[4], in: db)
            return player
        }
    }

    /// The revision every write transaction increments, in any process.
    public func revision() async throws(ScoreStoreError) -> UInt64 {
        try await read { db in
            UInt64(bitPattern: try Int64.fetchOne(db, sql: "SELECT revision FROM meta") ?? 0)
        }
    }

    // MARK: Writing

    /// A record made ready for the database: its id as text, its player's comparison key and
    /// its time in milliseconds, computed by whoever reads the records, so that an import does
    /// this work on another thread than the one that writes.
    struct PreparedRecord: Sendable {
        var record: ScoreRecord
        var id: String
        var key: String
        var milliseconds: Int64
        /// The line of the file the record was read from; 0 for an upload.
        var line: Int

        init(_ record: ScoreRecord, line: Int = 0) {
            self.record = record
            id = record.id.uuidString
            key = PlayerName.comparisonKey(record.name)
            milliseconds = Timestamp.milliseconds(record.uploadedAt)
            self.line = line
        }
    }

    /// A prepared insertion for many records at once, within one transaction: the statements,
    /// bound and stepped through SQLite's C interface, and the next sequence number, player id
    /// and roster position, so that an import looks nothing up twice.
    final class InsertCursor {
        var nextSeq: Int64
        var nextPosition: Int64
        private var nextPlayerID: Int64
        private let connection: OpaquePointer
        private let findScore: RawStatement
        private let findPlayer: RawStatement
        private let updatePlayer: RawStatement
        private let insertPlayer: RawStatement
        private let removeNewPlayer: RawStatement
        private let insertScore: RawStatement

        init(_ db: Database) throws {
            nextSeq = (try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(seq), 0) + 1 FROM score")) ?? 1
            nextPlayerID = (try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(id), 0) + 1 FROM player")) ?? 1
            nextPosition = Int64(try SQLiteScoreStore.count(db))
            let connection = try SQLiteScoreStore.connection(of: db)
            self.connection = connection
            findScore = try RawStatement(
                connection, "SELECT name, points, uploaded_at FROM score WHERE id = ?1")
            findPlayer = try RawStatement(connection, "SELECT id FROM player WHERE key = ?1")
            updatePlayer = try RawStatement(
                connection,
                "UPDATE player SET name = ?1, points = ?2, uploaded_at = ?3, uploads = uploads + 1 WHERE id = ?4"
            )
            insertPlayer = try RawStatement(
                connection,
                """
                INSERT INTO player (id, key, position, first_score, name, points, uploaded_at, uploads)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1)
                """)
            removeNewPlayer = try RawStatement(connection, "DELETE FROM player WHERE id = ?1")
            // The unique index on the id is searched once: by the insertion itself, which does
            // nothing when the id is kept; only then is the kept record read and compared.
            insertScore = try RawStatement(
                connection,
                """
                INSERT INTO score (seq, id, player_id, name, points, uploaded_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                ON CONFLICT (id) DO NOTHING
                """
            )
        }

        /// Reads the roster's size again, after a deletion in the same transaction.
        func refresh(_ db: Database) throws {
            nextPosition = Int64(try SQLiteScoreStore.count(db))
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
            findPlayer.bind(1, prepared.key)
            let existing: Int64? = try findPlayer.step() ? findPlayer.int(0) : nil
            findPlayer.reset()
            let playerID = existing ?? nextPlayerID
            if existing == nil {
                // The player comes first, so the score's reference to it holds.
                insertPlayer.bind(1, playerID)
                insertPlayer.bind(2, prepared.key)
                insertPlayer.bind(3, nextPosition)
                insertPlayer.bind(4, seq)
                insertPlayer.bind(5, record.name)
                insertPlayer.bind(6, record.points)
                insertPlayer.bind(7, prepared.milliseconds)
                try insertPlayer.run()
            }
            insertScore.bind(1, seq)
            insertScore.bind(2, prepared.id)
            insertScore.bind(3, playerID)
            insertScore.bind(4, record.name)
            insertScore.bind(5, record.points)
            insertScore.bind(6, prepared.milliseconds)
            try insertScore.run()
            guard sqlite3_changes(connection) == 1 else {
                // The id is kept already. A player made for this record alone goes again.
                if existing == nil {
                    removeNewPlayer.bind(1, playerID)
                    try removeNewPlayer.run()
                }
                return try isKept(prepared)
            }
            if existing != nil {
                updatePlayer.bind(1, record.name)
                updatePlayer.bind(2, record.points)
                updatePlayer.bind(3, prepared.milliseconds)
                updatePlayer.bind(4, playerID)
                try updatePlayer.run()
            } else {
                nextPlayerID += 1
                nextPosition += 1
            }
            nextSeq += 1
            return true
        }

        /// Returns false when the record kept with `prepared`'s id is the same; throws when it
        /// differs.
        private func isKept(_ prepared: PreparedRecord) throws -> Bool {
            findScore.bind(1, prepared.id)
            defer { findScore.reset() }
            guard try findScore.step() else { return false }
            let same =
                findScore.text(0) == prepared.record.name && findScore.double(1) == prepared.record.points
                && findScore.int(2) == prepared.milliseconds
            guard same else { throw SQLiteStoreError.conflictingRecord(id: prepared.id) }
            return false
        }
    }

    /// Keeps `record` in `db`'s open transaction; see ``InsertCursor/insert(_:)``.
    static func insert(_ record: ScoreRecord, into db: Database) throws -> Bool {
        try InsertCursor(db).insert(record)
    }

    /// Removes the records with `ids` in `db`'s open transaction, and brings their players up to
    /// date: a player with no record left is removed, one whose first record went moves to the
    /// place of its new first record, one whose latest went shows its new latest.
    static func delete(ids: [String], in db: Database) throws {
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
                let player = try Row.fetchOne(
                    db, sql: "SELECT position, first_score FROM player WHERE id = ?", arguments: [playerID])
            else { continue }
            let position: Int64 = player[0]
            let oldFirst: Int64 = player[1]
            guard
                let latest = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT name, points, uploaded_at FROM score WHERE player_id = ?
                        ORDER BY seq DESC LIMIT 1
                        """, arguments: [playerID])
            else {
                try removePlayer(id: playerID, position: position, in: db)
                continue
            }
            let first =
                try Int64.fetchOne(
                    db, sql: "SELECT seq FROM score WHERE player_id = ? ORDER BY seq LIMIT 1",
                    arguments: [playerID]) ?? oldFirst
            try db.execute(
                sql: """
                    UPDATE player SET name = ?, points = ?, uploaded_at = ?, uploads = uploads - ?,
                    first_score = ? WHERE id = ?
                    """,
                arguments: [latest[0], latest[1], latest[2], removed, first, playerID])
            if first != oldFirst {
                // Rare: the player's first record went, so it moves back to where its new first
                // record places it. O(players) once.
                let place =
                    try Int64.fetchOne(
                        db, sql: "SELECT count(*) FROM player WHERE first_score < ? AND id != ?",
                        arguments: [first, playerID]) ?? position
                if place != position {
                    try db.execute(
                        sql: "UPDATE player SET position = position - 1 WHERE position > ? AND position <= ?",
                        arguments: [position, place])
                    try db.execute(
                        sql: "UPDATE player SET position = ? WHERE id = ?", arguments: [place, playerID])
                }
            }
        }
        if !affected.isEmpty { try bumpRevision(db) }
    }

    /// Removes a player and (by cascade) its scores, and closes the gap in roster positions.
    static func removePlayer(id: Int64, position: Int64, in db: Database) throws {
        try db.execute(sql: "DELETE FROM player WHERE id = ?", arguments: [id])
        try db.execute(
            sql: "UPDATE player SET position = position - 1 WHERE position > ?", arguments: [position])
        try bumpRevision(db)
    }

    static func bumpRevision(_ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE meta SET revision = revision + 1").execute()
    }

    // MARK: Reading

    static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT IFNULL(MAX(position), -1) + 1 FROM player") ?? 0
    }

    /// The players of `rows` (id, name, points, uploaded_at), with their record ids.
    private static func players(_ rows: [Row], in db: Database) throws -> [Player] {
        guard !rows.isEmpty else { return [] }
        let ids: [Int64] = rows.map { $0[0] }
        var recordIDs: [Int64: [UUID]] = [:]
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ",")
        let cursor = try Row.fetchCursor(
            db, sql: "SELECT player_id, id FROM score WHERE player_id IN (\(marks)) ORDER BY player_id, seq",
            arguments: StatementArguments(ids))
        while let row = try cursor.next() {
            let text: String = row[1]
            if let id = RecordID.uuid(text) { recordIDs[row[0], default: []].append(id) }
        }
        return rows.map { row in
            Player(
                name: row[1], points: row[2], uploadedAt: Timestamp.date(milliseconds: row[3]),
                recordIDs: recordIDs[row[0]] ?? [])
        }
    }

    static func record(_ row: Row, path: String) throws -> ScoreRecord {
        let text: String = row[0]
        guard let id = RecordID.uuid(text) else {
            throw SQLiteStoreError.corrupt(
                path: path, reason: "a score has the id \(text), which is not a UUID")
        }
        return ScoreRecord(
            id: id, name: row[1], points: row[2], uploadedAt: Timestamp.date(milliseconds: row[3]))
    }

    // MARK: Access

    /// Runs `work` in one immediate write transaction that bumps the revision; returns once the
    /// transaction is committed and synced.
    func write<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws(ScoreStoreError)
        -> T
    {
        do {
            return try await access { db in
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
                var result: T?
                try db.inTransaction(.deferred) {
                    result = try work(db)
                    return .commit
                }
                return result!
            }
        } catch {
            throw .translating(error, database: path)
        }
    }

    /// Runs `work` on the connection, turning SQLite's errors into ``SQLiteStoreError``s naming
    /// the file, and a cancelled task into `CancellationError`, also while waiting for a lock.
    func access<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let busy = self.busy
        let path = self.path
        let token = busy.makeToken()
        defer { busy.forget(token) }
        return try await withTaskCancellationHandler {
            try await queue.writeWithoutTransaction { db in
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

    /// Runs `work` on the connection synchronously, for batch work off the cooperative pool.
    func accessSynchronously<T>(_ work: (Database) throws -> T) throws -> T {
        let busy = self.busy
        let path = self.path
        let token = busy.makeToken()
        return try queue.writeWithoutTransaction { db in
            busy.begin(token)
            defer { busy.end() }
            do {
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
