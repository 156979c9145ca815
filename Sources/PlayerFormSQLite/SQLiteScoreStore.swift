import Foundation
import GRDB
import GRDBSQLite
import PlayerFormRules
import PlayerFormScores
import Synchronization

/// The score store in a SQLite database, shared safely by several processes.
///
/// - The database is in WAL mode with `synchronous=FULL`: an upload returns only after its
///   transaction is committed and synced, so a record reported as kept survives a crash or a
///   power cut.
/// - A player is a row of its own (`player`), keyed by `PlayerName.comparisonKey(_:)`, with
///   the name, points and time of its newest record (by `uploaded_at`, then by arrival) and its
///   count of uploads. Its row id is the sequence number of its first record, so the table's own
///   order is the roster's order (order of first record). Scores are rows of `score`, each with its 16-byte id and its player's row
///   id. `roster_block` counts the players of each block of 4,096 row ids, which turns a roster
///   index into a row id. So every question of the roster costs O(log n) or O(rows asked for)
///   plus one read of the block counts (a row per 4,096 records): a page is a range of row ids,
///   a name is one index lookup, the count is the sum of the blocks, and deleting a player
///   removes its rows and decrements one block.
/// - Every write transaction increments `meta.revision`, so ``revision()`` changes after any
///   commit by any process.
/// - A database another process keeps locked is waited for a bounded time (``busyTimeout``),
///   saying so; Ctrl-C (cancelling the task) stops the wait.
///
/// ```swift
/// let store = try SQLiteScoreStore(path: "scores.sqlite")
/// let record = try await store.upload(name: "Colin", points: 100)
/// ```
public final class SQLiteScoreStore: ScoreStore, Sendable {
    /// The database file.
    public let path: String
    /// How long an operation waits for a database that another process keeps locked.
    public let busyTimeout: Duration
    private let queue: DatabaseQueue
    private let busy: BusyWait
    /// How many operations are on the queue's thread, which may be waiting for a lock: while any
    /// is, an operation does not try this thread first, which would hold it until they end.
    private let queued = Atomic<Int>(0)
    let now: @Sendable () -> Date
    let makeID: @Sendable () -> UUID

    /// The version of the SQLite library that keeps the database, such as `3.46.1`.
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    /// The `application_id` of a playerform score database ("PlFm"), set when the database is
    /// created and checked when it is opened, so a SQLite file of another program is refused.
    public static let applicationID: Int32 = 0x506C_466D

    /// Opens the database at `path`, creating it (and its folders) when missing.
    ///
    /// - Parameters:
    ///   - path: the database file.
    ///   - busyTimeout: how long to wait for a database another process keeps locked.
    ///   - waiting: told once per operation that waits for such a lock, and once when a database
    ///     of an earlier version is brought up to date, with a sentence to show.
    ///   - now: the clock that stamps uploads.
    ///   - makeID: makes the identifier of each record.
    ///   - stopWaiting: asked while an operation waits for such a lock; true stops the wait, and
    ///     the operation fails as cancelled (a script's program ending by a signal).
    ///   - creating: whether a missing database is created; when false (for a command that only
    ///     reads), a missing or empty file is refused as `ScoreStoreError.cannotOpen(_:reason:)`
    ///     and nothing is created.
    /// - Throws: `ScoreStoreError` naming the path: not a score store (not a regular file, a file
    ///   of score records, another program's database), locked for longer than `busyTimeout`, and
    ///   so on.
    public convenience init(
        path: String,
        busyTimeout: Duration = .seconds(5),
        waiting: @escaping @Sendable (String) -> Void = { _ in },
        now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> UUID = { UUID() },
        stopWaiting: @escaping @Sendable () -> Bool = { false },
        creating: Bool = true
    ) throws(ScoreStoreError) {
        do {
            try self.init(
                opening: path, busyTimeout: busyTimeout, waiting: waiting, now: now, makeID: makeID,
                stopWaiting: stopWaiting, creating: creating)
        } catch {
            throw .translating(error, database: path)
        }
    }

