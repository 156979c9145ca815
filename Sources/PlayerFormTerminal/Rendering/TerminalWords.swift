import PlayerForm
import PlayerFormRules
import PlayerFormScores

/// The terminal's words for what the view models carry: the store's errors, the roster's alerts
/// and the player form's messages, in one place.
///
/// The view models hold values (a `ScoreStoreError`, a name, points); this is where the terminal
/// says them. The words are not escaped: escape the result with `TerminalText.escaped(_:)` before
/// it reaches a terminal, since names and paths are as typed.
public enum TerminalWords {
    /// What went wrong in the store, naming it: `PATH: …` for a database or a file, the server
    /// at its endpoint for PostgreSQL.
    ///
    /// For example `scores.sqlite: another process kept the score database locked for 5 s;
    /// nothing was changed, try again`.
    public static func text(_ error: ScoreStoreError) -> String {
        switch error {
        case .deletionUnsupported:
            "this score store cannot delete records"
        case .importUnsupported:
            "this score store cannot import records"
        case .cancelled:
            "the operation was cancelled"
        case .notFinite(let points):
            "points must be a finite number to be stored, not \(points)"
        case .conflictingRecord(let id):
            "a different record with the id \(id) is already stored; the record is not kept"
        case .locked(let place, let seconds):
            prefix(place) + "another process kept \(noun(place)) locked for \(Self.seconds(seconds)); "
                + "nothing was changed, try again"
        case .timedOut(let place, let milliseconds):
            prefix(place) + "\(noun(place)) stopped a statement after \(Double(milliseconds) / 1000) s "
                + "(statement_timeout); nothing was changed, try again"
        case .unreachable(let place, let reason):
            prefix(place) + "cannot reach \(noun(place)): \(reason)"
        case .connectionLost(let place):
            prefix(place) + "lost the connection to \(noun(place)); the command was not completed "
                + "(an upload is kept at most once); the next command connects again"
        case .refused(let place, let user, let reason):
            prefix(place) + "\(noun(place)) refused the user \(user): \(reason)"
        case .passwordRequired(let place, let user):
            prefix(place) + "\(noun(place)) refused the user \(user): it asks for a password and none was "
                + "given; give it in the URL (postgres://USER:PASSWORD@...), in PGPASSWORD, or in the password "
                + "file (PGPASSFILE, else ~/.pgpass)"
        case .storageFull(let place, let reason):
            prefix(place) + "cannot write \(noun(place)): \(reason); nothing was changed"
        case .io(let place, .read, let reason):
            prefix(place) + "cannot read \(noun(place)): \(reason)"
        case .io(let place, .write, let reason):
            prefix(place) + "cannot write \(noun(place)): \(reason)"
        case .io(let place, .readWrite, let reason):
            prefix(place) + "cannot use \(noun(place)): \(reason)"
        case .permissionDenied(let place, let access):
            prefix(place) + "permission denied: \(noun(place)) may not be "
                + (access == .read ? "read" : access == .write ? "written" : "used")
        case .cannotOpen(let place, let reason):
            prefix(place) + "cannot open \(noun(place)): \(reason)"
        case .cannotCreateFolder(let path, let reason):
            "\(path): cannot create the folder: \(reason)"
        case .notAStore(.database(let path)):
            "\(path): is not a SQLite database; name a score database or a new file"
        case .notAStore(let place):
            prefix(place) + "\(noun(place)) is not a score store of playerform"
        case .corrupt(let place, let reason):
            prefix(place) + "\(noun(place)) is damaged: \(reason)"
        case .newerSchema(.server(let endpoint), let version?):
            "the league at \(endpoint) has schema version \(version), written by a newer version of "
                + "playerform; use that version"
        case .newerSchema(let place, _):
            prefix(place) + "was written by a newer version of playerform; use that version"
        case .failed(.server(let endpoint), let code, let message):
            "the PostgreSQL server at \(endpoint) reported \(code): \(message)"
        case .failed(let place, _, let message):
            prefix(place) + message
        }
    }

    /// The roster's alert as a sentence, such as `Could not add Bob: …`.
    public static func text(_ alert: RosterAlert) -> String {
        switch alert {
        case .readFailed(let error): "Could not read the scores: " + text(error)
        case .addFailed(let name, let error): "Could not add \(name): " + text(error)
        case .deleteFailed(let name, let error): "Could not delete \(name): " + text(error)
        case .noSuchPlayer(let name): RosterError.noSuchPlayer(name: name).description
        case .invalidInput(let issues): RosterError.invalidInput(issues).description
        }
    }

    /// The player form's message, such as `Updated Colin with 100 points`.
    public static func text(_ message: PlayerMessage) -> String {
        switch message {
        case .uploaded(let name, let points): "Updated \(name) with \(PointsFormat.text(points)) points"
        case .uploadFailed(let name, let error): "Upload of \(name) failed: " + text(error)
        case .uploadCancelled(let name): "Upload of \(name) was cancelled"
        }
    }

    /// `PATH: ` for a store on disk, which its words start with; nothing for a server, which they
    /// name in the sentence.
    private static func prefix(_ place: ScoreStorePlace) -> String {
        switch place {
        case .database(let path): "\(path): "
        case .server: ""
        }
    }

    /// What the words call the store.
    private static func noun(_ place: ScoreStorePlace) -> String {
        switch place {
        case .database: "the score database"
        case .server(let endpoint): "the PostgreSQL server at \(endpoint)"
        }
    }

    /// `5 s`, or `0.5 s`.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
