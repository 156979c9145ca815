import Glibc
import PlayerFormSystem
import SystemPackage

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
        do {
            return try ChildProcess.start(command, arrange: arrange).pid
        } catch let error as Errno {
            throw Failure(description: "\(command[0]) cannot be run: \(SystemError.text(error.rawValue))")
        }
    }

    /// Waits for the child `pid` to end.
    ///
    /// - Parameter pid: a process id ``start(_:arrange:)`` returned.
    /// - Returns: its exit status, or 128 plus the number of the signal that ended it, as a shell
    ///   reports it.
    public static func wait(for pid: pid_t) -> Int32 {
        ChildProcess(pid: pid).wait()
    }
}
