import Foundation
import Glibc
import PlayerFormScores
import PlayerFormSystem

/// A score store in an append-only JSON Lines file, safe for several processes at once.
///
/// - Every upload appends one line, written with a single `write(2)` under an exclusive `flock`
///   and synced with `fsync` before the upload returns: a record reported as kept is on disk.
/// - Lines are only ever appended: existing data is never truncated or rewritten. Deleting
///   appends a tombstone line naming the deleted records.
/// - A crash in the middle of a write leaves at most an incomplete last line. Reading skips it
///   and reports it; the next write starts on a new line instead of gluing onto it.
/// - A line that is not a record is skipped and reported with its file and line number; every
///   other record is still read.
///
/// ```swift
/// let store = FileScoreStore(path: try StoreLocation.defaultPath(environment: environment))
/// let record = try await store.upload(name: "Colin", points: 100)
/// ```
public final class FileScoreStore: ScoreStore, Sendable {
    /// The file's path.
    public let path: String
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID

    /// What a read found: every record kept, and every part that could not be read.
    public struct Contents: Sendable, Equatable {
        /// The records, oldest first, without deleted ones.
        public var records: [ScoreRecord]
        /// Lines that could not be read, in file order.
        public var problems: [StoreError]

        /// Creates contents.
        public init(records: [ScoreRecord], problems: [StoreError]) {
            self.records = records
            self.problems = problems
        }
    }

    /// Creates a store on the file at `path`; the file and its folders are made on the first write.
    ///
    /// - Parameters:
    ///   - path: the score file, JSON Lines.
    ///   - now: the clock that stamps uploads and deletions.
    ///   - makeID: makes the identifier of each record.
    public init(
        path: String,
        now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> UUID = { UUID() }
    ) {
        self.path = path
        self.now = now
        self.makeID = makeID
    }

    // MARK: ScoreStore

    /// Appends a record of `name` and `points` to the file; returns once it is written and synced.
    public func upload(name: String, points: Double) async throws(ScoreStoreError) -> ScoreRecord {
        try await offload { () throws(StoreError) in try self.appendRecord(name: name, points: points) }
    }

    /// Every complete record; damaged lines are skipped here and reported by ``read()`` and
    /// ``load()``.
    public func records() async throws(ScoreStoreError) -> [ScoreRecord] {
        try await offload { () throws(StoreError) in try self.load().records }
    }

    /// Appends a deletion of these ids to the file; returns once it is written and synced.
    public func delete(ids: [UUID]) async throws(ScoreStoreError) {
        try await offload { () throws(StoreError) in try self.appendTombstone(ids: ids) }
    }

    /// Every record of the file, with a problem for each line that cannot be read.
    public func read() async throws(ScoreStoreError) -> ScoreReading {
        try await offload { () throws(StoreError) in
            let contents = try self.load()
            return ScoreReading(
                records: contents.records, problems: contents.problems.compactMap(ScoreStoreProblem.init))
        }
    }

    // MARK: Synchronous operations

    /// Appends a record and returns it once it is on disk.
    /// - Throws: ``StoreError`` when the record cannot be written; nothing else is changed then.
    public func appendRecord(name: String, points: Double) throws(StoreError) -> ScoreRecord {
        guard points.isFinite else { throw .notFinite(points: points) }
        let now = now()
        guard let uploadedAt = Timestamp.checked(now) else {
            throw .unwritable(path: path, reason: Timestamp.unwritableReason(now))
        }
        let record = ScoreRecord(id: makeID(), name: name, points: points, uploadedAt: uploadedAt)
        try append(.score(record))
        return record
    }

    /// Appends a tombstone that deletes the records with `ids`, once it is on disk.
    public func appendTombstone(ids: [UUID]) throws(StoreError) {
        guard !ids.isEmpty else { return }
        let now = now()
        guard let deletedAt = Timestamp.checked(now) else {
            throw .unwritable(path: path, reason: Timestamp.unwritableReason(now))
        }
        try append(.tombstone(ids: ids, at: deletedAt))
    }

