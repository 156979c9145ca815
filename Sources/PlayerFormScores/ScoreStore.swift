import Foundation
import PlayerFormRules

/// A player's score as kept by a store.
public struct ScoreRecord: Sendable, Equatable, Hashable, Codable {
    /// Identifies the record within its store.
    public let id: UUID
    /// The player's name.
    public let name: String
    /// The player's points.
    public let points: Double
    /// When the score was uploaded.
    public let uploadedAt: Date

    /// Creates a record.
    public init(id: UUID, name: String, points: Double, uploadedAt: Date) {
        self.id = id
        self.name = name
        self.points = points
        self.uploadedAt = uploadedAt
    }
}

/// A window of the roster as one reading: the store's revision and player count, and the players
/// asked for, all at one moment.
public struct RosterWindow: Sendable, Equatable {
    /// The store's ``ScoreStore/revision()`` when the window was read.
    public var revision: UInt64
    /// How many players the store kept then.
    public var playerCount: Int
    /// The players asked for that the store kept then, in roster order, each with its record ids.
    public var players: [Player]

    /// Creates a window.
    public init(revision: UInt64, playerCount: Int, players: [Player]) {
        self.revision = revision
        self.playerCount = playerCount
        self.players = players
    }
}

/// Where uploaded scores go.
///
/// The view model is given one; it does no other I/O. Every method throws only
/// ``ScoreStoreError``: a store turns the errors of the layer below into it, so that a view model
/// can carry the error and a front end choose its words.
public protocol ScoreStore: Sendable {
    /// Stores a score and returns the record as kept. Returns only once the record is kept.
    func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord
    /// Every record kept, oldest first: by `uploadedAt`, records of the same time in the order
    /// they were kept.
    func records() async throws(ScoreStoreError) -> [ScoreRecord]
    /// Removes the records with these identifiers; identifiers the store does not keep are ignored.
    /// Returns only once the removal is kept.
    func delete(ids: [UUID]) async throws(ScoreStoreError)

    // MARK: Import and export
    //
    // Written once over this protocol (PlayerFormTransfer's ScoreImport and ScoreExport), for
    // every store.

    /// Keeps the records of `batch` as they are, ids and times included, as an import does, and
    /// returns only once they are kept (one transaction for a store that has them).
    ///
    /// A record whose id is kept with the same name, points and time is left as it is, so that
    /// keeping the same records twice changes nothing; one whose id is kept with other content is
    /// not kept, and its position is returned. A player shows its newest record, as for uploads.
    /// Added with a default that refuses with ``ScoreStoreError/importUnsupported``.
    func keep(_ batch: RecordBatch) async throws(ScoreStoreError) -> KeptBatch
    /// How many records one ``keep(_:)`` should carry: as many as one transaction of the store
    /// takes well. Added with a default of 1,000.
    var keepBatchSize: Int { get }
    /// Every record, oldest first as ``records()`` lists them, handed to `body` a page at a time
    /// from one reading of the store, so that memory does not grow with it; `body` returns false
    /// to stop. Added with a default that hands over ``records()`` as one page.
    func exportRecords(_ body: @escaping @Sendable ([ScoreRecord]) -> Bool) async throws(ScoreStoreError)
    /// The number of records kept, for an export's progress. Added with a default that counts
    /// ``records()``.
    func recordCount() async throws(ScoreStoreError) -> Int

    // MARK: The roster's questions
    //
    // A roster shows a window of players, so a store answers for that window alone. A player is
    // every record whose name has the same `PlayerName.comparisonKey(_:)`; it shows the name,
    // points and time of its newest record (`Player.isNewer(_:than:)`), whatever order the records
    // arrived in; players are ordered by the first record kept of each. The
    // default implementations read every record (O(players)); a store meant for large rosters
    // answers each in O(log n) or O(rows asked for).

