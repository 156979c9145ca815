import Glibc

/// Whether two paths name the same file, so that a command does not overwrite what it reads.
public enum FileIdentity {
    /// Whether `first` and `second` both exist and are the same file (the same device and inode),
    /// whatever links or spellings lead to it.
    public static func same(_ first: String, _ second: String) -> Bool {
        same(Array(first.utf8), Array(second.utf8))
    }

    /// Whether the paths whose bytes are `first` and `second` both exist and are the same file.
    public static func same(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        var a = stat()
        var b = stat()
        guard status(first, &a), status(second, &b) else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    private static func status(_ path: [UInt8], _ status: inout stat) -> Bool {
        (path + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &status) == 0 }
        }
    }
}
