import Foundation
import PlayerFormScores
import Testing

@testable import PlayerFormPostgres

/// Where a league's connection comes from, as libpq works it out: the address (a URL or a keyword
/// string), a service file, the environment, the defaults; the password, never shown.
///
/// No server needed; ``LeagueConnectionSourcesTests`` connects through each source.
@Suite("Connecting to a league as libpq does", .timeLimit(.minutes(5)))
struct ConnectionRulesTests {
    /// `text` worked out with `environment` and the system user `sys`.
    func location(_ text: String, _ environment: [String: String] = [:]) throws -> PostgresLocation {
        try PostgresLocation(text, environment: environment, systemUser: "sys")
    }

    /// Why `text` is refused, or nil when it is not.
    func refusal(_ text: String, _ environment: [String: String] = [:]) -> String? {
        do throws(ScoreStoreError) {
            _ = try PostgresLocation(text, environment: environment, systemUser: "sys")
            return nil
        } catch {
            guard case .invalidAddress(_, let reason) = error else { return "\(error)" }
            return reason
        }
    }

    /// A new temporary folder, removed by the caller.
    func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pgconn-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test(
        "a URL may leave out any part; percent-encoding is decoded, and a host that is a path is a socket's folder"
    )
    func urls() throws {
        let full = try location("postgres://bob@db.example:6543/league?sslmode=require")
        #expect(
            full.user == "bob" && full.host == "db.example" && full.port == 6543 && full.socketFolder == nil)
        #expect(full.database == "league" && full.sslMode == .require && full.givenPassword == nil)
        let noHost = try location("postgresql://ann@/scores")
        #expect(
            noHost.socketFolder == "/var/run/postgresql" && noHost.port == 5432 && noHost.database == "scores"
        )
        #expect(noHost.endpoint == "/var/run/postgresql/.s.PGSQL.5432")
        let localSocket = try location("postgres:///league")
        #expect(localSocket.user == "sys" && localSocket.database == "league")
        #expect(localSocket.socketFolder == PostgresLocation.defaultSocketFolder)
        let encodedSocket = try location("postgres://%2Frun%2Fpostgresql:5433/league")
        #expect(encodedSocket.socketFolder == "/run/postgresql" && encodedSocket.port == 5433)
        let bare = try location("postgresql://")
        #expect(bare.user == "sys" && bare.database == "sys" && bare.sslMode == .prefer)
        let query = try location(
            "POSTGRES://ann@h/d?host=/tmp/pgsock&port=55432&ssl=true&application_name=desk")
        #expect(query.socketFolder == "/tmp/pgsock" && query.endpoint == "/tmp/pgsock/.s.PGSQL.55432")
        #expect(query.sslMode == .require && query.applicationName == "desk")
        let v6 = try location("postgres://ann@[::1]:7000/scores")
        #expect(v6.host == "::1" && v6.port == 7000 && v6.endpoint == "[::1]:7000")
        let encoded = try location("postgres://b%40b:p%3Aw@h/d%2Fb")
        #expect(encoded.user == "b@b" && encoded.givenPassword == "p:w" && encoded.database == "d/b")
    }

    @Test("a keyword string is KEYWORD=VALUE pairs, values quoted with ' and escaped with \\")
    func keywordStrings() throws {
        let socket = try location("host=/run/postgresql dbname=league")
        #expect(
            socket.socketFolder == "/run/postgresql" && socket.database == "league" && socket.user == "sys")
        let spaced = try location(
            #"  host = db  port=6543 user='ann o\'brien' password='a b\\c' dbname=le\ ague sslmode=verify-full"#
        )
        #expect(spaced.host == "db" && spaced.port == 6543 && spaced.user == "ann o'brien")
        #expect(
            spaced.givenPassword == #"a b\c"# && spaced.database == "le ague" && spaced.sslMode == .verifyFull
        )
        #expect(PostgresLocation.isLeague("host=/run/postgresql dbname=league"))
        #expect(PostgresLocation.isLeague(" service = league"))
        #expect(!PostgresLocation.isLeague("scores=1.sqlite") && !PostgresLocation.isLeague("scores.sqlite"))
    }

    @Test(
        "what the address leaves out comes from PGHOST, PGPORT, PGUSER, PGDATABASE and the other PG variables"
    )
    func environment() throws {
        let environment = [
            "PGHOST": "db.example", "PGPORT": "6000", "PGUSER": "ann", "PGDATABASE": "league",
            "PGPASSWORD": "env-secret", "PGAPPNAME": "desk", "PGCONNECT_TIMEOUT": "7",
            "PGSSLMODE": "verify-ca",
            "PGSSLROOTCERT": "/etc/league.crt", "PGOPTIONS": "-c search_path=league",
            "PGHOSTADDR": "192.0.2.7",
        ]
        let fromEnvironment = try location("postgresql://", environment)
        #expect(fromEnvironment.host == "db.example" && fromEnvironment.port == 6000)
        #expect(fromEnvironment.user == "ann" && fromEnvironment.database == "league")
        #expect(fromEnvironment.givenPassword == "env-secret" && fromEnvironment.applicationName == "desk")
        #expect(fromEnvironment.connectTimeout == 7 && fromEnvironment.sslMode == .verifyCA)
        #expect(fromEnvironment.sslRootCertificate == "/etc/league.crt")
        #expect(fromEnvironment.serverOptions == "-c search_path=league")
        #expect(fromEnvironment.hostAddress == "192.0.2.7")
        #expect(fromEnvironment.sources["port"] == .environment("PGPORT"))
        let written = try location(
            "postgres://bob:pw@other:7000/mine?sslmode=disable&application_name=x", environment)
        #expect(written.host == "other" && written.port == 7000 && written.user == "bob")
        #expect(written.database == "mine" && written.givenPassword == "pw" && written.sslMode == .disable)
        #expect(written.applicationName == "x" && written.sources["port"] == .written)
        let socket = try location("dbname=x", ["PGHOST": "/tmp/sock"])
        #expect(socket.socketFolder == "/tmp/sock")
        // An empty variable is none, as an empty value in the address is.
        let empty = try location("postgresql://", ["PGHOST": "", "PGUSER": ""])
        #expect(empty.socketFolder == PostgresLocation.defaultSocketFolder && empty.user == "sys")
    }

    @Test(
        "a service's section fills in what the address leaves out, before the environment; the user's file, else the system's"
    )
    func serviceFiles() throws {
        let folder = try self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let userFile = folder.appendingPathComponent("services.conf").path
        try """
        # the league
        [league]
        host=db.example
        port = 6000
        dbname=league

        [broken]
        host db
        """.write(toFile: userFile, atomically: true, encoding: .utf8)
        let system = folder.appendingPathComponent("etc")
        try FileManager.default.createDirectory(at: system, withIntermediateDirectories: true)
        try "[office]\nhost=/run/office\nuser=clerk\n[nested]\nservice=league\n[odd]\ncolour=red\n".write(
            toFile: system.appendingPathComponent("pg_service.conf").path, atomically: true, encoding: .utf8)
        let environment = [
            "PGSERVICEFILE": userFile, "PGSYSCONFDIR": system.path, "PGPORT": "8000", "PGHOST": "env",
        ]
        let league = try location(
            "service=league port=7000", environment.merging(["PGSSLMODE": "require"]) { $1 })
        #expect(league.host == "db.example" && league.port == 7000 && league.database == "league")
        #expect(
            league.sslMode == .require && league.sources["host"] == .service(name: "league", file: userFile))
        let office = try location("postgresql://", environment.merging(["PGSERVICE": "office"]) { $1 })
        #expect(office.socketFolder == "/run/office" && office.user == "clerk" && office.port == 8000)
        let home = folder.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try "[league]\nport=6543\n".write(
            toFile: home.appendingPathComponent(".pg_service.conf").path, atomically: true, encoding: .utf8)
        #expect(
            try location("service=league", ["HOME": home.path, "PGSYSCONFDIR": system.path]).port == 6543)
        // A file written on Windows, its lines ending in CRLF, is read as libpq reads it.
        let windows = folder.appendingPathComponent("windows.conf").path
        try "# crlf\r\n[desk]\r\nhost=db.example\r\nport=6001\r\n".write(
            toFile: windows, atomically: true, encoding: .utf8)
        let desk = try location("service=desk", ["PGSERVICEFILE": windows, "PGSYSCONFDIR": system.path])
        #expect(desk.host == "db.example" && desk.port == 6001)
        #expect(
            refusal("service=gone", environment)
                == "no service file defines the service gone; looked in \(userFile) and \(system.path)/pg_service.conf"
        )
        #expect(
            refusal("service=broken", environment) == "\(userFile):8: a service's lines are KEYWORD=VALUE")
        #expect(
            refusal("service=nested", environment)
                == "\(system.path)/pg_service.conf:5: a service cannot name another service")
        #expect(
            refusal("service=odd", environment)
                == "\(system.path)/pg_service.conf:7: colour is not a connection keyword of libpq")
    }

    @Test(
        "with nothing given: the local socket, port 5432, the system's user and a database of that name, sslmode=prefer"
    )
    func defaults() throws {
        let none = try location("postgresql://")
        #expect(none.socketFolder == "/var/run/postgresql" && none.port == 5432 && none.user == "sys")
        #expect(none.database == "sys" && none.sslMode == .prefer && none.applicationName == "playerform")
        #expect(none.connectTimeout == nil && none.serverOptions == nil && none.hostAddress == nil)
        #expect(none.minimumTLSVersion == "TLSv1.2" && none.maximumTLSVersion == nil)
        #expect(none.passwordFile == nil)
        #expect(try location("postgresql://", ["HOME": "/home/sys"]).passwordFile == "/home/sys/.pgpass")
        #expect(try location("fallback_application_name=tool dbname=x").applicationName == "tool")
        #expect(try location("fallback_application_name=tool", ["PGAPPNAME": "env"]).applicationName == "env")
        #expect(try location("requiressl=1").sslMode == .require)
        #expect(try location("requiressl=1 sslmode=disable").sslMode == .disable)
        #expect(try location("hostaddr=127.0.0.1").host == "127.0.0.1")
        // As libpq 16: the system's roots make verify-full the default, and only that.
        #expect(try location("host=h sslrootcert=system").sslMode == .verifyFull)
        #expect(try location("host=h gssdelegation=0").host == "h")
        let noUser = #expect(throws: ScoreStoreError.self) {
            try PostgresLocation("postgresql://", environment: [:], systemUser: nil)
        }
        #expect(
            noUser
                == .invalidAddress(
                    "postgresql://",
                    reason:
                        "it names no user, and the system's name of this user is unknown; give user= or PGUSER"
                ))
    }

    @Test(
        "connect_timeout is whole seconds; 0 or less waits as long as the system does, and 1 is 2, as in libpq"
    )
    func connectTimeouts() throws {
        #expect(try location("connect_timeout=10").connectTimeout == 10)
        #expect(try location("connect_timeout=1").connectTimeout == 2)
        #expect(try location("connect_timeout=0").connectTimeout == nil)
        #expect(try location("postgresql://", ["PGCONNECT_TIMEOUT": "-5"]).connectTimeout == nil)
        #expect(
            refusal("postgresql://", ["PGCONNECT_TIMEOUT": "soon"])
                == "connect_timeout must be a whole number of seconds (0 for no limit) "
                + "(connect_timeout from PGCONNECT_TIMEOUT)")
    }

    @Test(
        "what cannot be read or done is refused saying what is wrong, what is accepted, and where it was set")
    func refusals() {
        let cases: [(String, [String: String], String)] = [
            (
                "postgres://bob@h1,h2/d", [:],
                "it names several hosts; playerform connects to one, so give one"
            ),
            ("host=h1,h2", [:], "host names several hosts; playerform connects to one, so give one"),
            ("postgres://bob@h:99999/d", [:], "the port must be a number from 1 to 65535"),
            ("postgres://bob@h:x/d", [:], "the port must be a number from 1 to 65535"),
            (
                "postgres://bob@h/d?sslmode=sure", [:],
                "sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full"
            ),
            (
                "postgres://bob@h/d", ["PGSSLMODE": "sure"],
                "sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full (sslmode from PGSSLMODE)"
            ),
            (
                "postgres://bob@h/d?sslrootcert=", [:],
                "sslrootcert must name a file of certificates, or system"
            ),
            (
                "postgres://bob@h/d?sslmode=require&sslrootcert=system", [:],
                "sslrootcert=system needs sslmode=verify-full"
            ),
            (
                "postgres://bob@h/d?colour=red", [:],
                "the parameter colour is not a connection keyword of libpq"
            ),
            (
                "postgres://bob@h/d?ssl=false", [:],
                "ssl=false is not accepted; ssl=true means sslmode=require"
            ),
            ("postgres://bob@h/d?sslmode", [:], "the parameter sslmode has no =VALUE"),
            ("postgres://bob@h/d%zz", [:], "the database name is not valid percent-encoding"),
            ("host=h colour=red", [:], "colour is not a connection keyword of libpq"),
            ("host=h dbname", [:], "\"=\" is missing after \"dbname\"; write KEYWORD=VALUE"),
            ("host=h password='abc", [:], "the quoted value of password has no closing '"),
            (
                "hostaddr=db.example", [:],
                "hostaddr must be a numeric IPv4 or IPv6 address, such as 192.0.2.7"
            ),
            (
                "host=h sslcert=/x.crt", [:],
                "sslcert is not supported: playerform's connections have no client certificates"
            ),
            (
                "host=h gssencmode=require", [:],
                "gssencmode=require is not supported: playerform's connections do disable or prefer only"
            ),
            (
                "host=h", ["PGGSSENCMODE": "require"],
                "gssencmode=require is not supported: playerform's connections do disable or prefer only "
                    + "(gssencmode from PGGSSENCMODE)"
            ),
            (
                "host=h target_session_attrs=standby", [:],
                "target_session_attrs=standby is not supported: playerform's connections do any or read-write or primary only"
            ),
            (
                "host=h client_encoding=LATIN1", [:],
                "client_encoding must be UTF8 (or auto): playerform reads and writes UTF-8"
            ),
            (
                "host=h channel_binding=require", [:],
                "channel_binding=require is not supported: playerform's connections do disable or prefer only"
            ),
            (
                "host=h replication=database", [:],
                "replication is not supported: playerform's connections have no replication connections"
            ),
            (
                "host=h ssl_min_protocol_version=TLSv1.3 ssl_max_protocol_version=TLSv1.2", [:],
                "ssl_max_protocol_version is older than ssl_min_protocol_version"
            ),
        ]
        for (text, environment, reason) in cases {
            #expect(refusal(text, environment) == reason, "\(text) \(environment)")
        }
        // Set in the environment for other programs, a client certificate is passed over; a check
        // the connection must pass is not.
        #expect(refusal("host=h", ["PGSSLCERT": "/x.crt", "PGSSLKEY": "/x.key"]) == nil)
        #expect(
            refusal("host=h", ["PGREQUIREAUTH": "scram-sha-256"])
                == "require_auth is not supported: playerform's connections have no require_auth "
                + "(require_auth from PGREQUIREAUTH)")
        #expect(
            refusal("host=/tmp requirepeer=postgres")
                == "requirepeer is not supported: playerform's connections have no requirepeer")
        #expect(
            refusal("host=h client_encoding=UTF-8 gssencmode=prefer target_session_attrs=read-write") == nil)
    }

    @Test(
        "a password written in the address is never shown: the address prints it as ***, also when it does not parse"
    )
    func masksPassword() throws {
        let written = try location("postgres://bob:s3cret@db:5433/league")
        #expect(written.givenPassword == "s3cret")
        #expect(written.description == "postgres://bob:***@db:5433/league")
        #expect(PostgresLocation.masking("postgres://bob:s3cret@db/league") == "postgres://bob:***@db/league")
        #expect(
            PostgresLocation.masking("host=db password=s3cret user=bob") == "host=db password=*** user=bob")
        #expect(PostgresLocation.masking("password='s3 cret' host=db") == "password=*** host=db")
        #expect(
            PostgresLocation.masking("postgres://db/l?password=s3cret&sslmode=require")
                == "postgres://db/l?password=***&sslmode=require")
        let error = #expect(throws: ScoreStoreError.self) { try location("postgres://bob:s3cret@db:x/l") }
        #expect(
            error
                == .invalidAddress(
                    "postgres://bob:***@db:x/l", reason: "the port must be a number from 1 to 65535"))
        // A password holding an unencoded / or ?, which the URL cannot parse around.
        for url in [
            "postgres://bob:pa/ss@db/league", "postgres://bob:pa?ss@db/league", "postgres://bob:p@ss@db/l",
            "host=db password=pa/ss port=x",
        ] {
            let shown: String
            do {
                shown = try location(url).description
            } catch {
                shown = String(describing: error)
            }
            #expect(!shown.contains("pa/ss") && !shown.contains("pa?ss") && !shown.contains("p@ss"), "\(url)")
        }
        let socket = try location("host=/tmp/sock port=55432 dbname=l user=ann sslmode=require")
        #expect(socket.description == "postgres://ann@:55432/l?host=/tmp/sock&sslmode=require")
    }

    @Test(
        "the password is the one given (address, service, PGPASSWORD), else the first matching line of the password file"
    )
    func passwordSources() throws {
        let folder = try self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pgpass").path
        try """
        # comment
        other:5432:league:bob:wrong
        db\\:x:*:league:bob:colon\\:host
        db:*:*:bob:from\\\\file
        localhost:*:*:sockuser:default-socket
        /tmp/sock:*:*:sockuser:other-socket
        *:*:*:*:anyone
        """.write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        let withFile = ["PGPASSFILE": file]
        #expect(try location("postgres://bob@db:5433/league", withFile).password() == "from\\file")
        #expect(try location("host=db user=bob passfile=\(file)").password() == "from\\file")
        #expect(
            try location("postgres://bob@db/league", withFile.merging(["PGPASSWORD": "env"]) { $1 })
                .password()
                == "env")
        #expect(
            try location("postgres://bob:url@db/league", withFile.merging(["PGPASSWORD": "env"]) { $1 })
                .password()
                == "url")
        let colon = try location("postgres://bob@db%3Ax/league", withFile)
        #expect(colon.host == "db:x" && colon.password() == "colon:host")
        #expect(try location("postgres://eve@elsewhere/x", withFile).password() == "anyone")
        // A socket: the default folder matches localhost, any other folder itself.
        #expect(try location("user=sockuser", withFile).password() == "default-socket")
        #expect(try location("user=sockuser host=/tmp/sock", withFile).password() == "other-socket")
        #expect(try location("postgres://eve@elsewhere/x", ["PGPASSFILE": file + "-none"]).password() == nil)
        #expect(try location("postgres://eve@elsewhere/x", ["HOME": folder.path]).password() == nil)
        #expect(
            try location("postgres://bob@db/league", withFile.merging(["PGPASSWORD": ""]) { $1 }).password()
                == "from\\file")
        // An empty password, in the URL or as a keyword, is none: the environment and the file apply.
        #expect(try location("postgres://bob:@db/league", ["PGPASSWORD": "env"]).password() == "env")
        #expect(try location("host=db user=bob password=''", withFile).password() == "from\\file")
    }

    @Test(
        "a password file its group or others may read or write, or that is not a plain file, is ignored with a warning, as libpq does"
    )
    func passwordFilePermissions() throws {
        let folder = try self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(".pgpass").path
        try "*:*:*:*:secret\n".write(toFile: file, atomically: true, encoding: .utf8)
        for mode in [0o604, 0o640, 0o620, 0o602, 0o610, 0o601, 0o777] {
            chmod(file, mode_t(mode))
            for environment in [["PGPASSFILE": file], ["HOME": folder.path]] {
                var warnings: [String] = []
                #expect(
                    try location("postgres://bob@db/league", environment).password { warnings.append($0) }
                        == nil)
                #expect(
                    warnings == [
                        "the password file \(file) can be read or written by others than its owner, so it is "
                            + "ignored; make it u=rw (0600) or less: chmod 600 \(file)"
                    ], "mode \(String(mode, radix: 8))")
            }
        }
        for mode in [0o600, 0o400] {
            chmod(file, mode_t(mode))
            var warnings: [String] = []
            #expect(
                try location("postgres://bob@db/league", ["PGPASSFILE": file]).password {
                    warnings.append($0)
                } == "secret")
            #expect(warnings == [])
        }
        var warnings: [String] = []
        #expect(
            try location("postgres://bob@db/league", ["PGPASSFILE": folder.path]).password {
                warnings.append($0)
            } == nil)
        #expect(warnings == ["the password file \(folder.path) is not a plain file, so it is ignored"])
    }

    @Test(
        "sslmode verify-ca and verify-full take their trusted roots from sslrootcert, else ~/.postgresql/root.crt"
    )
    func rootCertificates() throws {
        let given = try location("postgres://bob@db/league?sslmode=verify-full&sslrootcert=/etc/league.crt")
        #expect(given.sslMode == .verifyFull && given.sslMode.verifies)
        #expect(given.rootCertificates(environment: ["HOME": "/home/bob"]) == .file("/etc/league.crt"))
        #expect(
            given.description
                == "postgres://bob@db:5432/league?sslmode=verify-full&sslrootcert=/etc/league.crt")
        let system = try location("postgres://bob@db/league?sslmode=verify-full&sslrootcert=system")
        #expect(system.rootCertificates(environment: [:]) == .system)
        let home = try location("postgres://bob@db/league?sslmode=verify-full")
        #expect(
            home.rootCertificates(environment: ["HOME": "/home/bob"])
                == .file("/home/bob/.postgresql/root.crt"))
        #expect(home.rootCertificates(environment: [:]) == nil)
        #expect(!PostgresLocation.SSLMode.require.verifies && !PostgresLocation.SSLMode.prefer.verifies)
    }

    @Test("connect_timeout bounds a server that accepts the connection and never answers")
    func connectTimeoutBoundsASilentServer() async throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let store = PostgresScoreStore(
            location: try location(
                "host=127.0.0.1 port=\(listener.port) user=bob dbname=l connect_timeout=2"),
            password: nil)
        let error = await #expect(throws: ScoreStoreError.self) { try await store.open() }
        #expect(
            error
                == .unreachable(
                    .server(endpoint: "127.0.0.1:\(listener.port)"),
                    reason: "no connection within connect_timeout=2 seconds"))
    }
}

/// A TCP socket on the loopback that the kernel accepts connections to, and that never answers
/// them: a server that hangs.
final class SilentListener {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 8) == 0 else {
            _ = Glibc.close(descriptor)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { _ = Glibc.close(descriptor) }
}
