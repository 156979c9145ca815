import Foundation
import GRDB
import GRDBSQLite
import PlayerFormRules
import PlayerFormScores
import Synchronization

extension SQLiteScoreStore {
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
}
