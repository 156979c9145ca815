import Glibc

/// Starts a program with every signal unblocked and at its default, and with only the descriptors
/// the caller arranges: for servers a spec starts (tmux, PostgreSQL).
///
/// The test runner's threads block most signals, and a child inherits that mask: a server
/// started from one never hears SIGCHLD, so it never reaps its children, never says it is ready and
/// never exits. Foundation's `Process` cannot clear the mask, and it waits for every inheritor of
/// its pipes, which a server is; hence `posix_spawn`.
public enum DetachedSpawn {
    /// A program that could not be started.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, for the spec's message.
        public let description: String
    }

    /// Starts `command` (the program's path first) with the file actions `arrange` sets up.
    ///
    /// - Parameters:
    ///   - command: the program's path, then its arguments.
    ///   - arrange: opens, duplicates or closes descriptors in the child.
    /// - Returns: the child's process id; pass it to ``wait(for:)``.
    /// - Throws: ``Failure`` when the program cannot be started, or what `arrange` throws.
    public static func start(
        _ command: [String], arrange: (inout posix_spawn_file_actions_t) throws -> Void
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        try arrange(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, &attributes, argv, environ)
        guard spawned == 0 else {
            throw Failure(description: "\(command[0]) cannot be run: \(String(cString: strerror(spawned)))")
        }
        return pid
    }

    /// Waits for the child `pid` to end.
    ///
    /// - Parameter pid: a process id ``start(_:arrange:)`` returned.
    /// - Returns: its exit status, or 128 plus the number of the signal that ended it, as a shell
    ///   reports it.
    public static func wait(for pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = (status & 0x7F) == 0
        return exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
