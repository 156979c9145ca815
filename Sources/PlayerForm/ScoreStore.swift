import Foundation

/// A player's score as kept by a store.
public struct ScoreRecord: Sendable, Equatable, Hashable, Codable {
    /// Identifies the record within its store.
    public let id: UUID
    /// The player's name.
    public let name: String
    /// The player's points.
    public let points: Double
    /// When the score was uploaded.
    public let uploadedAt: Date

    /// Creates a record.
    public init(id: UUID, name: String, points: Double, uploadedAt: Date) {
        self.id = id
        self.name = name
        self.points = points
        self.uploadedAt = uploadedAt
    }
}

/// Where uploaded scores go. The view model is given one; it does no other I/O.
public protocol ScoreStore: Sendable {
    /// Stores a score and returns the record as kept. Returns only once the record is kept.
    func upload(name: String, points: Double) async throws -> ScoreRecord
    /// Every record kept, oldest first.
    func records() async throws -> [ScoreRecord]
}

/// A score store in memory, for tests and embedding.
public actor InMemoryScoreStore: ScoreStore {
    private var kept: [ScoreRecord] = []
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID

    /// Creates an empty store.
    /// - Parameters:
    ///   - now: the clock that stamps uploads.
    ///   - makeID: makes the identifier of each record.
    public init(
        now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> UUID = { UUID() }
    ) {
        self.now = now
        self.makeID = makeID
    }

    public func upload(name: String, points: Double) async throws -> ScoreRecord {
        let record = ScoreRecord(id: makeID(), name: name, points: points, uploadedAt: now())
        kept.append(record)
        return record
    }

    public func records() async throws -> [ScoreRecord] {
        kept
    }
}
