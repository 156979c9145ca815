import CustomDump
import Foundation
import PlayerForm
import PlayerFormRules
import PlayerFormScores
import PlayerFormTesting
import ReactiveCore
import ReactiveCoreTesting
import ReactiveTable
import Synchronization
import Testing

/// An in-memory store whose operations can be made to fail.
private actor ScriptedStore: ScoreStore {
    let kept = InMemoryScoreStore()
    var readFailure: ScoreStoreError?
    var uploadFailure: ScoreStoreError?
    var deleteFailure: ScoreStoreError?

    func failReads(_ error: ScoreStoreError?) { readFailure = error }
    func failUploads(_ error: ScoreStoreError?) { uploadFailure = error }
    func failDeletes(_ error: ScoreStoreError?) { deleteFailure = error }

    func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
        if let uploadFailure { throw uploadFailure }
        return try await kept.upload(name: name, points: points)
    }

    func records() async throws(ScoreStoreError) -> [ScoreRecord] {
        if let readFailure { throw readFailure }
        return try await kept.records()
    }

    func delete(ids: [UUID]) async throws(ScoreStoreError) {
        if let deleteFailure { throw deleteFailure }
        try await kept.delete(ids: ids)
    }

}

/// An in-memory store that notes which of the roster's questions it is asked, in order.
private final class QuestionNotingStore: ScoreStore {
    let kept: InMemoryScoreStore
    private let asked = Mutex<[String]>([])

    init(players: Int) {
        kept = InMemoryScoreStore(
            records: (1...players).map {
                ScoreRecord(id: UUID(), name: "P\($0)", points: 1, uploadedAt: Date(timeIntervalSince1970: 0))
            })
    }

    /// The questions asked since the last call.
    func questions() -> [String] {
        asked.withLock { asked in
            defer { asked = [] }
            return asked
        }
    }

    private func note(_ question: String) { asked.withLock { $0.append(question) } }

    func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
        try await kept.upload(name: name, points: points)
    }

    func records() async throws(ScoreStoreError) -> [ScoreRecord] {
        note("records")
        return try await kept.records()
    }

    func playerCount() async throws(ScoreStoreError) -> Int {
        note("playerCount")
        return try await kept.playerCount()
    }

    func players(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player] {
        note("players")
        return try await kept.players(from: offset, limit: limit)
    }

    func revision() async throws(ScoreStoreError) -> UInt64 {
        note("revision")
        return try await kept.revision()
    }

    func rosterWindow(from offset: Int, limit: Int) async throws(ScoreStoreError) -> RosterWindow {
        note("rosterWindow \(offset)")
        return try await kept.rosterWindow(from: offset, limit: limit)
    }
}

/// A store whose reads wait until they are cancelled, so a spec can cancel a refresh mid-read.
private final class WaitingStore: ScoreStore {
    private struct Waiting {
        var reader: CheckedContinuation<[ScoreRecord], Never>?
        var cancelled = false
    }

    private let waiting = Mutex(Waiting())
    let readStarted: AsyncStream<Void>
    private let readStartedInput: AsyncStream<Void>.Continuation

    init() {
        (readStarted, readStartedInput) = AsyncStream<Void>.makeStream()
    }

    func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
        throw .cancelled
    }

    /// Waits until cancelled, then throws `ScoreStoreError.cancelled`.
    func records() async throws(ScoreStoreError) -> [ScoreRecord] {
        _ = await withTaskCancellationHandler {
            await withCheckedContinuation { reader in
                let cancelled = waiting.withLock { waiting -> Bool in
                    waiting.reader = reader
                    return waiting.cancelled
                }
                if cancelled { reader.resume(returning: []) }
                readStartedInput.yield()
            }
        } onCancel: {
            let reader = waiting.withLock { waiting in
                waiting.cancelled = true
                return waiting.reader.take()
            }
            reader?.resume(returning: [])
        }
        throw .cancelled
    }
}

/// A store whose first read takes its records at once but returns them only when the spec says so,
/// so a spec can change the roster while a refresh holds an older reading.
private final class HeldReadStore: ScoreStore {
    private let inner = InMemoryScoreStore()
    private let held = Mutex<(first: Bool, release: CheckedContinuation<Void, Never>?, released: Bool)>(
        (true, nil, false))
    let readStarted: AsyncStream<Void>
    private let readStartedInput: AsyncStream<Void>.Continuation

