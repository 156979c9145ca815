/// The exit statuses of `playerform validate`.
///
/// With several inputs the most serious wins: interrupted, then cannot write, then cannot open,
/// then unusable, then invalid.
public enum ValidationExit: Int32, Sendable, Comparable {
    /// Every record is valid.
    case valid = 0
    /// At least one record is invalid or malformed.
    case invalid = 1
    /// The command line is wrong (EX_USAGE).
    case usage = 64
    /// A whole input is unusable: a CSV without the required header, or a format that cannot be
    /// told (EX_DATAERR).
    case unusable = 65
    /// An input cannot be opened or read (EX_NOINPUT).
    case cannotOpen = 66
    /// The findings could not be written to standard output (EX_IOERR).
    case cannotWrite = 74
    /// Ctrl-C stopped the run (128 + SIGINT).
    case interrupted = 130

    /// Whether `lhs` is less serious than `rhs`.
    public static func < (lhs: ValidationExit, rhs: ValidationExit) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .valid: 0
        case .invalid: 1
        case .usage: 2
        case .unusable: 3
        case .cannotOpen: 4
        case .cannotWrite: 5
        case .interrupted: 6
        }
    }
}
