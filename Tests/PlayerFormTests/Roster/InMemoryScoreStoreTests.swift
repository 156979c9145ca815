import Foundation
import PlayerForm
import Testing

@Suite("InMemoryScoreStore deletion and reading")
struct InMemoryScoreStoreTests {
    @Test("deleting removes the records with the given ids and ignores unknown ids")
    func delete() async throws {
        let store = InMemoryScoreStore()
        let colin = try await store.upload(name: "Colin", points: 100)
        let bob = try await store.upload(name: "Bob", points: 120)
        try await store.delete(ids: [colin.id, UUID()])
        #expect(try await store.records() == [bob])
    }

    @Test("reading gives every record and no problems")
    func read() async throws {
        let store = InMemoryScoreStore()
        let colin = try await store.upload(name: "Colin", points: 100)
        #expect(try await store.read() == ScoreReading(records: [colin], problems: []))
    }

    @Test("a store that does not implement deletion refuses it")
    func deletionUnsupported() async {
        struct KeepsEverything: ScoreStore {
            func upload(name: String, points: Double) async throws -> ScoreRecord {
                ScoreRecord(id: UUID(), name: name, points: points, uploadedAt: Date())
            }
            func records() async throws -> [ScoreRecord] { [] }
        }
        await #expect(throws: ScoreStoreError.deletionUnsupported) {
            try await KeepsEverything().delete(ids: [UUID()])
        }
    }
}
