// Drives the roster with no user interface: a score database, the player form uploading to it, and
// the roster's window of rows bound to a table whose line changes are printed as they happen,
// numbered in the whole roster.
//
//   swift run HeadlessRoster [PATH]   (a new file in the temporary folder when no path is given)
import Foundation
import PlayerForm
import PlayerFormSQLite
import PlayerFormTerminal
import ReactiveCore
import ReactiveTable

let path =
    CommandLine.arguments.dropFirst().first
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("headless-roster-\(UUID()).sqlite").path
let store: SQLiteScoreStore
do {
    store = try SQLiteScoreStore(path: path)
} catch {
    FileHandle.standardError.write(Data("HeadlessRoster: \(error)\n".utf8))
    exit(74)
}
let roster = RosterViewModel(store: store, windowSize: 20)
let form = PlayerViewModel(store: store)
let bindings = DisposeBag()
let table = TableBinding<PlayerRowTemplate>(window: roster.window, selection: roster.rowSelected)

print("store: \(path)")
table.changes.observeValues(in: bindings) { print($0) }
roster.alerts.observeValues(in: bindings) { print("alert: " + TerminalWords.text($0)) }
roster.isLoading.changes.observeValues(in: bindings) { print("loading: \($0)") }
roster.follow(form).dispose(in: bindings)

/// The rows in view, numbered in the whole roster.
func printTable() {
    print("\(roster.title): \(table.count) of \(table.totalCount) in view")
    for (index, line) in table.lines.enumerated() { print("  \(table.firstIndex + index + 1) \(line)") }
}

do {
    try await roster.refresh.apply(())
    printTable()

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

    printTable()
} catch {
    print("refused: \(error)")
}
