/// What `playerform check` found in a store.
public struct StoreCheckReport: Sendable, Equatable {
    /// What the store's own integrity check said, when it found damage: the store itself is
    /// damaged, and nothing derived can be trusted or rebuilt from it.
    public var damage: [String] = []
    /// Each way the players and their counts, which are derived from the scores, disagree with
    /// the scores: as a change made by another program (sqlite3, psql) leaves them.
    public var inconsistencies: [String] = []

    /// Whether nothing is wrong.
    public var isSound: Bool { damage.isEmpty && inconsistencies.isEmpty }

    /// A report of what was found.
    public init(damage: [String] = [], inconsistencies: [String] = []) {
        self.damage = damage
        self.inconsistencies = inconsistencies
    }
}

/// A store that keeps rows derived from its records (the players, their counts and the roster's
/// block counts), and can check them against the records and make them again.
///
/// Both stores of this package are such stores, and `playerform check [--repair]` serves both
/// through this protocol. The wording of each inconsistency is the same for both.
public protocol DerivedRowsChecking: ScoreStore {
    /// Checks the derived rows against the records, only reading.
    /// - Throws: `ScoreStoreError` when the store cannot be read.
    func check() async throws(ScoreStoreError) -> StoreCheckReport

    /// Makes the derived rows again from the records, in one transaction; the records are left
    /// as they are.
    /// - Throws: `ScoreStoreError` when the store cannot be written; nothing is changed then.
    func rebuildDerived() async throws(ScoreStoreError)
}

/// The words of each inconsistency a ``DerivedRowsChecking`` store reports, the same for every
/// store.
public enum StoreInconsistency {
    /// Players whose records are all gone.
    public static let playersWithoutScores = "players with no score left"
    /// Records whose player is gone.
    public static let scoresWithoutPlayer = "scores of no player"
    /// Players whose count of uploads is wrong.
    public static let wrongUploadCounts = "players whose count of uploads is not their count of scores"
    /// Players showing another record than their newest, or placed by another than their first.
    public static let wrongShownScore =
        "players who do not show their newest score, or are not placed by their first"
    /// Records whose name has the comparison key of another player than theirs.
    public static let misplacedScores = "scores whose name is another player's"
    /// Blocks of the roster whose count is wrong.
    public static let wrongBlockCounts = "blocks of the roster whose count of players is wrong"
    /// Players whose key's digest, which the league looks them up by, is not their key's.
    public static let wrongKeyDigests = "players whose key digest is not their key's"
}
