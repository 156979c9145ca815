/// The exit statuses of `playerform validate`.
///
/// With several inputs the most serious wins: interrupted, then cannot write, then cannot create, then cannot open,
/// then unusable, then stopped, then invalid.
public enum ValidationExit: Int32, Sendable, Comparable {
    /// Every record is valid.
    case valid = 0
    /// At least one record is invalid or malformed.
    case invalid = 1
    /// `--max-errors` stopped the run at its limit of invalid records; later records were not
    /// checked.
    case stopped = 2
    /// The command line is wrong (EX_USAGE).
    case usage = 64
    /// A whole input is unusable: a CSV without the required header, or a format that cannot be
    /// told (EX_DATAERR).
    case unusable = 65
    /// An input cannot be opened or read (EX_NOINPUT).
    case cannotOpen = 66
    /// A file for `--valid` or `--invalid` cannot be made (EX_CANTCREAT).
    case cannotCreate = 73
    /// The findings or the records could not be written (EX_IOERR).
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
        case .stopped: 2
        case .usage: 3
        case .unusable: 4
        case .cannotOpen: 5
        case .cannotCreate: 6
        case .cannotWrite: 7
        case .interrupted: 8
        }
    }
}
