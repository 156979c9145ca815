import Foundation
import GRDB
import GRDBSQLite
import PlayerFormRules
import PlayerFormScores
import Synchronization

extension SQLiteScoreStore {
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
        // Two statements that need no sort, in the caller's transaction: the window of players
        // by row id, then the record ids of that range of row ids in the order of the score
        // index. One statement joining them sorted whole rows, names and keys too, in a
        // temporary B-tree: megabytes written to a temporary file for a page of long names.
        let window = try RawStatement(
            connection,
            """
            SELECT id, name, points, uploaded_at, key FROM player
            WHERE id >= ?1 ORDER BY id LIMIT ?2 OFFSET ?3
            """)
        window.bind(1, start.from)
        window.bind(2, Int64(limit))
        window.bind(3, start.skip)
        var rows: [(id: Int64, name: String, points: Double, time: Int64, key: String)] = []
        while try window.step() {
            rows.append((window.int(0), window.text(1), window.double(2), window.int(3), window.text(4)))
        }
        guard let first = rows.first?.id, let last = rows.last?.id else { return [] }
        let scores = try RawStatement(
            connection,
            "SELECT player_id, id FROM score WHERE player_id BETWEEN ?1 AND ?2 ORDER BY player_id, seq")
        scores.bind(1, first)
        scores.bind(2, last)
        var players: [Player] = []
        players.reserveCapacity(rows.count)
        var next = 0
        var records: [UUID] = []
        func finish() {
            let row = rows[next]
            next += 1
            // A player with no record left (only another program leaves one) is not shown.
            guard !records.isEmpty else { return }
            players.append(
                Player(
                    name: row.name, points: row.points, uploadedAt: Timestamp.date(milliseconds: row.time),
                    recordIDs: records, key: row.key))
            records = []
        }
        while try scores.step() {
            let owner = scores.int(0)
            // The players before this record's have all their records: rows are in id order.
            while next < rows.count, rows[next].id < owner { finish() }
            // A record of no player (only another program leaves one) is not shown.
            guard next < rows.count, rows[next].id == owner else { continue }
            guard let record = scores.uuid(1) else {
                throw SQLiteStoreError.corrupt(path: path, reason: "a score's id is not 16 bytes")
            }
            records.append(record)
        }
        while next < rows.count { finish() }
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

    /// The players whose key starts with that of `text`: a range of the key's index, each
    /// player's place counted through the blocks, so the cost grows with the rows returned.
    public func players(startingWith text: String, limit: Int) async throws(ScoreStoreError) -> [(
        index: Int, player: Player
    )] {
        guard limit > 0 else { return [] }
        let prefix = PlayerName.comparisonKey(text)
        let upper = NamePrefix.upperBound(of: prefix)
        return try await read { db in
            let connection = try SQLiteScoreStore.connection(of: db)
            // Two plain ranges, so that the index's scan stops at the bound.
            let statement = try RawStatement(
                connection,
                "SELECT id, name, points, uploaded_at, key FROM player WHERE key >= ?1"
                    + (upper == nil ? "" : " AND key < ?3") + " ORDER BY key LIMIT ?2")
            statement.bind(1, prefix)
            statement.bind(2, Int64(limit))
            if let upper { statement.bind(3, upper) }
            var found: [(id: Int64, player: Player)] = []
            while try statement.step() {
                found.append(
                    (
                        statement.int(0),
                        Player(
                            name: statement.text(1), points: statement.double(2),
                            uploadedAt: Timestamp.date(milliseconds: statement.int(3)), recordIDs: [],
                            key: statement.text(4))
                    ))
            }
            return try found.map { (index: try Self.index(ofPlayer: $0.id, in: db), player: $0.player) }
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
}
