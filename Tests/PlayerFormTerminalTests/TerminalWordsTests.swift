import PlayerForm
import PlayerFormRules
import PlayerFormScores
import PlayerFormTerminal
import PlayerFormText
import Testing

/// The terminal's words for the errors and messages the view models carry.
@Suite("The terminal's words for store errors, roster alerts and form messages")
struct TerminalWordsTests {
    static let database = ScoreStorePlace.database(path: "scores.sqlite")
    static let server = ScoreStorePlace.server(endpoint: "db.example:5432/league")

    @Test(
        "each store error is one sentence naming the store, position first for a file or database",
        arguments: [
            (
                ScoreStoreError.locked(database, waitedSeconds: 0.5),
                "scores.sqlite: another process kept the score database locked for 0.5 s; nothing was changed, try again"
            ),
            (
                .storageFull(database, reason: "No space left on device"),
                "scores.sqlite: cannot write the score database: No space left on device; nothing was changed"
            ),
            (
                .io(database, access: .readWrite, reason: "Input/output error"),
                "scores.sqlite: cannot use the score database: Input/output error"
            ),
            (
                .io(database, access: .read, reason: "Is a directory"),
                "scores.sqlite: cannot read the score database: Is a directory"
            ),
            (
                .permissionDenied(database, access: .write),
                "scores.sqlite: permission denied: the score database may not be written"
            ),
            (
                .corrupt(database, reason: "malformed"),
                "scores.sqlite: the score database is damaged: malformed"
            ),
            (
                .cannotCreateFolder(path: "/data", reason: "Not a directory"),
                "/data: cannot create the folder: Not a directory"
            ),
            (
                .unreachable(server, reason: "connection refused"),
                "cannot reach the PostgreSQL server at db.example:5432/league: connection refused"
            ),
            (
                .timedOut(server, milliseconds: 300),
                "the PostgreSQL server at db.example:5432/league stopped a statement after 0.3 s (statement_timeout); nothing was changed, try again"
            ),
            (
                .refused(server, user: "bob", reason: "password authentication failed"),
                "the PostgreSQL server at db.example:5432/league refused the user bob: password authentication failed"
            ),
            (
                .newerSchema(server, version: 9),
                "the league at db.example:5432/league has schema version 9, written by a newer version of playerform; use that version"
            ),
            (
                .failed(server, code: "42P01", message: "relation does not exist"),
                "the PostgreSQL server at db.example:5432/league reported 42P01: relation does not exist"
            ),
            (
                .notAStore(database, holds: .notADatabase),
                "scores.sqlite: is not a SQLite database; name a score database or a new file"
            ),
            (
                .notAStore(database, holds: .scoreRecords),
                "scores.sqlite: is a file of score records, not a score database; import it with: playerform import scores.sqlite"
            ),
            (
                .notAStore(database, holds: .otherProgramsDatabase),
                "scores.sqlite: is a SQLite database of another program, not a playerform score database"
            ),
            (
                .notAStore(database, holds: .folder),
                "scores.sqlite: is a folder, not a score database; name a regular file"
            ),
            (
                .notAStore(database, holds: .folderName),
                "scores.sqlite: is a folder's name (it ends in /), not a score database; name a regular file"
            ),
            (
                .notAStore(database, holds: .fifo),
                "scores.sqlite: is a FIFO (named pipe), not a score database; name a regular file"
            ),
            (
                .notAStore(database, holds: .device),
                "scores.sqlite: is a device, not a score database; name a regular file"
            ),
            (
                .invalidAddress(
                    "postgres://bob:***@db:x/l", reason: "the port must be a number from 1 to 65535"),
                "postgres://bob:***@db:x/l: not a league address this program reads: the port must be a number "
                    + "from 1 to 65535 (accepted, as libpq reads them: "
                    + "postgres://[USER[:PASSWORD]@][HOST][:PORT][/DATABASE][?KEYWORD=VALUE&...], or "
                    + "KEYWORD=VALUE ... such as host=/run/postgresql dbname=league; see LEAGUE in man playerform)"
            ),
            (
                .newerSchema(database, version: nil),
                "scores.sqlite: was written by a newer version of playerform; use that version"
            ),
            (
                .conflictingRecord(id: "A1"),
                "a different record with the id A1 is already stored; the record is not kept"
            ),
            (.notFinite(points: .infinity), "points must be a finite number to be stored, not inf"),
            (.deletionUnsupported, "this score store cannot delete records"),
        ])
    func storeErrors(_ error: ScoreStoreError, _ words: String) {
        #expect(TerminalWords.text(error) == words)
    }

