import PlayerFormScores

extension FileScoreStore {
    /// The times of upload a score file holds, in seconds since 1970: the years 1 to 9999, to
    /// the millisecond.
    ///
    /// A store whose clock lies outside them refuses to write.
    public static var writableTimes: ClosedRange<Double> { Timestamp.writable }
}
