import PlayerForm
import PlayerFormRules
import PlayerFormScores
import PlayerFormText

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
                + "given; give it in the address (postgres://USER:PASSWORD@... or password=...), in PGPASSWORD, "
                + "or in the password file (passfile=, PGPASSFILE, else ~/.pgpass)"
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
        case .notAStore(let place, let content):
            notAStore(place, content)
        case .invalidAddress(let address, let reason):
            "\(address): not a league address this program reads: \(reason) (accepted, as libpq reads them: "
                + "postgres://[USER[:PASSWORD]@][HOST][:PORT][/DATABASE][?KEYWORD=VALUE&...], or "
                + "KEYWORD=VALUE ... such as host=/run/postgresql dbname=league; see LEAGUE in man playerform)"
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

    /// Why what `place` holds is not a score store, and what to do instead.
    private static func notAStore(_ place: ScoreStorePlace, _ content: ScoreStoreContent) -> String {
        guard case .database(let path) = place else {
            return "\(noun(place)) is not a score store of playerform"
        }
        let kind: String
        switch content {
        case .scoreRecords:
            return "\(path): is a file of score records, not a score database; "
                + "import it with: playerform import \(path)"
        case .notADatabase:
            return "\(path): is not a SQLite database; name a score database or a new file"
        case .otherProgramsDatabase:
            return "\(path): is a SQLite database of another program, not a playerform score database"
        case .folder: kind = "a folder"
        case .folderName: kind = "a folder's name (it ends in /)"
        case .fifo: kind = "a FIFO (named pipe)"
        case .device: kind = "a device"
        case .socket: kind = "a socket"
        case .otherFile: kind = "not a regular file"
        }
        return "\(path): is \(kind), not a score database; name a regular file"
    }

    /// Why a rules file is not accepted, ready for the terminal: unlike the other words here,
    /// already escaped, since the path and each text from the file are escaped where they stand
    /// (a text from the file in double quotes, cut short after 64 characters).
    ///
    /// For example `rules.json:1:2: unknown key "\u{1B}[2J"; accepted keys: …`.
    public static func shown(_ error: RulesFileError) -> String {
        error.text(path: TerminalText.escaped) { text in
            let limit = 64
            guard text.unicodeScalars.count > limit else { return TerminalText.quoted(text) }
            var prefix = String.UnicodeScalarView()
            prefix.append(contentsOf: text.unicodeScalars.prefix(limit))
            return TerminalText.quoted(String(prefix)) + "..."
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
