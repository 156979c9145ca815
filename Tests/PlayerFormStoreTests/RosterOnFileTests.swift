import Foundation
import PlayerForm
import PlayerFormScores
import PlayerFormStore
import PlayerFormTesting
import ReactiveCore
import ReactiveCoreTesting
import Testing

@Suite("A roster on a score file")
struct RosterOnFileTests {
    let path: String

    init() throws {
        path = try makeTemporaryFolder().appendingPathComponent("scores.jsonl").path
    }

    @Test("uploads from the form appear in the roster and are there again after a restart")
    func uploadsSurviveRestart() async throws {
        let store = FileScoreStore(path: path)
        let roster = RosterViewModel(store: store)
        let form = PlayerViewModel(store: store)
        roster.follow(form)
        _ = await form.uploadTapped()
        try form.nameEdited("Bob")
        _ = await form.uploadTapped()
        #expect(roster.players.value.map(\.name) == ["Colin", "Bob"])

        let restarted = RosterViewModel(store: FileScoreStore(path: path))
        try await restarted.refresh.apply(())
        #expect(restarted.players.value == roster.players.value)
    }

    @Test("a corrupt line is an alert naming the file and line, and every other player is shown")
    func corruptLine() async throws {
        let store = FileScoreStore(path: path)
        _ = try store.appendRecord(name: "Colin", points: 100)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("garbage\n".utf8))
        try handle.close()
        _ = try store.appendRecord(name: "Bob", points: 120)

        let roster = RosterViewModel(store: store)
        let alerts = Recorder(roster.alerts)
        try await roster.refresh.apply(())
        #expect(roster.players.value.map(\.name) == ["Colin", "Bob"])
        #expect(
            alerts.values == [
                .damagedStore(.notARecord(.file(path: path), line: 2, reason: "not valid JSON"))
            ])
    }

    @Test("when the file cannot be read, a refresh alerts naming it and the roster keeps its players")
    func unreadableKeepsMemory() async throws {
        let store = FileScoreStore(path: path)
        _ = try store.appendRecord(name: "Colin", points: 100)
        let roster = RosterViewModel(store: store)
        try await roster.refresh.apply(())

        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let alerts = Recorder(roster.alerts)
        await #expect(throws: ActionError.self) { try await roster.refresh.apply(()) }
        #expect(
            alerts.values == [.readFailed(.io(.file(path: path), access: .read, reason: "Is a directory"))])
        #expect(roster.players.value.map(\.name) == ["Colin"])
    }

    @Test("deleting a player appends a tombstone; after a restart the player is gone")
    func deleteSurvivesRestart() async throws {
        let store = FileScoreStore(path: path)
        _ = try store.appendRecord(name: "Colin", points: 100)
        _ = try store.appendRecord(name: "Alice", points: 50)
        _ = try store.appendRecord(name: "Alice", points: 55)
        let roster = RosterViewModel(store: store)
        try await roster.refresh.apply(())
        try await roster.delete.apply("Alice")

        let restarted = RosterViewModel(store: FileScoreStore(path: path))
        try await restarted.refresh.apply(())
        #expect(restarted.players.value.map(\.name) == ["Colin"])
    }
}
