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
            (.notAStore(database, holds: .notADatabase), 65),
            (.cannotOpen(database, reason: "Permission denied"), 66),
            (.failed(server, code: "XX000", message: "internal"), 76),
        ])
    func typed(_ error: ScoreStoreError, _ status: Int32) {
        #expect(StoreFailure.exitStatus(error) == status)
    }

    @Test("opening the score database: each failure keeps its status; a place that is no file at all is 66")
    func openingDatabase() {
        let database = Self.database
        #expect(StoreFailure.exitStatus(.notAStore(database, holds: .folder)) == 66)
        #expect(StoreFailure.exitStatus(.notAStore(database, holds: .fifo)) == 66)
        #expect(StoreFailure.exitStatus(.cannotOpen(database, reason: "r")) == 66)
        #expect(StoreFailure.exitStatus(.notAStore(database, holds: .notADatabase)) == 65)
        #expect(StoreFailure.exitStatus(.notAStore(database, holds: .scoreRecords)) == 65)
        #expect(StoreFailure.exitStatus(.notAStore(database, holds: .otherProgramsDatabase)) == 65)
        #expect(StoreFailure.exitStatus(.cannotCreateFolder(path: "d", reason: "r")) == 73)
        #expect(StoreFailure.exitStatus(.storageFull(database, reason: "r")) == 74)
        #expect(StoreFailure.exitStatus(.failed(database, code: "", message: "m")) == 74)
        #expect(StoreFailure.exitStatus(.locked(database, waitedSeconds: 0.6)) == 75)
    }

    @Test("opening the league: each failure keeps its status; an address it does not read is a usage error")
    func openingLeague() {
        let server = Self.server
        #expect(StoreFailure.exitStatus(.invalidAddress("u", reason: "r")) == 64)
        #expect(StoreFailure.exitStatus(.unreachable(server, reason: "r")) == 69)
        #expect(StoreFailure.exitStatus(.timedOut(server, milliseconds: 1)) == 75)
        #expect(StoreFailure.exitStatus(.failed(server, code: "", message: "m")) == 76)
        #expect(StoreFailure.exitStatus(.failed(server, code: "42501", message: "m")) == 77)
        #expect(StoreFailure.exitStatus(.passwordRequired(server, user: "u")) == 77)
        #expect(StoreFailure.exitStatus(.newerSchema(server, version: 2)) == 65)
    }
}
