import Foundation
import PlayerFormScores

/// Writes a score file as the first version of playerform kept its scores: a JSON object a line,
/// records (`"kind":"score"`) and tombstones (`"kind":"delete"`), for the specs of importing one.
struct LegacyScoreFile {
    let path: String

    /// Appends a record of `name` and `points`, stamped now; returns it.
    @discardableResult
    func appendRecord(name: String, points: Double) throws -> ScoreRecord {
        let record = ScoreRecord(
            id: UUID(), name: name, points: points, uploadedAt: Timestamp.rounded(Date()))
        try append([
            "id": record.id.uuidString, "kind": "score", "name": name, "points": points,
            "uploadedAt": Timestamp.text(record.uploadedAt),
        ])
        return record
    }

    /// Appends a tombstone deleting the records with `ids`.
    func appendTombstone(ids: [UUID]) throws {
        try append(["deletedAt": Timestamp.text(Date()), "ids": ids.map(\.uuidString), "kind": "delete"])
    }

    private func append(_ object: [String: Any]) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: path) { try Data().write(to: url) }
        let line =
            try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) + Data("\n".utf8)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: line)
    }
}
