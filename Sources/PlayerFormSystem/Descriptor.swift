import Glibc
import SystemPackage

/// Writing to a file descriptor, and opening one.
public enum Descriptor {
    /// Writes all of `bytes` to `descriptor`, writing again after a short write and after a signal
    /// interrupted the call.
    /// - Returns: nil when everything was written, else the `errno` of the write that failed (what
    ///   was written before it stays written).
    @discardableResult
    public static func writeAll(_ bytes: some Collection<UInt8>, to descriptor: Int32) -> Int32? {
        guard !bytes.isEmpty else { return nil }
        do {
            try FileDescriptor(rawValue: descriptor).writeAll(bytes)
            return nil
        } catch let error as Errno {
            return error.rawValue
        } catch {
            return EIO  // writeAll throws nothing but Errno
        }
    }

    /// Opens a file to read without waiting for a writer.
    ///
    /// `open` is called with the flags to pass to `open(2)`, which include `O_NONBLOCK`, so that a
    /// FIFO no process writes to yet opens at once instead of holding the program where no signal
    /// can stop it (a handler installed with `SA_RESTART` starts the wait again). The descriptor is
    /// made blocking again before it is returned. Read it after `poll(2)` says there is input:
    /// until a writer has come, `read(2)` on such a FIFO says the input ended.
    /// - Returns: the descriptor, or -1 with `errno` set as `open(2)` set it.
    public static func openForReading(_ open: (Int32) -> Int32) -> Int32 {
        let descriptor = open(O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return descriptor }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        return descriptor
    }

    /// Opens `/dev/null` on each of standard input, output and error that the parent process left
    /// closed, so that nothing the program opens later takes its number, as a database or one of
    /// the runtime's descriptors otherwise would, depending on which thread opened first.
    ///
    /// Standard input then reads as empty; standard output fails each write with `EBADF`, as the
    /// closed descriptor did; standard error takes what is written and drops it. For `main`,
    /// before any other thread starts.
    public static func occupyClosedStandardDescriptors() {
        let modes = [(STDIN_FILENO, O_RDONLY), (STDOUT_FILENO, O_RDONLY), (STDERR_FILENO, O_WRONLY)]
        for (descriptor, mode) in modes where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            // The lowest free number: this one, as those below it are open by now.
            let opened = open("/dev/null", mode)
            if opened >= 0 && opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }
}
