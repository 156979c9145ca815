import Foundation
import GRDB
import PlayerFormScores
import PlayerFormStore
import PlayerFormText

/// What an import did.
public struct ImportSummary: Sendable, Equatable {
    /// Records newly kept.
    public var added = 0
    /// Records that were already kept, identical, and so were left as they were.
    public var alreadyKept = 0
    /// Records that tombstones of the earlier file format delete: skipped, or removed from the
    /// database.
    public var deleted = 0
    /// One message per line that was not imported, naming the file and line: a damaged line, or
    /// a record whose id is kept with different content.
    public var problems: [String] = []

    /// An empty summary.
    public init() {}
}

/// The text formats of an export.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// One JSON object per line: `{"id":…,"name":…,"points":…,"uploadedAt":…}`.
    case jsonl
    /// A header row `id,name,points,uploadedAt`, then one row per record; names are quoted.
    case csv
}

extension SQLiteScoreStore {
    /// How many records an import keeps per transaction.
    static let importBatch = 20_000

    /// Imports the score file at `path` (`-` is standard input): ``importRecords(from:skipping:progress:)``
    /// skipping the records that the file's own tombstones delete.
    ///
    /// - Parameters:
    ///   - path: the score file: JSON Lines of earlier versions, or an export (JSON Lines or CSV).
    ///   - progress: told the number of records read and the fraction of the file read.
    /// - Returns: how many records were imported, and what was skipped.
    /// - Throws: ``SQLiteStoreError`` or `StoreError` when the database or the file fails; the
    ///   batches before were kept.
    public func importFile(
        at path: String, progress: ((Int, Double?) -> Void)? = nil
    ) throws -> ImportSummary {
        let deleted = try ScoreFileReader.deletedIDs(in: path)
        let reader = try ScoreFileReader(path: path)
        return try importRecords(from: reader, skipping: deleted) { progress?($0, reader.fractionRead) }
    }

    /// Imports every record of `reader`, in batches of one transaction each, and applies the
    /// tombstones of the earlier file format.
    ///
    /// Importing the same file again changes nothing: records are matched by id. A record whose id
    /// is kept with other content is not imported and is reported. Blocking: call it off the
    /// cooperative thread pool.
    /// - Parameters:
    ///   - reader: the records to import.
    ///   - deleted: the ids of records not to import.
    ///   - progress: told the number of records read, now and then.
    /// - Returns: how many records were imported, and what was skipped.
    /// - Throws: ``SQLiteStoreError`` or `StoreError` when the database or the file fails; the
    ///   batches before were kept.
    public func importRecords(
        from reader: ScoreFileReader, skipping deleted: Set<UUID> = [], progress: ((Int) -> Void)? = nil
    ) throws -> ImportSummary {
        var summary = ImportSummary()
        var done = 0
        // A page cache of up to 256 MiB keeps the indexes of a large import in memory.
        try accessSynchronously { db in try db.execute(sql: "PRAGMA cache_size = -262144") }
        var finished = false
        while !finished {
            try accessSynchronously { db in
                try db.inTransaction(.immediate) {
                    let cursor = try InsertCursor(db)
                    var count = 0
                    var changed = false
                    while count < Self.importBatch {
                        guard let item = try reader.next() else {
                            finished = true
                            break
                        }
                        count += 1
                        if count % 2_000 == 0 { progress?(done + count) }
                        switch item {
                        case .record(let record) where deleted.contains(record.id):
                            summary.deleted += 1
                        case .record(let record):
                            do {
                                if try cursor.insert(record) {
                                    summary.added += 1
                                    changed = true
                                } else {
                                    summary.alreadyKept += 1
                                }
                            } catch let error as SQLiteStoreError {
                                summary.problems.append("\(reader.path):\(reader.lineNumber): \(error)")
                            }
                        case .deletion(let ids):
                            let before = try Self.scoreCount(db, ids: ids)
                            try Self.delete(ids: ids.map(\.uuidString), in: db)
                            try cursor.refresh(db)
                            summary.deleted += before
                            changed = changed || before > 0
                        case .problem(let message):
                            summary.problems.append(message)
                        }
                    }
                    done += count
                    if changed { try Self.bumpRevision(db) }
                    return .commit
                }
            }
            progress?(done)
        }
        return summary
    }