    init() {
        (readStarted, readStartedInput) = AsyncStream<Void>.makeStream()
    }

    func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
        try await inner.upload(name: name, points: points)
    }

    func records() async throws(ScoreStoreError) -> [ScoreRecord] {
        let snapshot = try await inner.records()
        let first = held.withLock { held -> Bool in
            defer { held.first = false }
            return held.first
        }
        guard first else { return snapshot }
        await withCheckedContinuation { release in
            let releasedAlready = held.withLock { held -> Bool in
                held.release = release
                return held.released
            }
            readStartedInput.yield()
            if releasedAlready { release.resume() }
        }
        return snapshot
    }

    func release() {
        let waiting = held.withLock { held in
            held.released = true
            return held.release.take()
        }
        waiting?.resume()
    }
}

extension RosterState {
    /// A new roster with the default rules: no rows, nothing typed.
    static let empty = RosterState(
        rows: [], playerCount: 0, firstIndex: 0, windowSize: 40, isLoading: false, selectedNames: [],
        newName: "", newPoints: 100, inputIssues: [.emptyName], inputIsValid: false)

    /// A roster refreshed from a store holding Colin 100 and Alice 50.
    static let colinAndAlice = RosterState.empty.with {
        $0.rows = [Row("Colin", 100), Row("Alice", 50)]
        $0.playerCount = 2
    }
}

@Suite("RosterViewModel", .timeLimit(.minutes(10)))
struct RosterViewModelTests {
    private let store = ScriptedStore()

    /// A roster refreshed from a store holding Colin 100 and Alice 50.
    private func refreshedRoster() async throws -> RosterViewModel {
        _ = try await store.upload(name: "Colin", points: 100)
        _ = try await store.upload(name: "Alice", points: 50)
        let roster = RosterViewModel(store: store)
        try await roster.refresh.apply(())
        return roster
    }

    // MARK: Outputs

    @Test("the title is Players, and a new roster is empty and not loading")
    func initialState() {
        let roster = RosterViewModel(store: store)
        #expect(roster.title == "Players")
        expectNoDifference(.empty, RosterState(roster))
    }

    // MARK: Refresh

