import Glibc

/// Whether two paths name the same file, so that a command does not overwrite what it reads.
public enum FileIdentity {
    /// Whether `first` and `second` both exist and are the same file (the same device and inode),
    /// whatever links or spellings lead to it.
    public static func same(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }
}
