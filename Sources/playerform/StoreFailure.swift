import PlayerFormPostgres
import PlayerFormSQLite
import PlayerFormScores
import PlayerFormTerminal
import PlayerFormTransfer

/// The exit status and the words of each failure of a store, for the commands other than the REPL.
///
/// It is the one place the program maps store errors to them. The words of an error the REPL also
/// shows (a `ScoreStoreError`) are the REPL's, from `TerminalWords`; an error of opening,
/// importing or exporting says what its store says.
///
/// Statuses are from sysexits.h: 64 (EX_USAGE) a URL this program does not read, 65 (EX_DATAERR)
/// data that cannot be stored or a store that is not a score store, 66 (EX_NOINPUT) a store that
/// cannot be opened, 69 (EX_UNAVAILABLE) a server that cannot be reached or went away, 73
/// (EX_CANTCREAT) a folder that cannot be made, 74 (EX_IOERR) a full disk or an I/O error, 75
/// (EX_TEMPFAIL) a store locked or a statement timed out, 76 (EX_PROTOCOL) another server error,
/// 77 (EX_NOPERM) a refused user, or one without a privilege the league needs.
enum StoreFailure {
    /// The exit status of a command that fails with `error`.
    static func exitStatus(_ error: ScoreStoreError) -> Int32 {
        switch error {
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

    /// The exit status of a command that fails with `error` of the score database.
    static func exitStatus(_ error: SQLiteStoreError) -> Int32 {
        switch error {
        case .scoreFile, .notADatabase, .foreignDatabase, .newerSchema, .corrupt,
            .conflictingRecord, .notFinite:
            65
        case .notAFile, .cannotOpen: 66
        case .cannotCreateDirectory: 73
        case .diskFull, .ioError, .sqlite: 74
        case .busy: 75
        }
    }

    /// The exit status of a command that fails with `error` of the league.
    static func exitStatus(_ error: PostgresStoreError) -> Int32 {
        switch error {
        case .badURL: 64
        case .newerSchema, .conflictingRecord, .notFinite: 65
        case .unreachable, .connectionLost: 69
        case .timedOut: 75
        case .server(_, "42501", _): 77
        case .server: 76
        case .authentication, .passwordRequired: 77
        }
    }

    /// The exit status of an import whose file cannot be opened or read: 66 (EX_NOINPUT).
    static func exitStatus(_ error: ScoreFileError) -> Int32 { 66 }

    /// What went wrong, in the words the REPL uses for the same error.
    static func words(_ error: ScoreStoreError) -> String {
        TerminalWords.text(error)
    }

    /// Why the score database could not be opened, imported into or exported, naming it.
    static func words(_ error: SQLiteStoreError) -> String {
        error.description
    }

    /// Why the league could not be reached, read or written, naming it without its password.
    static func words(_ error: PostgresStoreError) -> String {
        error.description
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
        case let error as SQLiteStoreError: exitStatus(error)
        case let error as PostgresStoreError: exitStatus(error)
        case let error as ScoreFileError: exitStatus(error)
        default: 74
        }
    }

    /// What went wrong, for an error of any layer: the words of its own kind above, else the
    /// error's own text.
    static func words(_ error: any Error) -> String {
        switch error {
        case let error as ScoreStoreError: words(error)
        case let error as SQLiteStoreError: words(error)
        case let error as PostgresStoreError: words(error)
        case let error as ScoreFileError: words(error)
        default: "\(error)"
        }
    }
}
