import Foundation
import PlayerFormScores

#if canImport(Glibc)
    import Glibc
#endif

extension FileScoreStore {
    /// The file's identity, size and modification time: every change appends to the file (a
    /// deletion appends a tombstone), so any change by any process moves it, at the cost of one
    /// `stat` instead of reading every record.
    public func revision() async throws(ScoreStoreError) -> UInt64 {
        var info = stat()
        guard stat(path, &info) == 0 else {
            // No file yet: nothing was ever kept.
            if errno == ENOENT { return 0 }
            return try await FileScoreStoreRevision.hashed(self)
        }
        var hasher = Hasher()
        hasher.combine(info.st_dev)
        hasher.combine(info.st_ino)
        hasher.combine(info.st_size)
        hasher.combine(info.st_mtim.tv_sec)
        hasher.combine(info.st_mtim.tv_nsec)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// The damaged lines of the file, as ``read()`` reports them.
    public func problems() async throws(ScoreStoreError) -> [ScoreStoreProblem] {
        try await read().problems
    }
}

/// The protocol's revision, for a file that cannot be looked at with `stat`.
private enum FileScoreStoreRevision {
    static func hashed(_ store: FileScoreStore) async throws(ScoreStoreError) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(try await store.records())
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }
}
