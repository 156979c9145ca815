import Foundation
import PlayerForm
import PlayerFormScores
import PlayerFormTerminal
import PlayerFormTesting
import ReactiveCore
import ReactiveCoreTesting
import ReactiveTable
import Testing

/// A store of a million players, one record each: "Player 0" with 0 points, "Player 1" with 1,
/// and so on.
///
/// Made once; each spec works on its own copy.
private let millionStore = Task {
    let records = (0..<1_000_000).map { index in
        ScoreRecord(
            id: UUID(uuid: uuidBytes(index)), name: "Player \(index)", points: Double(index % 10_000),
            uploadedAt: Date(timeIntervalSince1970: 0))
    }
    return InMemoryScoreStore(records: records)
}

/// A distinct identifier per index, without asking the system for randomness a million times.
private func uuidBytes(_ index: Int) -> uuid_t {
    let b = withUnsafeBytes(of: UInt64(index).bigEndian) { Array($0) }
    return (0x40, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, b[2], b[3], b[4], b[5], b[6], b[7])
}

/// A copy of the million players, a roster with a window of 40 rows on it, and a table bound to
/// the window, read once.
private func millionRoster() async throws -> (
    store: InMemoryScoreStore, roster: RosterViewModel, table: TableBinding<PlayerRowTemplate>
) {
    let store = await InMemoryScoreStore(copying: millionStore.value)
    let roster = RosterViewModel(store: store, windowSize: 40)
    let table = TableBinding<PlayerRowTemplate>(window: roster.window, selection: roster.rowSelected)
    try await roster.refresh.apply(())
    return (store, roster, table)
}

@Suite("Roster window over a million players")
struct RosterWindowTests {
    @Test("a table bound to a window over 1,000,000 players makes row view models only for the window")
    func onlyTheWindowIsBound() async throws {
        let (_, roster, table) = try await millionRoster()
        #expect(roster.playerCount.value == 1_000_000)
        #expect(roster.rows.value.count == 40)
        #expect(roster.rowViewModelsMade == 40)
        #expect(table.count == 40)
        #expect(table.templateCount == 40)
        #expect(table.totalCount == 1_000_000)
        #expect(table.lines.first == "Player 0 0")
        #expect(table.lines.last == "Player 39 39")
    }

    @Test(
        "moving the window reuses the same row view models, drops their old bindings and work, and announces nothing"
    )
    func movingReusesRows() async throws {
        let (_, roster, table) = try await millionRoster()
        let changes = Recorder(table.changes)
        let before = roster.rows.value
        let oldTitle = Recorder(before[0].title)
        let work = Disposable {}
        before[0].bindWork(work)

        let shown = try await roster.moveWindow.apply(500_000)

        let after = roster.rows.value
        #expect(shown.first?.name == "Player 500000")
        #expect(Set(after.map(ObjectIdentifier.init)) == Set(before.map(ObjectIdentifier.init)))
        #expect(roster.rowViewModelsMade == 40)
        #expect(table.templateCount == 40)
        #expect(table.firstIndex == 500_000)
        #expect(table.lines.first == "Player 500000 0")
        #expect(changes.values == [])
        #expect(work.isDisposed)
        #expect(before[0].id != "Player 0")

        // A move by 10 rows keeps the 30 rows still in view, in their new places.
        let stay = Array(after[10...])
        try await roster.moveWindow.apply(500_010)
        #expect(roster.rows.value[..<30].elementsEqual(stay, by: ===))
        #expect(roster.rowViewModelsMade == 40)
        #expect(table.lines.last == "Player 500049 49")
        #expect(changes.values == [])

        // The row that showed Player 0 shows another player; the old binding hears nothing of it.
        before[0].uploadStarted()
        before[0].uploadProgressed(percent: 50)
        #expect(before[0].title.value == "\(before[0].id) 50%")
        #expect(oldTitle.values == ["Player 0"])
    }

    @Test("changes by another client print lines only for rows in view, numbered in the whole roster")
    func changeLinesInView() async throws {
        let (store, roster, table) = try await millionRoster()
        try await roster.moveWindow.apply(500_000)
        let lines = Recorder(table.changes.map(\.description))
        // Another client sharing the store.
        _ = try await store.upload(name: "Player 500005", points: 7)
        _ = try await store.upload(name: "Player 3", points: 7)
        _ = try await store.upload(name: "Newcomer", points: 5)
        _ = try await store.deletePlayer(named: "Player 500010")

        let found = try await roster.refreshIfStoreChanged()

        #expect(lines.values == ["~ 500006 Player 500005 7", "- 500011 Player 500010"])
        #expect(
            found
                == RosterCatchUp(
                    countBefore: 1_000_000, countAfter: 1_000_000, addedInView: 0, removedInView: 1))
        #expect(found?.changedOutOfView == 1)
        // The row below the window came into view without a line.
        #expect(table.lines.last == "Player 500040 40")
        #expect(roster.rowViewModelsMade == 40)
        #expect(try await roster.refreshIfStoreChanged() == nil)
    }

    @Test(
        "at the end of the roster a player added elsewhere is a + line; a removal above the window only moves rows"
    )
    func changesAtTheEnd() async throws {
        let (store, roster, table) = try await millionRoster()
        try await roster.moveWindow.apply(999_990)
        #expect(table.count == 10)
        let lines = Recorder(table.changes.map(\.description))

        _ = try await store.upload(name: "Newcomer", points: 5)
        let added = try await roster.refreshIfStoreChanged()
        #expect(lines.values == ["+ 1000001 Newcomer 5"])
        #expect(added?.changedOutOfView == 0)

        _ = try await store.deletePlayer(named: "Player 5")
        let removed = try await roster.refreshIfStoreChanged()
        #expect(lines.values == ["+ 1000001 Newcomer 5"])
        #expect(removed?.changedOutOfView == -1)
        #expect(table.lines.first == "Player 999991 9991")
        #expect(table.lines.last == "Newcomer 5")
    }

    @Test("players out of view can be selected and deleted by name")
    func selectAndDeleteOutOfView() async throws {
        let (store, roster, table) = try await millionRoster()
        let lines = Recorder(table.changes.map(\.description))
        #expect(try await roster.toggleSelection.apply("player 700000") == true)
        #expect(roster.selectedNames.value == ["Player 700000"])
        #expect(roster.isSelected("Player 700000"))
        try await roster.delete.apply("Player 800000")
        #expect(try await store.player(named: "Player 800000") == nil)
        #expect(roster.playerCount.value == 999_999)
        #expect(lines.values == [])

        try await roster.moveWindow.apply(700_000)
        #expect(table.lines.first == "Player 700000 0 *")
        #expect(roster.rows.value[0].isSelected.value)
        await #expect(throws: ActionError.self) { try await roster.toggleSelection.apply("Nobody") }
    }
}
