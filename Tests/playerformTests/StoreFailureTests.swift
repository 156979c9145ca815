import PlayerFormPostgres
import PlayerFormSQLite
import PlayerFormScores
import Testing

@testable import playerform

/// The one mapping of store errors to exit statuses (sysexits.h).
@Suite("Exit statuses of store errors")
struct StoreFailureTests {
    static let database = ScoreStorePlace.database(path: "s.sqlite")
    static let server = ScoreStorePlace.server(endpoint: "h:5432/d")

    @Test(
        "each kind of store failure ends a command with its status",
        arguments: [
            (ScoreStoreError.unreachable(server, reason: "connection refused"), Int32(69)),
            (.connectionLost(server), 69),
            (.cannotCreateFolder(path: "/x", reason: "Not a directory"), 73),
            (.storageFull(database, reason: "No space left on device"), 74),
            (.io(database, access: .readWrite, reason: "Input/output error"), 74),
            (.locked(database, waitedSeconds: 5), 75),
            (.timedOut(server, milliseconds: 300), 75),
            (.refused(server, user: "bob", reason: "no"), 77),
            (.passwordRequired(server, user: "bob"), 77),
            (.conflictingRecord(id: "A"), 65),
            (.notFinite(points: .nan), 65),
            (.corrupt(database, reason: "malformed"), 65),
            (.notAStore(database), 65),
            (.cannotOpen(database, reason: "Permission denied"), 66),
            (.failed(server, code: "XX000", message: "internal"), 76),
        ])
    func typed(_ error: ScoreStoreError, _ status: Int32) {
        #expect(StoreFailure.exitStatus(error) == status)
    }

    @Test("opening the score database: each failure keeps its status")
    func openingDatabase() {
        #expect(StoreFailure.exitStatus(SQLiteStoreError.notAFile(path: "d", kind: "a folder")) == 66)
        #expect(StoreFailure.exitStatus(SQLiteStoreError.cannotOpen(path: "d", reason: "r")) == 66)
        #expect(StoreFailure.exitStatus(SQLiteStoreError.notADatabase(path: "d")) == 65)
        #expect(StoreFailure.exitStatus(SQLiteStoreError.cannotCreateDirectory(path: "d", reason: "r")) == 73)
        #expect(StoreFailure.exitStatus(SQLiteStoreError.diskFull(path: "d", reason: "r")) == 74)
        #expect(StoreFailure.exitStatus(SQLiteStoreError.busy(path: "d", waitedSeconds: 0.6)) == 75)
    }

    @Test("opening the league: each failure keeps its status")
    func openingLeague() {
        #expect(StoreFailure.exitStatus(PostgresStoreError.badURL("u", reason: "r")) == 64)
        #expect(StoreFailure.exitStatus(PostgresStoreError.unreachable(endpoint: "e", reason: "r")) == 69)
        #expect(StoreFailure.exitStatus(PostgresStoreError.timedOut(endpoint: "e", milliseconds: 1)) == 75)
        #expect(
            StoreFailure.exitStatus(PostgresStoreError.server(endpoint: "e", state: "", message: "m")) == 76)
        #expect(StoreFailure.exitStatus(PostgresStoreError.passwordRequired(user: "u", endpoint: "e")) == 77)
        #expect(StoreFailure.exitStatus(PostgresStoreError.newerSchema(endpoint: "e", version: 2)) == 65)
    }
}
