import Foundation
import PlayerFormRules

/// A player in the roster: a name and the points of that name's newest record.
///
/// A store keeps one record per upload; the roster shows one player per name, in the order each
/// name was first kept. Names match as `PlayerName.comparisonKey(_:)` compares them:
/// "Colin" and " colin" are one player, shown with the name of its newest record.
///
/// The newest record is the one with the latest `uploadedAt`, whatever order records arrive in
/// (an upload, an import of an older export, another session); of records with the same time,
/// the one kept last. Every store follows this rule (``isNewer(_:than:)``).
public struct Player: Sendable, Hashable, Identifiable, Codable {
    /// The name, which identifies the player in the roster.
    public var id: String { name }
    /// The player's name.
    public let name: String
    /// The points of the newest record.
    public let points: Double
    /// When the newest record was uploaded.
    public let uploadedAt: Date
    /// Every record of this player, oldest first; deleting the player deletes them all.
    public let recordIDs: [UUID]
    /// The name's `PlayerName.comparisonKey(_:)`, worked out once.
    ///
    /// Given by the store that keeps it, else worked out when the player is made. A view compares
    /// players by it without the Unicode work of a key again, whose cost grows with the name.
    public let key: String

    /// Creates a player; `key` is the name's comparison key when the caller has it already.
    public init(name: String, points: Double, uploadedAt: Date, recordIDs: [UUID], key: String? = nil) {
        self.name = name
        self.points = points
        self.uploadedAt = uploadedAt
        self.recordIDs = recordIDs
        self.key = key ?? PlayerName.comparisonKey(name)
    }

    private enum CodingKeys: String, CodingKey {
        case name, points, uploadedAt, recordIDs
    }

    /// Reads a player as it was written, working out its key.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            points: try container.decode(Double.self, forKey: .points),
            uploadedAt: try container.decode(Date.self, forKey: .uploadedAt),
            recordIDs: try container.decode([UUID].self, forKey: .recordIDs))
    }

    /// The players of `records` (oldest first): one per name as `PlayerName` compares names,
    /// with the name, points and time of its latest record, in the order the names first appear.
    public static func roster(from records: [ScoreRecord]) -> [Player] {
        var players: [Player] = []
        var indexByName: [String: Int] = [:]
        for record in records {
            let key = PlayerName.comparisonKey(record.name)
            if let index = indexByName[key] {
                players[index] = players[index].updated(with: record)
            } else {
                indexByName[key] = players.count
                players.append(
                    Player(
                        name: record.name, points: record.points, uploadedAt: record.uploadedAt,
                        recordIDs: [record.id], key: key))
            }
        }
        return players
    }

    /// This player after `record` of the same name is kept: when the record is newer than what
    /// the player shows, the player takes its spelling of the name, its points and its time.
    public func updated(with record: ScoreRecord) -> Player {
        guard Self.isNewer(record.uploadedAt, than: uploadedAt) else {
            return Player(
                name: name, points: points, uploadedAt: uploadedAt, recordIDs: recordIDs + [record.id],
                key: key)
        }
        return Player(
            name: record.name, points: record.points, uploadedAt: record.uploadedAt,
            recordIDs: recordIDs + [record.id], key: key)
    }

    /// Whether a record uploaded at `time`, kept after one uploaded at `shown`, is the newer of
    /// the two: a later time wins, and so does the same time (the record kept last).
    public static func isNewer(_ time: Date, than shown: Date) -> Bool {
        time >= shown
    }
}
