import PlayerFormRules
import PlayerFormScores
import PostgresNIO

extension PostgresScoreStore: DerivedRowsChecking {
    /// Checks the players and the roster's block counts against the records, in one snapshot of
    /// the league, only reading.
    ///
    /// A check of the server's own files needs an extension (amcheck) and privileges a
    /// scorekeeper does not have, so the report's `damage` stays empty. Whether a record's name belongs to
    /// its player is decided here, with the comparison key the league keys players by: every
    /// record's name is read once.
    /// - Throws: `ScoreStoreError` when the league cannot be read.
    public func check() async throws(ScoreStoreError) -> StoreCheckReport {
        try await run { connection in
            try await connection.perform(
                "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: Link.logger)
            do {
                try await connection.perform("SET LOCAL statement_timeout = 0", logger: Link.logger)
                var report = StoreCheckReport()
                for (index, (query, words)) in Self.consistencyChecks.enumerated() {
                    var count: Int64 = 0
                    for try await value in try await connection.query(query, logger: Link.logger)
                        .decode(Int64.self)
                    {
                        count = value
                    }
                    if count > 0 { report.inconsistencies.append("\(words): \(count)") }
                    // In the order the SQLite store says them: the records out of place after
                    // the players who do not show their newest.
                    if index == Self.misplacedScoresFollow {
                        let misplaced = try await Self.misplacedScores(on: connection).count
                        if misplaced > 0 {
                            report.inconsistencies.append(
                                "\(StoreInconsistency.misplacedScores): \(misplaced)")
                        }
                    }
                }
                try await connection.perform("COMMIT", logger: Link.logger)
                return report
            } catch {
                throw Link.Reset(underlying: error)
            }
        }
    }

    /// Makes the players and the block counts again from the records, in one transaction that
    /// holds every other writer back.
    ///
    /// A record whose name is another player's (or of no player) moves to the player of its
    /// name, made when there is none; then players with no record are removed, each player takes
    /// the place of its first record and shows its newest, and the block counts are counted
    /// again. The records are left as they are.
    /// - Throws: `ScoreStoreError` when the league cannot be written; nothing is changed then.
    public func rebuildDerived() async throws(ScoreStoreError) {
        try await write { connection in
            let logger = Link.logger
            // Rebuilding a large league can take longer than one operation is allowed.
            try await connection.perform("SET LOCAL statement_timeout = 0", logger: logger)
            for score in try await Self.misplacedScores(on: connection) {
                let digest = Self.digest(score.key)
                var found: Int64?
                for try await id in try await connection.query(
                    "SELECT id FROM player WHERE key_digest = \(digest)", logger: logger
                ).decode(Int64.self) { found = id }
                var owner = found ?? 0
                if found == nil {
                    // A new player, under an id no player has until every player is placed by its
                    // first record below: the negation of a seq never handed out before, where
                    // a player stepping aside takes the negation of a seq handed out earlier.
                    for try await id in try await connection.query(
                        """
                        INSERT INTO player (id, key, key_digest, name, points, uploaded_at, uploads)
                        SELECT -nextval('score_seq_seq'), \(score.key), \(digest), name, points, uploaded_at, 1
                        FROM score WHERE seq = \(score.seq)
                        RETURNING id
                        """, logger: logger
                    ).decode(Int64.self) { owner = id }
                }
                try await connection.perform(
                    "UPDATE score SET player_id = \(owner) WHERE seq = \(score.seq)", logger: logger)
            }
            for statement in Self.rebuildStatements {
                try await connection.perform(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
        } unchanged: {
            ()
        }
    }

    /// The records whose name's comparison key is not their player's key, or that have no
    /// player: their seq and the key of their name.
    private static func misplacedScores(on connection: PostgresConnection) async throws
        -> [(seq: Int64, key: String)]
    {
        var misplaced: [(seq: Int64, key: String)] = []
        for try await (seq, name, ownerKey) in try await connection.query(
            "SELECT s.seq, s.name, p.key FROM score AS s LEFT JOIN player AS p ON p.id = s.player_id",
            logger: Link.logger
        ).decode((Int64, String, String?).self) {
            let key = PlayerName.comparisonKey(name)
            if key != ownerKey { misplaced.append((seq, key)) }
        }
        return misplaced
    }

    /// The index in ``consistencyChecks`` after which the records out of place are counted.
    static let misplacedScoresFollow = 3

    /// Each check of what is derived from the records that the server can count alone, with its
    /// words: as the SQLite store's, and the digest the league looks players up by.
    static let consistencyChecks: [(PostgresQuery, String)] = [
        (
            "SELECT count(*) FROM player AS p WHERE NOT EXISTS (SELECT 1 FROM score WHERE player_id = p.id)",
            StoreInconsistency.playersWithoutScores
        ),
        (
            "SELECT count(*) FROM score AS s WHERE NOT EXISTS (SELECT 1 FROM player WHERE id = s.player_id)",
            StoreInconsistency.scoresWithoutPlayer
        ),
        (
            """
            SELECT count(*) FROM player AS p
            WHERE uploads <> (SELECT count(*) FROM score WHERE player_id = p.id)
            """,
            StoreInconsistency.wrongUploadCounts
        ),
        (
            """
            SELECT count(*) FROM player AS p
            LEFT JOIN LATERAL (
                SELECT name, points, uploaded_at FROM score WHERE player_id = p.id
                ORDER BY uploaded_at DESC, seq DESC LIMIT 1
            ) AS newest ON true
            WHERE p.id IS DISTINCT FROM (SELECT min(seq) FROM score WHERE player_id = p.id)
               OR (p.name, p.points, p.uploaded_at)
                  IS DISTINCT FROM (newest.name, newest.points, newest.uploaded_at)
            """,
            StoreInconsistency.wrongShownScore
        ),
        (
            """
            SELECT count(*) FROM (
                SELECT id >> 12 AS block, count(*) AS players FROM player GROUP BY 1
            ) AS counted
            FULL JOIN roster_block AS kept USING (block)
            WHERE counted.players IS DISTINCT FROM kept.players
            """,
            StoreInconsistency.wrongBlockCounts
        ),
        (
            "SELECT count(*) FROM player WHERE key_digest <> sha256(convert_to(key, 'UTF8'))",
            StoreInconsistency.wrongKeyDigests
        ),
    ]

    /// After the misplaced records have moved: the rest of the rebuild, set by set.
    static let rebuildStatements: [String] = [
        "DELETE FROM player AS p WHERE NOT EXISTS (SELECT 1 FROM score WHERE player_id = p.id)",
        // Every player not placed by its first record steps aside to a negative id first, so
        // that no two players hold one id on the way (a player placed by its first record holds
        // a seq of its own, which no other player's first record can be).
        """
        UPDATE player AS p SET id = -p.id
        WHERE p.id > 0 AND p.id <> (SELECT min(seq) FROM score WHERE player_id = p.id)
        """,
        """
        UPDATE player AS p SET id = first.seq
        FROM (SELECT player_id, min(seq) AS seq FROM score GROUP BY player_id) AS first
        WHERE first.player_id = p.id AND p.id < 0
        """,
        """
        UPDATE player AS p SET name = newest.name, points = newest.points,
            uploaded_at = newest.uploaded_at, uploads = newest.uploads
        FROM (
            SELECT DISTINCT ON (player_id) player_id, name, points, uploaded_at,
                count(*) OVER (PARTITION BY player_id) AS uploads
            FROM score ORDER BY player_id, uploaded_at DESC, seq DESC
        ) AS newest
        WHERE newest.player_id = p.id
          AND (p.name, p.points, p.uploaded_at, p.uploads)
              IS DISTINCT FROM (newest.name, newest.points, newest.uploaded_at, newest.uploads)
        """,
        """
        UPDATE player SET key_digest = sha256(convert_to(key, 'UTF8'))
        WHERE key_digest <> sha256(convert_to(key, 'UTF8'))
        """,
        "DELETE FROM roster_block",
        "INSERT INTO roster_block (block, players) SELECT id >> 12, count(*) FROM player GROUP BY 1",
    ]
}
