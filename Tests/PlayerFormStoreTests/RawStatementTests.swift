import Foundation
import GRDB
import GRDBSQLite
import Testing

@testable import PlayerFormSQLite

/// The questions a session's start asks through SQLite's C interface answer as GRDB's would.
@Suite("One-statement questions without GRDB's SQL")
struct RawStatementTests {
    /// Runs `body` on a connection to a new in-memory database with a table `t` holding the rows
    /// 1 and NULL.
    func withConnection<T>(_ body: (Database, OpaquePointer) throws -> T) throws -> T {
        let queue = try DatabaseQueue()
        return try queue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE t (v); INSERT INTO t VALUES (1), (NULL)")
            return try body(db, try SQLiteScoreStore.connection(of: db))
        }
    }

    @Test("the first column of the first row; nil without a row and for NULL")
    func values() throws {
        try withConnection { _, connection throws in
            #expect(try RawStatement.integer(connection, "SELECT v FROM t WHERE v = 1") == 1)
            #expect(try RawStatement.integer(connection, "SELECT v FROM t WHERE v IS NULL") == nil)
            #expect(try RawStatement.integer(connection, "SELECT v FROM t WHERE v = 2") == nil)
            #expect(try RawStatement.text(connection, "SELECT 'caf' || char(233)") == "caf\u{E9}")
            #expect(try RawStatement.text(connection, "SELECT ''") == "")
            #expect(try RawStatement.text(connection, "SELECT NULL") == nil)
            #expect(try RawStatement.text(connection, "SELECT v FROM t WHERE v = 2") == nil)
            #expect(throws: DatabaseError.self) {
                try RawStatement.integer(connection, "SELECT nothing FROM t")
            }
        }
    }

    @Test("a read transaction is open while its work runs, and ends whether the work returns or throws")
    func readTransaction() throws {
        struct Failure: Error {}
        try withConnection { db, connection throws in
            let inside = try RawStatement.inReadTransaction(connection) { db.isInsideTransaction }
            #expect(inside)
            #expect(!db.isInsideTransaction)
            #expect(throws: Failure.self) {
                try RawStatement.inReadTransaction(connection) { throw Failure() }
            }
            #expect(!db.isInsideTransaction)
            // A statement that fails inside: the transaction is rolled back and the error kept.
            #expect(throws: DatabaseError.self) {
                try RawStatement.inReadTransaction(connection) {
                    try RawStatement.execute(connection, "INSERT INTO missing VALUES (1)")
                }
            }
            #expect(!db.isInsideTransaction)
        }
    }
}
