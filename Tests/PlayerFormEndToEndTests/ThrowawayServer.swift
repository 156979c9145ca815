import BuiltBinaryTesting
import Foundation
import Testing

/// A PostgreSQL server of one spec's own, in a temporary folder, reached only through a unix
/// socket there: a spec may stop it, kill it or ask for passwords without touching the server
/// other specs share.
///
/// Made with `initdb` and run with `pg_ctl`; as root, they run as the
/// unprivileged user `playerform-pg` (`.ci/run` makes it), since `initdb` refuses root.
final class ThrowawayServer {
    /// The folder holding `initdb` and `pg_ctl`, or why there is none fit to use.
    static let binaries: Result<String, Unavailable> = {
        let fileManager = FileManager.default
        var folders = ["/usr/local/bin"]
        if let versions = try? fileManager.contentsOfDirectory(atPath: "/usr/lib/postgresql") {
            folders += versions.sorted { $0.compare($1, options: .numeric) == .orderedDescending }
                .map { "/usr/lib/postgresql/\($0)/bin" }
        }
        folders += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        guard
            let folder = folders.first(where: {
                fileManager.isExecutableFile(atPath: $0 + "/initdb")
                    && fileManager.isExecutableFile(atPath: $0 + "/pg_ctl")
            })
        else { return .failure(Unavailable(reason: "initdb and pg_ctl are not installed")) }
        if getuid() == 0, getpwnam(runAs) == nil {
            return .failure(
                Unavailable(reason: "running as root, and there is no user \(runAs) to run the server as"))
        }
        return .success(folder)
    }()

    /// Why the specs that need a server of their own are skipped; said once on standard error.
    static let unavailableReason: String? = {
        guard case .failure(let unavailable) = binaries else { return nil }
        FileHandle.standardError.write(
            Data("PostgreSQL specs with a server of their own skipped: \(unavailable.reason)\n".utf8))
        return unavailable.reason
    }()

    struct Unavailable: Error {
        var reason: String
    }

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// The user the server runs as when the specs run as root.
    static let runAs = "playerform-pg"

    /// The superuser's password, when the server asks for one.
    let password: String?
    /// The temporary folder: the data directory, the socket and the log.
    let folder: URL
    /// The number of the socket file.
    let port = 5432

    /// Makes the data directory; with `password`, every connection must give it (SCRAM).
    init(password: String? = nil) throws {
        _ = try Self.binaries.get()
        self.password = password
        // Short: the socket's path must fit in 107 bytes.
        folder = URL(fileURLWithPath: "/tmp/pf-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if getuid() == 0, let user = getpwnam(Self.runAs) {
            chown(folder.path, user.pointee.pw_uid, user.pointee.pw_gid)
        }
        var arguments = ["-D", folder.path + "/data", "-U", "postgres", "-N"]
        if let password {
            let file = folder.appendingPathComponent("pwfile")
            try Data((password + "\n").utf8).write(to: file)
            arguments += ["--auth=scram-sha-256", "--pwfile=" + file.path]
        } else {
            arguments += ["--auth=trust"]
        }
        try run("initdb", arguments)
    }

    deinit {
        try? run("pg_ctl", ["-D", folder.path + "/data", "-m", "immediate", "stop"])
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts the server and waits until it takes connections.
    func start() throws {
        try run(
            "pg_ctl",
            [
                "-D", folder.path + "/data", "-w", "-t", "60", "-l", folder.path + "/server.log", "-o",
                "-k \(folder.path) -p \(port) -c listen_addresses=''", "start",
            ])
    }

    /// Stops the server at once, as a crash would: no session is told.
    func kill() throws {
        try run("pg_ctl", ["-D", folder.path + "/data", "-m", "immediate", "-w", "stop"])
    }

    /// The URL of the database `postgres` as `user`, with `password` in it when given.
    func url(user: String = "postgres", password: String? = nil) -> String {
        "postgres://\(user)\(password.map { ":" + $0 } ?? "")@localhost:\(port)/postgres?host=\(folder.path)"
    }

    /// Adds to `actions` the closing of every descriptor from `lowest` on: glibc's
    /// `posix_spawn_file_actions_addclosefrom_np` (2.34), which Swift does not import.
    private static func closeFrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) throws {
        typealias CloseFrom =
            @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard
            let symbol = dlsym(
                UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { throw Failed(description: "this C library cannot close descriptors when spawning") }
        guard unsafeBitCast(symbol, to: CloseFrom.self)(&actions, lowest) == 0 else {
            throw Failed(description: "posix_spawn_file_actions_addclosefrom_np failed")
        }
    }

    /// Runs one of the server's programs, as ``runAs`` when root, with its output in a log in
    /// ``folder``.
    ///
    /// Spawned with no signal blocked, since the test's thread blocks most and a
    /// server that inherits that never hears its children, so never says it is ready; and with no
    /// descriptor but the standard three, so that the server holds no pipe of another program a
    /// spec runs (which would then never see the end of its input).
    private func run(_ tool: String, _ arguments: [String]) throws {
        let path = try Self.binaries.get() + "/" + tool
        let command =
            getuid() == 0
            ? ["/usr/sbin/runuser", "-u", Self.runAs, "--", path] + arguments : [path] + arguments
        let log = folder.appendingPathComponent("\(tool).log").path
        let pid = try DetachedSpawn.start(command) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            try Self.closeFrom(&actions, 3)
        }
        let status = DetachedSpawn.wait(for: pid)
        guard status == 0 else {
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw Failed(description: "\(tool) failed (status \(status)): \(output)")
        }
    }
}
