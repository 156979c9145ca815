import Foundation
import PlayerFormPostgres
import PlayerFormSQLite
import PlayerFormScores
import PlayerFormTransfer
import Synchronization
import Testing

/// A kind of store under the contract: how to make one, and a second client on the same storage.
struct StoreKind: Sendable, CustomTestStringConvertible {
    let name: String
    /// Makes a store on fresh storage and a maker of other clients of that storage.
    let make:
        @Sendable (_ now: @escaping @Sendable () -> Date) throws -> (
            store: any ScoreStore, another: @Sendable () throws -> any ScoreStore
        )
    /// Makes a store on fresh storage that keeps `records` (oldest first), loaded the quick way
    /// each store has for many records at once, rather than one upload each.
    let makeFilled: @Sendable (_ records: [ScoreRecord]) async throws -> any ScoreStore

    var testDescription: String { name }

    static let inMemory = StoreKind(name: "InMemoryScoreStore") { now in
        let store = InMemoryScoreStore(now: now)
        return (store, { store })
    } makeFilled: { records in
        InMemoryScoreStore(records: records)
    }

    static let sqlite = StoreKind(name: "SQLiteScoreStore") { now in
        let path = try makeTemporaryFolder().appendingPathComponent("scores.sqlite").path
        return (
            try SQLiteScoreStore(path: path, now: now),
            { try SQLiteScoreStore(path: path, now: now) }
        )
    } makeFilled: { records in
        let folder = try makeTemporaryFolder()
        let file = folder.appendingPathComponent("records.jsonl").path
        try scoreLines(records).write(toFile: file, atomically: true, encoding: .utf8)
        let store = try SQLiteScoreStore(path: folder.appendingPathComponent("scores.sqlite").path)
        _ = try await ScoreImport.importFile(at: file, into: store)
        return store
    }

    /// `records` as a score file: a JSON object a line, as an export writes them.
    static func scoreLines(_ records: [ScoreRecord]) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.text(date))
        }
        return try records.map { String(decoding: try encoder.encode($0), as: UTF8.self) + "\n" }.joined()
    }

    /// The league on the PostgreSQL server of `PLAYERFORM_TEST_POSTGRES_URL`, each test in a
    /// schema of its own; nil (and said once) when the variable is not set.
    static let postgres: StoreKind? = PostgresTestServer.url.map { url in
        StoreKind(name: "PostgresScoreStore") { now in
            let schema = PostgresTestServer.freshSchema()
            let location = try PostgresLocation(url, environment: [:])
            return (
                PostgresScoreStore(location: location, password: nil, schema: schema, now: now),
                { PostgresScoreStore(location: location, password: nil, schema: schema, now: now) }
            )
        } makeFilled: { records in
            let store = PostgresScoreStore(
                location: try PostgresLocation(url, environment: [:]), password: nil,
                schema: PostgresTestServer.freshSchema())
            _ = try await store.keep(RecordBatch(records))
            return store
        }
    }

    static let all: [StoreKind] = [.inMemory, .sqlite] + (postgres.map { [$0] } ?? [])
}

/// A clock that reads `times` (seconds since 1970) in turn, then the last one again.
final class ScriptedClock: Sendable {
    private let times: Mutex<[Double]>

    init(_ times: [Double]) { self.times = Mutex(times) }

    var now: @Sendable () -> Date {
        {
            self.times.withLock {
                Date(timeIntervalSince1970: $0.count > 1 ? $0.removeFirst() : $0[0])
            }
        }
    }
}

