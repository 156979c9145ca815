import Crypto
import Foundation
import PlayerFormRules
import PlayerFormScores
import PostgresNIO

/// The score store on a PostgreSQL server: one league shared by scorekeepers on many machines.
///
/// - The schema is its own, versioned in `schema_version` and brought up to date on the first
///   connection, under `pg_advisory_xact_lock`, so two clients connecting at once migrate once.
/// - A player is a row of `player`, keyed by `PlayerName.comparisonKey(_:)` computed here, as
///   the SQLite store keys it, and unique by the SHA-256 of that key (`digest(_:)`), so that a
///   key of any length is indexed. Its id is the `seq` of its first record, so the table's
///   own order is the roster's (order of first record), and `roster_block` counts the players of
///   each block of 4,096 ids. A page is the block that holds its first index, then a range of
///   ids; a name is one index lookup; the count is the sum of the blocks: O(log n) or O(rows
///   shown), plus a read of the block counts (a row per 4,096 records). The roster asks for pages
///   by offset and for the place of a named player, which keyset pages cannot answer without
///   counting. Deleting a player removes its rows and decrements one block: O(its records).
/// - Every write transaction first bumps the one row of `meta`, which orders writers: `seq`
///   follows commit order, and ``revision()`` changes after every write by any client.
/// - An upload is one statement, a call of the schema's `playerform_keep_record`, which keeps the
///   record unless its id is kept; when the connection is lost before the answer, the upload is
///   sent once more with the same id, so it is kept once. An import copies each batch into a
///   temporary table (`COPY ... FROM STDIN`) and keeps it with one call of `playerform_keep_staged`.
/// - Every write transaction also sends `NOTIFY playerform` with its schema, delivered at commit;
///   the store's connection listens, and ``changes(fallbackInterval:)`` yields when one arrives,
///   so that an idle view learns of another client's change at once. After a lost connection it
///   falls back to polling until the next connection listens.
/// - The connection is made on first use. A read, an upload or an import whose connection turns
///   out to be lost is sent once more on a new connection (each is safe to repeat); a deletion
///   fails with `ScoreStoreError.connectionLost(_:)`, and the next operation connects again.
///   Each statement is limited by `statement_timeout`.
public final class PostgresScoreStore: ScoreStore, Sendable {
    /// Where the league is.
    public let location: PostgresLocation
    let link: Link
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID

    /// The schema version this program writes.
    public static let schemaVersion = 5

    /// A player's block in `roster_block` is its id shifted right by this: 4,096 records a block
    /// (the queries that read the blocks write it as 12).
    static let blockShift: Int64 = 12

    /// A store on the league at `location`; nothing is connected until ``open()`` or the first
    /// operation.
    ///
    /// - Parameters:
    ///   - location: the server, database and user of the league.
    ///   - password: the password, when the server asks for one (see
    ///     ``PostgresLocation/password(warn:)``).
    ///   - schema: the PostgreSQL schema holding the tables, made when missing.
    ///   - statementTimeout: how long the server lets one statement run.
    ///   - applicationName: how the connection is named in the server's `pg_stat_activity`, when
    ///     not as `location` says.
    ///   - now: the clock that stamps uploads.
    ///   - makeID: makes the identifier of each record.
    public init(
        location: PostgresLocation, password: String?, schema: String = "public",
        statementTimeout: Duration = .seconds(30), applicationName: String? = nil,
        now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> UUID = { UUID() }
    ) {
        self.location = location
        self.now = now
        self.makeID = makeID
        link = Link(
            location: location, password: password, schema: schema, statementTimeout: statementTimeout,
            applicationName: applicationName ?? location.applicationName)
    }

    /// Connects and brings the schema up to date, so that a server that cannot be reached is
    /// reported at once.
    /// - Throws: `ScoreStoreError`.
    public func open() async throws(ScoreStoreError) {
        try await run { _ in }
    }

    /// Closes the connection; the next operation opens another.
    public func close() async {
        await link.close()
    }

    // MARK: ScoreStore

