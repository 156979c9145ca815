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

    /// Starts `command`, a program's path and then its arguments, reading its standard input
    /// from a new pipe.
    ///
    /// The child inherits the descriptors that are not close-on-exec: the standard three, since
    /// this program opens every other descriptor close-on-exec, as the pipe's are. (A pager that
    /// held the writing end of its own input would never see its end.)
    /// - Returns: the child and the pipe's writing end, which the caller closes; or the `errno`
    ///   value (swift-system's `Errno`) saying why it could not start.
    public static func startReadingPipe(_ command: [String]) -> Result<(ChildProcess, input: Int32), Errno> {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return .failure(Errno(rawValue: errno)) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { close(ends[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
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
        guard result == 0 else {
            close(ends[1])
            return .failure(Errno(rawValue: result))
        }
        return .success((ChildProcess(pid: pid), ends[1]))
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
