import Foundation
import PlayerForm
import PlayerFormTesting
import ReactiveCore
import Testing

private struct StoreDown: Error, CustomStringConvertible {
    var description: String { "the store is down" }
}

@Suite("Player view model: upload")
struct PlayerUploadTests {
    @Test("an upload sends the message the sample showed")
    func uploadMessage() async {
        let form = PlayerViewModel(store: InMemoryScoreStore())
        let messages = Recorder(form.messages)
        let result = await form.uploadTapped()
        guard case .uploaded(let record) = result else {
            Issue.record("expected an upload, got \(result)")
            return
        }
        #expect(record.name == "Colin")
        #expect(record.points == 100)
        #expect(messages.values.map(\.description) == ["Updated Colin with 100 points"])
        #expect(
            FormSnapshot(form)
                == FormSnapshot.initial.with {
                    $0.uploadsDone = 1; $0.uploadsRemaining = 4
                })
    }

    @Test("the upload captures the name and points when it starts")
    func capturesAtStart() async throws {
        let store = ControlledScoreStore()
        let form = PlayerViewModel(store: store)
        async let result = form.uploadTapped()
        let request = await store.nextUpload()
        try form.nameEdited("Dana")
        try form.stepUpTapped()
        store.succeed()
        guard case .uploaded(let record) = await result else {
            Issue.record("expected an upload")
            return
        }
        #expect(request == UploadRequest(name: "Colin", points: 100))
        #expect(record.name == "Colin")
        #expect(record.points == 100)
    }

    @Test("while an upload runs the form shows it and upload is disabled; it is enabled again after")
    func executingState() async {
        let store = ControlledScoreStore()
        let form = PlayerViewModel(store: store)
        let canUpload = Recorder(form.canUpload)
        async let result = form.uploadTapped()
        _ = await store.nextUpload()
        #expect(
            FormSnapshot(form)
                == FormSnapshot.initial.with {
                    $0.isUploading = true; $0.canUpload = false
                })
        #expect(await form.uploadTapped() == .refused(.uploadInProgress))
        store.succeed()
        _ = await result
        #expect(canUpload.values == [true, false, true])
        #expect(store.startedUploads.count == 1)
    }

    @Test("upload is enabled only when the form is valid")
    func onlyWhenValid() async throws {
        let store = ControlledScoreStore()
        let form = PlayerViewModel(store: store)
        try form.nameEdited("")
        #expect(!form.canUpload.value)
        #expect(await form.uploadTapped() == .refused(.invalid([.emptyName])))
        #expect(store.startedUploads.isEmpty)
        do {
            try await form.upload.apply(UploadRequest(name: "", points: 100))
            Issue.record("a disabled upload action must refuse")
        } catch {
            #expect(error.isDisabled)
        }
    }

    @Test("the upload action refuses an invalid request even while the form is valid")
    func invalidRequestIsRefused() async throws {
        let store = InMemoryScoreStore()
        let form = PlayerViewModel(store: store)
        #expect(form.canUpload.value)
        do {
            try await form.upload.apply(UploadRequest(name: "darn", points: -5))
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
        #expect(form.uploadsDone.value == 0)
    }

    @Test("the 5th upload succeeds and then the form is locked")
    func fifthUploadLocks() async throws {
        let store = InMemoryScoreStore()
        let form = PlayerViewModel(store: store)
        for number in 1...5 {
            #expect(!form.isLocked.value)
            guard case .uploaded = await form.uploadTapped() else {
                Issue.record("upload \(number) should succeed")
                return
            }
        }
        #expect(
            FormSnapshot(form)
                == FormSnapshot.initial.with {
                    $0.uploadsDone = 5
                    $0.uploadsRemaining = 0
                    $0.isLocked = true
                    $0.canEditName = false
                    $0.canChangePoints = false
                    $0.canUpload = false
                })
        #expect(try await store.records().count == 5)
        #expect(await form.uploadTapped() == .refused(.locked(uploads: 5)))
        #expect(throws: PlayerRefusal.locked(uploads: 5)) { try form.nameEdited("Dana") }
        #expect(throws: PlayerRefusal.locked(uploads: 5)) { try form.stepUpTapped() }
        #expect(throws: PlayerRefusal.locked(uploads: 5)) { try form.maxChanged(to: 5) }
        #expect(throws: PlayerRefusal.locked(uploads: 5)) { try form.resetTapped() }
        #expect(try await store.records().count == 5)
    }

    @Test("a failed upload reports why, counts nothing, and leaves upload enabled")
    func failedUpload() async {
        let store = ControlledScoreStore()
        let form = PlayerViewModel(store: store)
        let messages = Recorder(form.messages)
        async let result = form.uploadTapped()
        _ = await store.nextUpload()
        store.fail(with: StoreDown())
        #expect(await result == .failed("the store is down"))
        #expect(messages.values == [.uploadFailed(name: "Colin", reason: "the store is down")])
        #expect(FormSnapshot(form) == .initial)
    }

    @Test("a running upload can be cancelled")
    func cancelUpload() async {
        let store = ControlledScoreStore()
        let form = PlayerViewModel(store: store)
        async let result = form.uploadTapped()
        _ = await store.nextUpload()
        form.uploadCancelTapped()
        store.fail(with: CancellationError())
        #expect(await result == .cancelled)
        #expect(FormSnapshot(form) == .initial)
    }

    @Test("reset spends no uploads and gives none back")
    func resetKeepsUploads() async throws {
        let form = PlayerViewModel(store: InMemoryScoreStore())
        _ = await form.uploadTapped()
        try form.resetTapped()
        #expect(form.uploadsDone.value == 1)
        #expect(form.uploadsRemaining.value == 4)
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
        let completions = Locked(0)
        do {
            let form = PlayerViewModel(store: InMemoryScoreStore())
            // Not kept in a bag: only the form's end can complete these.
            form.forbiddenNameEntered.observe(
                .handling(values: { _ in }, completed: { completions.withLock { $0 += 1 } }))
            form.messages.observe(
                .handling(values: { _ in }, completed: { completions.withLock { $0 += 1 } }))
            try form.nameEdited("darn")
            #expect(completions.value == 0)
        }
        #expect(completions.value == 2)
    }
}
