import CustomDump
import Foundation
import PlayerForm
import PlayerFormRules
import PlayerFormScores
import PlayerFormTesting
import ReactiveCore
import ReactiveCoreTesting
import Synchronization
import Testing

/// A store that cannot be reached, as the PostgreSQL store reports it.
private let storeDown = ScoreStoreError.unreachable(
    .server(endpoint: "league.example:5432/scores"), reason: "connection refused")

@Suite("Player view model: upload")
struct PlayerUploadTests {
    @Test("an upload sends the message the sample showed")
    func uploadMessage() async {
        let tester = PlayerFormTester(PlayerViewModel(store: InMemoryScoreStore()))
        let result = await tester.send {
            await $0.uploadTapped()
        } assert: {
            $0.uploadsDone = 1
            $0.uploadsRemaining = 4
        }
        guard case .uploaded(let record) = result else {
            Issue.record("expected an upload, got \(result)")
            return
        }
        #expect(record.name == "Colin")
        #expect(record.points == 100)
        tester.receive(\.messages, .uploaded(name: "Colin", points: 100))
        tester.finish()
    }

    @Test("the upload captures the name and points when it starts")
    func capturesAtStart() async throws {
        let store = ControlledScoreStore()
        let tester = PlayerFormTester(PlayerViewModel(store: store))
        let upload = tester.start { await $0.uploadTapped() }
        let request = await store.nextUpload()
        tester.assert {
            $0.isUploading = true
            $0.canUpload = false
        }
        try tester.send {
            try $0.nameEdited("Dana")
        } assert: {
            $0.name = "Dana"
        }
        try tester.send {
            try $0.stepUpTapped()
        } assert: {
            $0.points = 101
            $0.pointsText = "101"
            $0.pointUpdatesRemaining = 9
        }
        store.succeed()
        let result = await tester.result(of: upload) {
            $0.isUploading = false
            $0.canUpload = true
            $0.uploadsDone = 1
            $0.uploadsRemaining = 4
        }
        guard case .uploaded(let record) = result else {
            Issue.record("expected an upload")
            return
        }
        #expect(request == UploadRequest(name: "Colin", points: 100))
        #expect(record.name == "Colin")
        #expect(record.points == 100)
        tester.receive(\.messages, .uploaded(name: "Colin", points: 100))
        tester.finish()
    }

    @Test("while an upload runs the form shows it and upload is disabled; it is enabled again after")
    func executingState() async {
        let store = ControlledScoreStore()
        let tester = PlayerFormTester(
            PlayerViewModel(store: store), alsoWatching: [.changes(\.canUpload)])
        let upload = tester.start { await $0.uploadTapped() }
        _ = await store.nextUpload()
        tester.assert {
            $0.isUploading = true
            $0.canUpload = false
        }
        tester.receive(\.canUpload, false)
        let second = await tester.send { await $0.uploadTapped() }
        #expect(second == .refused(.uploadInProgress))
        store.succeed()
        await tester.result(of: upload) {
            $0.isUploading = false
            $0.canUpload = true
            $0.uploadsDone = 1
            $0.uploadsRemaining = 4
        }
        tester.receive(\.messages, .uploaded(name: "Colin", points: 100))
        tester.receive(\.canUpload, true)
        #expect(store.startedUploads.count == 1)
        tester.finish()
    }

    @Test("upload is enabled only when the form is valid")
    func onlyWhenValid() async throws {
        let store = ControlledScoreStore()
        let tester = PlayerFormTester(PlayerViewModel(store: store))
        try tester.send {
            try $0.nameEdited("")
        } assert: {
            $0.name = ""
            $0.issues = [.emptyName]
            $0.isValid = false
            $0.canUpload = false
        }
        let result = await tester.send { await $0.uploadTapped() }
        #expect(result == .refused(.invalid([.emptyName])))
        #expect(store.startedUploads.isEmpty)
        do {
            try await tester.send { form async throws(ActionError) in
                try await form.upload.apply(UploadRequest(name: "", points: 100))
            }
            Issue.record("a disabled upload action must refuse")
        } catch {
            #expect(error.isDisabled)
        }
        tester.finish()
    }