    /// How many players the store keeps.
    func playerCount() async throws(ScoreStoreError) -> Int
    /// At most `limit` players in roster order, starting at the 0-based `offset`.
    func players(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player]
    /// The same players as ``players(from:limit:)``, whose ``Player/recordIDs`` may be left
    /// empty: for a listing that shows no record, which a store may answer without reading them.
    /// Added with a default that reads them.
    func playerListing(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player]
    /// The player named `name` (by `PlayerName.comparisonKey(_:)`) and its 0-based place in
    /// roster order, or nil when the store keeps no such player.
    func player(named name: String) async throws(ScoreStoreError) -> (index: Int, player: Player)?
    /// The players whose comparison key starts with that of `text` (see ``NamePrefix``), at most
    /// `limit` of them, in the order of their keys, each with its 0-based place in roster order
    /// and with ``Player/recordIDs`` possibly left empty. Added with a default that reads every
    /// record; a store meant for large rosters answers from an index of the keys, in O(rows
    /// returned).
    func players(startingWith text: String, limit: Int) async throws(ScoreStoreError) -> [(
        index: Int, player: Player
    )]
    /// Removes the player named `name` and every record of it, including records other clients
    /// kept since this one last read, in one step; returns the player removed, or nil when there
    /// was none. Returns only once the removal is kept.
    func deletePlayer(named name: String) async throws(ScoreStoreError) -> Player?
    /// A value that differs after any change was kept, by this client or any other sharing the
    /// store; a roster compares two readings to learn that it must read its window again.
    func revision() async throws(ScoreStoreError) -> UInt64
    /// ``revision()``, ``playerCount()`` and ``players(from:limit:)`` answered together: at one
    /// moment, so that they agree, and for a store across a network in one request. A roster reads
    /// its window this way. Added with a default that asks the three in turn.
    func rosterWindow(from offset: Int, limit: Int) async throws(ScoreStoreError) -> RosterWindow
}

extension ScoreStore {
    /// Refuses: a store that does not implement deletion keeps everything.
    public func delete(ids: [UUID]) async throws(ScoreStoreError) {
        throw .deletionUnsupported
    }

    /// Refuses: a store that does not implement it keeps uploads only.
    public func keep(_ batch: RecordBatch) async throws(ScoreStoreError) -> KeptBatch {
        throw .importUnsupported
    }

    /// 1,000 records.
    public var keepBatchSize: Int { 1_000 }

    /// The number of ``records()``.
    public func recordCount() async throws(ScoreStoreError) -> Int {
        try await records().count
    }

    /// ``records()``, as one page.
    public func exportRecords(_ body: @escaping @Sendable ([ScoreRecord]) -> Bool)
        async throws(ScoreStoreError)
    {
        _ = body(try await records())
    }

    /// Counts the players of every record.
    public func playerCount() async throws(ScoreStoreError) -> Int {
        Player.roster(from: try await records()).count
    }

    /// The players with their record ids: ``players(from:limit:)``.
    public func playerListing(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player] {
        try await players(from: offset, limit: limit)
    }

    /// Reads every record and returns the players asked for.
    public func players(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player] {
        let all = Player.roster(from: try await records())
        let start = min(max(offset, 0), all.count)
        return Array(all[start..<min(start + max(limit, 0), all.count)])
    }

    /// Reads every record and finds the player.
    public func player(named name: String) async throws(ScoreStoreError) -> (index: Int, player: Player)? {
        let key = PlayerName.comparisonKey(name)
        let all = Player.roster(from: try await records())
        guard let index = all.firstIndex(where: { PlayerName.comparisonKey($0.name) == key }) else {
            return nil
        }
        return (index, all[index])
    }

    /// Reads every record and keeps the players whose key starts with that of `text`.
    public func players(startingWith text: String, limit: Int) async throws(ScoreStoreError) -> [(
        index: Int, player: Player
    )] {
        NamePrefix.matches(text, in: Player.roster(from: try await records()), limit: limit)
    }

    /// Finds the player in every record and deletes its records.
    public func deletePlayer(named name: String) async throws(ScoreStoreError) -> Player? {
        guard let (_, player) = try await player(named: name) else { return nil }
        try await delete(ids: player.recordIDs)
        return player
    }