    /// Opens the database at `path`, as the public initialiser does, with this store's own errors.
    private init(
        opening path: String,
        busyTimeout: Duration,
        waiting: @escaping @Sendable (String) -> Void,
        now: @escaping @Sendable () -> Date,
        makeID: @escaping @Sendable () -> UUID,
        stopWaiting: @escaping @Sendable () -> Bool,
        creating: Bool
    ) throws(SQLiteStoreError) {
        self.path = path
        self.busyTimeout = busyTimeout
        self.now = now
        self.makeID = makeID
        let busy = BusyWait(path: path, timeout: busyTimeout, announce: waiting, stopWaiting: stopWaiting)
        self.busy = busy

        let state = try StoreFile.inspect(path)
        if !creating, state != .database || StoreFile.isEmpty(path) {
            throw .cannotOpen(
                path: path,
                reason: state == .missing
                    ? "there is no score database there; nothing was created"
                    : "the file is empty, not a score database; nothing was written")
        }
        if state == .missing { try StoreFile.makeParentDirectories(of: path) }

        var configuration = Configuration()
        // WAL is set here rather than with GRDB's `journalMode = .wal`, which writes to the
        // database on opening when the WAL file is empty, and so waits for any other writer.
        configuration.prepareDatabase { db in
            let connection = try Self.connection(of: db)
            // A database of another program is refused before anything changes it: switching
            // to WAL rewrites its header.
            try Self.refuseForeign(connection, path: path)
            if try RawStatement.text(connection, "PRAGMA journal_mode") != "wal" {
                try RawStatement.execute(connection, "PRAGMA journal_mode = WAL")
            }
            // FULL syncs the WAL at every commit, so an acknowledged upload survives a power cut.
            try RawStatement.execute(connection, "PRAGMA synchronous = FULL")
            try RawStatement.execute(connection, "PRAGMA foreign_keys = ON")
        }
        configuration.busyMode = .callback { busy.shouldRetry($0) }
        // Turned on above, as GRDB would, without its SQL literals.
        configuration.foreignKeysEnabled = false
        configuration.label = "scores"
        let token = busy.makeToken()
        busy.begin(token)
        defer { busy.end() }
        let deadline = ContinuousClock.now + busyTimeout
        do {
            queue = try Self.retryingWhileBusy(until: deadline) {
                try DatabaseQueue(path: path, configuration: configuration)
            }
        } catch {
            // SQLite says only "unable to open database file"; the permissions usually say why.
            let why =
                state == .missing
                ? Glibc.access(Self.folder(of: path), W_OK | X_OK) == 0 ? 0 : errno
                : Glibc.access(path, R_OK | W_OK) == 0 ? 0 : errno
            throw Self.openingError(error, path: path, systemErrno: why, busy: busy)
        }
        if state == .missing { StoreFile.syncParent(of: path) }
        let queue = self.queue
        do {
            let updating = try Self.retryingWhileBusy(until: deadline) {
                try queue.writeWithoutTransaction { db in
                    do {
                        return try Self.bringUpToDate(db, path: path, announce: waiting)
                    } catch {
                        let code = db.sqliteConnection.map { sqlite3_system_errno($0) } ?? 0
                        throw Self.openingError(error, path: path, systemErrno: code, busy: busy)
                    }
                }
            }
            try Self.retryingWhileBusy(until: deadline) {
                try queue.writeWithoutTransaction { db in
                    do {
                        try Self.followKeyRule(db) { if !updating { waiting(Self.updatingSentence(path)) } }
                    } catch {
                        let code = db.sqliteConnection.map { sqlite3_system_errno($0) } ?? 0
                        throw Self.openingError(error, path: path, systemErrno: code, busy: busy)
                    }
                }
            }
        } catch {
            throw Self.openingError(error, path: path, systemErrno: 0, busy: busy)
        }
    }

    /// Runs `body` again while it fails because another connection holds the database, until
    /// `deadline`.
    ///
    /// Opening is several steps, and when connections open a new database at once SQLite answers
    /// some of them busy at once, without calling the busy handler that waits (a full test suite
    /// on two cores saw it); the wait for a lock is then made here, as long as it may last.
    private static func retryingWhileBusy<T>(until deadline: ContinuousClock.Instant, _ body: () throws -> T)
        throws -> T
    {
        while true {
            do {
                return try body()
            } catch {
                let busy: Bool
                switch error {
                case let error as DatabaseError: busy = error.resultCode == .SQLITE_BUSY
                case SQLiteStoreError.busy: busy = true
                default: busy = false
                }
                guard busy, ContinuousClock.now < deadline else { throw error }
                usleep(2_000)
            }
        }
    }

