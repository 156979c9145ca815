import Foundation
import PlayerFormRules

/// Records to keep as they are, as an import keeps them, each with its name's comparison key
/// (`PlayerName.comparisonKey(_:)`), worked out once by whoever read the records: an import
/// works the keys out on the thread that reads the file while the store keeps the batch before.
///
/// A batch may also delete records (the tombstones of the earlier file format), in order with
/// the records kept before and after.
public struct RecordBatch: Sendable {
    /// The records, in the order they are to be kept.
    public private(set) var records: [ScoreRecord] = []
    /// The comparison key of each record's name, parallel to ``records``.
    public private(set) var keys: [String] = []
    /// The deletions, each after the records before its ``Deletion/position``.
    public private(set) var deletions: [Deletion] = []

    /// Records to delete, by id, once the records before ``position`` are kept.
    public struct Deletion: Sendable, Equatable {
        /// How many of the batch's records come before the deletion.
        public var position: Int
        /// The ids of the records to delete; ids that are not kept are ignored.
        public var ids: [UUID]
    }

    /// An empty batch.
    public init() {}

    /// A batch of `records`, their keys worked out now.
    public init(_ records: [ScoreRecord]) {
        for record in records { append(record) }
    }

    /// The number of records.
    public var count: Int { records.count }

    /// Whether there is no record.
    public var isEmpty: Bool { records.isEmpty }

    /// Adds `record`, whose name's comparison key is `key`.
    public mutating func append(_ record: ScoreRecord, key: String) {
        records.append(record)
        keys.append(key)
    }

    /// Adds `record`, working out its name's comparison key.
    public mutating func append(_ record: ScoreRecord) {
        append(record, key: PlayerName.comparisonKey(record.name))
    }

    /// Deletes the records with `ids` after the records appended so far.
    public mutating func delete(_ ids: [UUID]) {
        deletions.append(Deletion(position: records.count, ids: ids))
    }

    /// Whether the batch deletes records.
    public var hasDeletions: Bool { !deletions.isEmpty }

    /// Goes through the batch in order: `record` for each record, with its position, and
    /// `deletion` for each deletion, once the records before it are through.
    public func forEach<Failure: Error>(
        record: (_ position: Int, ScoreRecord, _ key: String) throws(Failure) -> Void,
        deletion: ([UUID]) throws(Failure) -> Void
    ) throws(Failure) {
        var next = 0
        for position in 0...records.count {
            while next < deletions.count, deletions[next].position == position {
                try deletion(deletions[next].ids)
                next += 1
            }
            guard position < records.count else { break }
            try record(position, records[position], keys[position])
        }
    }

    /// Removes every record and deletion, keeping the storage for the next batch.
    public mutating func removeAll() {
        records.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        deletions.removeAll()
    }
}

/// What ``ScoreStore/keep(_:)`` did with a batch.
public struct KeptBatch: Sendable, Equatable {
    /// Records that were new, and are kept now.
    public var added = 0
    /// Records whose id was kept with the same content: left as they were.
    public var alreadyKept = 0
    /// Records the batch's deletions removed.
    public var deleted = 0
    /// The positions in the batch of records whose id is kept with other content: not kept.
    public var conflicting: [Int] = []
    /// Records the store refused one by one, by position and why (a league's server refusing a
    /// value); every other record of the batch was kept or counted above.
    public var refused: [Refusal] = []

    /// A record the store refused.
    public struct Refusal: Sendable, Equatable {
        /// Its position in the batch.
        public var position: Int
        /// Why.
        public var error: ScoreStoreError

        /// The record at `position`, refused for `error`.
        public init(position: Int, error: ScoreStoreError) {
            self.position = position
            self.error = error
        }
    }

    /// Nothing done yet.
    public init() {}
}
