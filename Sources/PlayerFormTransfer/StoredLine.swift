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
        /// A record without an id (a roster's `{"name": ..., "points": ...}`), with its time
        /// when it gives one.
        case upload(name: String, points: Double, uploadedAt: Date?)
    }

    func content() throws(LineError) -> Content {
        switch kind ?? .score {
        case .score:
            if kind == nil, id == nil, let name, let points {
                guard points.isFinite else { throw .invalid("points") }
                guard let uploadedAt else { return .upload(name: name, points: points, uploadedAt: nil) }
                guard let date = Timestamp.date(uploadedAt) else { throw .invalid("uploadedAt") }
                return .upload(name: name, points: points, uploadedAt: date)
            }
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
            case .invalid(let field): StoredLine.expectation(field)
            }
        }
    }

    /// What `field` must hold, for a message about a value it does not accept.
    static func expectation(_ field: String) -> String {
        let what =
            switch field {
            case "id": "a UUID in a string, such as \"3F2504E0-4F89-11D3-9A0C-0305E82C3301\""
            case "name": "a string"
            case "points": "a finite number"
            case "uploadedAt", "deletedAt":
                "a time in a string, ISO 8601 in UTC with milliseconds, such as \"2026-11-21T07:13:09.123Z\""
            case "kind": "\"score\" or \"delete\""
            case "ids": "an array of UUIDs in strings"
            default: "something else"
            }
        return "invalid \(field): expected \(what)"
    }

    /// Why a line that is JSON did not decode as a line of a score file, in words: the field that
    /// was wrong and what it takes, or that the line is not one object.
    static func reason(_ error: DecodingError) -> String {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .dataCorrupted(let found):
            context = found
        case .keyNotFound(let key, _): return "no \(key.stringValue)"
        @unknown default: return "not valid JSON"
        }
        guard let field = context.codingPath.first?.stringValue else {
            if case .typeMismatch = error {
                return "not one JSON object; a record is {\"id\": ..., \"name\": ..., \"points\": ..., "
                    + "\"uploadedAt\": ...}"
            }
            return "not valid JSON"
        }
        return expectation(field)
    }
}