    /// Checks that the database is a score database and applies the migrations it lacks; returns
    /// whether it was of an earlier version, which `announce` was then told.
    ///
    /// A database already up to date is one read. Any other is looked at again, and migrated, in
    /// one immediate transaction: when several processes open a new or older database at once,
    /// one migrates it while the others wait, then find it up to date. Looked at outside that
    /// transaction, a database another process is migrating could seem half made.
    private static func bringUpToDate(_ db: Database, path: String, announce: (String) -> Void) throws -> Bool
    {
        var seen: [String]?
        // Through SQLite's C interface: GRDB's transaction costs a session's start more.
        if let connection = db.sqliteConnection {
            seen = try? RawStatement.inReadTransaction(connection) { try checkOwnership(db, path: path) }
        }
        if let seen, migrationIdentifiers.allSatisfy(seen.contains) { return false }
        var updating = false
        try db.inTransaction(.immediate) {
            let applied = try checkOwnership(db, path: path)
            guard !migrationIdentifiers.allSatisfy(applied.contains) else { return .commit }
            // Rewriting a database of an earlier version takes a while when it is large: said once.
            if !applied.isEmpty {
                updating = true
                announce(updatingSentence(path))
            }
            try db.execute(
                sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            for (identifier, migration) in zip(migrationIdentifiers, migrations)
            where !applied.contains(identifier) {
                try migration(db)
                try db.execute(
                    sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [identifier])
            }
            return .commit
        }
        return updating
    }

    /// Closes the database now, rather than when the store is released.
    ///
    /// The last connection to the database, in this process or another, checkpoints the WAL into
    /// it and removes the `-wal` file. Every operation after this fails. For a program about to end, which then need not release
    /// the store and what holds it.
    /// - Throws: `ScoreStoreError` when SQLite cannot close the connection (it stays open).
    public func close() throws(ScoreStoreError) {
        do {
            try queue.close()
        } catch {
            throw .translating(
                Self.openingError(error, path: path, systemErrno: 0, busy: busy), database: path)
        }
    }

    /// The folder holding the file at `path`.
    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// What is said while a database of an earlier version is brought up to date.
    static func updatingSentence(_ path: String) -> String {
        "updating \(path) for this version of playerform, once; a large database takes a while"
    }

    /// `error` from opening the database, as a `SQLiteStoreError`.
    private static func openingError(
        _ error: any Error, path: String, systemErrno: Int32, busy: BusyWait
    ) -> SQLiteStoreError {
        switch translate(error, path: path, systemErrno: systemErrno, busy: busy) {
        case let error as SQLiteStoreError: error
        case is CancellationError: .busy(path: path, waitedSeconds: busy.timeoutSeconds)
        case let error: .sqlite(path: path, message: "\(error)")
        }
    }

    // MARK: Access

    /// Runs `work` in one immediate write transaction that bumps the revision; returns once the
    /// transaction is committed and synced.
    func write<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws(ScoreStoreError)
        -> T
    {
        do {
            return try await access { db in
                try Self.checkInPlace(db, path: self.path)
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try work(db)
                    try Self.bumpRevision(db)
                    return .commit
                }
                return result!
            }
        } catch {
            throw .translating(error, database: path)
        }
    }

    /// Throws when the database file was deleted, or another file put at its path, since the
    /// store opened it (SQLite's `SQLITE_FCNTL_HAS_MOVED`, one `stat` of the path).
    ///
    /// SQLite would go on reading and writing the file it opened: uploads acknowledged there would
    /// be lost with it, unseen by every other session.
    static func checkInPlace(_ db: Database, path: String) throws {
        var moved: Int32 = 0
        let code = sqlite3_file_control(try connection(of: db), "main", SQLITE_FCNTL_HAS_MOVED, &moved)
        if code == SQLITE_OK && moved != 0 {
            throw SQLiteStoreError.ioError(
                path: path,
                reason: "the file was deleted or replaced since it was opened; nothing was changed, "
                    + "start playerform again to use the file there now")
        }
    }

    /// The SQLite handle of `db`, for statements run without GRDB's own.
    static func connection(of db: Database) throws -> SQLiteConnection {
        guard let connection = db.sqliteConnection else { throw DatabaseError(resultCode: .SQLITE_MISUSE) }
        return connection
    }

    /// Runs `work` in one read transaction.
    func read<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws(ScoreStoreError)
        -> T
    {
        do {
            return try await access { db in
                try Self.checkInPlace(db, path: self.path)
                return try RawStatement.inReadTransaction(Self.connection(of: db)) { try work(db) }
            }
        } catch {
            throw .translating(error, database: path)
        }
    }

