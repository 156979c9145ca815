import Foundation
import Testing

@testable import PlayerFormPostgres

/// libpq's own reading of connection strings (`PQconninfoParse` of the system's `libpq.so.5`,
/// which psql uses), loaded at run time: the reference ``ConnectionString`` is compared with.
struct Libpq {
    private typealias Parse =
        @convention(c) (
            UnsafePointer<CChar>, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
        ) -> UnsafeMutableRawPointer?
    private typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void

    private let parse: Parse
    private let free: Free
    private let freeMemory: Free

    /// libpq, or nil when the system has none (the specs that need it say so and are skipped).
    static let system: Libpq? = {
        for name in ["libpq.so.5", "libpq.so"] {
            guard let handle = dlopen(name, RTLD_NOW),
                let parse = dlsym(handle, "PQconninfoParse"), let free = dlsym(handle, "PQconninfoFree"),
                let freeMemory = dlsym(handle, "PQfreemem")
            else { continue }
            return Libpq(
                parse: unsafeBitCast(parse, to: Parse.self), free: unsafeBitCast(free, to: Free.self),
                freeMemory: unsafeBitCast(freeMemory, to: Free.self))
        }
        FileHandle.standardError.write(
            Data("libpq comparison specs skipped: libpq.so.5 cannot be loaded\n".utf8))
        return nil
    }()

    /// The keywords and values libpq reads in `text`, sorted by keyword, or nil when libpq
    /// refuses it.
    func parameters(of text: String) -> [String: String]? {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = text.withCString({ parse($0, &message) }) else {
            freeMemory(message)
            return nil
        }
        defer { free(options) }
        // PQconninfoOption: keyword, envvar, compiled, val, label, dispchar (pointers), dispsize
        // (an int), until an entry without a keyword.
        let stride = 6 * MemoryLayout<UnsafeRawPointer>.stride + MemoryLayout<Int>.stride
        var result: [String: String] = [:]
        var entry = options
        while let keyword = entry.load(as: UnsafePointer<CChar>?.self) {
            if let value = entry.load(
                fromByteOffset: 3 * MemoryLayout<UnsafeRawPointer>.stride, as: UnsafePointer<CChar>?.self)
            {
                result[String(cString: keyword)] = String(cString: value)
            }
            entry += stride
        }
        return result
    }
}

@Suite(
    "Connection strings read as libpq reads them",
    .enabled(if: Libpq.system != nil, "libpq.so.5 is not installed"))
struct ConnectionStringLibpqTests {
    /// What ``ConnectionString`` reads in `text`, as libpq would list it, or nil when refused.
    func ours(_ text: String) -> [String: String]? {
        guard let parameters = try? ConnectionString.parameters(of: text) else { return nil }
        var result: [String: String] = [:]
        for (keyword, value) in parameters { result[keyword.rawValue] = value }
        return result
    }

    @Test(
        "URLs and keyword strings give the same keywords and values as libpq's PQconninfoParse, and the same refusals",
        arguments: [
            "postgresql://", "postgres://", "postgresql://localhost", "postgresql://localhost:5433",
            "postgresql://localhost/mydb", "postgresql://user@localhost",
            "postgresql://user:secret@localhost",
            "postgresql://other@localhost/otherdb?connect_timeout=10&application_name=myapp",
            "postgresql:///mydb?host=localhost&port=5433", "postgresql://[2001:db8::1234]/database",
            "postgresql://[::1]:6000/d", "postgresql:///dbname?host=/var/lib/postgresql",
            "postgresql://%2Fvar%2Flib%2Fpostgresql/dbname", "postgres://b%40b:p%3Aw@h/d%2Fb",
            "postgresql://h/d?sslmode=verify-full&sslrootcert=/etc/root.crt", "postgresql://h/d?ssl=true",
            "postgresql://h/d?colour=red", "postgresql://h/d?sslmode", "postgresql://h/d%zz",
            "postgresql://h/d?application_name=a%20b", "postgresql://:5433/d", "postgresql://u@/d",
            "postgresql://u:@h/d",
            "host=localhost port=5432 dbname=mydb connect_timeout=10", "host=/run/postgresql dbname=league",
            "  host = db  port=6543 user='ann o\\'brien' password='a b\\\\c' dbname=le\\ ague",
            "dbname=''", "host=h colour=red", "host=h dbname", "host=h password='abc", "service=league",
            "host=h options='-c search_path=league'", "application_name=x fallback_application_name=y",
            "host=a host=b", "sslmode=require sslrootcert=system",
        ])
    func agreesWithLibpq(text: String) throws {
        let libpq = try #require(Libpq.system)
        #expect(ours(text) == libpq.parameters(of: text), "\(text)")
    }

    @Test(
        "where playerform reads more than libpq, it says what it does: a scheme in capitals, a user's @ in a password, several hosts refused"
    )
    func deliberateDifferences() throws {
        let libpq = try #require(Libpq.system)
        // RFC 3986 schemes are read in any case; libpq reads only lower case.
        #expect(libpq.parameters(of: "POSTGRES://h/d") == nil)
        #expect(ours("POSTGRES://h/d") == ["host": "h", "dbname": "d"])
        // A password holding @: up to the last @ before the host, where libpq stops at the first.
        #expect(
            ours("postgresql://ann:p@ss@h/d") == [
                "user": "ann", "password": "p@ss", "host": "h", "dbname": "d",
            ])
        // libpq tries several hosts in turn; a league is one server, so a list is refused.
        #expect(libpq.parameters(of: "postgresql://h1,h2/d")?["host"] == "h1,h2")
        #expect(ours("postgresql://h1,h2/d") == nil)
    }
}
