import PlayerFormScores
import PlayerFormTerminal
import PlayerFormTransfer

/// The exit status and the words of each failure of a store, for the commands other than the REPL.
///
/// It is the one place the program maps store errors to exit statuses. Every store throws a
/// `ScoreStoreError`; its words are the REPL's, from `TerminalWords`.
///
/// Statuses are from sysexits.h: 64 (EX_USAGE) an address this program does not read, 65
/// (EX_DATAERR) data that cannot be stored or a store that is not a score store, 66 (EX_NOINPUT) a
/// store that cannot be opened (or is not a file at all), 69 (EX_UNAVAILABLE) a server that
/// cannot be reached or went away, 73 (EX_CANTCREAT) a folder that cannot be made, 74 (EX_IOERR)
/// a full disk or an I/O error, 75 (EX_TEMPFAIL) a store locked or a statement timed out, 76
/// (EX_PROTOCOL) another server error, 77 (EX_NOPERM) a refused user, or one without a privilege
/// the league needs.
enum StoreFailure {
    /// The exit status of a command that fails with `error`.
    static func exitStatus(_ error: ScoreStoreError) -> Int32 {
        switch error {
        case .invalidAddress: 64
        case .notAStore(_, let content) where content.isNotAFile: 66
        case .notFinite, .conflictingRecord, .corrupt, .notAStore, .newerSchema: 65
        case .cannotOpen, .permissionDenied: 66
        case .unreachable, .connectionLost, .deletionUnsupported, .importUnsupported: 69
        case .cannotCreateFolder: 73
        case .storageFull, .io: 74
        // A privilege the user lacks (SQLSTATE 42501), as a refused user.
        case .failed(.server, "42501", _): 77
        case .failed(.server, _, _): 76
        case .failed: 74
        case .locked, .timedOut, .cancelled: 75
        case .refused, .passwordRequired: 77
        }
    }

    /// The exit status of an import whose file cannot be opened or read: 66 (EX_NOINPUT).
    static func exitStatus(_ error: ScoreFileError) -> Int32 { 66 }

    /// What went wrong, in the words the REPL uses for the same error.
    static func words(_ error: ScoreStoreError) -> String {
        TerminalWords.text(error)
    }

    /// Why a score file could not be read, naming it.
    static func words(_ error: ScoreFileError) -> String {
        error.description
    }

    /// The exit status of a command that fails with `error` of any layer: that of its own kind
    /// above, else 74 (an I/O error).
    static func exitStatus(any error: any Error) -> Int32 {
        switch error {
        case let error as ScoreStoreError: exitStatus(error)
        case let error as ScoreFileError: exitStatus(error)
        default: 74
        }
    }

    /// What went wrong, for an error of any layer: the words of its own kind above, else the
    /// error's own text.
    static func words(_ error: any Error) -> String {
        switch error {
        case let error as ScoreStoreError: words(error)
        case let error as ScoreFileError: words(error)
        default: "\(error)"
        }
    }
}