    /// Runs `work` on the connection, turning SQLite's errors into `SQLiteStoreError`s naming
    /// the file, and a cancelled task into `CancellationError`, also while waiting for a lock.
    func access<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        // A task cancelled already runs nothing, as GRDB's asynchronous access does.
        try Task.checkCancellation()
        let busy = self.busy
        let path = self.path
        let token = busy.makeToken()
        defer { busy.forget(token) }
        return try await withTaskCancellationHandler {
            // First on this thread, without waiting for a lock: the database is nearly always free,
            // and a hop to the queue's thread and back took most of a short operation's time (a
            // session's start read the roster through four of them). A lock found sends the
            // operation, from its start, to the queue's thread, to wait there as long as allowed
            // without holding this one; so does another operation there already.
            if queued.load(ordering: .acquiring) == 0, let done = try attemptWithoutWaiting(token, work) {
                return done
            }
            queued.add(1, ordering: .acquiringAndReleasing)
            defer { queued.subtract(1, ordering: .acquiringAndReleasing) }
            return try await queue.writeWithoutTransaction { db in
                busy.begin(token)
                defer { busy.end() }
                do {
                    return try work(db)
                } catch {
                    throw Self.translate(error, path: path, db: db, busy: busy)
                }
            }
        } onCancel: {
            busy.cancel(token)
        }
    }

    /// The result of `work`, run on the connection on this thread, or nil when it found the
    /// database locked (SQLite then undid what it did); never waits for a lock.
    private func attemptWithoutWaiting<T>(_ token: UInt64, _ work: (Database) throws -> T) throws -> T? {
        let busy = self.busy
        let path = self.path
        return try queue.writeWithoutTransaction { db -> T? in
            busy.begin(token, waiting: false)
            do {
                // Cancelled since the task was looked at: nothing runs.
                if busy.isCancelled { throw CancellationError() }
                let result = try work(db)
                busy.end()
                return result
            } catch {
                let translated = Self.translate(error, path: path, db: db, busy: busy)
                if busy.end() && !(translated is CancellationError) { return nil }
                throw translated
            }
        }
    }

    /// Runs `work` on the connection synchronously, for batch work off the cooperative pool; its
    /// errors as `ScoreStoreError`.
    func accessSynchronously<T>(_ work: (Database) throws -> T) throws(ScoreStoreError) -> T {
        let busy = self.busy
        let path = self.path
        let token = busy.makeToken()
        do {
            return try queue.writeWithoutTransaction { db in
                busy.begin(token)
                defer { busy.end() }
                do {
                    try Self.checkInPlace(db, path: path)
                    return try work(db)
                } catch {
                    throw Self.translate(error, path: path, db: db, busy: busy)
                }
            }
        } catch {
            throw .translating(error, database: path)
        }
    }

    private static func translate(_ error: any Error, path: String, db: Database, busy: BusyWait) -> any Error
    {
        let code = db.sqliteConnection.map { sqlite3_system_errno($0) } ?? 0
        return translate(error, path: path, systemErrno: code, busy: busy)
    }

    private static func translate(
        _ error: any Error, path: String, systemErrno: Int32, busy: BusyWait
    ) -> any Error {
        if error is SQLiteStoreError || error is CancellationError { return error }
        guard let error = error as? DatabaseError else { return error }
        let reason = systemErrno != 0 ? StoreFile.reason(systemErrno) : (error.message ?? "\(error)")
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            if busy.isCancelled { return CancellationError() }
            return SQLiteStoreError.busy(path: path, waitedSeconds: busy.timeoutSeconds)
        case .SQLITE_INTERRUPT:
            return CancellationError()
        case .SQLITE_FULL:
            return SQLiteStoreError.diskFull(
                path: path, reason: systemErrno != 0 ? reason : StoreFile.reason(ENOSPC))
        case .SQLITE_IOERR:
            return SQLiteStoreError.ioError(path: path, reason: reason)
        case .SQLITE_NOTADB:
            return SQLiteStoreError.notAStore(path: path, holds: .notADatabase)
        case .SQLITE_CORRUPT:
            return SQLiteStoreError.corrupt(path: path, reason: error.message ?? "integrity check failed")
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH:
            return SQLiteStoreError.cannotOpen(path: path, reason: reason)
        case .SQLITE_CONSTRAINT:
            return SQLiteStoreError.sqlite(path: path, message: error.message ?? "constraint failed")
        default:
            return SQLiteStoreError.sqlite(path: path, message: error.message ?? "\(error)")
        }
    }
}