/// What a store brought up from an earlier schema must still show of the six records `Ann`, `Bob`,
/// `Cy`, `bob`, `ANN`, `Dee` (with `ids`, in that order): the records, the players in the order of
/// their first records, the count and a place; and an upload after it lands at the end.
func expectKeptAcrossMigration(_ store: any ScoreStore, ids: [UUID]) async throws {
    let records = try await store.records()
    #expect(records.map(\.id) == ids)
    #expect(records.map(\.name) == ["Ann", "Bob", "Cy", "bob", "ANN", "Dee"])
    let roster = Player.roster(from: records)
    #expect(roster.map(\.name) == ["ANN", "bob", "Cy", "Dee"])
    #expect(try await store.players(from: 0, limit: 10) == roster)
    #expect(try await store.playerCount() == 4)
    #expect(try await store.player(named: "cy")?.index == 2)
    _ = try await store.upload(name: "Eve", points: 1)
    #expect(try await store.player(named: "eve")?.index == 4)
}

/// A clock that moves one millisecond each time it is read, so that every upload has its own
/// time and each store keeps it exactly.
final class SteppingClock: Sendable {
    private let next = Mutex<Int64>(1_763_712_000_000)

    var now: @Sendable () -> Date {
        {
            self.next.withLock {
                $0 += 1
                return Date(timeIntervalSince1970: Double($0) / 1000)
            }
        }
    }
}

