import Foundation
import PlayerForm
import PlayerFormScores
import PlayerFormTerminal
import PlayerFormTesting
import ReactiveCoreTesting
import ReactiveTable
import Testing

/// The roster's rows in a table drawn by the text row template, as the terminal shows them.
@Suite("Roster table")
struct RosterTableTests {
    /// A roster refreshed from a store holding Colin 100 and Alice 50.
    private func refreshedRoster() async throws -> RosterViewModel {
        let store = InMemoryScoreStore()
        _ = try await store.upload(name: "Colin", points: 100)
        _ = try await store.upload(name: "Alice", points: 50)
        let roster = RosterViewModel(store: store)
        try await roster.refresh.apply(())
        return roster
    }

    @Test("selecting a row of the roster's table toggles that player's selection")
    func rowSelection() async throws {
        let roster = try await refreshedRoster()
        let table = TableBinding<PlayerRowTemplate>(rows: roster.rows, selection: roster.rowSelected)
        let lines = Recorder(table.changes.map(\.description))
        try await table.select(at: 1)
        #expect(roster.selectedNames.value == ["Alice"])
        #expect(lines.values == ["~ 2 Alice 50 *"])
        try await table.select(at: 1)
        #expect(roster.selectedNames.value == [])
        #expect(lines.values == ["~ 2 Alice 50 *", "~ 2 Alice 50"])
    }

    @Test("the roster's rows bound to a table print each upload as a line")
    func tableOfTheRoster() async throws {
        let roster = try await refreshedRoster()
        let table = TableBinding<PlayerRowTemplate>(rows: roster.rows)
        let lines = Recorder(table.changes.map(\.description))
        #expect(table.lines == ["Colin 100", "Alice 50"])

        roster.newNameEdited("Bob")
        roster.newPointsEdited(120)
        try await roster.addTapped()
        roster.newNameEdited("Colin")
        roster.newPointsEdited(105)
        try await roster.addTapped()
        try await roster.delete.apply("Alice")

        #expect(lines.values == ["+ 3 Bob 120", "~ 1 Colin 105", "- 2 Alice"])
    }
}
