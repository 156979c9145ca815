import Foundation
import GRDB
import GRDBSQLite
import PlayerFormRules
import PlayerFormScores
import Synchronization

extension SQLiteScoreStore {
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
    static func refuseForeign(_ connection: OpaquePointer, path: String) throws {
        let application = try RawStatement.integer(connection, "PRAGMA application_id") ?? 0
        if application == applicationID { return }
        let objects = try RawStatement.integer(connection, "SELECT count(*) FROM sqlite_master") ?? 0
        if application != 0 || objects > 0 {
            throw SQLiteStoreError.notAStore(path: path, holds: .otherProgramsDatabase)
        }
    }

    /// Refuses a database of another program, or of a newer schema (one that applied a migration
    /// this version does not know, as GRDB's `hasBeenSuperseded` says); returns the identifiers
    /// of the migrations applied, none for a new database.
    static func checkOwnership(_ db: Database, path: String) throws -> [String] {
        let application = try RawStatement.integer(connection(of: db), "PRAGMA application_id") ?? 0
        if application == applicationID {
            let applied = try appliedMigrations(db)
            if applied.contains(where: { !migrationIdentifiers.contains($0) }) {
                throw SQLiteStoreError.newerSchema(path: path)
            }
            return applied
        }
        let objects = try RawStatement.integer(connection(of: db), "SELECT count(*) FROM sqlite_master") ?? 0
        if application != 0 || objects > 0 {
            throw SQLiteStoreError.notAStore(path: path, holds: .otherProgramsDatabase)
        }
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
}