    /// Keeps a record of `name` and `points` on the server; a record sent again after a lost
    /// connection is kept once.
    public func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
        guard points.isFinite else { throw .notFinite(points: points) }
        let record = ScoreRecord(
            id: makeID(), name: name, points: points, uploadedAt: Timestamp.rounded(now()))
        return try await typed {
            do {
                try await insert(record)
            } catch PostgresStoreError.connectionLost {
                // The record may or may not have been kept: send it again; its id keeps it once.
                try await insert(record)
            }
            return record
        }
    }

    /// Keeps `record` unless a record with its id is kept, in one round trip: the statement is
    /// its own transaction.
    /// - Throws: `ScoreStoreError.conflictingRecord(id:)` when a different record has its id.
    private func insert(_ record: ScoreRecord) async throws {
        let milliseconds = Timestamp.milliseconds(record.uploadedAt)
        let key = PlayerName.comparisonKey(record.name)
        let schema = link.schema
        _ = try await link.run { connection in
            try await Self.insert(
                record, key: key, milliseconds: milliseconds, on: connection, schema: schema,
                logger: Link.logger)
        }
    }

    /// Keeps the records of `batch` as they are, and applies its deletions in order, in one
    /// transaction; see `ScoreStore.keep(_:)`.
    ///
    /// When the server refuses a record (which undoes the transaction), the batch is kept again a
    /// record at a time, each in a transaction of its own, and only the refused ones are left out
    /// (`KeptBatch.refused`).
    public func keep(_ batch: RecordBatch) async throws(ScoreStoreError) -> KeptBatch {
        if let bad = batch.records.first(where: { !$0.points.isFinite }) {
            throw .notFinite(points: bad.points)
        }
        do {
            return try await typed {
                let link = self.link
                @Sendable func attempt() async throws -> KeptBatch {
                    try await link.write { connection in
                        try await Self.keep(batch, on: connection, schema: link.schema)
                    } unchanged: {
                        KeptBatch()
                    }
                }
                do {
                    return try await attempt()
                } catch PostgresStoreError.connectionLost {
                    // Kept or not, the batch is sent again, as an upload is: its records' ids
                    // keep each once (those the first attempt kept count as already kept).
                    return try await attempt()
                }
            }
        } catch .failed(.server, let code, _) where code != Self.insufficientPrivilege {
            return try await keepOneByOne(batch)
        }
    }

    /// The SQLSTATE of a privilege the user lacks: every record would be refused alike, so the
    /// import ends with it.
    static let insufficientPrivilege = "42501"

    /// 10,000 records per transaction, each batch copied at once: a league import's progress and
    /// Ctrl-C are never more than a second away.
    public var keepBatchSize: Int { 10_000 }

    /// Keeps the records of `batch` and applies its deletions in order, in the open transaction:
    /// the records between two deletions are copied into the session's staging table
    /// (`COPY ... FROM STDIN`) and kept by one call of `playerform_keep_staged()`, which counts
    /// the records kept and says which were kept already or conflict.
    private static func keep(_ batch: RecordBatch, on connection: PostgresConnection, schema: String)
        async throws -> KeptBatch
    {
        var result = KeptBatch()
        try await connection.perform(PostgresQuery(unsafeSQL: Migrations.stagingTable), logger: Link.logger)
        var start = 0
        var next = 0
        while true {
            while next < batch.deletions.count, batch.deletions[next].position == start {
                result.deleted += try await delete(ids: batch.deletions[next].ids, on: connection)
                next += 1
            }
            guard start < batch.count else { break }
            let end = next < batch.deletions.count ? batch.deletions[next].position : batch.count
            try await stage(batch, start..<end, on: connection)
            for try await (position, outcome) in try await connection.query(
                "SELECT position_in_batch, outcome FROM playerform_keep_staged()", logger: Link.logger
            ).decode((Int, Int).self) {
                if position < 0 {
                    result.added += outcome
                } else if outcome == 1 {
                    result.alreadyKept += 1
                } else {
                    result.conflicting.append(start + position)
                }
            }
            start = end
        }
        result.conflicting.sort()
        guard result.added > 0 || result.deleted > 0 else { throw Link.Unchanged(result: result) }
        return result
    }

    /// Copies the records of `batch` in `range` into the staging table, a megabyte at a time, in
    /// `COPY`'s text format; each row's `pos` is its place in `range`.
    private static func stage(_ batch: RecordBatch, _ range: Range<Int>, on connection: PostgresConnection)
        async throws
    {
        try await connection.copyFrom(
            table: "playerform_staged",
            columns: ["pos", "id", "name", "key", "digest", "points", "uploaded_at"],
            logger: Link.logger
        ) { writer in
            var buffer = ByteBuffer()
            buffer.reserveCapacity(1 << 20)
            for position in range {
                let record = batch.records[position]
                let key = batch.keys[position]
                buffer.writeString("\(position - range.lowerBound)\t\(record.id.uuidString)\t")
                CopyText.write(record.name, to: &buffer)
                buffer.writeString("\t")
                CopyText.write(key, to: &buffer)
                buffer.writeString("\t\\\\x")
                for byte in digest(key).readableBytesView {
                    buffer.writeInteger(CopyText.hexDigits[Int(byte >> 4)])
                    buffer.writeInteger(CopyText.hexDigits[Int(byte & 0x0F)])
                }
                buffer.writeString(
                    "\t\(record.points)\t\(Timestamp.milliseconds(record.uploadedAt))\n")
                if buffer.readableBytes >= 1 << 20 {
                    try await writer.write(buffer)
                    buffer.clear()
                }
            }
            if buffer.readableBytes > 0 { try await writer.write(buffer) }
        }
    }

    /// Keeps `batch` a record (and a deletion) at a time, each in a transaction of its own.
    private func keepOneByOne(_ batch: RecordBatch) async throws(ScoreStoreError) -> KeptBatch {
        var result = KeptBatch()
        var position = 0
        var next = 0
        while position <= batch.count {
            while next < batch.deletions.count, batch.deletions[next].position == position {
                let ids = batch.deletions[next].ids
                result.deleted += try await typed {
                    try await link.write { connection in
                        let removed = try await Self.delete(ids: ids, on: connection)
                        guard removed > 0 else { throw Link.Unchanged() }
                        return removed
                    } unchanged: {
                        0
                    }
                }
                next += 1
            }
            guard position < batch.count else { break }
            var one = RecordBatch()
            one.append(batch.records[position], key: batch.keys[position])
            let single = one
            do {
                let kept = try await typed {
                    try await link.write { connection in
                        try await Self.keep(single, on: connection, schema: link.schema)
                    } unchanged: {
                        KeptBatch()
                    }
                }
                result.added += kept.added
                result.alreadyKept += kept.alreadyKept
                if !kept.conflicting.isEmpty { result.conflicting.append(position) }
            } catch .failed(.server, let code, let message) where code != Self.insufficientPrivilege {
                result.refused.append(
                    .init(
                        position: position,
                        error: .failed(.server(endpoint: location.endpoint), code: code, message: message)))
            }
            position += 1
        }
        return result
    }

    /// Keeps `record` unless a record with its id is kept, in one statement (one round trip).
    ///
    /// See `Migrations.keepRecordFunction`. In a transaction of the caller's, the record is kept
    /// with it.
    /// - Returns: true when kept, false when the same record was kept already.
    /// - Throws: `PostgresStoreError.conflictingRecord(id:)` when a different record has its id.
    static func insert(
        _ record: ScoreRecord, key: String, milliseconds: Int64, on connection: PostgresConnection,
        schema: String, logger: Logger
    ) async throws -> Bool {
        let id = record.id
        let (name, points) = (record.name, record.points)
        var outcome = -1
        for try await answer in try await connection.query(
            """
            SELECT playerform_keep_record(\(id), \(name), \(key), \(Self.digest(key)), \(points),
                \(milliseconds), \(ChangeFeed.channel), \(schema))
            """, logger: logger
        ).decode(Int.self) { outcome = answer }
        switch outcome {
        case 0: return true
        case 1: return false
        default: throw PostgresStoreError.conflictingRecord(id: id.uuidString)
        }
    }

    /// Every record kept, oldest first: by time, records of the same time in the order kept.
    public func records() async throws(ScoreStoreError) -> [ScoreRecord] {
        try await run { connection in
            var records: [ScoreRecord] = []
            for try await (id, name, points, time) in try await connection.query(
                "SELECT id, name, points, uploaded_at FROM score ORDER BY uploaded_at, seq",
                logger: Link.logger
            ).decode((UUID, String, Double, Int64).self) {
                records.append(
                    ScoreRecord(
                        id: id, name: name, points: points, uploadedAt: Timestamp.date(milliseconds: time)))
            }
            return records
        }
    }

    /// Removes the records with these ids in one transaction; other ids are ignored.
    public func delete(ids: [UUID]) async throws(ScoreStoreError) {
        guard !ids.isEmpty else { return }
        try await write { connection in
            guard try await Self.delete(ids: ids, on: connection) > 0 else { throw Link.Unchanged() }
        } unchanged: {
            ()
        }
    }

    /// Removes the records with `ids` in the open transaction and brings their players up to
    /// date, as the SQLite store does; returns how many records were removed.
    static func delete(ids: [UUID], on connection: PostgresConnection) async throws -> Int {
        let logger = Link.logger
        var affected: [Int64: Int] = [:]
        for id in ids {
            for try await playerID in try await connection.query(
                "DELETE FROM score WHERE id = \(id) RETURNING player_id", logger: logger
            ).decode(Int64.self) { affected[playerID, default: 0] += 1 }
        }
        for (playerID, removed) in affected.sorted(by: { $0.key < $1.key }) {
            var latest: (String, Double, Int64)?
            for try await row in try await connection.query(
                """
                SELECT name, points, uploaded_at FROM score WHERE player_id = \(playerID)
                ORDER BY uploaded_at DESC, seq DESC LIMIT 1
                """,
                logger: logger
            ).decode((String, Double, Int64).self) { latest = row }
            guard let (name, points, time) = latest else {
                try await removePlayer(id: playerID, on: connection)
                continue
            }
            var first = playerID
            for try await seq in try await connection.query(
                "SELECT seq FROM score WHERE player_id = \(playerID) ORDER BY seq LIMIT 1", logger: logger
            ).decode(Int64.self) { first = seq }
            let removedCount = Int64(removed)
            try await connection.perform(
                """
                UPDATE player SET name = \(name), points = \(points), uploaded_at = \(time),
                    uploads = uploads - \(removedCount) WHERE id = \(playerID)
                """, logger: logger)
            guard first != playerID else { continue }
            // The player's first record went: it moves to the place of its new first record,
            // taking that record's seq as its id (its scores follow, ON UPDATE CASCADE).
            try await connection.perform(
                "UPDATE player SET id = \(first) WHERE id = \(playerID)", logger: logger)
            try await count(players: -1, inBlockOf: playerID, on: connection)
            try await count(players: 1, inBlockOf: first, on: connection)
        }
        return affected.values.reduce(0, +)
    }

    /// Removes a player and (by cascade) its scores, and takes it off its block's count.
    static func removePlayer(id: Int64, on connection: PostgresConnection) async throws {
        try await connection.perform("DELETE FROM player WHERE id = \(id)", logger: Link.logger)
        try await count(players: -1, inBlockOf: id, on: connection)
    }

    /// Adds `players` (negative to take away) to the count of the block of id `id`; a block left
    /// with no player has no row.
    static func count(players: Int64, inBlockOf id: Int64, on connection: PostgresConnection) async throws {
        let block = id >> blockShift
        try await connection.perform(
            """
            INSERT INTO roster_block AS b (block, players) VALUES (\(block), \(players))
            ON CONFLICT (block) DO UPDATE SET players = b.players + EXCLUDED.players
            """, logger: Link.logger)
        if players < 0 {
            try await connection.perform(
                "DELETE FROM roster_block WHERE block = \(block) AND players = 0", logger: Link.logger)
        }
    }

    /// The number of players: the sum of the block counts.
    public func playerCount() async throws(ScoreStoreError) -> Int {
        try await run { connection in
            var count: Int64 = 0
            for try await value in try await connection.query(
                "SELECT coalesce(sum(players), 0)::bigint FROM roster_block", logger: Link.logger
            ).decode(Int64.self) { count = value }
            return Int(count)
        }
    }

    /// The players from `offset` in roster order, at most `limit`: the window of
    /// ``rosterWindow(from:limit:)``, whose revision and count cost a read of one row and of the
    /// block counts that finding the window reads anyway.
    public func players(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player] {
        guard limit > 0 else { return [] }
        return try await rosterWindow(from: offset, limit: limit).players
    }

    /// The revision, the count and the players from `offset` in roster order, at most `limit`, in
    /// one statement, so in one snapshot of the league and one round trip: the block that holds
    /// `offset`, from the running sum of the block counts, then a range of ids, with their record
    /// ids; the league's one row of `meta` joined to those rows, when there are any.
    public func rosterWindow(from offset: Int, limit: Int) async throws(ScoreStoreError) -> RosterWindow {
        let start = Int64(max(offset, 0))
        let count = Int64(max(limit, 0))
        return try await run { connection in
            var revision: Int64 = 0
            var total: Int64 = 0
            var players: [Player] = []
            var current: (id: Int64, name: String, points: Double, time: Int64, key: String, records: [UUID])?
            func finish() {
                guard let done = current else { return }
                players.append(
                    Player(
                        name: done.name, points: done.points,
                        uploadedAt: Timestamp.date(milliseconds: done.time), recordIDs: done.records,
                        key: done.key))
            }
            let rows = try await connection.query(
                """
                WITH block AS (
                    SELECT block, players, sum(players) OVER (ORDER BY block) - players AS before
                    FROM roster_block
                ), here AS (
                    SELECT block << 12 AS first, \(start) - before AS skip FROM block
                    WHERE before + players > \(start) ORDER BY block LIMIT 1
                ), page AS (
                    SELECT p.id, p.name, p.points, p.uploaded_at, p.key, s.id AS record, s.seq
                    FROM (SELECT id, name, points, uploaded_at, key FROM player
                          WHERE id >= (SELECT first FROM here) ORDER BY id
                          LIMIT \(count) OFFSET (SELECT skip FROM here)) AS p
                    JOIN score AS s ON s.player_id = p.id
                )
                SELECT m.revision, (SELECT coalesce(sum(players), 0) FROM roster_block)::bigint,
                    page.id, page.name, page.points, page.uploaded_at, page.key, page.record
                FROM meta AS m LEFT JOIN page ON true
                ORDER BY page.id, page.seq
                """, logger: Link.logger
            ).decode((Int64, Int64, Int64?, String?, Double?, Int64?, String?, UUID?).self)
            for try await (kept, counted, id, name, points, time, key, record) in rows {
                revision = kept
                total = counted
                guard let id, let name, let points, let time, let key, let record else { continue }
                if current?.id != id {
                    finish()
                    current = (id, name, points, time, key, [])
                }
                current?.records.append(record)
            }
            finish()
            return RosterWindow(
                revision: UInt64(bitPattern: revision), playerCount: Int(total), players: players)
        }
    }

    /// The player whose name has the comparison key of `name`, and its index in the roster: one
    /// lookup of the key.
    public func player(named name: String) async throws(ScoreStoreError) -> (index: Int, player: Player)? {
        let key = PlayerName.comparisonKey(name)
        let found = try await run { connection in
            try await Self.player(key: key, on: connection)
        }
        return found.map { (index: $0.index, player: $0.player) }
    }

    /// The players whose key starts with that of `text`: one statement, a range of the index of
    /// the keys' first 64 characters (a key of any length is indexed that
    /// way), each player's place counted through the blocks.
    public func players(startingWith text: String, limit: Int) async throws(ScoreStoreError) -> [(
        index: Int, player: Player
    )] {
        guard limit > 0 else { return [] }
        let prefix = PlayerName.comparisonKey(text)
        var indexed = ""
        indexed.unicodeScalars.append(contentsOf: prefix.unicodeScalars.prefix(Self.indexedKeyLength))
        // Without an upper bound, every key from the prefix on starts with it.
        let upper = NamePrefix.upperBound(of: indexed) ?? String(repeating: "\u{10FFFF}", count: 65)
        let query: PostgresQuery = """
            SELECT p.id, p.name, p.points, p.uploaded_at,
                (SELECT coalesce(sum(players), 0) FROM roster_block WHERE block < p.id >> 12)::bigint
                    + (SELECT count(*) FROM player AS q WHERE q.id >= (p.id >> 12) << 12 AND q.id < p.id),
                p.key
            FROM player AS p
            WHERE left(p.key, 64) COLLATE "C" >= \(indexed) AND left(p.key, 64) COLLATE "C" < \(upper)
                AND starts_with(p.key, \(prefix))
            ORDER BY left(p.key, 64) COLLATE "C", p.key COLLATE "C"
            LIMIT \(Int64(limit))
            """
        return try await run { connection in
            var found: [(index: Int, player: Player)] = []
            for try await (_, name, points, time, place, key) in try await connection.query(
                query, logger: Link.logger
            ).decode((Int64, String, Double, Int64, Int64, String).self) {
                found.append(
                    (
                        Int(place),
                        Player(
                            name: name, points: points, uploadedAt: Timestamp.date(milliseconds: time),
                            recordIDs: [], key: key)
                    ))
            }
            return found
        }
    }

    /// How many characters of a key the index that ``players(startingWith:limit:)`` reads holds:
    /// few enough that any key's prefix fits in a B-tree entry.
    static let indexedKeyLength = 64

    /// Removes every record of the player named `name`, including records other clients kept
    /// since this one last looked; nil when there is no such player.
    public func deletePlayer(named name: String) async throws(ScoreStoreError) -> Player? {
        let key = PlayerName.comparisonKey(name)
        return try await write { connection in
            guard let found = try await Self.player(key: key, on: connection, locking: true) else {
                throw Link.Unchanged()
            }
            try await Self.removePlayer(id: found.id, on: connection)
            return found.player
        } unchanged: {
            nil
        }
    }

    /// The revision every write transaction increments, in any process.
    public func revision() async throws(ScoreStoreError) -> UInt64 {
        try await run { connection in
            var revision: Int64 = 0
            for try await value in try await connection.query(
                "SELECT revision FROM meta", logger: Link.logger
            ).decode(Int64.self) { revision = value }
            return UInt64(bitPattern: revision)
        }
    }

    /// Yields whenever a client (this one included) kept a change to the league, as soon as the
    /// server's notification arrives: every write transaction sends `NOTIFY` at commit, and this
    /// store's connection listens; a view waiting idle asks ``revision()`` then, instead of asking
    /// again and again.
    ///
    /// While the connection does not listen (before it is made, after it was
    /// lost), the stream yields every `fallbackInterval` instead, so that a caller asking for the
    /// revision connects again, which listens again. Ends when the caller stops iterating.
    public func changes(fallbackInterval: Duration = .seconds(1)) -> AsyncStream<Void> {
        let feed = link.feed
        return AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let heard = feed.subscribe()
            let forwarding = Task {
                for await _ in heard { continuation.yield() }
            }
            let polling = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: fallbackInterval)
                    if !feed.isListening { continuation.yield() }
                }
            }
            continuation.onTermination = { _ in
                forwarding.cancel()
                polling.cancel()
            }
        }
    }

    /// Whether this store's connection listens for the notifications of changes now.
    public var isListening: Bool { link.feed.isListening }

    /// How many notifications of changes to this league the connection heard; those of leagues in
    /// other schemas of the same database are not counted, and wake no one.
    var notificationsHeard: Int { link.feed.heardCount }

    /// How many records the league keeps.
    public func recordCount() async throws(ScoreStoreError) -> Int {
        try await run { connection in
            var count: Int64 = 0
            for try await value in try await connection.query(
                "SELECT count(*) FROM score", logger: Link.logger
            ).decode(Int64.self) { count = value }
            return Int(count)
        }
    }

    /// The SHA-256 of `key`'s UTF-8: what a player is unique by and looked up by, since a key
    /// may be longer than an index entry can be.
    static func digest(_ key: String) -> ByteBuffer {
        ByteBuffer(bytes: SHA256.hash(data: Array(key.utf8)))
    }

    // MARK: Reading

    /// The player with `key`, its id and its index in the roster; when `locking`, its row is
    /// locked for the transaction and the index is not counted (0).
    private static func player(key: String, on connection: PostgresConnection, locking: Bool = false)
        async throws -> (id: Int64, index: Int, player: Player)?
    {
        // The place, counted once: the players of the blocks before the player's own, and those
        // of its own block before it.
        let query: PostgresQuery =
            locking
            ? """
            SELECT p.id, p.name, p.points, p.uploaded_at, 0::bigint, s.id
            FROM player AS p JOIN score AS s ON s.player_id = p.id
            WHERE p.key_digest = \(Self.digest(key)) ORDER BY s.seq FOR UPDATE OF p
            """
            : """
            WITH p AS (
                SELECT p.id, p.name, p.points, p.uploaded_at,
                    (SELECT coalesce(sum(players), 0) FROM roster_block WHERE block < p.id >> 12)::bigint
                        + (SELECT count(*) FROM player AS q WHERE q.id >= (p.id >> 12) << 12 AND q.id < p.id)
                        AS place
                FROM player AS p WHERE p.key_digest = \(Self.digest(key))
            )
            SELECT p.id, p.name, p.points, p.uploaded_at, p.place, s.id
            FROM p JOIN score AS s ON s.player_id = p.id
            ORDER BY s.seq
            """
        return try await players(query, key: key, on: connection).first.map {
            (id: $0.id, index: Int($0.index), player: $0.player)
        }
    }

    /// The players of rows (id, name, points, uploaded_at, index in the roster or 0 where not
    /// asked for, record id), grouped by id, all of them with the comparison key `key`.
    private static func players(_ query: PostgresQuery, key: String, on connection: PostgresConnection)
        async throws -> [(id: Int64, index: Int64, player: Player)]
    {
        var players: [(id: Int64, index: Int64, player: Player)] = []
        var current: (id: Int64, name: String, points: Double, time: Int64, index: Int64, records: [UUID])?
        func finish() {
            guard let done = current else { return }
            players.append(
                (
                    done.id, done.index,
                    Player(
                        name: done.name, points: done.points,
                        uploadedAt: Timestamp.date(milliseconds: done.time),
                        recordIDs: done.records, key: key)
                ))
        }
        for try await (id, name, points, time, index, record) in try await connection.query(
            query, logger: Link.logger
        ).decode((Int64, String, Double, Int64, Int64, UUID).self) {
            if current?.id != id {
                finish()
                current = (id, name, points, time, index, [])
            }
            current?.records.append(record)
        }
        finish()
        return players
    }

}

/// The text format of `COPY`: a backslash, tab, newline or carriage return in a value is written
/// as an escape.
enum CopyText {
    static let hexDigits = Array("0123456789abcdef".utf8)

    /// Writes `text` with its escapes to `buffer`.
    static func write(_ text: String, to buffer: inout ByteBuffer) {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
            buffer.writeString(text)
            return
        }
        for byte in utf8 {
            switch byte {
            case 0x5C: buffer.writeStaticString("\\\\")
            case 0x09: buffer.writeStaticString("\\t")
            case 0x0A: buffer.writeStaticString("\\n")
            case 0x0D: buffer.writeStaticString("\\r")
            default: buffer.writeInteger(byte)
            }
        }
    }
}
