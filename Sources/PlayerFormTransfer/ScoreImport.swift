import Foundation
import PlayerFormRules
import PlayerFormScores

/// What an import did.
public struct ImportSummary: Sendable, Equatable {
    /// Records newly kept.
    public var added = 0
    /// Records that were already kept, identical, and so were left as they were.
    public var alreadyKept = 0
    /// Records that tombstones of the earlier file format delete: skipped, or removed from the
    /// store.
    public var deleted = 0
    /// One message per line that is not a record, naming the file and line.
    public var problems: [String] = []
    /// Records whose id is kept with other content: not imported.
    public var conflicts: [Conflict] = []
    /// Records the store refused on their own (a league's server refusing a value): not imported.
    public var refused: [Refusal] = []
    /// Whether the import stopped because it was asked to, before the end of the file: the
    /// records counted above are kept, and importing a regular file again adds the rest.
    public var stopped = false

    /// A record whose id is kept with other content.
    public struct Conflict: Sendable, Equatable {
        /// The line of the file it was read from.
        public var line: Int
        /// Its id.
        public var id: UUID
    }

    /// A record the store refused.
    public struct Refusal: Sendable, Equatable {
        /// The line of the file it was read from.
        public var line: Int
        /// Why.
        public var error: ScoreStoreError
    }

    /// An empty summary.
    public init() {}

    /// How many lines were not imported: damaged, conflicting or refused.
    public var notImported: Int { problems.count + conflicts.count + refused.count }
}

/// Imports score files into any `ScoreStore`: the one import of SQLite databases and leagues.
///
/// The file is read and parsed, and each name's comparison key worked out, on a thread of its own
/// while the store keeps the batch before, in batches of the store's `ScoreStore.keepBatchSize`,
/// one `ScoreStore.keep(_:)` each. Importing the same file again changes nothing: records are
/// matched by id. A record whose id is kept with other content is not imported and is reported.
public enum ScoreImport {
    /// Imports the score file at `path` (`-` is standard input) into `store`, skipping the
    /// records that the file's own tombstones delete and applying its deletions in order.
    ///
    /// - Parameters:
    ///   - path: the score file: JSON Lines of earlier versions, an export (JSON Lines or CSV), or
    ///     a roster (CSV or JSON Lines of names and points).
    ///   - store: where the records go.
    ///   - progress: told the number of records read and the fraction of the file read.
    ///   - shouldStop: asked during the pass for tombstones, at each batch of the file, and every
    ///     tenth of a second while the file has nothing new (a pipe or a terminal); once it says
    ///     yes, the records already read are kept and the import ends,
    ///     ``ImportSummary/stopped`` set. A store that stops a wait for a lock on the same signal
    ///     ends its `ScoreStore.keep(_:)` with `ScoreStoreError.cancelled`: that batch is
    ///     undone, and the import ends the same way.
    /// - Returns: how many records were imported, and what was skipped.
    /// - Throws: ``ScoreFileError`` when the file cannot be read, `ScoreStoreError` when the
    ///   store fails; the batches before were kept.
    public static func importFile(
        at path: String, into store: any ScoreStore, progress: (Int, Double?) -> Void = { _, _ in },
        shouldStop: () -> Bool = { false }
    ) async throws -> ImportSummary {
        var summary = ImportSummary()
        guard let deleted = try ScoreFileReader.deletedIDs(in: path, shouldStop: shouldStop) else {
            summary.stopped = true
            return summary
        }
        let batchSize = max(1, store.keepBatchSize)
        // The reading thread may read a whole batch ahead while the store keeps the one before.
        let items = ImportFeed(
            reader: try ScoreFileReader(path: path), skipping: deleted, readingAhead: batchSize)
        defer { items.stop() }
        var batch = RecordBatch()
        var lines: [Int] = []
        while true {
            let item = try items.next(progress: progress, shouldStop: shouldStop)
            if case .record(let record, let key, let line)? = item {
                batch.append(record, key: key)
                lines.append(line)
                if batch.count < batchSize { continue }
            }
            if case .deletion(let ids)? = item { batch.delete(ids) }
            if case .problem(let message)? = item { summary.problems.append(message) }
            if case .skipped? = item { summary.deleted += 1 }
            // A full batch, a deletion (kept in order with the records before it) or the end.
            let ends = item == nil
            if batch.count >= batchSize || batch.hasDeletions || ends {
                guard try await keep(batch, lines: lines, in: store, into: &summary) else {
                    summary.stopped = true
                    return summary
                }
                batch.removeAll()
                lines.removeAll(keepingCapacity: true)
            }
            if ends {
                summary.stopped = !items.isAtEnd
                return summary
            }
        }
    }

