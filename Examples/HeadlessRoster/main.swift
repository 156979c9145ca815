// Drives the roster with no user interface: a score file, the player form uploading to it, and
// the roster's rows bound to a table whose line changes are printed as they happen.
//
//   swift run HeadlessRoster [PATH]   (a new file in the temporary folder when no path is given)
import Foundation
import PlayerForm
import PlayerFormStore
import ReactiveCore

let path =
    CommandLine.arguments.dropFirst().first
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("headless-roster-\(UUID()).jsonl").path
let store = FileScoreStore(path: path)
let roster = RosterViewModel(store: store)
let form = PlayerViewModel(store: store)
let bindings = DisposeBag()
let table = TableBinding<PlayerRowTemplate>(rows: roster.rows, selection: roster.rowSelected)

print("store: \(path)")
table.changes.observeValues(in: bindings) { print($0) }
roster.alertMessages.observeValues(in: bindings) { print("alert: \($0)") }
roster.isLoading.changes.observeValues(in: bindings) { print("loading: \($0)") }
roster.follow(form).dispose(in: bindings)

do {
    try await roster.refresh.apply(())
    print(roster.title)
    for (index, line) in table.lines.enumerated() { print("  \(index + 1) \(line)") }

    _ = await form.uploadTapped()
    try form.nameEdited("Alice")
    _ = await form.uploadTapped()
    roster.newNameEdited("Bob")
    roster.newPointsEdited(120)
    try await roster.addTapped()
    try form.nameEdited("Colin")
    try form.stepUpTapped(times: 5)
    _ = await form.uploadTapped()
    try await table.select(at: 0)
    try await roster.delete.apply("Alice")
    roster.newNameEdited("darn")
    print("add enabled: \(roster.addPlayer.isEnabled.value); \(roster.inputIssues.value.map(\.message))")

    print(roster.title)
    for (index, line) in table.lines.enumerated() { print("  \(index + 1) \(line)") }
} catch {
    print("refused: \(error)")
}
