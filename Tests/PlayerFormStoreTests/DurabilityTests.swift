import CSyncFaults
import Foundation
import PlayerFormSQLite
import PlayerFormScores
import Testing

/// Whether an upload is acknowledged only after its commit reached the disk.
///
/// No other spec can see it, since a commit that was never synced reads back the same until the
/// power goes. A VFS shim under SQLite counts the syncs of the spec's files and fails them on
/// demand.
@Suite("Durability of the score database", .serialized)
struct DurabilityTests {
    @Test(
        "an upload returns only after its commit was synced to the disk; when the sync fails, the upload fails, is not kept, and the store goes on"
    )
    func uploadWaitsForTheDisk() async throws {
        playerform_sync_faults_install()
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        playerform_sync_faults_watch(folder.path)
        defer {
            playerform_sync_faults_fail(0)
            playerform_sync_faults_watch(nil)
        }
        let path = folder.appendingPathComponent("scores.sqlite").path
        let store = try SQLiteScoreStore(path: path)
        _ = try await store.upload(name: "Ann", points: 1)
        let before = playerform_sync_faults_count()
        _ = try await store.upload(name: "Bob", points: 2)
        #expect(playerform_sync_faults_count() > before, "the upload's commit was synced before it returned")

        playerform_sync_faults_fail(1)
        await #expect(throws: ScoreStoreError.self, "an upload whose sync failed is not acknowledged") {
            _ = try await store.upload(name: "Cy", points: 3)
        }
        playerform_sync_faults_fail(0)

        _ = try await store.upload(name: "Dee", points: 4)
        let reopened = try SQLiteScoreStore(path: path)
        #expect(try await reopened.records().map(\.name) == ["Ann", "Bob", "Dee"])
    }
}
