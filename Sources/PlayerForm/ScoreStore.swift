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

/// What a store could read: every record it kept, and a message for each part it could not read.
public struct ScoreReading: Sendable, Equatable {
    /// Every record that could be read, oldest first.
    public var records: [ScoreRecord]
    /// One message per part of the store that could not be read, naming where it is; empty when
    /// everything was read.
    public var problems: [String]

    /// Creates a reading.
    public init(records: [ScoreRecord], problems: [String] = []) {
        self.records = records
        self.problems = problems
    }
}

/// Why a store refused an operation it does not support.
public enum ScoreStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The store keeps records but cannot delete them.
    case deletionUnsupported

    public var description: String {
        switch self {
        case .deletionUnsupported: "this score store cannot delete records"
        }
    }
}

/// Where uploaded scores go. The view model is given one; it does no other I/O.
public protocol ScoreStore: Sendable {
    /// Stores a score and returns the record as kept. Returns only once the record is kept.
    func upload(name: String, points: Double) async throws -> ScoreRecord
    /// Every record kept, oldest first.
    func records() async throws -> [ScoreRecord]
    /// Removes the records with these identifiers; identifiers the store does not keep are ignored.
    /// Returns only once the removal is kept.
    func delete(ids: [UUID]) async throws
    /// Every record that can be read, with a message for each part that cannot, so that a damaged
    /// store still yields what it holds.
    func read() async throws -> ScoreReading
}

extension ScoreStore {
    /// Refuses: a store that does not implement deletion keeps everything.
    public func delete(ids: [UUID]) async throws {
        throw ScoreStoreError.deletionUnsupported
    }

    /// The records, with no problems: a store that cannot be partly damaged reads all or fails.
    public func read() async throws -> ScoreReading {
        ScoreReading(records: try await records())
    }
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

    public func delete(ids: [UUID]) async throws {
        let removed = Set(ids)
        kept.removeAll { removed.contains($0.id) }
    }
}
