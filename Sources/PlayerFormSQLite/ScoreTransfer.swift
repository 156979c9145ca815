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
    /// Whether the import stopped because it was asked to, before the end of the file: the
    /// records counted above are kept, and importing a regular file again adds the rest.
    public var stopped = false

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
    /// How many records an import keeps per transaction: few commits (each syncs the WAL and
    /// may checkpoint it), while the pages one transaction changes still fit the page cache.
    static let importBatch = 100_000

    /// Imports the score file at `path` (`-` is standard input): ``importRecords(from:skipping:progress:)``
    /// skipping the records that the file's own tombstones delete.
    ///
    /// - Parameters:
    ///   - path: the score file: JSON Lines of earlier versions, or an export (JSON Lines or CSV).
    ///   - progress: told the number of records read and the fraction of the file read.
    ///   - shouldStop: asked during the pass for tombstones, at each batch of records, and every
    ///     tenth of a second while the file has nothing new (a pipe or a terminal); once it says
    ///     yes, the records already read and handed over are committed and the import ends,
    ///     ``ImportSummary/stopped`` set. It also ends a wait for a lock when the store's
    ///     `stopWaiting` asks the same; that batch is undone.
    /// - Returns: how many records were imported, and what was skipped.
    /// - Throws: ``SQLiteStoreError`` or `StoreError` when the database or the file fails; the
    ///   batches before were kept.
    public func importFile(
        at path: String, progress: ((Int, Double?) -> Void)? = nil, shouldStop: () -> Bool = { false }
    ) throws -> ImportSummary {
        guard let deleted = try ScoreFileReader.deletedIDs(in: path, shouldStop: shouldStop) else {
            var summary = ImportSummary()
            summary.stopped = true
            return summary
        }
        let reader = try ScoreFileReader(path: path)
        return try importItems(from: reader, skipping: deleted, shouldStop: shouldStop) { progress?($0, $1) }
    }

    /// Imports every record of `reader`, in batches of one transaction each, and applies the
    /// tombstones of the earlier file format.
    ///
    /// Importing the same file again changes nothing: records are matched by id. A record whose id
    /// is kept with other content is not imported and is reported. Blocking: call it off the
    /// cooperative thread pool. The file is read and parsed on a thread of its own while this one
    /// writes: `reader` belongs to the import and must not be used again.
    /// - Parameters:
    ///   - reader: the records to import; it belongs to the import from now on.
    ///   - deleted: the ids of records not to import.
    ///   - progress: told the number of records read, now and then.
    /// - Returns: how many records were imported, and what was skipped.
    /// - Throws: ``SQLiteStoreError`` or `StoreError` when the database or the file fails; the
    ///   batches before were kept.
    public func importRecords(
        from reader: ScoreFileReader, skipping deleted: Set<UUID> = [], progress: ((Int) -> Void)? = nil
    ) throws -> ImportSummary {
        try importItems(from: reader, skipping: deleted, shouldStop: { false }) { done, _ in progress?(done) }
    }

    private func importItems(
        from reader: ScoreFileReader, skipping deleted: Set<UUID>, shouldStop: () -> Bool,
        progress: (Int, Double?) -> Void
    ) throws -> ImportSummary {
        var summary = ImportSummary()
        let path = reader.path
        // A page cache of up to 256 MiB keeps the indexes of a large import in memory.
        try accessSynchronously { db in try db.execute(sql: "PRAGMA cache_size = -262144") }
        let items = ImportFeed(reader: reader, skipping: deleted)
        defer { items.stop() }
        var finished = false
        while !finished {
            // What this batch's transaction did, counted in once it is committed.
            var batch = ImportSummary()
            do {
                try accessSynchronously { db in
                    try db.inTransaction(.immediate) {
                        let cursor = try InsertCursor(db)
                        var count = 0
                        var changed = false
                        while count < Self.importBatch {
                            guard let item = try items.next(progress: progress, shouldStop: shouldStop) else {
                                batch.stopped = !items.isAtEnd
                                finished = true
                                break
                            }
                            count += 1
                            switch item {
                            case .skipped:
                                batch.deleted += 1
                            case .record(let record):
                                do {
                                    if try cursor.insert(record) {
                                        batch.added += 1
                                        changed = true
                                    } else {
                                        batch.alreadyKept += 1
                                    }
                                } catch let error as SQLiteStoreError {
                                    batch.problems.append("\(path):\(record.line): \(error)")
                                }
                            case .deletion(let ids):
                                let before = try Self.scoreCount(db, ids: ids)
                                try cursor.finish()
                                try Self.delete(ids: ids, in: db)
                                batch.deleted += before
                                changed = changed || before > 0
                            case .problem(let message):
                                batch.problems.append(message)
                            }
                        }
                        try cursor.finish()
                        if changed { try Self.bumpRevision(db) }
                        return .commit
                    }
                }
            } catch is CancellationError {
                // A wait for a lock was stopped (`stopWaiting`): the batch was undone.
                summary.stopped = true
                break
            }
            summary.added += batch.added
            summary.alreadyKept += batch.alreadyKept
            summary.deleted += batch.deleted
            summary.problems += batch.problems
            summary.stopped = batch.stopped
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
            try RawStatement.text(SQLiteScoreStore.connection(of: db), "SELECT legacy_import FROM meta")
        }
        guard FileManager.default.fileExists(atPath: legacyPath) else { return nil }
        if let imported {
            // Versions before line-by-line reading took a file whose first line was damaged for
            // CSV and kept none of its records: such a file is imported once more.
            guard !imported.hasSuffix(Self.readByLine), ScoreFileReader.firstLineIsDamaged(legacyPath) else {
                return nil
            }
        }
        let summary = try importFile(at: legacyPath) { done, _ in progress?(done) }
        try accessSynchronously { db in
            try db.inTransaction(.immediate) {
                try db.execute(
                    sql: "UPDATE meta SET legacy_import = ?", arguments: [legacyPath + Self.readByLine])
                return .commit
            }
        }
        return summary
    }

    /// What `meta.legacy_import` ends with when the file was read a line at a time, each damaged
    /// line costing that line only.
    static let readByLine = "\u{1F}by line"

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
                let rows = try Row.fetchCursor(db, sql: Self.recordsSQL)
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

