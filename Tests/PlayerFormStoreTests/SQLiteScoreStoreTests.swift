import Foundation
import GRDB
import Glibc
import PlayerFormRules
import PlayerFormScores
import PlayerFormTransfer
import Synchronization
import Testing

@testable import PlayerFormSQLite

@Suite("SQLiteScoreStore", .timeLimit(.minutes(10)))
struct SQLiteScoreStoreTests {
    let folder: URL
    let path: String

    init() throws {
        folder = try makeTemporaryFolder()
        path = folder.appendingPathComponent("data/playerform/scores.sqlite").path
    }

    func bytes(_ file: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
    }

    // MARK: The file

    @Test(
        "a new database and its folders are made, in WAL mode, synchronous=FULL, foreign keys on, with its application_id"
    )
    func creates() async throws {
        let store = try SQLiteScoreStore(path: path)
        _ = try await store.upload(name: "Colin", points: 100)
        let queue = try DatabaseQueue(path: path)
        let (mode, application) = try await queue.read { db in
            (
                try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                try Int32.fetchOne(db, sql: "PRAGMA application_id")
            )
        }
        #expect(mode == "wal")
        #expect(application == SQLiteScoreStore.applicationID)
        #expect(try await store.synchronousSetting() == 2)
        #expect(try await store.foreignKeysSetting() == 1)
    }

    @Test("an upload survives closing and reopening, and times are kept to the millisecond")
    func reopen() async throws {
        let clock = Date(timeIntervalSince1970: 1_763_712_000.123_456)
        let colin = try await SQLiteScoreStore(path: path, now: { clock }).upload(name: "Colin", points: 100)
        #expect(colin.uploadedAt == Date(timeIntervalSince1970: 1_763_712_000.123))
        #expect(try await SQLiteScoreStore(path: path).records() == [colin])
    }

    @Test("the identifiers opening compares with are the migrator's migrations, in order")
    func migrationIdentifiersMatch() {
        #expect(SQLiteScoreStore.migrator.migrations == SQLiteScoreStore.migrationIdentifiers)
    }

    @Test("close() checkpoints while held: no -wal file left, every operation then fails alike, records kept")
    func closeCheckpoints() async throws {
        let store = try SQLiteScoreStore(path: path)
        let colin = try await store.upload(name: "Colin", points: 100)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        try store.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        await #expect(throws: ScoreStoreError.self) { try await store.records() }
        // Every operation fails in the same words, those through SQLite's C interface too.
        let failures = await [
            Self.failure { try await store.records() }, Self.failure { try await store.playerCount() },
            Self.failure { try await store.revision() },
            Self.failure { try await store.players(from: 0, limit: 5) },
        ]
        #expect(failures.allSatisfy { $0 != nil && $0 == failures[0] }, "\(failures)")
        #expect(try await SQLiteScoreStore(path: path).records() == [colin])
        withExtendedLifetime(store) {}
    }

