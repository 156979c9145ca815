import Foundation
import GRDB
import PlayerFormScores

extension SQLiteScoreStore {
    /// 50,000 records per transaction: few commits (each syncs the WAL and may checkpoint it),
    /// while the pages one transaction changes still fit the page cache.
    public var keepBatchSize: Int { 50_000 }

    /// Keeps the records of `batch` as they are, and applies its deletions in order, in one
    /// transaction; see `ScoreStore.keep(_:)`.
    ///
    /// A record costs two statements on a raw SQLite statement each (`InsertCursor`); the
    /// comparison keys come with the batch.
    public func keep(_ batch: RecordBatch) async throws(ScoreStoreError) -> KeptBatch {
        if let bad = batch.records.first(where: { !$0.points.isFinite }) {
            throw .notFinite(points: bad.points)
        }
        let path = self.path
        do {
            return try await access { db in
                try Self.checkInPlace(db, path: path)
                // A page cache of up to 256 MiB keeps the indexes of a large import in memory.
                try db.execute(sql: "PRAGMA cache_size = -262144")
                var result = KeptBatch()
                try db.inTransaction(.immediate) {
                    result = KeptBatch()
                    let cursor = try InsertCursor(db)
                    try batch.forEach { position, record, key in
                        do {
                            if try cursor.insert(PreparedRecord(record, key: key)) {
                                result.added += 1
                            } else {
                                result.alreadyKept += 1
                            }
                        } catch SQLiteStoreError.conflictingRecord {
                            result.conflicting.append(position)
                        }
                    } deletion: { ids in
                        try cursor.finish()
                        let before = try Self.scoreCount(db, ids: ids)
                        try Self.delete(ids: ids, in: db)
                        result.deleted += before
                    }
                    try cursor.finish()
                    if result.added > 0 || result.deleted > 0 { try Self.bumpRevision(db) }
                    return .commit
                }
                return result
            }
        } catch {
            throw .translating(error, database: path)
        }
    }

    /// Every record, oldest first, from one read transaction, a page of 1,000 at a time.
    public func exportRecords(_ body: @escaping @Sendable ([ScoreRecord]) -> Bool)
        async throws(ScoreStoreError)
    {
        let path = self.path
        try await read { db in
            let rows = try Row.fetchCursor(db, sql: Self.recordsSQL)
            var page: [ScoreRecord] = []
            page.reserveCapacity(1_000)
            while let row = try rows.next() {
                page.append(try Self.record(row, path: path))
                if page.count == 1_000 {
                    guard body(page) else { return }
                    page.removeAll(keepingCapacity: true)
                }
            }
            if !page.isEmpty { _ = body(page) }
        }
    }

    /// The number of records kept: O(records), for an export's progress.
    public func recordCount() async throws(ScoreStoreError) -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM score") ?? 0 }
    }

    /// What the database remembers of the score file of earlier versions it imported: what
    /// ``markLegacyImport(_:)`` was given, or nil when it imported none.
    public func legacyImport() async throws(ScoreStoreError) -> String? {
        try await read { db in
            try RawStatement.text(SQLiteScoreStore.connection(of: db), "SELECT legacy_import FROM meta")
        }
    }

    /// Remembers that the score file of earlier versions was imported, as `mark` says.
    public func markLegacyImport(_ mark: String) async throws(ScoreStoreError) {
        try await write { db in
            try db.execute(sql: "UPDATE meta SET legacy_import = ?", arguments: [mark])
        }
    }

    /// How many of `ids` are kept.
    private static func scoreCount(_ db: Database, ids: [UUID]) throws -> Int {
        var count = 0
        for id in ids {
            if try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT 1 FROM score WHERE id = ?"), arguments: [id])
                != nil
            {
                count += 1
            }
        }
        return count
    }
}
