import Foundation
import Glibc
import PlayerFormScores
import PlayerFormSystem

/// Checks on the database path made before SQLite sees it, so that a FIFO, a device, a folder or
/// a file of another kind is refused at once instead of blocking or being overwritten.
enum StoreFile {
    /// The first 16 bytes of every SQLite database.
    static let sqliteMagic: [UInt8] = Array("SQLite format 3\0".utf8)

    /// What is at `path`.
    enum State: Equatable {
        /// Nothing yet: the database will be created.
        case missing
        /// A regular file that is empty or starts like a SQLite database.
        case database
    }

    /// Looks at `path` without opening anything that could block.
    static func inspect(_ path: String) throws(SQLiteStoreError) -> State {
        // A name ending in a slash names a folder, whether or not one is there; SQLite would
        // quietly make a file of the name without it.
        if path.hasSuffix("/") { throw .notAStore(path: path, holds: .folderName) }
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            // A missing folder, or a file where a folder should be: making the folders says which.
            if code == ENOENT || code == ENOTDIR { return .missing }
            throw .cannotOpen(path: path, reason: reason(code))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .notAStore(path: path, holds: .folder)
        case S_IFIFO: throw .notAStore(path: path, holds: .fifo)
        case S_IFCHR, S_IFBLK: throw .notAStore(path: path, holds: .device)
        case S_IFSOCK: throw .notAStore(path: path, holds: .socket)
        default: throw .notAStore(path: path, holds: .otherFile)
        }
        guard status.st_size > 0 else { return .database }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: reason(errno)) }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: 4096)
        let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw .ioError(path: path, reason: reason(errno)) }
        head.removeSubrange(count...)
        if head.starts(with: sqliteMagic) { return .database }
        if looksLikeScoreFile(head) { throw .notAStore(path: path, holds: .scoreRecords) }
        throw .notAStore(path: path, holds: .notADatabase)
    }

    /// Whether `head` begins like a score file: the JSON Lines of earlier versions (objects with
    /// a `kind`), or what `playerform export` writes (JSON Lines with `id` and `uploadedAt`, or
    /// CSV with that header).
    private static func looksLikeScoreFile(_ head: [UInt8]) -> Bool {
        guard let first = head.firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            return false
        }
        let text = String(decoding: head[first...], as: UTF8.self)
        if head[first] == UInt8(ascii: "{") {
            return text.contains("\"kind\":\"score\"") || text.contains("\"kind\":\"delete\"")
                || (text.contains("\"id\"") && text.contains("\"uploadedAt\""))
        }
        return text.lowercased().hasPrefix("id,name,points,uploadedat")
    }

    /// Whether the file at `path` is empty (or cannot be looked at).
    static func isEmpty(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) != 0 || status.st_size == 0
    }

    /// Makes the folders above `path`, one at a time, syncing each parent so a new folder survives
    /// a crash.
    static func makeParentDirectories(of path: String) throws(SQLiteStoreError) {
        do {
            try Folders.createParents(of: path, syncingParents: true)
        } catch {
            throw .cannotCreateDirectory(path: error.folder, reason: error.reason)
        }
    }

    /// Syncs the folder holding `path`, so that a newly created file's name survives a crash.
    static func syncParent(of path: String) {
        Folders.syncParent(of: path)
    }

    /// The operating system's text for `code`.
    static func reason(_ code: Int32) -> String {
        SystemError.text(code)
    }
}