    /// Reads the whole file.
    ///
    /// A missing file holds no records.
    /// - Throws: ``StoreError`` when the file cannot be read at all; damaged lines are reported
    ///   in ``Contents/problems`` instead.
    public func load() throws(StoreError) -> Contents {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return Contents(records: [], problems: []) }
            throw openFailure(code, access: .read)
        }
        defer { close(descriptor) }
        // A shared lock waits for a writer to finish its line, so a line being written is not
        // mistaken for a torn one.
        try lock(descriptor, LOCK_SH)
        defer { flock(descriptor, LOCK_UN) }
        let bytes = try readAll(descriptor)
        return parse(bytes)
    }

    // MARK: Writing

    private func append(_ line: StoredLine) throws(StoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let encoded: Data
        do {
            encoded = try encoder.encode(line)
        } catch {
            throw .unwritable(path: path, reason: "\(error)")
        }
        let existed = access(path, F_OK) == 0
        if !existed { try makeParentDirectory() }

        let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw openFailure(errno, access: .write) }
        defer { close(descriptor) }
        try lock(descriptor, LOCK_EX)
        defer { flock(descriptor, LOCK_UN) }

        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.count + 2)
        if try !endsWithNewline(descriptor) { bytes.append(0x0A) }
        bytes.append(contentsOf: encoded)
        bytes.append(0x0A)
        try writeAll(descriptor, bytes)
        guard fsync(descriptor) == 0 else { throw .unwritable(path: path, reason: Self.reason(errno)) }
        if !existed { syncParentDirectory() }
    }

    /// Whether the file is empty or ends with a line break: false after a torn write.
    private func endsWithNewline(_ descriptor: Int32) throws(StoreError) -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .unwritable(path: path, reason: Self.reason(errno))
        }
        guard status.st_size > 0 else { return true }
        var last: UInt8 = 0
        guard pread(descriptor, &last, 1, status.st_size - 1) == 1 else {
            throw .unwritable(path: path, reason: Self.reason(errno))
        }
        return last == 0x0A
    }

    /// Writes `bytes` with one `write(2)`; only an interrupted or short write takes more.
    private func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(StoreError) {
        if let failure = Descriptor.writeAll(bytes, to: descriptor) {
            throw .unwritable(path: path, reason: Self.reason(failure))
        }
    }

    /// Makes the folders above the file, one at a time, so that a failure names its reason.
    private func makeParentDirectory() throws(StoreError) {
        do {
            // A new folder's name lives in its parent: sync the parent, or a crash can lose the
            // folder, and every record in it, after an upload said it was kept.
            try Folders.createParents(of: path, syncingParents: true)
        } catch {
            throw .cannotCreateDirectory(path: error.folder, reason: error.reason)
        }
    }

    /// Syncs the folder so that a newly created file's name survives a crash too.
    private func syncParentDirectory() {
        Folders.syncParent(of: path)
    }

    // MARK: Reading

    private func readAll(_ descriptor: Int32) throws(StoreError) -> [UInt8] {
        var status = stat()
        let expected = fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
        var bytes = [UInt8](repeating: 0, count: Swift.max(expected, 4096))
        var count = 0
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: bytes.count)) }
            let got = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: Self.reason(errno))
            }
            if got == 0 { break }
            count += got
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    private func parse(_ bytes: [UInt8]) -> Contents {
        let decoder = JSONDecoder()
        var records: [ScoreRecord] = []
        var seen = Set<UUID>()
        var deleted = Set<UUID>()
        var problems: [StoreError] = []
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            lineNumber += 1
            let end = bytes[start...].firstIndex(of: 0x0A)
            let line = bytes[start..<(end ?? bytes.count)]
            start = (end ?? bytes.count) + 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            do {
                let stored = try decoder.decode(StoredLine.self, from: Data(line))
                switch try stored.content() {
                case .record(let record):
                    if seen.insert(record.id).inserted { records.append(record) }
                case .deletion(let ids):
                    deleted.formUnion(ids)
                case .upload:
                    // The store's own lines always have an id.
                    throw StoredLine.LineError.missing("id")
                }
            } catch let error as StoredLine.LineError {
                problems.append(
                    end == nil
                        ? .tornLine(path: path, line: lineNumber)
                        : .corruptLine(path: path, line: lineNumber, reason: error.description))
            } catch {
                problems.append(
                    end == nil
                        ? .tornLine(path: path, line: lineNumber)
                        : .corruptLine(path: path, line: lineNumber, reason: "not valid JSON"))
            }
        }
        if !deleted.isEmpty { records.removeAll { deleted.contains($0.id) } }
        return Contents(records: records, problems: problems)
    }

    // MARK: Helpers

    private func lock(_ descriptor: Int32, _ operation: Int32) throws(StoreError) {
        while flock(descriptor, operation) != 0 {
            if errno == EINTR { continue }
            let reason = Self.reason(errno)
            throw operation == LOCK_EX
                ? .unwritable(path: path, reason: "cannot lock: \(reason)")
                : .unreadable(path: path, reason: "cannot lock: \(reason)")
        }
    }

    private func openFailure(_ code: Int32, access: StoreError.Access) -> StoreError {
        switch (code, access) {
        case (EACCES, _), (EPERM, _), (EROFS, _): .permissionDenied(path: path, access: access)
        case (_, .read): .unreadable(path: path, reason: Self.reason(code))
        case (_, .write): .unwritable(path: path, reason: Self.reason(code))
        }
    }

    private static func reason(_ code: Int32) -> String {
        SystemError.text(code)
    }

    /// Runs blocking file work off the cooperative thread pool; its error becomes the
    /// `ScoreStoreError` every store throws.
    private func offload<Value: Sendable>(
        _ work: @escaping @Sendable () throws(StoreError) -> Value
    ) async throws(ScoreStoreError) -> Value {
        let outcome = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Value, StoreError>, Never>) in
            DispatchQueue.global().async {
                do throws(StoreError) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        switch outcome {
        case .success(let value): return value
        case .failure(let error): throw ScoreStoreError(error)
        }
    }
}
