import Foundation
import PlayerFormSQLite
import PlayerFormScores
import Testing

@testable import playerform

/// The JSON Lines score file of earlier versions, imported once into the default database.
@Suite("The old default score file")
struct LegacyImportTests {
    let folder: URL

    init() throws {
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "legacy-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    @Test("the old default file is imported once: a player deleted afterwards does not come back")
    func legacyOnce() async throws {
        let legacy = folder.appendingPathComponent("scores.jsonl").path
        let ids = [UUID(), UUID(), UUID()]
        let lines = zip(ids, ["Colin", "Bob", "ann"]).enumerated().map { index, pair in
            #"{"id":"\#(pair.0.uuidString)","name":"\#(pair.1)","points":\#(index + 1),"#
                + #""uploadedAt":"2026-01-01T00:00:0\#(index).000Z"}"#
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: legacy))
        let path = folder.appendingPathComponent("scores.sqlite").path
        let store = try SQLiteScoreStore(path: path)
        #expect(try await PlayerFormREPL.importLegacyFileOnce(at: legacy, into: store)?.added == 3)
        #expect(try await store.records().map(\.id) == ids)
        _ = try await store.deletePlayer(named: "Colin")
        #expect(try await PlayerFormREPL.importLegacyFileOnce(at: legacy, into: store) == nil)
        #expect(try await SQLiteScoreStore(path: path).records().map(\.id) == Array(ids.dropFirst()))
        let other = try SQLiteScoreStore(path: path + ".2")
        #expect(try await PlayerFormREPL.importLegacyFileOnce(at: legacy + ".missing", into: other) == nil)
    }
}