    /// Imports the JSON Lines score file of earlier versions at `legacyPath`, once: when it
    /// exists and this database has not imported it before.
    ///
    /// The file is only read.
    /// - Returns: what the import did, or nil when there was nothing to do.
    public func importLegacyFileOnce(
        at legacyPath: String, progress: ((Int) -> Void)? = nil
    ) throws -> ImportSummary? {
        let imported = try accessSynchronously { db in
            try String.fetchOne(db, sql: "SELECT legacy_import FROM meta")
        }
        guard imported == nil, FileManager.default.fileExists(atPath: legacyPath) else { return nil }
        let summary = try importFile(at: legacyPath) { done, _ in progress?(done) }
        try accessSynchronously { db in
            try db.inTransaction(.immediate) {
                try db.execute(sql: "UPDATE meta SET legacy_import = ?", arguments: [legacyPath])
                return .commit
            }
        }
        return summary
    }

    /// How many of `ids` are kept.
    private static func scoreCount(_ db: Database, ids: [UUID]) throws -> Int {
        var count = 0
        for id in ids {
            if try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT 1 FROM score WHERE id = ?"), arguments: [id.uuidString])
                != nil
            {
                count += 1
            }
        }
        return count
    }

    /// The number of records kept: O(records), for an export's progress.
    public func recordCount() throws -> Int {
        try accessSynchronously { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM score") ?? 0 }
    }

    /// Writes every record, oldest first, in `format`, streaming: `write` is given chunks of
    /// text of bounded size, and memory does not grow with the store.
    ///
    /// Reads one snapshot, so writers elsewhere are not held up. Blocking: call it off the
    /// cooperative thread pool.
    /// - Parameters:
    ///   - format: JSON Lines or CSV.
    ///   - progress: told the number of records written, now and then.
    ///   - write: given each chunk of text; an error it throws stops the export.
    /// - Returns: the number of records written.
    /// - Throws: ``SQLiteStoreError`` when the database fails, or what `write` throws.
    public func export(
        format: ExportFormat, progress: ((Int) -> Void)? = nil,
        write: ([UInt8]) throws -> Void
    ) throws -> Int {
        let path = self.path
        return try accessSynchronously { db in
            var count = 0
            try db.inTransaction(.deferred) {
                var chunk: [UInt8] = []
                chunk.reserveCapacity(1 << 16)
                if format == .csv { chunk.append(contentsOf: "id,name,points,uploadedAt\n".utf8) }
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT id, name, points, uploaded_at FROM score ORDER BY seq")
                while let row = try rows.next() {

                    let record = try Self.record(row, path: path)
                    Self.append(record, format: format, to: &chunk)
                    count += 1
                    if chunk.count >= 1 << 16 {
                        try write(chunk)
                        chunk.removeAll(keepingCapacity: true)
                        if count % 10_000 < 200 { progress?(count) }
                    }
                }
                if !chunk.isEmpty { try write(chunk) }
                progress?(count)
                return .commit
            }
            return count
        }
    }

    private static func append(_ record: ScoreRecord, format: ExportFormat, to chunk: inout [UInt8]) {
        let points = pointsText(record.points)
        let time = Timestamp.text(record.uploadedAt)
        switch format {
        case .jsonl:
            chunk.append(contentsOf: "{\"id\":\"\(record.id.uuidString)\",\"name\":".utf8)
            chunk.append(contentsOf: JSONText.quoted(record.name).utf8)
            chunk.append(contentsOf: ",\"points\":\(points),\"uploadedAt\":\"\(time)\"}\n".utf8)
        case .csv:
            chunk.append(contentsOf: "\(record.id.uuidString),\"".utf8)
            for byte in record.name.utf8 {
                if byte == UInt8(ascii: "\"") { chunk.append(byte) }
                chunk.append(byte)
            }
            chunk.append(contentsOf: "\",\(points),\(time)\n".utf8)
        }
    }

    /// Points as JSON and CSV write them: whole numbers without a fraction, others in Swift's
    /// shortest form that reads back to the same number.
    static func pointsText(_ points: Double) -> String {
        if points == points.rounded(), abs(points) < 1e15 { return String(Int64(points)) }
        return "\(points)"
    }
}