    @Test(
        "a folder, a name ending in a slash, a FIFO or a device is refused at once, naming it",
        arguments: ["folder", "slash", "fifo", "device"])
    func notAFile(kind: String) throws {
        let target: String
        let content: ScoreStoreContent
        switch kind {
        case "folder":
            target = folder.path
            content = .folder
        case "slash":
            target = folder.appendingPathComponent("new").path + "/"
            content = .folderName
        case "fifo":
            target = folder.appendingPathComponent("pipe").path
            #expect(mkfifo(target, 0o600) == 0)
            content = .fifo
        default:
            target = "/dev/zero"
            content = .device
        }
        #expect(throws: ScoreStoreError.notAStore(.database(path: target), holds: content)) {
            try SQLiteScoreStore(path: target)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("new").path))
    }

    @Test("a file that is not a SQLite database is refused and left untouched")
    func notADatabase() throws {
        let file = folder.appendingPathComponent("notes.txt").path
        try Data("just some notes\n".utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: ScoreStoreError.notAStore(.database(path: file), holds: .notADatabase)) {
            try SQLiteScoreStore(path: file)
        }
        #expect(try bytes(file) == Array("just some notes\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: file + "-wal"))
    }

    @Test(
        "a score file of records (earlier versions' JSON Lines, or an export) is refused with a hint to import it"
    )
    func scoreFileRefused() throws {
        let legacy = folder.appendingPathComponent("scores.jsonl").path
        _ = try LegacyScoreFile(path: legacy).appendRecord(name: "Colin", points: 100)
        let before = try bytes(legacy)
        #expect(throws: ScoreStoreError.notAStore(.database(path: legacy), holds: .scoreRecords)) {
            try SQLiteScoreStore(path: legacy)
        }
        #expect(try bytes(legacy) == before)

        let exported = folder.appendingPathComponent("export.csv").path
        try Data("id,name,points,uploadedAt\n".utf8).write(to: URL(fileURLWithPath: exported))
        #expect(throws: ScoreStoreError.notAStore(.database(path: exported), holds: .scoreRecords)) {
            try SQLiteScoreStore(path: exported)
        }
    }

    @Test("a SQLite database of another program is refused, and a newer schema too")
    func foreignDatabase() throws {
        let other = folder.appendingPathComponent("other.sqlite").path
        try DatabaseQueue(path: other).write { db in
            try db.execute(sql: "CREATE TABLE notes (text TEXT)")
        }
        #expect(throws: ScoreStoreError.notAStore(.database(path: other), holds: .otherProgramsDatabase)) {
            try SQLiteScoreStore(path: other)
        }

        _ = try SQLiteScoreStore(path: path)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99: from the future')")
        }
        #expect(throws: ScoreStoreError.newerSchema(.database(path: path), version: nil)) {
            try SQLiteScoreStore(path: path)
        }
    }

    @Test("a folder that cannot be made is named with the reason, and an empty file becomes a database")
    func folders() async throws {
        let blocker = folder.appendingPathComponent("data").path
        try Data("a file, not a folder".utf8).write(to: URL(fileURLWithPath: blocker))
        let error = ScoreStoreError.cannotCreateFolder(path: blocker, reason: "Not a directory")
        #expect(throws: error) { try SQLiteScoreStore(path: path) }
        // The file is where the database's own folder should be.
        #expect(throws: error) { try SQLiteScoreStore(path: blocker + "/scores.sqlite") }

        let empty = folder.appendingPathComponent("empty.sqlite").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let store = try SQLiteScoreStore(path: empty)
        _ = try await store.upload(name: "Colin", points: 1)
        #expect(try await SQLiteScoreStore(path: empty).playerCount() == 1)
    }

    @Test(
        "each failure of the database becomes the typed store error of its kind, naming the database",
        arguments: [
            (
                SQLiteStoreError.busy(path: "s.sqlite", waitedSeconds: 5),
                ScoreStoreError.locked(.database(path: "s.sqlite"), waitedSeconds: 5)
            ),
            (
                .diskFull(path: "s.sqlite", reason: "No space left on device"),
                .storageFull(.database(path: "s.sqlite"), reason: "No space left on device")
            ),
            (
                .ioError(path: "s.sqlite", reason: "Input/output error"),
                .io(.database(path: "s.sqlite"), access: .readWrite, reason: "Input/output error")
            ),
            (
                .notAStore(path: "s.sqlite", holds: .notADatabase),
                .notAStore(.database(path: "s.sqlite"), holds: .notADatabase)
            ),
            (
                .corrupt(path: "s.sqlite", reason: "malformed"),
                .corrupt(.database(path: "s.sqlite"), reason: "malformed")
            ),
            (
                .cannotOpen(path: "s.sqlite", reason: "Permission denied"),
                .cannotOpen(.database(path: "s.sqlite"), reason: "Permission denied")
            ),
            (.newerSchema(path: "s.sqlite"), .newerSchema(.database(path: "s.sqlite"), version: nil)),
            (.conflictingRecord(id: "A"), .conflictingRecord(id: "A")),
            (
                .sqlite(path: "s.sqlite", message: "constraint failed"),
                .failed(.database(path: "s.sqlite"), code: "", message: "constraint failed")
            ),
        ])
    func typedMapping(_ error: SQLiteStoreError, _ typed: ScoreStoreError) {
        #expect(ScoreStoreError.translating(error, database: "s.sqlite") == typed)
    }

    @Test("a cancelled operation becomes the typed cancellation")
    func typedCancellation() {
        #expect(ScoreStoreError.translating(CancellationError(), database: "s.sqlite") == .cancelled)
    }

    @Test("points that are not finite are refused and nothing is kept")
    func notFinite() async throws {
        let store = try SQLiteScoreStore(path: path)
        await #expect(throws: ScoreStoreError.notFinite(points: .infinity)) {
            try await store.upload(name: "Colin", points: .infinity)
        }
        #expect(try await store.records().isEmpty)
    }

    @Test("the name rule written into the program is the probes' keys under this build's rule")
    func keyRuleWrittenOut() {
        #expect(SQLiteScoreStore.keyRule == SQLiteScoreStore.probedKeyRule)
        #expect(
            SQLiteScoreStore.keyRule.split(separator: "\u{1F}", omittingEmptySubsequences: false).count
                == SQLiteScoreStore.keyRuleProbes.count)
    }

    @Test("players made with another version of the name rule are made again from the scores on opening")
    func keyRuleChanged() async throws {
        let store = try SQLiteScoreStore(path: path, now: SteppingClock().now)
        for name in ["Bob", "Ann", "bob", " BOB ", "Cy", "ann"] {
            _ = try await store.upload(name: name, points: 1)
        }
        let before = try await store.revision()
        // As an earlier rule could have left them: every name its own player.
        try await DatabaseQueue(path: path).writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN")
            try db.execute(sql: "DELETE FROM player; DELETE FROM roster_block")
            try db.execute(
                sql: """
                    INSERT INTO player (id, key, name, points, uploaded_at, uploads)
                    SELECT seq, name, name, 1, 0, 1 FROM score;
                    UPDATE score SET player_id = seq;
                    INSERT INTO roster_block (block, players) SELECT id >> 12, count(*) FROM player GROUP BY 1;
                    UPDATE meta SET key_rule = 'an earlier rule';
                    """)
            try db.execute(sql: "COMMIT")
        }
        let reopened = try SQLiteScoreStore(path: path)
        let expected = Player.roster(from: try await reopened.records())
        #expect(expected.map(\.name) == [" BOB ", "ann", "Cy"])
        #expect(try await reopened.players(from: 0, limit: 10) == expected)
        #expect(try await reopened.playerCount() == 3)
        #expect(try await reopened.player(named: "bOb")?.index == 0)
        #expect(try await reopened.revision() != before)
        let queue = try DatabaseQueue(path: path)
        let (rule, orphans) = try await queue.read { db in
            (
                try String.fetchOne(db, sql: "SELECT key_rule FROM meta"),
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM score WHERE player_id NOT IN (SELECT id FROM player)")
            )
        }
        #expect(rule == SQLiteScoreStore.keyRule)
        #expect(orphans == 0)
    }

    // MARK: The schema

    @Test("several connections opening a new database at once all open it, and one makes its schema")
    func newDatabaseOpenedAtOnce() throws {
        // A long wait for the lock: the spec is about the schema being made once, and a loaded
        // machine may take seconds to sync what each connection writes.
        for round in 0..<6 {
            let file = folder.appendingPathComponent("at-once-\(round).sqlite").path
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do {
                    _ = try SQLiteScoreStore(path: file, busyTimeout: .seconds(120))
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [], "round \(round)")
            let queue = try DatabaseQueue(path: file)
            let applied = try queue.read { db in
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            }
            #expect(applied == SQLiteScoreStore.migrationIdentifiers)
        }
    }

    @Test(
        "several connections opening at once a database whose keys follow another rule make its players once")
    func keyRuleFollowedOnce() async throws {
        let store = try SQLiteScoreStore(path: path)
        _ = try await store.upload(name: "Ann", points: 1)
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in try db.execute(sql: "UPDATE meta SET key_rule = 'an older rule'") }
        let before = try await store.revision()
        let notes = Mutex<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            _ = try? SQLiteScoreStore(
                path: path, busyTimeout: .seconds(120),
                waiting: { note in if note.contains("updating") { notes.withLock { $0 += 1 } } })
        }
        #expect(notes.withLock { $0 } == 1, "only the connection that makes the players again says so")
        #expect(try await store.revision() == before + 1)
    }

    @Test("several connections opening a database of an earlier version at once all open it, its scores kept")
    func olderDatabaseOpenedAtOnce() throws {
        let id = UUID()
        _ = try makeSecondSchemaDatabase(scores: [(id.uuidString, "Ann")])
        let failures = Mutex<[String]>([])
        let notes = Mutex<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do {
                _ = try SQLiteScoreStore(
                    path: path, busyTimeout: .seconds(120),
                    waiting: { note in if note.contains("updating") { notes.withLock { $0 += 1 } } })
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(notes.withLock { $0 } == 1, "only the connection that updates it says so")
        #expect(try SQLiteScoreStore(path: path).allRecordsSynchronously().map(\.id) == [id])
    }

    /// Makes a database of the second schema at `path`, as earlier versions left it.
    func makeSecondSchemaDatabase(scores: [(id: String, name: String)]) throws -> DatabaseQueue {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: path)
        try SQLiteScoreStore.migrator.migrate(queue, upTo: "v2: the name rule the player keys were made with")
        try queue.write { db in
            try db.execute(sql: "UPDATE meta SET key_rule = ?", arguments: [SQLiteScoreStore.keyRule])
            var players: [String: (id: Int64, position: Int64)] = [:]
            for (index, score) in scores.enumerated() {
                let seq = Int64(index + 1)
                let key = PlayerName.comparisonKey(score.name)
                if let player = players[key] {
                    try db.execute(
                        sql: "UPDATE player SET name = ?, points = ?, uploads = uploads + 1 WHERE id = ?",
                        arguments: [score.name, Double(seq), player.id])
                } else {
                    // Player row ids that are not the numbers of their first scores.
                    let player = (id: Int64(100 - index), position: Int64(players.count))
                    players[key] = player
                    try db.execute(
                        sql: """
                            INSERT INTO player (id, key, position, first_score, name, points, uploaded_at, uploads)
                            VALUES (?, ?, ?, ?, ?, ?, 0, 1)
                            """, arguments: [player.id, key, player.position, seq, score.name, Double(seq)])
                }
                try db.execute(
                    sql: """
                        INSERT INTO score (seq, id, player_id, name, points, uploaded_at)
                        VALUES (?, ?, ?, ?, ?, 0)
                        """, arguments: [seq, score.id, players[key]!.id, score.name, Double(seq)])
            }
        }
        return queue
    }

    @Test(
        "a database of the second schema is moved to the third: records, ids, players, order and count kept")
    func migratesSecondSchema() async throws {
        let names = ["Ann", "Bob", "Cy", "bob", "ANN", "Dee"]
        let ids = names.map { _ in UUID() }
        _ = try makeSecondSchemaDatabase(scores: zip(ids, names).map { ($0.uuidString, $1) })
        let store = try SQLiteScoreStore(path: path)
        try await expectKeptAcrossMigration(store, ids: ids)
        let kinds = try await DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT typeof(id) || ':' || length(id) FROM score")
        }
        #expect(kinds == ["blob:16"])
    }

    @Test("opening a database of an earlier version says once that it is being brought up to date")
    func saysUpdating() async throws {
        _ = try makeSecondSchemaDatabase(scores: [(UUID().uuidString, "Ann")])
        let said = Mutex<[String]>([])
        _ = try SQLiteScoreStore(path: path, waiting: { sentence in said.withLock { $0.append(sentence) } })
        #expect(said.withLock { $0 } == [SQLiteScoreStore.updatingSentence(path)])
        _ = try SQLiteScoreStore(path: path, waiting: { sentence in said.withLock { $0.append(sentence) } })
        let fresh = folder.appendingPathComponent("new.sqlite").path
        _ = try SQLiteScoreStore(path: fresh, waiting: { sentence in said.withLock { $0.append(sentence) } })
        #expect(said.withLock { $0 }.count == 1)
    }

    @Test("a second-schema database with an id that is not a UUID is refused, and left as it was")
    func migrationRefusesBadID() async throws {
        _ = try makeSecondSchemaDatabase(scores: [(UUID().uuidString, "Ann"), ("not an id", "Bob")])
        #expect(
            throws: ScoreStoreError.corrupt(
                .database(path: path),
                reason:
                    "score 2 has the id \"not an id\", which is not a UUID, so this version cannot bring the "
                    + "database up to date; export it with the version that wrote it")
        ) { try SQLiteScoreStore(path: path) }
        let (migrations, columns) = try await DatabaseQueue(path: path).read { db in
            (
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"),
                try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('player')")
            )
        }
        #expect(migrations.count == 2)
        #expect(columns.contains("position"))
    }

    @Test("the block counts equal the players of each block after imports and deletions")
    func blockCounts() async throws {
        let time = Date(timeIntervalSince1970: 1_763_712_000)
        let records = (0..<10_000).map { line in
            let player = line.isMultiple(of: 2) ? line : (line - 1) / 4 * 2
            return ScoreRecord(id: UUID(), name: "P\(player)", points: Double(line), uploadedAt: time)
        }
        let store = try await StoreKind.sqlite.makeFilled(records) as! SQLiteScoreStore
        for name in ["P0", "P4000", "P4096", "P8190", "P9998"] {
            #expect(try await store.deletePlayer(named: name) != nil)
        }
        try await store.delete(ids: [2, 4094, 4100, 8194, 9999, 1].map { records[$0].id })
        let (blocks, actual) = try await DatabaseQueue(path: store.path).read { db in
            (
                try Row.fetchAll(db, sql: "SELECT block, players FROM roster_block ORDER BY block")
                    .map { [$0[0], $0[1]] as [Int] },
                try Row.fetchAll(db, sql: "SELECT id >> 12, count(*) FROM player GROUP BY 1 ORDER BY 1")
                    .map { [$0[0], $0[1]] as [Int] }
            )
        }
        #expect(blocks == actual)
        #expect(blocks.count == 3)
    }

    // MARK: Identity of records

    @Test(
        "a record that reuses a kept id with other content is refused naming the id; an identical one is kept once"
    )
    func reusedID() async throws {
        let id = UUID()
        let clock = Date(timeIntervalSince1970: 1_763_712_000)
        let store = try SQLiteScoreStore(path: path, now: { clock }, makeID: { id })
        let first = try await store.upload(name: "Colin", points: 100)
        await #expect(throws: ScoreStoreError.conflictingRecord(id: id.uuidString)) {
            try await store.upload(name: "Bob", points: 1)
        }
        #expect(try await store.upload(name: "Colin", points: 100) == first)
        #expect(try await store.records() == [first])
        #expect(try await store.players(from: 0, limit: 5).first?.recordIDs == [id])
    }

    // MARK: Import and export

    func legacyFile() throws -> (path: String, kept: [ScoreRecord]) {
        let legacy = folder.appendingPathComponent("old/scores.jsonl").path
        let old = LegacyScoreFile(path: legacy)
        let colin = try old.appendRecord(name: "Colin", points: 100)
        let bob = try old.appendRecord(name: "Bob", points: 120)
        let gone = try old.appendRecord(name: "Gone", points: 1)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: legacy))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("not a record\n".utf8))
        try handle.close()
        try old.appendTombstone(ids: [gone.id])
        let ann = try old.appendRecord(name: "ann", points: 7)
        return (legacy, [colin, bob, ann])
    }

    @Test(
        "importing a score file of earlier versions keeps its records, applies its deletions, and reports damage"
    )
    func importLegacy() async throws {
        let (legacy, kept) = try legacyFile()
        let before = try bytes(legacy)
        let store = try SQLiteScoreStore(path: path)
        let summary = try await ScoreImport.importFile(at: legacy, into: store)
        #expect(summary.added == 3)
        #expect(summary.deleted == 1)
        #expect(summary.problems == ["\(legacy):4: not a score record (not valid JSON)"])
        #expect(try store.allRecordsSynchronously() == kept)
        #expect(try bytes(legacy) == before)

        let again = try await ScoreImport.importFile(at: legacy, into: store)
        #expect(again.added == 0 && again.alreadyKept == 3 && again.deleted == 1)
        #expect(try store.allRecordsSynchronously() == kept)
    }

    @Test("an import from a pipe named by a path, such as /dev/stdin or <(...), reads its records once")
    func importFromPipePath() async throws {
        let store = try SQLiteScoreStore(path: path)
        let kept = UUID()
        let gone = UUID()
        let lines = [
            #"{"id":"\#(kept.uuidString)","name":"Ann","points":7,"uploadedAt":"2026-01-01T00:00:01.000Z"}"#,
            #"{"id":"\#(gone.uuidString)","name":"Bob","points":5,"uploadedAt":"2026-01-01T00:00:02.000Z"}"#,
            #"{"deletedAt":"2026-01-01T00:00:03.000Z","ids":["\#(gone.uuidString)"],"kind":"delete"}"#,
        ]
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        #expect(write(ends[1], bytes, bytes.count) == bytes.count)
        close(ends[1])
        defer { close(ends[0]) }
        // Opening the path opens the pipe anew: what one reading takes, another does not see.
        let summary = try await ScoreImport.importFile(at: "/proc/self/fd/\(ends[0])", into: store)
        #expect(summary.added == 2 && summary.deleted == 1 && summary.problems.isEmpty)
        #expect(try await store.records().map(\.id) == [kept])
    }

    @Test("an import asked to stop keeps the records it took and says so; importing again adds the rest")
    func importStopped() async throws {
        let store = try SQLiteScoreStore(path: path)
        let file = folder.appendingPathComponent("in.jsonl").path
        // More records than the reading thread can hand over before it is stopped (18,000).
        let lines = (1...30_000).map { index in
            #"{"id":"\#(UUID().uuidString)","name":"P\#(index)","points":5,"uploadedAt":"2026-01-01T00:00:00.000Z"}"#
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        var received = 0
        let summary = try await ScoreImport.importFile(
            at: file, into: store, progress: { count, _ in received = count }, shouldStop: { received > 0 })
        #expect(summary.stopped)
        #expect(summary.added >= 2_000 && summary.added < 30_000 && summary.alreadyKept == 0)
        #expect(try await store.playerCount() == summary.added)

        let again = try await ScoreImport.importFile(at: file, into: store)
        #expect(!again.stopped)
        #expect(again.added == 30_000 - summary.added && again.alreadyKept == summary.added)
        #expect(try await store.playerCount() == 30_000)
    }

    @Test("an import from a pipe told to stop while it waits for more keeps every record it read")
    func importStoppedWhileWaiting() async throws {
        let store = try SQLiteScoreStore(path: path)
        let lines = (1...5).map { index in
            #"{"id":"\#(UUID().uuidString)","name":"P\#(index)","points":5,"uploadedAt":"2026-01-01T00:00:00.000Z"}"#
        }
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let text = lines.joined(separator: "\n") + "\n"
        let bytes = Array(text.utf8)
        try #require(write(ends[1], bytes, bytes.count) == bytes.count)
        // The write end stays open, so the import waits for more after the five records; it ends
        // once they have all arrived (a deadline turns a regression into a failure, not a hang).
        defer {
            close(ends[1])
            close(ends[0])
        }
        var received = 0
        let deadline = ContinuousClock.now + .seconds(20)
        let summary = try await ScoreImport.importFile(
            at: "/proc/self/fd/\(ends[0])", into: store, progress: { count, _ in received = count },
            shouldStop: { received >= 5 || ContinuousClock.now > deadline })
        #expect(summary.stopped)
        #expect(summary.added == 5)
        #expect(try await store.playerCount() == 5)
    }

    @Test("a record of an import whose id is kept with other content is reported and not imported")
    func importConflict() async throws {
        let store = try SQLiteScoreStore(path: path)
        let colin = try await store.upload(name: "Colin", points: 100)
        let file = folder.appendingPathComponent("in.jsonl").path
        let line =
            #"{"id":"\#(colin.id.uuidString)","name":"Colin","points":5,"uploadedAt":"2026-01-01T00:00:00.000Z"}"#
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let summary = try await ScoreImport.importFile(at: file, into: store)
        #expect(summary.added == 0)
        #expect(summary.conflicts.map(\.line) == [1] && summary.conflicts.map(\.id) == [colin.id])
        #expect(summary.problems.isEmpty)
        #expect(try await store.records() == [colin])
    }

    @Test("a record of an import whose id is kept under another player's name adds no player")
    func importConflictNewPlayer() async throws {
        let store = try SQLiteScoreStore(path: path)
        let colin = try await store.upload(name: "Colin", points: 100)
        let file = folder.appendingPathComponent("in.jsonl").path
        let lines = [
            #"{"id":"\#(colin.id.uuidString)","name":"Zed","points":5,"uploadedAt":"2026-01-01T00:00:00.000Z"}"#,
            #"{"id":"\#(UUID().uuidString)","name":"Ann","points":7,"uploadedAt":"2026-01-01T00:00:01.000Z"}"#,
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let summary = try await ScoreImport.importFile(at: file, into: store)
        #expect(summary.added == 1 && summary.conflicts.count == 1 && summary.problems.isEmpty)
        let players = try await store.players(from: 0, limit: 10)
        #expect(players.map(\.name) == ["Colin", "Ann"])
        #expect(try await store.playerCount() == 2)
        #expect(try await store.player(named: "Zed") == nil)
    }

    @Test("an import of many batches keeps every record in file order, once, and counts each kind of line")
    func importManyBatches() async throws {
        let store = try SQLiteScoreStore(path: path)
        let early = try await store.upload(name: "Early", points: 1)
        let file = folder.appendingPathComponent("many.jsonl").path
        var text = ""
        var ids: [UUID] = []
        // More lines than the reading thread may hold waiting, with a kept record and damage among them.
        for index in 0..<25_000 {
            if index == 12_345 {
                text += "not a record\n"
                continue
            }
            let id = index == 20_000 ? early.id : UUID()
            let name = index == 20_000 ? "Early" : "P\(index % 7_000)"
            let time = index == 20_000 ? Timestamp.text(early.uploadedAt) : "2026-01-01T00:00:00.000Z"
            let points = index == 20_000 ? 1 : index
            if index != 20_000 { ids.append(id) }
            text +=
                #"{"id":"\#(id.uuidString)","name":"\#(name)","points":\#(points),"uploadedAt":"\#(time)"}"#
            text += "\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        var seen: [Int] = []
        let summary = try await ScoreImport.importFile(at: file, into: store) { done, _ in seen.append(done) }
        #expect(summary.added == 24_998 && summary.alreadyKept == 1)
        #expect(summary.problems == ["\(file):12346: not a score record (not valid JSON)"])
        #expect(seen.last == 25_000 && seen == seen.sorted())
        #expect(try store.allRecordsSynchronously().map(\.id) == [early.id] + ids)
        #expect(try await store.playerCount() == 7_001)
        let again = try await ScoreImport.importFile(at: file, into: store)
        #expect(again.added == 0 && again.alreadyKept == 24_999)
    }

    @Test(
        "export writes every record as JSON Lines or CSV, and importing it gives the same records",
        arguments: ExportFormat.allCases)
    func exportRoundTrip(format: ExportFormat) async throws {
        let store = try SQLiteScoreStore(path: path, now: SteppingClock().now)
        var kept: [ScoreRecord] = []
        for name in ["Colin", "Ann \"the\" Ace, Esq.\nsecond line", "Zoë", "bob", " Bob", "nul\u{0}x"] {
            kept.append(try await store.upload(name: name, points: Double(kept.count) + 0.25))
        }
        kept.append(try await store.upload(name: "Big", points: 1e300))
        var text: [UInt8] = []
        let collected = Mutex<[UInt8]>([])
        let written = try await ScoreExport.export(store, format: format) { chunk in
            collected.withLock { $0 += chunk }
            return true
        }
        #expect(written == (kept.count, true))
        text = collected.withLock { $0 }
        let file = folder.appendingPathComponent("export.\(format.rawValue)").path
        try Data(text).write(to: URL(fileURLWithPath: file))
        let copy = try SQLiteScoreStore(path: folder.appendingPathComponent("copy.sqlite").path)
        let summary = try await ScoreImport.importFile(at: file, into: copy)
        #expect(summary.problems == [])
        #expect(try await copy.records() == kept)
        #expect(try await copy.players(from: 0, limit: 10) == store.players(from: 0, limit: 10))
    }

    @Test("a name holding a NUL byte is read whole: by name, deleted, and restored by a tombstone")
    func nameWithNUL() async throws {
        let store = try SQLiteScoreStore(path: path, now: SteppingClock().now)
        let first = try await store.upload(name: "Nul\u{0}a", points: 1)
        let second = try await store.upload(name: "nul\u{0}a", points: 2)
        #expect(try await store.records().map(\.name) == ["Nul\u{0}a", "nul\u{0}a"])
        #expect(try await store.player(named: "NUL\u{0}A")?.player.name == "nul\u{0}a")
        let file = folder.appendingPathComponent("tombstone.jsonl").path
        let tombstone =
            #"{"deletedAt":"2026-11-21T07:20:00.000Z","ids":["\#(second.id.uuidString)"],"kind":"delete"}"#
        try Data((tombstone + "\n").utf8).write(to: URL(fileURLWithPath: file))
        #expect(try await ScoreImport.importFile(at: file, into: store).deleted == 1)
        #expect(try await store.players(from: 0, limit: 10).map(\.name) == ["Nul\u{0}a"])
        #expect(try await store.deletePlayer(named: "nul\u{0}a")?.name == first.name)
        #expect(try await store.playerCount() == 0)
    }

    @Test(
        "a database deleted or replaced while open is neither read nor written: nothing is acknowledged and lost",
        arguments: ["deleted", "replaced"])
    func fileGoneWhileOpen(how: String) async throws {
        let store = try SQLiteScoreStore(path: path)
        _ = try await store.upload(name: "Colin", points: 100)
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        if how == "replaced" {
            let other = try SQLiteScoreStore(path: path)
            _ = try await other.upload(name: "Other", points: 1)
        }
        await #expect(throws: ScoreStoreError.self) { _ = try await store.upload(name: "Lost", points: 5) }
        do {
            _ = try await store.revision()
            Issue.record("a revision was read from the file that is gone")
        } catch {
            guard case .io(_, _, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(reason.contains("deleted or replaced"))
        }
        await #expect(throws: ScoreStoreError.self) {
            _ = try await ScoreExport.export(store, format: .jsonl) { _ in true }
        }
        if how == "replaced" {
            #expect(try await SQLiteScoreStore(path: path).records().map(\.name) == ["Other"])
        }
    }

    // MARK: Locks

    @Test(
        "a database another process holds: an upload waits a bounded time, says so, then fails naming the file"
    )
    func lockedByAnotherProcess() async throws {
        let store = try SQLiteScoreStore(path: path)
        let colin = try await store.upload(name: "Colin", points: 100)
        let holder = try Probe(["db-hold", path])
        #expect(holder.readLines(1) == ["holding"])
        defer { holder.release() }

        let (notices, notice) = AsyncStream.makeStream(of: String.self)
        let waiting = try SQLiteScoreStore(
            path: path, busyTimeout: .milliseconds(600), waiting: { notice.yield($0) })
        await #expect(throws: ScoreStoreError.locked(.database(path: path), waitedSeconds: 0.6)) {
            try await waiting.upload(name: "Bob", points: 1)
        }
        notice.finish()
        var said: [String] = []
        for await line in notices { said.append(line) }
        #expect(
            said == [
                "\(path): another process is using the score database; waiting up to 0.6 s (Ctrl-C stops waiting)"
            ])
        // Readers are not held up by a writer in WAL mode.
        #expect(try await waiting.records() == [colin])
    }

    /// An upload of Bob started on a store that waits up to two minutes for a lock, while another
    /// process holds the database's lock; returned once the store says it waits, with the holder.
    private func uploadWaitingForAHeldLock() async throws -> (
        SQLiteScoreStore, Task<ScoreRecord, any Error>, Probe
    ) {
        let (notices, notice) = AsyncStream.makeStream(of: String.self)
        let store = try SQLiteScoreStore(
            path: path, busyTimeout: .seconds(120), waiting: { notice.yield($0) })
        let holder = try Probe(["db-hold", path])
        #expect(holder.readLines(1) == ["holding"])
        let upload = Task { try await store.upload(name: "Bob", points: 1) }
        var iterator = notices.makeAsyncIterator()
        #expect(await iterator.next() != nil, "it says it waits")
        return (store, upload, holder)
    }

    @Test("an upload that finds another process's lock waits for it, and is kept once it is released")
    func uploadAfterTheLockIsReleased() async throws {
        let (store, upload, holder) = try await uploadWaitingForAHeldLock()
        defer { holder.release() }
        holder.release()
        let bob = try await upload.value
        #expect(try await store.records() == [bob])
    }

    @Test("an upload whose task is cancelled before it starts writes nothing and fails as cancelled")
    func cancelledBeforeItStarts() async throws {
        let store = try SQLiteScoreStore(path: path)
        let upload = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.upload(name: "Bob", points: 1)
        }
        await #expect(throws: ScoreStoreError.cancelled) { try await upload.value }
        #expect(try await store.records().isEmpty)
    }

    @Test("cancelling an operation that waits for another process's lock stops the wait at once")
    func cancelWhileWaiting() async throws {
        let (store, upload, holder) = try await uploadWaitingForAHeldLock()
        defer { holder.release() }
        let started = ContinuousClock.now
        upload.cancel()
        await #expect(throws: ScoreStoreError.cancelled) { try await upload.value }
        #expect(ContinuousClock.now - started < .seconds(60))
        holder.release()
        #expect(try await store.records().isEmpty)
    }
}

extension SQLiteScoreStoreTests {
    /// The error `operation` fails with; nil when it succeeds.
    static func failure<T>(_ operation: () async throws -> T) async -> ScoreStoreError? {
        do {
            _ = try await operation()
            return nil
        } catch {
            return error as? ScoreStoreError
        }
    }
}

extension SQLiteScoreStore {
    /// Whether the store's connection enforces foreign keys (1) or not (0).
    func foreignKeysSetting() async throws -> Int {
        try await access { db in try Int.fetchOne(db, sql: "PRAGMA foreign_keys") ?? -1 }
    }

    /// The `synchronous` setting of the store's connection (2 is FULL).
    func synchronousSetting() async throws -> Int {
        try await access { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }

    /// Every record, read without async.
    func allRecordsSynchronously() throws -> [ScoreRecord] {
        try accessSynchronously { db in
            try Row.fetchAll(db, sql: "SELECT id, name, points, uploaded_at FROM score ORDER BY seq")
                .map { try Self.record($0, path: self.path) }
        }
    }
}

extension Probe {
    /// Closes the probe's standard input, so a holding probe lets go, and waits for it.
    func release() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
