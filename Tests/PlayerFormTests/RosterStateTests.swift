import CustomDump
import Foundation
import PlayerForm
import PlayerFormScores
import PlayerFormTesting
import Testing

@Suite("Roster state")
struct RosterStateTests {
    @Test("the state reads each row's name, points, selection and running upload, and the sorted selection")
    func readsTheRoster() async throws {
        let store = InMemoryScoreStore()
        _ = try await store.upload(name: "Colin", points: 100)
        _ = try await store.upload(name: "Alice", points: 50.5)
        let roster = RosterViewModel(store: store, windowSize: 5)
        try await roster.refresh.apply(())
        try await roster.toggleSelection.apply("Colin")
        try await roster.toggleSelection.apply("Alice")
        roster.rows.value[1].uploadStarted()
        roster.newNameEdited("Bob")
        expectNoDifference(
            RosterState(
                rows: [
                    .init("Colin", 100, isSelected: true),
                    .init("Alice", 50.5, isSelected: true, isUploading: true),
                ],
                playerCount: 2, firstIndex: 0, windowSize: 5, isLoading: false,
                selectedNames: ["Alice", "Colin"],
                newName: "Bob", newPoints: 100, inputIssues: [], inputIsValid: true),
            RosterState(roster))
    }

    @Test("a roster state that does not match fails with a diff of the differing row")
    func mismatchShowsTheRow() async throws {
        let store = InMemoryScoreStore()
        _ = try await store.upload(name: "Colin", points: 100)
        _ = try await store.upload(name: "Alice", points: 50)
        let roster = RosterViewModel(store: store)
        try await roster.refresh.apply(())
        let stated = RosterState(roster).with { $0.rows[1].points = 55 }
        withKnownIssue {
            expectNoDifference(stated, RosterState(roster))
        } matching: { issue in
            let message = text(of: issue)
            return message.contains("−       points: 55.0,") && message.contains("+       points: 50.0,")
                && message.contains(#"name: "Alice""#) && !message.contains(#"name: "Colin""#)
        }
    }
}
