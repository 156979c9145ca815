import PlayerFormScores

/// A discrete message from the player view model, such as the result of an upload.
///
/// It carries values, not words: a front end says each in its own words.
public enum PlayerMessage: Equatable, Sendable {
    /// An upload succeeded.
    case uploaded(name: String, points: Double)
    /// An upload failed with the store's error.
    case uploadFailed(name: String, error: ScoreStoreError)
    /// An upload was cancelled before it finished.
    case uploadCancelled(name: String)
}