    /// What `store` did with `batch`; nil when it was stopped waiting for a lock.
    private static func keeping(_ batch: RecordBatch, in store: any ScoreStore) async throws(ScoreStoreError)
        -> KeptBatch?
    {
        do {
            return try await store.keep(batch)
        } catch {
            if case .cancelled = error { return nil }
            throw error
        }
    }

    /// Keeps `batch`, whose records were read from `lines`, and counts what the store did; false
    /// when the store was stopped waiting for a lock (the batch was undone).
    private static func keep(
        _ batch: RecordBatch, lines: [Int], in store: any ScoreStore, into summary: inout ImportSummary
    ) async throws -> Bool {
        guard !batch.isEmpty || batch.hasDeletions else { return true }
        guard let kept = try await keeping(batch, in: store) else { return false }
        summary.added += kept.added
        summary.alreadyKept += kept.alreadyKept
        summary.deleted += kept.deleted
        for position in kept.conflicting {
            summary.conflicts.append(.init(line: lines[position], id: batch.records[position].id))
        }
        for refusal in kept.refused {
            summary.refused.append(.init(line: lines[refusal.position], error: refusal.error))
        }
        return true
    }
}

/// The items of a score file, read and given their names' comparison keys on a thread of its own,
/// and handed to the importing task in batches.
///
/// At most a store's batch of records waits at once, so memory does not grow with the file.
final class ImportFeed: @unchecked Sendable {
    enum Item: Sendable {
        /// A record, its name's comparison key, and the line it was read from.
        case record(ScoreRecord, key: String, line: Int)
        /// A record that a tombstone of the same file deletes.
        case skipped
        case deletion([UUID])
        case problem(String)
    }

    private struct Batch {
        var items: [Item]
        var fraction: Double?
        /// Set on the last batch: nil when the file was read to its end, else why reading failed.
        var end: ScoreFileError??
    }

    private static let batchSize = 2_000
    /// How many batches may wait.
    private let capacity: Int
    /// Guards everything below it; the reading thread waits on it when `queue` is full, the
    /// importing one when it is empty.
    private let condition = NSCondition()
    private var queue: [Batch] = []
    private var stopped = false
    // The importing task's own: the batch it takes items from.
    private var current: [Item] = []
    private var index = 0
    private var end: ScoreFileError?? = .none
    private var received = 0

    /// Starts reading `reader` on a new thread, which reads up to about `readingAhead` items
    /// ahead of the importer; `reader` belongs to that thread from now on.
    init(reader: ScoreFileReader, skipping deleted: Set<UUID>, readingAhead: Int) {
        capacity = max(8, readingAhead / Self.batchSize + 1)
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
    /// Called by the importing task only.
    /// - Throws: ``ScoreFileError`` when reading the file failed.
    func next(progress: (Int, Double?) -> Void, shouldStop: () -> Bool) throws(ScoreFileError) -> Item? {
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
        // Before waiting for more input, what was read goes to the importer: it may be told to
        // stop meanwhile, and keeps only what it has.
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
                items.append(
                    .record(record, key: PlayerName.comparisonKey(record.name), line: reader.lineNumber))
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

    /// Queues `batch`, waiting while the queue is full; false once the importer has stopped.
    private func hand(_ batch: Batch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= capacity && !stopped { condition.wait() }
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
