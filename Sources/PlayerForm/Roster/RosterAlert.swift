import PlayerFormRules
import PlayerFormScores

/// What the roster tells the user in an alert.
///
/// It carries values, not words: the store's error, the names as typed (escape them before they
/// reach a terminal). A front end says each in its own words.
public enum RosterAlert: Sendable, Equatable {
    /// The store could not be read at all; the roster still shows what it showed before.
    case readFailed(ScoreStoreError)
    /// Adding a player failed.
    case addFailed(name: String, error: ScoreStoreError)
    /// Deleting a player failed; the player is still in the roster.
    case deleteFailed(name: String, error: ScoreStoreError)
    /// No player has this name.
    case noSuchPlayer(name: String)
    /// The new player's name or points are not valid.
    case invalidInput([ValidationIssue])
}

/// Why a roster action did not run.
public enum RosterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No player has this name.
    case noSuchPlayer(name: String)
    /// The new player's name or points are not valid.
    case invalidInput([ValidationIssue])

    /// The reason, as a sentence.
    public var description: String {
        switch self {
        case .noSuchPlayer(let name): "There is no player named \(name)."
        case .invalidInput(let issues): issues.map(\.message).joined(separator: " ")
        }
    }
}
