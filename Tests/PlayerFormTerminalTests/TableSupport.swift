import Foundation
import PlayerForm
import PlayerFormRules
import PlayerFormScores
import PlayerFormTerminalTesting

@testable import PlayerFormTerminal

/// The table `players` draws for rows of (number, name, points, selected), all uploaded at the
/// same time, for specs about which rows show rather than how they are drawn.
func tableLines(_ rows: [(number: Int, name: String, points: String, selected: Bool)]) -> [String] {
    PlayerTable.lines(
        rows.map {
            PlayerTable.Row(
                number: $0.number, name: $0.name, points: $0.points,
                uploadedAt: Date(timeIntervalSince1970: 0),
                selected: $0.selected)
        })
}

/// `text` with every upload time of a table replaced by the one ``tableLines(_:)`` draws, for
/// stores that stamp uploads with the clock.
func timeless(_ text: String) -> String {
    text.replacing(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/, with: "1970-01-01 00:00:00")
}

/// `line` with its upload times replaced as ``timeless(_:)`` does.
func timeless(_ line: CapturedOutput.Line) -> CapturedOutput.Line {
    switch line {
    case .out(let text): .out(timeless(text))
    case .error(let text): .error(text)
    }
}

/// A player with one record, uploaded at the start of 1970.
func makePlayer(_ name: String, _ points: Double) -> Player {
    Player(name: name, points: points, uploadedAt: Date(timeIntervalSince1970: 0), recordIDs: [UUID()])
}

/// The form and the roster of a session on `store`, as the program builds them: the roster's new
/// players follow the form's rules.
func sessionViewModels(
    rules: PlayerRules, store: any ScoreStore, uploadDelay: Duration
) -> (form: PlayerViewModel, roster: RosterViewModel) {
    let form = PlayerViewModel(rules: rules, store: store, uploadDelay: uploadDelay)
    return (form, RosterViewModel(store: store, rules: form.rules))
}