/// What every ``ScoreStore`` promises, checked against each kind of store.
@Suite("The score store contract", .timeLimit(.minutes(10)))
struct ScoreStoreContractTests {
    @Test(
        "pages, counts and places stay right over 10,000 records as players and first records go",
        arguments: StoreKind.all)
    func pagesOverManyRecords(kind: StoreKind) async throws {
        // A new player at every even record, an earlier player again at every odd one: first
        // records spread over the whole range (three blocks of 4,096 in the database stores).
        let time = Date(timeIntervalSince1970: 1_763_712_000)
        let records = (0..<10_000).map { line in
            let player = line.isMultiple(of: 2) ? line : (line - 1) / 4 * 2
            return ScoreRecord(id: UUID(), name: "P\(player)", points: Double(line), uploadedAt: time)
        }
        let store = try await kind.makeFilled(records)
        #expect(try await store.records().count == 10_000)
        // Whole players from each block, and records, some of them first records.
        for name in ["P0", "P4000", "P4096", "P8190", "P9998"] {
            #expect(try await store.deletePlayer(named: name) != nil)
        }
        try await store.delete(ids: [2, 4094, 4100, 8194, 9999, 1].map { records[$0].id })
        let roster = Player.roster(from: try await store.records())
        #expect(try await store.playerCount() == roster.count)
        let revision = try await store.revision()
        for offset in [0, 1, 1_000, 2_040, 2_043, 2_046, 4_090, roster.count - 3, roster.count] {
            let window = RosterWindow(
                revision: revision, playerCount: roster.count,
                players: Array(roster.dropFirst(offset).prefix(7)))
            #expect(try await store.rosterWindow(from: offset, limit: 7) == window, "offset \(offset)")
            #expect(
                try await store.players(from: offset, limit: 7) == Array(roster.dropFirst(offset).prefix(7)),
                "offset \(offset)")
            #expect(
                try await store.playerListing(from: offset, limit: 7).map(\.name)
                    == roster.dropFirst(offset).prefix(7).map(\.name), "offset \(offset)")
        }
        for index in [0, 2_047, 2_048, 4_095, roster.count - 1] {
            #expect(try await store.player(named: roster[index].name)?.index == index)
        }
    }

    @Test(
        "records kept as they are: again by id changes nothing, other content under a kept id is refused",
        arguments: StoreKind.all)
    func keepIsIdempotentByID(kind: StoreKind) async throws {
        let (store, another) = try kind.make(SteppingClock().now)
        let colin = ScoreRecord(
            id: UUID(), name: "Colin", points: 100, uploadedAt: Date(timeIntervalSince1970: 1_700_000_000.5))
        let ann = ScoreRecord(
            id: UUID(), name: "Ann", points: 5, uploadedAt: Date(timeIntervalSince1970: 1_700_000_001))
        let first = try await store.keep(RecordBatch([colin, ann]))
        #expect(first.added == 2 && first.alreadyKept == 0 && first.conflicting.isEmpty)
        let revision = try await store.revision()
        let again = try await store.keep(RecordBatch([colin, ann]))
        #expect(again.added == 0 && again.alreadyKept == 2, "keeping the same records twice changes nothing")
        #expect(try await store.revision() == revision)
        // A newer upload of the same player, then the old records once more: still nothing changes.
        let newer = try await store.upload(name: "colin", points: 7)
        let third = try await store.keep(RecordBatch([colin]))
        #expect(third.added == 0 && third.alreadyKept == 1)
        #expect(try await another().records() == [colin, ann, newer])
        #expect(try await store.player(named: "Colin")?.player.points == 7)
        #expect(try await store.player(named: "Colin")?.player.recordIDs == [colin.id, newer.id])
        // Nothing derived moved either: each player's count of uploads is its records' count.
        if let checked = store as? any DerivedRowsChecking {
            let report = try await checked.check()
            #expect(
                report.isSound, "a repeated import left the players out of step: \(report.inconsistencies)")
        }
        let changed = ScoreRecord(id: colin.id, name: "Colin", points: 1, uploadedAt: colin.uploadedAt)
        let stranger = ScoreRecord(
            id: UUID(), name: "Dee", points: 2, uploadedAt: Date(timeIntervalSince1970: 1_700_000_002))
        let conflict = try await store.keep(RecordBatch([changed, stranger]))
        #expect(conflict.added == 1 && conflict.conflicting == [0])
        #expect(try await store.records() == [colin, ann, stranger, newer])
    }

    @Test(
        "one batch is kept as its records one after another: places by first record, newest by time (the last of equal times), an id repeated in it kept once",
        arguments: StoreKind.all)
    func keepOneBatchAsInOrder(kind: StoreKind) async throws {
        let (store, _) = try kind.make(SteppingClock().now)
        func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_700_000_000 + seconds) }
        let ann = ScoreRecord(id: UUID(), name: "Ann", points: 1, uploadedAt: at(10))
        let bob = ScoreRecord(id: UUID(), name: "Bob", points: 2, uploadedAt: at(5))
        let olderAnn = ScoreRecord(id: UUID(), name: "ann", points: 3, uploadedAt: at(3))
        let changedBob = ScoreRecord(id: bob.id, name: "Bob", points: 99, uploadedAt: at(5))
        let zed = ScoreRecord(id: UUID(), name: #"Zed \t "the" \\ 'back'"#, points: 0.1, uploadedAt: at(20))
        let sameTimeBob = ScoreRecord(id: UUID(), name: "BOB", points: 7, uploadedAt: at(5))
        let kept = try await store.keep(RecordBatch([ann, bob, olderAnn, ann, changedBob, zed, sameTimeBob]))
        #expect(kept.added == 5 && kept.alreadyKept == 1 && kept.conflicting == [4], "\(kept)")
        let players = try await store.players(from: 0, limit: 5)
        #expect(players.map(\.name) == ["Ann", "BOB", zed.name])
        #expect(players.map(\.points) == [1, 7, 0.1])
        #expect(players.map(\.recordIDs) == [[ann.id, olderAnn.id], [bob.id, sameTimeBob.id], [zed.id]])
        #expect(try await store.records() == [olderAnn, bob, sameTimeBob, ann, zed])
        if let checked = store as? any DerivedRowsChecking {
            let report = try await checked.check()
            #expect(report.isSound, "\(report.inconsistencies)")
        }
    }

    @Test(
        "a batch's deletions apply in order with its records, and say how many records they removed",
        arguments: StoreKind.all)
    func keepDeletesInOrder(kind: StoreKind) async throws {
        let (store, _) = try kind.make(SteppingClock().now)
        let bob = try await store.upload(name: "Bob", points: 1)
        let late = ScoreRecord(
            id: UUID(), name: "Bob", points: 9, uploadedAt: bob.uploadedAt.addingTimeInterval(60))
        var batch = RecordBatch()
        batch.delete([bob.id, UUID()])
        batch.append(late)
        batch.delete([UUID()])
        let kept = try await store.keep(batch)
        #expect(kept.added == 1 && kept.deleted == 1)
        #expect(try await store.records() == [late])
        #expect(try await store.players(from: 0, limit: 5).map(\.recordIDs) == [[late.id]])
    }

    @Test("an export hands over every record, oldest first, and stops when asked", arguments: StoreKind.all)
    func exportInPages(kind: StoreKind) async throws {
        let (store, _) = try kind.make(SteppingClock().now)
        var uploaded: [ScoreRecord] = []
        for index in 0..<2_500 { uploaded.append(try await store.upload(name: "P\(index % 40)", points: 1)) }
        let pages = Mutex<[[ScoreRecord]]>([])
        try await store.exportRecords { page in
            pages.withLock { $0.append(page) }
            return true
        }
        #expect(pages.withLock { $0.flatMap { $0 } } == uploaded)
        let stopped = Mutex(0)
        try await store.exportRecords { page in
            stopped.withLock { $0 += 1 }
            return false
        }
        #expect(stopped.withLock { $0 } == 1, "a page after the one that said stop")
        #expect(try await store.recordCount() == 2_500)
    }

    @Test("an upload is kept and read back, oldest first", arguments: StoreKind.all)
    func uploadAndRead(kind: StoreKind) async throws {
        let (store, another) = try kind.make(SteppingClock().now)
        let colin = try await store.upload(name: "Colin", points: 100)
        let ana = try await store.upload(name: "Ana \"the\" Ace\n", points: 0.5)
        #expect(colin.name == "Colin" && colin.points == 100)
        #expect(try await store.records() == [colin, ana])
        #expect(try await another().records() == [colin, ana])
    }

    @Test(
        "a player shows its newest record by time, whatever order records arrive in; records list oldest first",
        arguments: StoreKind.all)
    func newestWins(kind: StoreKind) async throws {
        let time = { (seconds: Double) in Date(timeIntervalSince1970: 1_795_810_000 + seconds) }
        let newer = ScoreRecord(id: UUID(), name: "Ann", points: 9, uploadedAt: time(10))
        let older = ScoreRecord(id: UUID(), name: "ann", points: 5, uploadedAt: time(8))
        let bob = ScoreRecord(id: UUID(), name: "Bob", points: 1, uploadedAt: time(9))
        for arrival in [[newer, bob, older], [older, bob, newer], [bob, newer, older]] {
            let store = try await kind.makeFilled(arrival)
            let ann = try #require(try await store.player(named: "ANN")).player
            #expect(
                [ann.name, "\(ann.points)", Timestamp.text(ann.uploadedAt)] == [
                    "Ann", "9.0", Timestamp.text(time(10)),
                ],
                "arrival \(arrival.map(\.points))")
            #expect(
                try await store.records().map(\.id) == [older.id, bob.id, newer.id], "oldest first by time")
            // Deleting the newest shows the newest left; the place is the first record kept's.
            try await store.delete(ids: [newer.id])
            let left = try #require(try await store.player(named: "ann")).player
            #expect(left.points == 5 && left.name == "ann")
        }
    }

    @Test(
        "an upload stamped earlier than the player's newest record (a clock set back) is kept but not shown",
        arguments: StoreKind.all)
    func uploadOlderThanShown(kind: StoreKind) async throws {
        let (store, another) = try kind.make(
            ScriptedClock([1_795_810_010, 1_795_810_008, 1_795_810_010]).now)
        _ = try await store.upload(name: "Ann", points: 9)
        _ = try await another().upload(name: "Ann", points: 5)
        #expect(try await store.player(named: "ann")?.player.points == 9)
        #expect(try await store.records().map(\.points) == [5, 9])
        // The same time as the newest: the record kept last is shown.
        _ = try await store.upload(name: "Ann", points: 7)
        #expect(try await another().player(named: "ann")?.player.points == 7)
    }

    @Test(
        "a name far longer than an index entry (100,000 ideographs) is kept, found and deleted",
        arguments: StoreKind.all)
    func longNames(kind: StoreKind) async throws {
        let (store, another) = try kind.make(SteppingClock().now)
        // Ideographs in an order that does not repeat, so that no compression makes the key short.
        let ideographs = (0..<100_000).map { Character(Unicode.Scalar(0x4E00 + ($0 * 7_919) % 20_000)!) }
        let long = "Ä" + String(ideographs)
        _ = try await store.upload(name: long, points: 1)
        _ = try await store.upload(name: " ä" + String(ideographs), points: 2)
        _ = try await store.upload(name: long + "B", points: 3)
        #expect(try await another().playerCount() == 2)
        #expect(try await another().player(named: long)?.player.points == 2)
        #expect(try await store.deletePlayer(named: long)?.recordIDs.count == 2)
        #expect(try await store.playerCount() == 1)
    }

    @Test("deleting by id removes those records only, and ignores unknown ids", arguments: StoreKind.all)
    func deleteByID(kind: StoreKind) async throws {
        let (store, _) = try kind.make(SteppingClock().now)
        let colin = try await store.upload(name: "Colin", points: 100)
        let bob = try await store.upload(name: "Bob", points: 120)
        try await store.delete(ids: [colin.id, UUID()])
        #expect(try await store.records() == [bob])
        #expect(try await store.players(from: 0, limit: 10).map(\.name) == ["Bob"])
    }

    @Test(
        "players are one per comparison key, show their latest record and keep their first place",
        arguments: StoreKind.all)
    func identityAndOrder(kind: StoreKind) async throws {
        let (store, _) = try kind.make(SteppingClock().now)
        let bob = try await store.upload(name: "Bob", points: 1)
        let ann = try await store.upload(name: "Ann", points: 2)
        let lower = try await store.upload(name: "bob", points: 3)
        let spaced = try await store.upload(name: " Bob\u{200B} ", points: 4)
        let players = try await store.players(from: 0, limit: 10)
        #expect(players.map(\.name) == [" Bob\u{200B} ", "Ann"])
        #expect(players.map(\.points) == [4, 2])
        #expect(players[0].uploadedAt == spaced.uploadedAt)
        #expect(players[0].recordIDs == [bob.id, lower.id, spaced.id])
        #expect(players[1].recordIDs == [ann.id])
        #expect(try await store.playerCount() == 2)
    }

    @Test("a window of players is the slice of the roster asked for", arguments: StoreKind.all)
    func window(kind: StoreKind) async throws {
        let (store, _) = try kind.make(SteppingClock().now)
        for index in 0..<25 { _ = try await store.upload(name: "P\(index)", points: Double(index)) }
        _ = try await store.upload(name: "p3", points: 99)
        #expect(try await store.playerCount() == 25)
        #expect(try await store.players(from: 0, limit: 3).map(\.name) == ["P0", "P1", "P2"])
        #expect(try await store.players(from: 3, limit: 2).map(\.name) == ["p3", "P4"])
        #expect(try await store.players(from: 23, limit: 10).map(\.name) == ["P23", "P24"])
        #expect(try await store.players(from: 25, limit: 10).isEmpty)
        #expect(try await store.players(from: 5, limit: 0).isEmpty)
        #expect(try await store.players(from: -4, limit: 1).map(\.name) == ["P0"])
    }

    @Test(
        "a roster window is the revision, the count and the players asked for, read together",
        arguments: StoreKind.all)
    func rosterWindow(kind: StoreKind) async throws {
        let (store, another) = try kind.make(SteppingClock().now)
        let empty = try await store.rosterWindow(from: 0, limit: 5)
        #expect(empty == RosterWindow(revision: try await store.revision(), playerCount: 0, players: []))
        for index in 0..<25 { _ = try await store.upload(name: "P\(index)", points: Double(index)) }
        _ = try await store.upload(name: "p3", points: 99)
        let revision = try await store.revision()
        let roster = try await store.players(from: 0, limit: 100)
        for (offset, limit) in [(0, 3), (3, 2), (23, 10), (25, 10), (100, 5), (5, 0), (-4, 1), (0, 100)] {
            let window = try await store.rosterWindow(from: offset, limit: limit)
            let players = try await store.players(from: offset, limit: limit)
            #expect(
                window == RosterWindow(revision: revision, playerCount: 25, players: players),
                "from \(offset), \(limit)")
        }
        #expect(try await store.rosterWindow(from: 3, limit: 1).players == [roster[3]])
        // Another client's upload moves the revision and the count the window reads.
        _ = try await another().upload(name: "Zed", points: 1)
        let moved = try await store.rosterWindow(from: 24, limit: 5)
        #expect(moved.revision != revision)
        #expect(moved.revision == (try await store.revision()))
        #expect(moved.playerCount == 26)
        #expect(moved.players.map(\.name) == ["P24", "Zed"])
    }

    @Test(
        "a listing is the window of players asked for, with the latest name, points and time of each",
        arguments: StoreKind.all)
    func listing(kind: StoreKind) async throws {
        let (store, _) = try kind.make(SteppingClock().now)
        for index in 0..<25 { _ = try await store.upload(name: "P\(index)", points: Double(index)) }
        _ = try await store.upload(name: "p3", points: 99)
        func shown(_ players: [Player]) -> [String] {
            players.map { "\($0.name) \($0.points) \($0.uploadedAt.timeIntervalSince1970)" }
        }
        for (offset, limit) in [(0, 3), (3, 2), (23, 10), (25, 10), (5, 0), (-4, 1), (0, 100)] {
            let listed = try await store.playerListing(from: offset, limit: limit)
            let players = try await store.players(from: offset, limit: limit)
            #expect(shown(listed) == shown(players), "from \(offset), \(limit)")
        }
        #expect(try await store.playerListing(from: 3, limit: 1).map(\.points) == [99])
    }

    @Test("a player is found by any spelling of its name, with its place", arguments: StoreKind.all)
    func findByName(kind: StoreKind) async throws {
        let (store, _) = try kind.make(SteppingClock().now)
        _ = try await store.upload(name: "Colin", points: 1)
        let ann = try await store.upload(name: "Ann", points: 2)
        let found = try await store.player(named: "  ANN ")
        #expect(found?.index == 1)
        #expect(found?.player.name == "Ann")
        #expect(found?.player.recordIDs == [ann.id])
        #expect(try await store.player(named: "Nobody") == nil)
    }

    @Test(
        "players are found by the start of their name, in the order of their names, with their places",
        arguments: StoreKind.all)
    func findByStartOfName(kind: StoreKind) async throws {
        let (store, another) = try kind.make(SteppingClock().now)
        // Beyond the 64 characters a league indexes, two names differ only at the end.
        let long = String(repeating: "x", count: 64)
        for name in ["Colin", "anna", "Ann Lee", "ＡＮＮＥ", "Bob", long + "b", long + "a", "an"] {
            _ = try await store.upload(name: name, points: 1)
        }
        func found(_ text: String, limit: Int = 10) async throws -> [String] {
            try await another().players(startingWith: text, limit: limit).map {
                "\($0.index) \($0.player.name)"
            }
        }
        #expect(try await found("ANN") == ["2 Ann Lee", "1 anna", "3 ＡＮＮＥ"])
        #expect(try await found(" ａｎ") == ["7 an", "2 Ann Lee", "1 anna", "3 ＡＮＮＥ"])
        #expect(try await found("ann", limit: 2) == ["2 Ann Lee", "1 anna"])
        #expect(try await found("zz").isEmpty)
        #expect(try await found(long + "B") == ["5 \(long)b"])
        #expect(try await found(long) == ["6 \(long)a", "5 \(long)b"])
        #expect(try await found("", limit: 3) == ["7 an", "2 Ann Lee", "1 anna"])
        #expect(try await found("ann", limit: 0).isEmpty)
    }

    @Test(
        "deleting a player removes every record of it, also those another client kept since",
        arguments: StoreKind.all)
    func deletePlayer(kind: StoreKind) async throws {
        let (store, another) = try kind.make(SteppingClock().now)
        _ = try await store.upload(name: "Colin", points: 1)
        _ = try await store.upload(name: "Ann", points: 2)
        let other = try another()
        _ = try await other.upload(name: "ann", points: 3)
        let bob = try await store.upload(name: "Bob", points: 4)

        let removed = try await store.deletePlayer(named: "ANN")
        #expect(removed?.name == "ann")
        #expect(removed?.recordIDs.count == 2)
        #expect(try await other.records().map(\.name) == ["Colin", "Bob"])
        #expect(try await store.players(from: 0, limit: 10).map(\.name) == ["Colin", "Bob"])
        #expect(try await store.player(named: "Bob")?.index == 1)
        #expect(try await store.player(named: "Bob")?.player.recordIDs == [bob.id])
        #expect(try await store.playerCount() == 2)
        #expect(try await store.deletePlayer(named: "Ann") == nil)
    }

    @Test("the revision changes after every change, by this client or another", arguments: StoreKind.all)
    func revision(kind: StoreKind) async throws {
        let (store, another) = try kind.make(SteppingClock().now)
        var last = try await store.revision()
        /// Whether the revision differs from the one read before.
        func changed() async throws -> Bool {
            let now = try await store.revision()
            defer { last = now }
            return now != last
        }
        let colin = try await store.upload(name: "Colin", points: 1)
        #expect(try await changed())
        #expect(try await !changed())
        _ = try await another().upload(name: "Colin", points: 2)
        #expect(try await changed())
        try await another().delete(ids: [colin.id])
        #expect(try await changed())
        _ = try await another().deletePlayer(named: "colin")
        #expect(try await changed())
    }

    @Test(
        "after any sequence of uploads and deletions the store answers as the reference roster does",
        arguments: StoreKind.all)
    func agreesWithReference(kind: StoreKind) async throws {
        let (store, _) = try kind.make(SteppingClock().now)
        var random = SplitMix(seed: 0x5EED)
        let names = ["Ann", "ann", " Ann", "Bob", "BOB", "Cy", "Dee", "d\u{200D}ee", "Eve", "Fay"]
        for _ in 0..<300 {
            let roll = random.next() % 10
            if roll < 6 {
                let name = names[Int(random.next() % UInt64(names.count))]
                _ = try await store.upload(name: name, points: Double(random.next() % 1000))
            } else if roll < 8 {
                let records = try await store.records()
                guard !records.isEmpty else { continue }
                let some = (0..<Int(random.next() % 3 + 1)).map { _ in
                    records[Int(random.next() % UInt64(records.count))].id
                }
                try await store.delete(ids: some)
            } else if roll < 9 {
                _ = try await store.deletePlayer(named: names[Int(random.next() % UInt64(names.count))])
            }
            let expected = Player.roster(from: try await store.records())
            #expect(try await store.playerCount() == expected.count)
            #expect(try await store.players(from: 0, limit: 100) == expected)
            if let (index, player) = expected.enumerated().randomElement(using: &random) {
                let found = try await store.player(named: player.name.uppercased())
                #expect(found?.index == index)
                #expect(found?.player == player)
                let start = String(player.name.prefix(1))
                let matching = try await store.players(startingWith: start, limit: 3)
                let reference = NamePrefix.matches(start, in: expected, limit: 3)
                #expect(matching.map(\.index) == reference.map(\.index))
                #expect(matching.map(\.player.name) == reference.map(\.player.name))
                let window = try await store.players(from: index, limit: 2)
                #expect(window == Array(expected[index..<min(index + 2, expected.count)]))
            }
        }
    }
}

/// A small, seeded random number generator, so that a failing sequence repeats.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
