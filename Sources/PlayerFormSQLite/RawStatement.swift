import Foundation
import GRDB
import GRDBSQLite

/// A statement prepared on a connection and driven through SQLite's C interface: for the import's
/// inner loop, where binding through GRDB's argument arrays costs more than the work itself, and
/// for the few questions every session asks.
///
/// Used only inside the connection's access and finalized when released.
final class RawStatement {
    private let connection: OpaquePointer
    private let handle: OpaquePointer
    /// SQLite copies bound text at once (SQLITE_TRANSIENT).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ connection: OpaquePointer, _ sql: String) throws {
        self.connection = connection
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)),
                sql: sql)
        }
        self.handle = handle
    }

    deinit {
        sqlite3_finalize(handle)
    }

    func bind(_ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, bytes.count > 0 else {
                // Not a null pointer, which would bind NULL instead of the empty text.
                _ = sqlite3_bind_text(handle, index, "", 0, Self.transient)
                return
            }
            _ = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(handle, index, $0, Int32(bytes.count), Self.transient)
            }
        }
    }

    /// Binds the 16 bytes of `uuid` as a blob.
    func bind(_ index: Int32, _ uuid: UUID) {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            _ = sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), Self.transient)
        }
    }

    func bind(_ index: Int32, _ value: Double) {
        sqlite3_bind_double(handle, index, value)
    }

    func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(handle, index, value)
    }

    /// Steps once: true with a row to read, false when done.
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        let message = String(cString: sqlite3_errmsg(connection))
        sqlite3_reset(handle)
        throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
    }

    /// Steps to the end and resets, for a statement that returns no rows.
    func run() throws {
        _ = try step()
        reset()
    }

    func reset() {
        sqlite3_reset(handle)
    }

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The UUID of a 16-byte blob; nil for any other value.
    func uuid(_ column: Int32) -> UUID? {
        guard sqlite3_column_type(handle, column) == SQLITE_BLOB, sqlite3_column_bytes(handle, column) == 16,
            let bytes = sqlite3_column_blob(handle, column)
        else { return nil }
        return UUID(uuid: bytes.loadUnaligned(as: uuid_t.self))
    }

    func double(_ column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    func int(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }
}

extension RawStatement {
    // One-statement questions through SQLite's C interface. GRDB builds every statement it is
    // given as text through its SQL literals, whose first use in a process costs about a tenth of
    // a millisecond of generic lookups; a session's start asks only these.

    /// Runs `sql`, one statement, to its end.
    static func execute(_ connection: OpaquePointer, _ sql: String) throws {
        try RawStatement(connection, sql).run()
    }

    /// The integer in the first column of the first row of `sql`; nil without a row or for NULL.
    static func integer(_ connection: OpaquePointer, _ sql: String) throws -> Int64? {
        let statement = try RawStatement(connection, sql)
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.int(0)
    }

    /// The text in the first column of the first row of `sql`; nil without a row or for NULL.
    static func text(_ connection: OpaquePointer, _ sql: String) throws -> String? {
        let statement = try RawStatement(connection, sql)
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.text(0)
    }

    /// Whether the value in `column` is NULL.
    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    /// Runs `work` in one deferred transaction, committed when it returns and rolled back when it
    /// throws.
    static func inReadTransaction<T>(_ connection: OpaquePointer, _ work: () throws -> T) throws -> T {
        try execute(connection, "BEGIN DEFERRED")
        do {
            let result = try work()
            try execute(connection, "COMMIT")
            return result
        } catch {
            // A failed statement may have ended the transaction already.
            if sqlite3_get_autocommit(connection) == 0 { sqlite3_exec(connection, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }
}
