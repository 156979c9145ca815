import PlayerFormRules

/// What the roster tells the user in an alert.
///
/// The messages may contain names as typed; escape them before they reach a terminal.
public enum RosterAlert: Sendable, Equatable, CustomStringConvertible {
    /// The store could not be read at all; the roster still shows what it showed before.
    case readFailed(reason: String)
    /// Part of the store could not be read; every record that could be read is shown.
    case damagedStore(problem: String)
    /// Adding a player failed.
    case addFailed(name: String, reason: String)
    /// Deleting a player failed; the player is still in the roster.
    case deleteFailed(name: String, reason: String)
    /// No player has this name.
    case noSuchPlayer(name: String)
    /// The new player's name or points are not valid.
    case invalidInput([ValidationIssue])

    /// The message shown to the user.
    public var message: String {
        switch self {
        case .readFailed(let reason): "Could not read the scores: \(reason)"
        case .damagedStore(let problem): "Some scores could not be read: \(problem)"
        case .addFailed(let name, let reason): "Could not add \(name): \(reason)"
        case .deleteFailed(let name, let reason): "Could not delete \(name): \(reason)"
        case .noSuchPlayer(let name): "There is no player named \(name)."
        case .invalidInput(let issues): issues.map(\.message).joined(separator: " ")
        }
    }

    /// The alert's message.
    public var description: String { message }
}

/// Why a roster action did not run.
public enum RosterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No player has this name.
    case noSuchPlayer(name: String)
    /// The new player's name or points are not valid.
    case invalidInput([ValidationIssue])

    /// The message of the alert the error shows.
    public var description: String {
        switch self {
        case .noSuchPlayer(let name): RosterAlert.noSuchPlayer(name: name).message
        case .invalidInput(let issues): RosterAlert.invalidInput(issues).message
        }
    }
}
