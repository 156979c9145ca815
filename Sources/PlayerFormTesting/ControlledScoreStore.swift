import Foundation
import PlayerForm
import PlayerFormScores
import ReactiveCore
import Synchronization

/// A score store whose uploads wait until the spec lets them finish, so a spec can look at the
/// form while an upload is running, then make it succeed or fail.
///
/// No sleeps needed.
///
/// ```swift
/// let store = ControlledScoreStore()
/// async let result = form.uploadTapped()
/// let request = await store.nextUpload()   // the upload has started
/// #expect(form.isUploading.value)
/// store.succeed()
/// _ = await result
/// ```
public final class ControlledScoreStore: ScoreStore, Sendable {
    private struct Waiting {
        var uploads:
            [(
                request: UploadRequest,
                reply: CheckedContinuation<Result<ScoreRecord, ScoreStoreError>, Never>
            )] = []
        var watchers: [CheckedContinuation<UploadRequest, Never>] = []
        var started: [UploadRequest] = []
        var kept: [ScoreRecord] = []
    }

    private let state = Mutex(Waiting())
    private let clock: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID

    /// Creates a store; records are stamped by `now` and identified by `makeID`.
    public init(
        now: @escaping @Sendable () -> Date = { Date(timeIntervalSince1970: 0) },
        makeID: @escaping @Sendable () -> UUID = { UUID() }
    ) {
        self.clock = now
        self.makeID = makeID
    }

    /// Waits until the spec answers this upload: keeps the record and returns it, or throws.
    public func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
        let request = UploadRequest(name: name, points: points)
        return try await withCheckedContinuation { reply in
            let watchers = state.withLock { state in
                state.uploads.append((request, reply))
                state.started.append(request)
                defer { state.watchers.removeAll() }
                return state.watchers
            }
            for watcher in watchers { watcher.resume(returning: request) }
        }.get()
    }

    /// The records of the uploads the spec let succeed, oldest first.
    public func records() async throws(ScoreStoreError) -> [ScoreRecord] {
        state.withLock { $0.kept }
    }

    /// Waits until an upload is waiting, and returns what it uploads.
    public func nextUpload() async -> UploadRequest {
        await withCheckedContinuation { watcher in
            let waiting = state.withLock { state -> UploadRequest? in
                if let first = state.uploads.first { return first.request }
                state.watchers.append(watcher)
                return nil
            }
            if let waiting { watcher.resume(returning: waiting) }
        }
    }

    /// Every upload that has started, in order.
    public var startedUploads: [UploadRequest] {
        state.withLock { $0.started }
    }

    /// Lets the oldest waiting upload succeed; returns false when none was waiting.
    @discardableResult
    public func succeed() -> Bool {
        let record = ScoreRecord(id: makeID(), name: "", points: 0, uploadedAt: clock())
        let taken = state.withLock {
            state -> (UploadRequest, CheckedContinuation<Result<ScoreRecord, ScoreStoreError>, Never>)? in
            guard !state.uploads.isEmpty else { return nil }
            let first = state.uploads.removeFirst()
            let kept = ScoreRecord(
                id: record.id, name: first.request.name, points: first.request.points,
                uploadedAt: record.uploadedAt)
            state.kept.append(kept)
            return (first.request, first.reply)
        }
        guard let (request, reply) = taken else { return false }
        reply.resume(
            returning: .success(
                ScoreRecord(
                    id: record.id, name: request.name, points: request.points, uploadedAt: record.uploadedAt))
        )
        return true
    }

    /// Makes the oldest waiting upload fail with `error`, as a store's failure reaches the view
    /// models; returns false when none was waiting.
    @discardableResult
    public func fail(with error: ScoreStoreError) -> Bool {
        let reply = state.withLock { state in
            state.uploads.isEmpty ? nil : state.uploads.removeFirst().reply
        }
        reply?.resume(returning: .failure(error))
        return reply != nil
    }
}