    @Test("the upload action refuses an invalid request even while the form is valid")
    func invalidRequestIsRefused() async throws {
        let store = InMemoryScoreStore()
        let tester = PlayerFormTester(PlayerViewModel(store: store))
        #expect(tester.state.canUpload)
        do {
            try await tester.send { form async throws(ActionError) in
                try await form.upload.apply(UploadRequest(name: "darn", points: -5))
            }
            Issue.record("an invalid request must not be uploaded")
        } catch {
            guard case .failed(let failure) = error else {
                Issue.record("expected a failure, got \(error)")
                return
            }
            #expect(
                failure as? PlayerRefusal
                    == .invalid([.forbiddenName("darn"), .belowMin(points: -5, min: 0)]))
        }
        #expect(try await store.records().isEmpty)
        tester.finish()
    }

    @Test("the 5th upload succeeds and then the form is locked")
    func fifthUploadLocks() async throws {
        let store = InMemoryScoreStore()
        let tester = PlayerFormTester(PlayerViewModel(store: store))
        for number in 1...4 {
            let result = await tester.send {
                await $0.uploadTapped()
            } assert: {
                $0.uploadsDone = number
                $0.uploadsRemaining = 5 - number
            }
            guard case .uploaded = result else {
                Issue.record("upload \(number) should succeed")
                return
            }
            tester.receive(\.messages, .uploaded(name: "Colin", points: 100))
        }
        let fifth = await tester.send {
            await $0.uploadTapped()
        } assert: {
            $0.uploadsDone = 5
            $0.uploadsRemaining = 0
            $0.isLocked = true
            $0.canEditName = false
            $0.canChangePoints = false
            $0.canUpload = false
        }
        guard case .uploaded = fifth else {
            Issue.record("upload 5 should succeed")
            return
        }
        tester.receive(\.messages, .uploaded(name: "Colin", points: 100))
        #expect(try await store.records().count == 5)
        let sixth = await tester.send { await $0.uploadTapped() }
        #expect(sixth == .refused(.locked(uploads: 5)))
        #expect(throws: PlayerRefusal.locked(uploads: 5)) { try tester.send { try $0.nameEdited("Dana") } }
        #expect(throws: PlayerRefusal.locked(uploads: 5)) { try tester.send { try $0.stepUpTapped() } }
        #expect(throws: PlayerRefusal.locked(uploads: 5)) { try tester.send { try $0.maxChanged(to: 5) } }
        #expect(throws: PlayerRefusal.locked(uploads: 5)) { try tester.send { try $0.resetTapped() } }
        #expect(try await store.records().count == 5)
        tester.finish()
    }

    @Test(
        "a failed upload carries the store's error in its result and message, counts nothing, and leaves upload enabled"
    )
    func failedUpload() async {
        let store = ControlledScoreStore()
        let tester = PlayerFormTester(PlayerViewModel(store: store))
        let upload = tester.start { await $0.uploadTapped() }
        _ = await store.nextUpload()
        tester.assert {
            $0.isUploading = true
            $0.canUpload = false
        }
        store.fail(with: storeDown)
        let result = await tester.result(of: upload) {
            $0.isUploading = false
            $0.canUpload = true
        }
        #expect(result == .failed(storeDown))
        tester.receive(\.messages, .uploadFailed(name: "Colin", error: storeDown))
        expectNoDifference(.initial, tester.state)
        tester.finish()
    }

    @Test("a running upload can be cancelled")
    func cancelUpload() async {
        let store = ControlledScoreStore()
        let tester = PlayerFormTester(PlayerViewModel(store: store))
        let upload = tester.start { await $0.uploadTapped() }
        _ = await store.nextUpload()
        tester.assert {
            $0.isUploading = true
            $0.canUpload = false
        }
        tester.send { $0.uploadCancelTapped() }
        store.fail(with: .cancelled)
        let result = await tester.result(of: upload) {
            $0.isUploading = false
            $0.canUpload = true
        }
        #expect(result == .cancelled)
        tester.receive(\.messages, .uploadCancelled(name: "Colin"))
        expectNoDifference(.initial, tester.state)
        tester.finish()
    }

    @Test("an upload waits its delay first, as the sample's did; cancelling the wait uploads nothing")
    func delayedUploadCancelled() async throws {
        let store = InMemoryScoreStore()
        let form = PlayerViewModel(store: store, uploadDelay: .seconds(3_600))
        let tester = PlayerFormTester(form)
        let upload = tester.start { await $0.uploadTapped() }
        // The upload's task starts when the executor runs it; then it waits out the delay.
        for _ in 0..<10_000 where !form.isUploading.value { await Task.yield() }
        tester.assert {
            $0.isUploading = true
            $0.canUpload = false
        }
        tester.send { $0.uploadCancelTapped() }
        let result = await tester.result(of: upload) {
            $0.isUploading = false
            $0.canUpload = true
        }
        #expect(result == .cancelled)
        tester.receive(\.messages, .uploadCancelled(name: "Colin"))
        #expect(try await store.records().isEmpty)
        tester.finish()
    }

    @Test("reset spends no uploads and gives none back")
    func resetKeepsUploads() async throws {
        let tester = PlayerFormTester(PlayerViewModel(store: InMemoryScoreStore()))
        await tester.send {
            await $0.uploadTapped()
        } assert: {
            $0.uploadsDone = 1
            $0.uploadsRemaining = 4
        }
        tester.receive(\.messages, .uploaded(name: "Colin", points: 100))
        try tester.send { try $0.resetTapped() }
        tester.finish()
    }

    @Test("a view model and its observers are freed when the view that observes it goes away")
    func noRetainCycles() async throws {
        weak var weakForm: PlayerViewModel?
        weak var weakName: Property<String>?
        do {
            let form = PlayerViewModel(store: InMemoryScoreStore())
            let view = DisposeBag()
            form.name.values.observeValues(in: view) { _ in }
            form.isValid.values.observeValues(in: view) { _ in }
            form.forbiddenNameEntered.observeValues(in: view) { _ in }
            form.canUpload.values.observeValues(in: view) { _ in }
            try form.nameEdited("darn")
            _ = await form.uploadTapped()
            weakForm = form
            weakName = form.name
        }
        #expect(weakForm == nil)
        #expect(weakName == nil)
    }

    @Test("when the form goes away its own observations end, so its signals complete")
    func ownObservationsEnd() throws {
        let completions = Mutex(0)
        do {
            let form = PlayerViewModel(store: InMemoryScoreStore())
            // Not kept in a bag: only the form's end can complete these.
            form.forbiddenNameEntered.observe(
                .handling(values: { _ in }, completed: { completions.withLock { $0 += 1 } }))
            form.messages.observe(
                .handling(values: { _ in }, completed: { completions.withLock { $0 += 1 } }))
            try form.nameEdited("darn")
            #expect(completions.withLock { $0 } == 0)
        }
        #expect(completions.withLock { $0 } == 2)
    }
}
