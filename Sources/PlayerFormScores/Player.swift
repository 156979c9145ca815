import Foundation
import PlayerFormRules

/// A player in the roster: a name and the points of that name's latest upload.
///
/// A store keeps one record per upload; the roster shows one player per name, in the order each
/// name was first uploaded. Names match as `PlayerName.comparisonKey(_:)` compares them:
/// "Colin" and " colin" are one player, shown with the name of its latest upload.
public struct Player: Sendable, Hashable, Identifiable, Codable {
    /// The name, which identifies the player in the roster.
    public var id: String { name }
    /// The player's name.
    public let name: String
    /// The points of the latest upload.
    public let points: Double
    /// When the latest upload happened.
    public let uploadedAt: Date
    /// Every record of this player, oldest first; deleting the player deletes them all.
    public let recordIDs: [UUID]

    /// Creates a player.
    public init(name: String, points: Double, uploadedAt: Date, recordIDs: [UUID]) {
        self.name = name
        self.points = points
        self.uploadedAt = uploadedAt
        self.recordIDs = recordIDs
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
                        recordIDs: [record.id]))
            }
        }
        return players
    }

    /// This player after `record`, a later upload of the same name; the player takes the
    /// record's spelling of the name.
    public func updated(with record: ScoreRecord) -> Player {
        Player(
            name: record.name, points: record.points, uploadedAt: record.uploadedAt,
            recordIDs: recordIDs + [record.id])
    }
}