/// The items of a score file, read and made ready for the database (``SQLiteScoreStore/PreparedRecord``)
/// on a thread of its own, and handed to the writing thread in batches.
///
/// At most a few batches wait at once, so memory does not grow with the file.
final class ImportFeed: @unchecked Sendable {
    enum Item: Sendable {
        case record(SQLiteScoreStore.PreparedRecord)
        /// A record that a tombstone of the same file deletes.
        case skipped
        case deletion([UUID])
        case problem(String)
    }

    private struct Batch {
        var items: [Item]
        var fraction: Double?
        /// Set on the last batch: nil when the file was read to its end, else why reading failed.
        var end: StoreError??
    }

    private static let batchSize = 2_000
    private static let capacity = 8
    /// Guards everything below it; the reading thread waits on it when `queue` is full, the
    /// writing one when it is empty.
    private let condition = NSCondition()
    private var queue: [Batch] = []
    private var stopped = false
    // The writing thread's own: the batch it takes items from.
    private var current: [Item] = []
    private var index = 0
    private var end: StoreError?? = .none
    private var received = 0

    /// Starts reading `reader` on a new thread; `reader` belongs to that thread from now on.
    init(reader: ScoreFileReader, skipping deleted: Set<UUID>) {
        let handed = Handed(reader)
        let thread = Thread { [self] in
            read(handed.reader, skipping: deleted)
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Whether the whole file was handed over.
    var isAtEnd: Bool { index == current.count && end == .some(.none) }

    /// The next item, or nil at the end of the file or once told to stop; `progress` is told the
    /// items received and the fraction of the file read, once per batch.
    ///
    /// `shouldStop` is asked at each batch, and every tenth of a second while the reading thread
    /// has nothing to hand over. Once it says yes, the reading thread is stopped and the batches
    /// it handed over are still given, then nil: what was read from a pipe or a terminal before
    /// it waited for more is never dropped (it hands its batch over before waiting).
    ///
    /// Called by the writing thread only.
    /// - Throws: `StoreError` when reading the file failed.
    func next(progress: (Int, Double?) -> Void, shouldStop: () -> Bool) throws(StoreError) -> Item? {
        while index == current.count {
            switch end {
            case .some(.none): return nil
            case .some(.some(let error)): throw error
            case .none: break
            }
            condition.lock()
            stopIfAsked(shouldStop)
            while queue.isEmpty {
                if stopped {
                    condition.unlock()
                    return nil
                }
                _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1))
                stopIfAsked(shouldStop)
            }
            let batch = queue.removeFirst()
            condition.broadcast()
            condition.unlock()
            current = batch.items
            index = 0
            end = batch.end
            received += batch.items.count
            progress(received, batch.fraction)
        }
        defer { index += 1 }
        return current[index]
    }

    /// Stops the reading thread at its next batch once `shouldStop` says so; called with the
    /// condition locked.
    private func stopIfAsked(_ shouldStop: () -> Bool) {
        guard !stopped, shouldStop() else { return }
        stopped = true
        condition.broadcast()
    }

    /// Tells the reading thread to stop at its next batch.
    ///
    /// It is not waited for: it may be waiting for standard input, and it owns the reader.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func read(_ reader: ScoreFileReader, skipping deleted: Set<UUID>) {
        var items: [Item] = []
        items.reserveCapacity(Self.batchSize)
        // Before waiting for more input, what was read goes to the writer: it may be told to stop
        // meanwhile, and keeps only what it has.
        reader.beforeWaiting = { [unowned self] in
            guard !items.isEmpty, hand(Batch(items: items, fraction: reader.fractionRead, end: .none)) else {
                return
            }
            items = []
            items.reserveCapacity(Self.batchSize)
        }
        defer { reader.beforeWaiting = nil }
        while true {
            let item: ScoreFileReader.Item?
            do {
                item = try reader.next()
            } catch {
                _ = hand(Batch(items: items, fraction: reader.fractionRead, end: .some(error)))
                return
            }
            switch item {
            case nil:
                _ = hand(Batch(items: items, fraction: reader.fractionRead, end: .some(nil)))
                return
            case .record(let record)? where deleted.contains(record.id):
                items.append(.skipped)
            case .record(let record)?:
                items.append(.record(SQLiteScoreStore.PreparedRecord(record, line: reader.lineNumber)))
            case .deletion(let ids)?:
                items.append(.deletion(ids))
            case .problem(let message)?:
                items.append(.problem(message))
            }
            if items.count == Self.batchSize {
                guard hand(Batch(items: items, fraction: reader.fractionRead, end: .none)) else { return }
                items = []
                items.reserveCapacity(Self.batchSize)
            }
        }
    }

    /// Queues `batch`, waiting while the queue is full; false once the writer has stopped.
    private func hand(_ batch: Batch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= Self.capacity && !stopped { condition.wait() }
        guard !stopped else { return false }
        queue.append(batch)
        condition.broadcast()
        return true
    }

    /// The reader, passed once to the thread that reads it.
    private final class Handed: @unchecked Sendable {
        let reader: ScoreFileReader
        init(_ reader: ScoreFileReader) { self.reader = reader }
    }
}