    /// A hash of every record: correct, and O(records).
    public func revision() async throws(ScoreStoreError) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(try await records())
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// The three questions in turn, the revision first: a change kept after it makes the revision
    /// differ when it is next compared, so that the window is read again.
    public func rosterWindow(from offset: Int, limit: Int) async throws(ScoreStoreError) -> RosterWindow {
        let revision = try await revision()
        let playerCount = try await playerCount()
        let players = try await players(from: offset, limit: limit)
        return RosterWindow(revision: revision, playerCount: playerCount, players: players)
    }
}

/// A score store in memory, for tests and embedding.
///
/// It keeps its players as well as its records, so that it answers the roster's questions as a
/// store meant for large rosters does: ``playerCount()``, ``player(named:)`` and ``revision()`` in
/// O(1), ``players(from:limit:)`` in O(rows asked for), an upload in O(1) (amortised). Deleting
/// is O(records), which is rare. ``init(records:now:makeID:)`` fills it in one pass.
public actor InMemoryScoreStore: ScoreStore {
    private var kept: [ScoreRecord] = []
    /// The players in roster order, and where each comparison key is in it.
    private var roster: [Player] = []
    /// The comparison key of each player, parallel to `roster`.
    private var keys: [String] = []
    private var indexByKey: [String: Int] = [:]
    private var changes: UInt64 = 0
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID

    /// Creates an empty store.
    /// - Parameters:
    ///   - now: the clock that stamps uploads.
    ///   - makeID: makes the identifier of each record.
    public init(
        now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> UUID = { UUID() }
    ) {
        self.now = now
        self.makeID = makeID
    }

    /// Creates a store that already keeps `records` (oldest first), grouped into players in one
    /// pass: the quick way to a store of a million players.
    public init(
        records: [ScoreRecord],
        now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> UUID = { UUID() }
    ) {
        self.now = now
        self.makeID = makeID
        kept = records
        (roster, keys, indexByKey) = Self.group(records)
    }

    /// Creates a store that keeps what `other` keeps now, and changes apart from it from then on:
    /// O(1) until the first change of either, which copies what it changes.
    public init(
        copying other: InMemoryScoreStore,
        now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> UUID = { UUID() }
    ) async {
        self.now = now
        self.makeID = makeID
        (kept, roster, keys, indexByKey, changes) = await other.contents()
    }

    private func contents() -> ([ScoreRecord], [Player], [String], [String: Int], UInt64) {
        (kept, roster, keys, indexByKey, changes)
    }

    /// Keeps a record of `name` and `points`, stamped with the store's clock and a new id.
    public func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
        let record = ScoreRecord(id: makeID(), name: name, points: points, uploadedAt: now())
        add(record, key: PlayerName.comparisonKey(name))
        changes &+= 1
        return record
    }

    /// Keeps the records of `batch` whose ids are new, and applies its deletions in order; a
    /// player shows its newest record.
    public func keep(_ batch: RecordBatch) async throws(ScoreStoreError) -> KeptBatch {
        if let bad = batch.records.first(where: { !$0.points.isFinite }) {
            throw .notFinite(points: bad.points)
        }
        var byID = Dictionary(kept.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var result = KeptBatch()
        var deletions: [UUID] = []
        batch.forEach { position, record, key in
            if let known = byID[record.id] {
                if known == record { result.alreadyKept += 1 } else { result.conflicting.append(position) }
                return
            }
            byID[record.id] = record
            add(record, key: key)
            result.added += 1
        } deletion: { ids in
            let gone = Set(ids)
            let before = kept.count
            kept.removeAll { gone.contains($0.id) }
            for id in ids { byID[id] = nil }
            result.deleted += before - kept.count
            deletions += ids
        }
        if !deletions.isEmpty { (roster, keys, indexByKey) = Self.group(kept) }
        if result.added > 0 || result.deleted > 0 { changes &+= 1 }
        return result
    }

    /// Adds `record`, whose name has `key`, to the records and to its player.
    private func add(_ record: ScoreRecord, key: String) {
        kept.append(record)
        if let index = indexByKey[key] {
            roster[index] = roster[index].updated(with: record)
        } else {
            indexByKey[key] = roster.count
            keys.append(key)
            roster.append(
                Player(
                    name: record.name, points: record.points, uploadedAt: record.uploadedAt,
                    recordIDs: [record.id], key: key))
        }
    }

    /// Every record kept, oldest first: by time, records of the same time in the order kept.
    public func records() async throws(ScoreStoreError) -> [ScoreRecord] {
        kept.enumerated().sorted { ($0.element.uploadedAt, $0.offset) < ($1.element.uploadedAt, $1.offset) }
            .map(
                \.element)
    }

    /// Removes the records with these ids; other ids are ignored.
    public func delete(ids: [UUID]) async throws(ScoreStoreError) {
        let removed = Set(ids)
        let before = kept.count
        kept.removeAll { removed.contains($0.id) }
        guard kept.count != before else { return }
        (roster, keys, indexByKey) = Self.group(kept)
        changes &+= 1
    }

    /// The number of players, from the index.
    public func playerCount() async throws(ScoreStoreError) -> Int {
        roster.count
    }

    /// The players from `offset` in roster order, at most `limit` of them, from the index.
    public func players(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player] {
        let start = min(max(offset, 0), roster.count)
        return Array(roster[start..<min(start + max(limit, 0), roster.count)])
    }

    /// The player whose name has the comparison key of `name`, and its index in the roster.
    public func player(named name: String) async throws(ScoreStoreError) -> (index: Int, player: Player)? {
        guard let index = indexByKey[PlayerName.comparisonKey(name)] else { return nil }
        return (index, roster[index])
    }

    /// The players whose key starts with that of `text`, from a pass over the keys (O(players):
    /// a store for specs and embedding).
    public func players(startingWith text: String, limit: Int) async throws(ScoreStoreError) -> [(
        index: Int, player: Player
    )] {
        NamePrefix.matches(text, in: roster, limit: limit)
    }

    /// Removes every record of the player named `name`; nil when there is no such player.
    public func deletePlayer(named name: String) async throws(ScoreStoreError) -> Player? {
        let key = PlayerName.comparisonKey(name)
        guard let index = indexByKey.removeValue(forKey: key) else { return nil }
        let player = roster.remove(at: index)
        keys.remove(at: index)
        for later in index..<keys.count { indexByKey[keys[later]] = later }
        let removed = Set(player.recordIDs)
        kept.removeAll { removed.contains($0.id) }
        changes &+= 1
        return player
    }

    /// Counts every change; it grows with each upload and deletion.
    public func revision() async throws(ScoreStoreError) -> UInt64 {
        changes
    }

    /// The revision, the count and the players from the index, in one step of the actor.
    public func rosterWindow(from offset: Int, limit: Int) async throws(ScoreStoreError) -> RosterWindow {
        let start = min(max(offset, 0), roster.count)
        let players = Array(roster[start..<min(start + max(limit, 0), roster.count)])
        return RosterWindow(revision: changes, playerCount: roster.count, players: players)
    }

    /// The players of `records` and the index of each key, as ``Player/roster(from:)`` groups them.
    private static func group(_ records: [ScoreRecord]) -> ([Player], [String], [String: Int]) {
        var players: [Player] = []
        var keys: [String] = []
        var indexByKey: [String: Int] = [:]
        players.reserveCapacity(records.count)
        keys.reserveCapacity(records.count)
        indexByKey.reserveCapacity(records.count)
        for record in records {
            let key = PlayerName.comparisonKey(record.name)
            if let index = indexByKey[key] {
                players[index] = players[index].updated(with: record)
            } else {
                indexByKey[key] = players.count
                keys.append(key)
                players.append(
                    Player(
                        name: record.name, points: record.points, uploadedAt: record.uploadedAt,
                        recordIDs: [record.id], key: key))
            }
        }
        return (players, keys, indexByKey)
    }
}
