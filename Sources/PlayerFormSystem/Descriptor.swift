import Glibc
import SystemPackage

/// Writing to a file descriptor.
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
}
