import Foundation
import GRDB
import PlayerFormRules
import PlayerFormScores

extension SQLiteScoreStore: DerivedRowsChecking {
    /// Checks the database, only reading.
    ///
    /// SQLite's integrity check first, then the players and the roster's block counts against
    /// the scores they are made from.
    /// - Throws: `ScoreStoreError` when the database cannot be read.
    public func check() throws(ScoreStoreError) -> StoreCheckReport {
        try accessSynchronously { db in
            var report = StoreCheckReport()
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            if integrity != ["ok"] {
                report.damage = integrity
                return report
            }
            // The key of a score's name, to find a score kept under another player's key.
            db.add(
                function: DatabaseFunction("playerform_key", argumentCount: 1, pure: true) { values in
                    Data.fromDatabaseValue(values[0]).map {
                        PlayerName.comparisonKey(String(decoding: $0, as: UTF8.self))
                    }
                })
            for (sql, words) in Self.consistencyChecks {
                let count = try Int.fetchOne(db, sql: sql) ?? 0
                if count > 0 { report.inconsistencies.append("\(words): \(count)") }
            }
            return report
        }
    }

    /// Makes the players and the block counts again from the scores, in one transaction.
    ///
    /// As opening a database whose name rule changed does: O(records) once. The scores are left
    /// as they are.
    /// - Throws: `ScoreStoreError` when the database cannot be written; nothing is changed.
    public func rebuildDerived() throws(ScoreStoreError) {
        try accessSynchronously { db in
            try db.inTransaction(.immediate) {
                try Self.rebuildPlayers(db)
                try Self.bumpRevision(db)
                return .commit
            }
        }
    }

    /// Each check of what is derived from the scores: a statement counting what is wrong, and
    /// what it counts, in words.
    static let consistencyChecks: [(String, String)] = [
        (
            "SELECT count(*) FROM player AS p WHERE NOT EXISTS (SELECT 1 FROM score WHERE player_id = p.id)",
            StoreInconsistency.playersWithoutScores
        ),
        (
            "SELECT count(*) FROM score AS s WHERE NOT EXISTS (SELECT 1 FROM player WHERE id = s.player_id)",
            StoreInconsistency.scoresWithoutPlayer
        ),
        (
            "SELECT count(*) FROM player AS p WHERE uploads != (SELECT count(*) FROM score WHERE player_id = p.id)",
            StoreInconsistency.wrongUploadCounts
        ),
        (
            """
            SELECT count(*) FROM player AS p
            WHERE id != (SELECT min(seq) FROM score WHERE player_id = p.id)
               OR (name, points, uploaded_at) IS NOT (
                   SELECT name, points, uploaded_at FROM score WHERE player_id = p.id
                   ORDER BY uploaded_at DESC, seq DESC LIMIT 1)
            """,
            StoreInconsistency.wrongShownScore
        ),
        (
            """
            SELECT count(*) FROM score AS s JOIN player AS p ON p.id = s.player_id
            WHERE playerform_key(CAST(s.name AS BLOB)) IS NOT p.key
            """,
            StoreInconsistency.misplacedScores
        ),
        (
            """
            SELECT count(*) FROM (
                SELECT id >> \(blockShift) AS block, count(*) AS players FROM player GROUP BY 1
            ) AS counted
            FULL JOIN roster_block AS kept USING (block)
            WHERE counted.players IS NOT kept.players
            """,
            StoreInconsistency.wrongBlockCounts
        ),
    ]
}
