import Glibc
import SystemPackage

/// A program started by this one to share its terminal: a pager.
///
/// The child stays in this process's process group, so that at a terminal it is in the
/// foreground as this program is: it may read keys from `/dev/tty` and change the terminal's
/// modes. Every signal is unblocked and at its default action in the child, whatever this
/// program blocks or ignores (its worker threads block nearly all signals, and it ignores
/// `SIGPIPE`). Foundation's `Process` does neither: it moves the child to a process group of its
/// own and passes on the starting thread's blocked signals, so a pager such as `less` gets an
/// error reading the terminal and quits after the first screen.
public struct ChildProcess: Sendable {
    /// The child's process id.
    public let pid: pid_t

    /// Wraps the child `pid`, started by ``start(_:arrange:)`` or otherwise.
    public init(pid: pid_t) {
        self.pid = pid
    }

    /// Starts `command`, a program's path and then its arguments, with the file actions
    /// `arrange` sets up: descriptors opened, duplicated or closed in the child.
    ///
    /// The child inherits the descriptors that are not close-on-exec.
    /// - Throws: `Errno` (swift-system's) when the program cannot be started; what `arrange` throws.
    public static func start(
        _ command: [String], arrange: (inout posix_spawn_file_actions_t) throws -> Void
    ) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        try arrange(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let arguments = command.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, command[0], &actions, &attributes, arguments, environ)
        guard result == 0 else { throw Errno(rawValue: result) }
        return ChildProcess(pid: pid)
    }

    /// Starts `command` reading its standard input from a new pipe.
    ///
    /// The pipe's ends are close-on-exec, as every other descriptor this program opens is, so
    /// the child holds only its reading end, as its standard input. (A pager that held the
    /// writing end of its own input would never see its end.)
    /// - Returns: the child and the pipe's writing end, which the caller closes; or the `errno`
    ///   value (swift-system's `Errno`) saying why it could not start.
    public static func startReadingPipe(_ command: [String]) -> Result<(ChildProcess, input: Int32), Errno> {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return .failure(Errno(rawValue: errno)) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { close(ends[0]) }
        do {
            let child = try start(command) { posix_spawn_file_actions_adddup2(&$0, ends[0], 0) }
            return .success((child, ends[1]))
        } catch {
            close(ends[1])
            return .failure(error as? Errno ?? Errno(rawValue: EINVAL))
        }
    }

    /// Waits for the child to end.
    ///
    /// - Returns: its exit status, or 128 plus the number of the signal that ended it, as a
    ///   shell reports it.
    @discardableResult
    public func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return 127 }
        }
        let exited = (status & 0x7F) == 0
        return exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