    @Test("the roster tells players apart by the key their store gives, without working it out again")
    func keysFromTheStore() async throws {
        /// A store whose players carry keys of their own: "Ann" and "ANN" under different keys;
        /// after the first reading, "Ann" is gone and "ANN" has new points.
        actor KeyedStore: ScoreStore {
            var readings = 0
            func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
                throw .deletionUnsupported
            }
            func records() async throws(ScoreStoreError) -> [ScoreRecord] { [] }
            func rosterWindow(from offset: Int, limit: Int) async throws(ScoreStoreError) -> RosterWindow {
                readings += 1
                let time = Date(timeIntervalSince1970: 0)
                let second = Player(
                    name: "ANN", points: readings == 1 ? 2 : 3, uploadedAt: time, recordIDs: [], key: "second"
                )
                guard readings == 1 else {
                    return RosterWindow(revision: 2, playerCount: 1, players: [second])
                }
                let first = Player(name: "Ann", points: 1, uploadedAt: time, recordIDs: [], key: "first")
                return RosterWindow(revision: 1, playerCount: 2, players: [first, second])
            }
        }
        let roster = RosterViewModel(store: KeyedStore())
        _ = try await roster.refresh.apply(())
        let rows = roster.rows.value
        #expect(rows.map(\.player.points) == [1, 2])
        _ = try await roster.refresh.apply(())
        // The row of the player keyed "second" is the one kept, with its new points.
        #expect(roster.rows.value.count == 1)
        #expect(roster.rows.value.first === rows.last)
        #expect(roster.rows.value.first?.player.points == 3)
    }

    @Test("a refresh goes isLoading false, true, false and announces the players as insertions")
    func refreshLoads() async throws {
        _ = try await store.upload(name: "Colin", points: 100)
        _ = try await store.upload(name: "Alice", points: 50)
        _ = try await store.upload(name: "Colin", points: 105)
        let roster = RosterViewModel(store: store)
        let loading = Recorder(roster.isLoading)
        let changes = Recorder(roster.contentChanges)
        let players = try await roster.refresh.apply(())

        #expect(loading.values == [false, true, false])
        #expect(changes.values == [Changeset(insertions: [0, 1])])
        #expect(players.map(\.name) == ["Colin", "Alice"])
        #expect(roster.players.value.map(\.points) == [105, 50])
        #expect(roster.rows.value.map(\.id) == ["Colin", "Alice"])
    }

    @Test("a refresh announces its changeset after isLoading returns to false")
    func refreshOrder() async throws {
        _ = try await store.upload(name: "Colin", points: 100)
        let roster = RosterViewModel(store: store)
        let events = Recorder(
            Signal.merge(
                roster.isLoading.changes.map { "loading \($0)" },
                roster.contentChanges.map { "changes \($0.insertions)" }))
        try await roster.refresh.apply(())
        #expect(events.values == ["loading true", "loading false", "changes [0]"])
    }

    @Test("a refresh does not undo a player added while it was reading the store")
    func refreshKeepsNewerChanges() async throws {
        let held = HeldReadStore()
        _ = try await held.upload(name: "Colin", points: 100)
        let roster = RosterViewModel(store: held)
        let changes = Recorder(roster.contentChanges)
        let refresh = Task { try await roster.refresh.apply(()) }
        var started = held.readStarted.makeAsyncIterator()
        _ = await started.next()
        roster.newNameEdited("Bob")
        roster.newPointsEdited(120)
        _ = try await roster.addTapped()
        #expect(roster.players.value.map(\.name) == ["Bob"])
        held.release()
        _ = try await refresh.value
        #expect(Set(roster.players.value.map(\.name)) == ["Colin", "Bob"])
        #expect(changes.values.allSatisfy { $0.deletions.isEmpty })
    }

    @Test("a refresh that finds nothing new announces no change")
    func refreshWithoutChange() async throws {
        let roster = try await refreshedRoster()
        let changes = Recorder(roster.contentChanges)
        try await roster.refresh.apply(())
        #expect(changes.values == [])
    }

    @Test("a refresh that cannot read the store alerts, and the roster keeps what it showed")
    func refreshFailure() async throws {
        let roster = try await refreshedRoster()
        let alerts = Recorder(roster.alerts)
        let loading = Recorder(roster.isLoading)
        let denied = ScoreStoreError.permissionDenied(.database(path: "scores.sqlite"), access: .read)
        await store.failReads(denied)
        await #expect(throws: ActionError.self) { try await roster.refresh.apply(()) }
        #expect(alerts.values == [.readFailed(denied)])
        expectNoDifference(.colinAndAlice, RosterState(roster))
        #expect(loading.values == [false, true, false])
    }

    @Test("a cancelled refresh raises no alert, and isLoading returns to false")
    func refreshCancelled() async throws {
        let waiting = WaitingStore()
        let roster = RosterViewModel(store: waiting)
        let alerts = Recorder(roster.alerts)
        let loading = Recorder(roster.isLoading)
        let refresh = Task { try await roster.refresh.apply(()) }
        var started = waiting.readStarted.makeAsyncIterator()
        _ = await started.next()
        #expect(roster.isLoading.value == true)
        roster.refresh.cancel()
        let result = await refresh.result
        #expect(throws: ActionError.self) { try result.get() }
        #expect(alerts.values == [])
        #expect(loading.values == [false, true, false])
    }

    // MARK: Adding

    @Test("the add input is valid by the same rules as the player form")
    func inputValidity() {
        let rules = try! PlayerRules(max: 500, forbiddenNames: ["voldemort"])
        let roster = RosterViewModel(store: store, rules: rules)
        let valid = Recorder(roster.inputIsValid)
        roster.newNameEdited("Bob")
        roster.newPointsEdited(120)
        roster.newNameEdited(" VOLDEMORT ")
        #expect(roster.inputIssues.value == rules.validate(name: " VOLDEMORT ", points: 120))
        roster.newNameEdited("Bob")
        roster.newPointsEdited(501)
        #expect(roster.inputIssues.value == [.aboveMax(points: 501, max: 500)])
        #expect(valid.values == [false, true, false, true, false])
    }

    @Test("adding is refused while the input is not valid, and nothing is uploaded")
    func addRefusedWhileInvalid() async throws {
        let roster = RosterViewModel(store: store)
        roster.newNameEdited("darn")
        #expect(roster.addPlayer.isEnabled.value == false)
        await #expect(throws: ActionError.self) { try await roster.addTapped() }
        #expect(try await store.records() == [])
        #expect(roster.players.value == [])
    }

    @Test("adding a new player uploads it and announces an insertion at the end")
    func addNewPlayer() async throws {
        let roster = try await refreshedRoster()
        let changes = Recorder(roster.contentChanges)
        roster.newNameEdited("Bob")
        roster.newPointsEdited(120)
        let record = try await roster.addTapped()
        #expect(record.name == "Bob")
        #expect(try await store.records().map(\.name) == ["Colin", "Alice", "Bob"])
        #expect(changes.values == [Changeset(insertions: [2])])
        expectNoDifference(
            .colinAndAlice.with {
                $0.rows.append(.init("Bob", 120))
                $0.playerCount = 3
                $0.newName = "Bob"
                $0.newPoints = 120
                $0.inputIssues = []
                $0.inputIsValid = true
            },
            RosterState(roster))
    }

    @Test("adding new points for a known player announces a modification at its index")
    func addKnownPlayer() async throws {
        let roster = try await refreshedRoster()
        let colinRow = roster.rows.value[0]
        let changes = Recorder(roster.contentChanges)
        roster.newNameEdited("Colin")
        roster.newPointsEdited(105)
        try await roster.addTapped()
        #expect(changes.values == [Changeset(modifications: [0])])
        #expect(roster.rows.value[0] === colinRow)
        #expect(colinRow.points.value == 105)
    }

    @Test("an add the store refuses alerts, and the roster is unchanged")
    func addFailure() async throws {
        let roster = try await refreshedRoster()
        let alerts = Recorder(roster.alerts)
        let full = ScoreStoreError.storageFull(.database(path: "s.sqlite"), reason: "No space left on device")
        await store.failUploads(full)
        roster.newNameEdited("Bob")
        roster.newPointsEdited(120)
        await #expect(throws: ActionError.self) { try await roster.addTapped() }
        #expect(alerts.values == [.addFailed(name: "Bob", error: full)])
        expectNoDifference(
            .colinAndAlice.with {
                $0.newName = "Bob"
                $0.newPoints = 120
                $0.inputIssues = []
                $0.inputIsValid = true
            },
            RosterState(roster))
    }

    @Test("an add request with invalid values is refused even while the typed input is valid")
    func addChecksTheRequest() async throws {
        let roster = RosterViewModel(store: store)
        let alerts = Recorder(roster.alerts)
        roster.newNameEdited("Bob")
        await #expect(throws: ActionError.self) {
            try await roster.addPlayer.apply(UploadRequest(name: "", points: 1))
        }
        #expect(alerts.values == [.invalidInput([.emptyName])])
        #expect(try await store.records() == [])
    }

    // MARK: Deleting

    @Test("deleting a player removes all its records from the store and announces a deletion")
    func delete() async throws {
        _ = try await store.upload(name: "Alice", points: 40)
        let roster = try await refreshedRoster()
        let changes = Recorder(roster.contentChanges)
        let deleted = try await roster.delete.apply("Alice")
        #expect(deleted.recordIDs.count == 2)
        #expect(changes.values == [Changeset(deletions: [0])])
        expectNoDifference(
            .colinAndAlice.with {
                $0.rows = [.init("Colin", 100)]
                $0.playerCount = 1
            },
            RosterState(roster))
        #expect(try await store.records().map(\.name) == ["Colin"])
    }

    @Test("a delete the store refuses alerts, and the player stays")
    func deleteFailure() async throws {
        let roster = try await refreshedRoster()
        let alerts = Recorder(roster.alerts)
        let readOnly = ScoreStoreError.permissionDenied(.database(path: "scores.sqlite"), access: .write)
        await store.failDeletes(readOnly)
        await #expect(throws: ActionError.self) { try await roster.delete.apply("Alice") }
        #expect(alerts.values == [.deleteFailed(name: "Alice", error: readOnly)])
        expectNoDifference(.colinAndAlice, RosterState(roster))
    }

    @Test("deleting a player that is not in the roster alerts and touches nothing")
    func deleteUnknown() async throws {
        let roster = try await refreshedRoster()
        let alerts = Recorder(roster.alerts)
        await #expect(throws: ActionError.self) { try await roster.delete.apply("Zed") }
        #expect(alerts.values == [.noSuchPlayer(name: "Zed")])
        #expect(try await store.records().count == 2)
        expectNoDifference(.colinAndAlice, RosterState(roster))
    }

    // MARK: Selection

    @Test("toggling selects and deselects a player, in the selection and on its row")
    func toggleSelection() async throws {
        let roster = try await refreshedRoster()
        let selected = Recorder(roster.selectedNames)
        #expect(try await roster.toggleSelection.apply("Alice") == true)
        #expect(roster.selectedPlayers.value.map(\.name) == ["Alice"])
        #expect(roster.rows.value[1].isSelected.value == true)
        #expect(try await roster.toggleSelection.apply("Colin") == true)
        #expect(roster.selectedPlayers.value.map(\.name) == ["Colin", "Alice"])
        #expect(try await roster.toggleSelection.apply("Alice") == false)
        #expect(roster.rows.value[1].isSelected.value == false)
        #expect(selected.values == [[], ["Alice"], ["Alice", "Colin"], ["Colin"]])
        expectNoDifference(
            .colinAndAlice.with {
                $0.rows[0].isSelected = true
                $0.selectedNames = ["Colin"]
            },
            RosterState(roster))
    }

    @Test("selecting a player that is not in the roster alerts")
    func toggleUnknown() async throws {
        let roster = try await refreshedRoster()
        let alerts = Recorder(roster.alerts)
        await #expect(throws: ActionError.self) { try await roster.toggleSelection.apply("Zed") }
        #expect(alerts.values == [.noSuchPlayer(name: "Zed")])
        expectNoDifference(.colinAndAlice, RosterState(roster))
    }

    @Test("a deleted player leaves the selection")
    func deletedLeavesSelection() async throws {
        let roster = try await refreshedRoster()
        try await roster.toggleSelection.apply("Alice")
        try await roster.delete.apply("Alice")
        expectNoDifference(
            .colinAndAlice.with {
                $0.rows = [.init("Colin", 100)]
                $0.playerCount = 1
            },
            RosterState(roster))
        #expect(roster.selectedPlayers.value == [])
    }

    @Test(
        "a player deleted while out of view leaves the selection, and comes back unselected when uploaded again"
    )
    func deletedOutOfViewLeavesSelection() async throws {
        let shared = InMemoryScoreStore(
            records: (1...10).map {
                ScoreRecord(id: UUID(), name: "P\($0)", points: 1, uploadedAt: Date(timeIntervalSince1970: 0))
            })
        let roster = RosterViewModel(store: shared, windowSize: 4)
        try await roster.refresh.apply(())
        try await roster.toggleSelection.apply("p9")
        #expect(roster.isSelected("P9"))
        try await roster.delete.apply("P9")
        #expect(!roster.isSelected("P9"), "a deleted player out of view is no longer selected")
        #expect(roster.selectedPlayers.value == [])
        _ = try await shared.upload(name: "P9", points: 2)
        try await roster.moveWindow.apply(6)
        #expect(roster.players.value.map(\.name).contains("P9"))
        #expect(!roster.isSelected("P9") && roster.rows.value.allSatisfy { !$0.isSelected.value })
    }

    // MARK: Announcing changes

    @Test(
        "an observer of the roster runs after the roster's lock is released: another thread reads the roster meanwhile"
    )
    func observersRunOutsideTheLock() async throws {
        let roster = try await refreshedRoster()
        let answered = Mutex<[Bool]>([])
        let observation = roster.selectedNames.changes.observeValues { _ in
            // Reading the selection takes the roster's lock: if this observer ran under it, the
            // other thread would wait until the observer gave up waiting for it.
            let done = DispatchSemaphore(value: 0)
            Thread {
                _ = roster.isSelected("Colin")
                done.signal()
            }.start()
            let inTime = done.wait(timeout: .now() + 10) == .success
            answered.withLock { $0.append(inTime) }
        }
        defer { observation.dispose() }
        #expect(try await roster.toggleSelection.apply("Colin") == true)
        #expect(answered.withLock { $0 } == [true])
    }

    @Test("a change made by an observer is announced after the change it observes reached every observer")
    func changeFromAnObserverIsQueued() async throws {
        let roster = try await refreshedRoster()
        let heard = HeardLog()
        let observations = DisposeBag()
        roster.selectedNames.changes.observeValues(in: observations) { names in
            heard.hear("first \(names.sorted())")
            roster.windowSizeChanged(to: 5)
        }
        roster.selectedNames.changes.observeValues(in: observations) { heard.hear("second \($0.sorted())") }
        roster.windowSize.changes.observeValues(in: observations) { heard.hear("size \($0)") }
        defer { observations.dispose() }
        #expect(try await roster.toggleSelection.apply("Colin") == true)
        #expect(heard.events == ["first [\"Colin\"]", "second [\"Colin\"]", "size 5"])
    }

    @Test("changes made at once by many callers are announced one at a time, in the order they were made")
    func concurrentChangesAnnouncedInOrder() async throws {
        let shared = InMemoryScoreStore()
        let uploads = 40
        let roster = RosterViewModel(store: shared, windowSize: uploads)
        let forms = (0..<uploads).map { _ in PlayerViewModel(store: shared) }
        for (index, form) in forms.enumerated() {
            try form.nameEdited("Player \(index)")
            roster.follow(form)
        }
        let heard = HeardLog()
        let observations = DisposeBag()
        roster.playerCount.changes.observeValues(in: observations) { heard.hear("count \($0)") }
        roster.window.changes.observeValues(in: observations) { heard.hear("window \($0.totalCount)") }
        roster.contentChanges.observeValues(in: observations) { heard.hear("change \($0.insertions)") }

        // Each kept upload of a new player adds a row at the end of a window that shows them all,
        // from the task that ran the upload, while the other uploads run.
        await withTaskGroup(of: Void.self) { group in
            for form in forms { group.addTask { _ = await form.uploadTapped() } }
        }
        observations.dispose()

        let expected = (1...uploads).flatMap { count in
            ["count \(count)", "window \(count)", "change [\(count - 1)]"]
        }
        #expect(heard.events == expected)
        #expect(!heard.overlapped)
        #expect(roster.players.value.count == uploads)
    }

    // MARK: Following the form

    @Test("an upload from the form appears in the roster as a change")
    func followsTheForm() async throws {
        let shared = InMemoryScoreStore()
        let roster = RosterViewModel(store: shared)
        let form = PlayerViewModel(store: shared)
        roster.follow(form)
        let changes = Recorder(roster.contentChanges)

        #expect(await form.uploadTapped() == .uploaded(try await shared.records()[0]))
        try form.stepUpTapped(times: 5)
        _ = await form.uploadTapped()

        #expect(changes.values == [Changeset(insertions: [0]), Changeset(modifications: [0])])
        #expect(roster.players.value.map(\.points) == [105])
    }

    @Test("while the form uploads a player of the roster, that row shows the upload running")
    func rowShowsTheFormsUpload() async throws {
        let controlled = ControlledScoreStore()
        let roster = RosterViewModel(store: controlled)
        let form = PlayerViewModel(store: controlled)
        let following = roster.follow(form)

        async let first = form.uploadTapped()
        _ = await controlled.nextUpload()
        controlled.succeed()
        _ = await first
        let colin = try #require(roster.rows.value.first)
        let running = Recorder(colin.isUploading)

        async let second = form.uploadTapped()
        _ = await controlled.nextUpload()
        #expect(colin.isUploading.value == true)
        controlled.succeed()
        _ = await second
        #expect(running.values == [false, true, false])

        following.dispose()
        async let third = form.uploadTapped()
        _ = await controlled.nextUpload()
        #expect(colin.isUploading.value == false)
        controlled.succeed()
        _ = await third
        #expect(roster.players.value[0].recordIDs.count == 2)
    }

    // MARK: The window

    @Test("a window moved past the end shows the last rows; a smaller window holds fewer rows")
    func windowBounds() async throws {
        let shared = InMemoryScoreStore(
            records: (1...10).map {
                ScoreRecord(id: UUID(), name: "P\($0)", points: 1, uploadedAt: Date(timeIntervalSince1970: 0))
            })
        let roster = RosterViewModel(store: shared, windowSize: 4)
        try await roster.refresh.apply(())
        #expect(roster.players.value.map(\.name) == ["P1", "P2", "P3", "P4"])
        try await roster.moveWindow.apply(1_000)
        #expect(roster.firstIndex.value == 6)
        #expect(roster.players.value.map(\.name) == ["P7", "P8", "P9", "P10"])
        try await roster.moveWindow.apply(-5)
        #expect(roster.firstIndex.value == 0)
        roster.windowSizeChanged(to: 2)
        try await roster.refresh.apply(())
        #expect(roster.windowSize.value == 2)
        #expect(roster.players.value.map(\.name) == ["P1", "P2"])
        #expect(roster.rowViewModelsMade == 4)
    }

    @Test("the window, its count and the revision are one reading of the store; past the end, one more")
    func windowInOneReading() async throws {
        let store = QuestionNotingStore(players: 10)
        let roster = RosterViewModel(store: store, windowSize: 4)
        try await roster.refresh.apply(())
        #expect(store.questions() == ["rosterWindow 0"])
        try await roster.moveWindow.apply(1_000)
        #expect(store.questions() == ["rosterWindow 1000", "rosterWindow 6"])
        #expect(roster.players.value.map(\.name) == ["P7", "P8", "P9", "P10"])
        #expect(roster.playerCount.value == 10)
        _ = try await store.kept.upload(name: "P11", points: 1)
        let found = try await roster.refreshIfStoreChanged()
        #expect(found == RosterCatchUp(countBefore: 10, countAfter: 11, addedInView: 0, removedInView: 0))
        #expect(store.questions() == ["revision", "rosterWindow 6"])
        #expect(try await roster.refreshIfStoreChanged() == nil)
        #expect(store.questions() == ["revision"])
    }

    @Test("an upload from the form of a player out of view shows at the next reading of a changed store")
    func formUploadOutOfView() async throws {
        let shared = InMemoryScoreStore(
            records: (1...5).map {
                ScoreRecord(id: UUID(), name: "P\($0)", points: 1, uploadedAt: Date(timeIntervalSince1970: 0))
            })
        let roster = RosterViewModel(store: shared, windowSize: 2)
        let form = PlayerViewModel(store: shared)
        roster.follow(form)
        try await roster.moveWindow.apply(3)
        let changes = Recorder(roster.contentChanges)
        try form.nameEdited("p4")
        _ = await form.uploadTapped()
        // In view: at once, under the new spelling.
        #expect(changes.values == [Changeset(modifications: [0])])
        #expect(roster.players.value.map(\.name) == ["p4", "P5"])
        try form.nameEdited("P1")
        _ = await form.uploadTapped()
        #expect(changes.values.count == 1)
        let found = try await roster.refreshIfStoreChanged()
        #expect(found == RosterCatchUp(countBefore: 5, countAfter: 5, addedInView: 0, removedInView: 0))
        #expect(changes.values.count == 1)
        #expect(try await roster.refreshIfStoreChanged() == nil)
    }
}

/// What observers heard, in order, and whether two observers ever ran at the same time.
private final class HeardLog: Sendable {
    private let state = Mutex<(events: [String], running: Int, overlapped: Bool)>(([], 0, false))

    func hear(_ event: String) {
        state.withLock { state in
            state.running += 1
            if state.running > 1 { state.overlapped = true }
            state.events.append(event)
        }
        state.withLock { $0.running -= 1 }
    }

    var events: [String] { state.withLock { $0.events } }
    var overlapped: Bool { state.withLock { $0.overlapped } }
}
