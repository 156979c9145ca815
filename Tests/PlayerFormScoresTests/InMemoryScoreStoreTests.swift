import Foundation
import PlayerFormScores
import Testing

@Suite("InMemoryScoreStore deletion and reading", .timeLimit(.minutes(10)))
struct InMemoryScoreStoreTests {
    @Test("deleting removes the records with the given ids and ignores unknown ids")
    func delete() async throws {
        let store = InMemoryScoreStore()
        let colin = try await store.upload(name: "Colin", points: 100)
        let bob = try await store.upload(name: "Bob", points: 120)
        try await store.delete(ids: [colin.id, UUID()])
        #expect(try await store.records() == [bob])
    }

    @Test("a store that does not implement deletion refuses it")
    func deletionUnsupported() async {
        struct KeepsEverything: ScoreStore {
            func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
                ScoreRecord(id: UUID(), name: name, points: points, uploadedAt: Date())
            }
            func records() async throws(ScoreStoreError) -> [ScoreRecord] { [] }
        }
        await #expect(throws: ScoreStoreError.deletionUnsupported) {
            try await KeepsEverything().delete(ids: [UUID()])
        }
    }
}

/// A store that keeps records only, so that it answers the roster's questions with the
/// protocol's defaults, which read every record: the reference for the in-memory store.
private actor RecordsOnlyStore: ScoreStore {
    private var kept: [ScoreRecord] = []

    func keep(_ record: ScoreRecord) { kept.append(record) }
    func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
        fatalError("not used")
    }
    func records() async throws(ScoreStoreError) -> [ScoreRecord] { kept }
    func delete(ids: [UUID]) async throws(ScoreStoreError) {
        let removed = Set(ids)
        kept.removeAll { removed.contains($0.id) }
    }
}

@Suite("InMemoryScoreStore: the roster's questions", .timeLimit(.minutes(10)))
struct InMemoryRosterQuestionsTests {
    @Test("for random uploads and deletions, every answer equals the answer read from every record")
    func matchesTheDefaults() async throws {
        // Names that are the same player by comparison key, and names that are not.
        let names = ["Bob", "bob", " Bob", "Ann", "ANN", "Zoë", "Zoe\u{0308}", "d\u{200B}arn", "darn", "Cy"]
        var random = SplitMix(seed: 7)
        let store = InMemoryScoreStore(now: { Date(timeIntervalSince1970: 0) })
        let reference = RecordsOnlyStore()
        var lastRevision = try await store.revision()
        for step in 0..<400 {
            let name = names[Int(random.next() % UInt64(names.count))]
            let changed: Bool
            switch random.next() % 10 {
            case 0..<6:
                let record = try await store.upload(name: name, points: Double(step))
                await reference.keep(record)
                changed = true
            case 6..<9:
                let removed = try await store.deletePlayer(named: name)
                let expected = try await reference.player(named: name)?.player
                #expect(removed == expected)
                if let removed { try await reference.delete(ids: removed.recordIDs) }
                changed = removed != nil
            default:
                let ids = try await store.records().prefix(2).map(\.id)
                try await store.delete(ids: ids)
                try await reference.delete(ids: ids)
                changed = !ids.isEmpty
            }
            let count = try await reference.playerCount()
            #expect(try await store.playerCount() == count)
            #expect(try await store.players(from: 0, limit: 100) == reference.players(from: 0, limit: 100))
            #expect(try await store.players(from: 1, limit: 2) == reference.players(from: 1, limit: 2))
            #expect(try await store.players(from: count, limit: 5) == [])
            for name in names {
                let found = try await store.player(named: name)
                let expected = try await reference.player(named: name)
                #expect(found?.index == expected?.index)
                #expect(found?.player == expected?.player)
            }
            let revision = try await store.revision()
            #expect((revision != lastRevision) == changed)
            lastRevision = revision
        }
    }

    @Test("a store made from records groups them into players as uploads would")
    func bulkInitializer() async throws {
        let uploaded = InMemoryScoreStore(now: { Date(timeIntervalSince1970: 0) })
        for (name, points) in [("Bob", 1.0), ("Ann", 2), ("bob", 3), ("Cy", 4), ("ANN", 5)] {
            _ = try await uploaded.upload(name: name, points: points)
        }
        let bulk = InMemoryScoreStore(records: try await uploaded.records())
        #expect(try await bulk.records() == uploaded.records())
        #expect(try await bulk.players(from: 0, limit: 10) == uploaded.players(from: 0, limit: 10))
        #expect(try await bulk.players(from: 0, limit: 10).map(\.name) == ["bob", "ANN", "Cy"])
        #expect(try await bulk.player(named: "cy")?.index == 2)
    }

    @Test("a copy answers as the original did, and the two change apart")
    func copying() async throws {
        let original = InMemoryScoreStore()
        _ = try await original.upload(name: "Bob", points: 1)
        let copy = await InMemoryScoreStore(copying: original)
        _ = try await copy.upload(name: "Ann", points: 2)
        _ = try await original.deletePlayer(named: "Bob")
        #expect(try await copy.players(from: 0, limit: 10).map(\.name) == ["Bob", "Ann"])
        #expect(try await original.playerCount() == 0)
    }
}

/// A small seeded generator, so that a failure can be run again.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
