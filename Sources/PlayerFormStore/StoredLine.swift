import Foundation
import PlayerFormScores

/// One line of the score file: a kept upload, or a tombstone that deletes earlier uploads.
///
/// ```
/// {"id":"…","kind":"score","name":"Colin","points":100,"uploadedAt":"2026-11-21T07:13:09.123Z"}
/// {"deletedAt":"2026-11-21T07:20:00.000Z","ids":["…"],"kind":"delete"}
/// ```
struct StoredLine: Codable, Equatable {
    enum Kind: String, Codable {
        case score
        case delete
    }

    /// Absent in the lines `playerform export` writes, which are all scores.
    var kind: Kind?
    var id: UUID?
    var name: String?
    var points: Double?
    var uploadedAt: String?
    var ids: [UUID]?
    var deletedAt: String?

    static func score(_ record: ScoreRecord) -> StoredLine {
        StoredLine(
            kind: .score, id: record.id, name: record.name, points: record.points,
            uploadedAt: Timestamp.text(record.uploadedAt))
    }

    static func tombstone(ids: [UUID], at date: Date) -> StoredLine {
        StoredLine(kind: .delete, ids: ids, deletedAt: Timestamp.text(date))
    }

    /// What the line holds, or why it is not a record.
    enum Content {
        case record(ScoreRecord)
        case deletion([UUID])
    }

    func content() throws(LineError) -> Content {
        switch kind ?? .score {
        case .score:
            guard let id else { throw .missing("id") }
            guard let name else { throw .missing("name") }
            guard let points else { throw .missing("points") }
            guard points.isFinite else { throw .invalid("points") }
            guard let uploadedAt else { throw .missing("uploadedAt") }
            guard let date = Timestamp.date(uploadedAt) else { throw .invalid("uploadedAt") }
            return .record(ScoreRecord(id: id, name: name, points: points, uploadedAt: date))
        case .delete:
            guard let ids else { throw .missing("ids") }
            return .deletion(ids)
        }
    }

    enum LineError: Error, CustomStringConvertible {
        case missing(String)
        case invalid(String)

        var description: String {
            switch self {
            case .missing(let field): "no \(field)"
            case .invalid(let field): "invalid \(field)"
            }
        }
    }
}