    /// How the terminal shows the refusal of `json` as a rules file at `path`; nil when accepted.
    static func refusal(_ json: String, path: String = "rules.json") -> String? {
        do {
            _ = try PlayerRules(configuration: Array(json.utf8), path: path)
            return nil
        } catch {
            return TerminalWords.shown(error)
        }
    }

    @Test("a rules file's refusal escapes, where they stand, the path and every text from the file")
    func rulesFileEscaped() {
        let key = Self.refusal("{\"\\u001b[2J\\u202e\": 1}")
        #expect(
            key == #"rules.json:1:2: unknown key "\u{1B}[2J\u{202E}"; accepted keys: "#
                + PlayerRules.configurationKeys.joined(separator: ", "))
        let quote = Self.refusal(#"{"a\"b": 1}"#)
        #expect(quote?.hasPrefix(#"rules.json:1:2: unknown key "a\"b";"#) == true)
        let path = Self.refusal("{", path: "rules\u{1B}[31m.json")
        #expect(path?.hasPrefix(#"rules\u{1B}[31m.json:1:2: "#) == true)
        for message in [key, quote, path] {
            let scalars = Array(message?.unicodeScalars ?? "".unicodeScalars)
            #expect(scalars.indices.allSatisfy { TerminalText.isShownAsIs(scalars, at: $0) })
        }
    }

    @Test("a long key in a rules file's refusal is cut short")
    func rulesFileLongKey() throws {
        let message = try #require(Self.refusal("{\"\(String(repeating: "k", count: 10_000))\": 1}"))
        #expect(message.count < 300)
        #expect(message.contains("\"" + String(repeating: "k", count: 64) + "\"...; accepted keys"))
    }

    @Test("a roster alert says what failed and the store's error in its words")
    func alerts() {
        let error = ScoreStoreError.locked(Self.database, waitedSeconds: 5)
        let said =
            "scores.sqlite: another process kept the score database locked for 5 s; nothing was changed, try again"
        #expect(TerminalWords.text(RosterAlert.readFailed(error)) == "Could not read the scores: " + said)
        #expect(
            TerminalWords.text(RosterAlert.addFailed(name: "Ann", error: error)) == "Could not add Ann: "
                + said)
        #expect(
            TerminalWords.text(RosterAlert.deleteFailed(name: "Ann", error: error))
                == "Could not delete Ann: " + said)
        #expect(TerminalWords.text(RosterAlert.noSuchPlayer(name: "Zed")) == "There is no player named Zed.")
        #expect(TerminalWords.text(RosterAlert.invalidInput([.emptyName])) == "The name is empty.")
    }

    @Test("the form's messages: an upload, a failed upload with the store's words, a cancelled upload")
    func messages() {
        #expect(
            TerminalWords.text(PlayerMessage.uploaded(name: "Colin", points: 100))
                == "Updated Colin with 100 points")
        #expect(
            TerminalWords.text(PlayerMessage.uploadFailed(name: "Colin", error: .connectionLost(Self.server)))
                == "Upload of Colin failed: lost the connection to the PostgreSQL server at db.example:5432/league; "
                + "the command was not completed (an upload is kept at most once); the next command connects again"
        )
        #expect(
            TerminalWords.text(PlayerMessage.uploadCancelled(name: "Colin"))
                == "Upload of Colin was cancelled")
    }
}
