import Glibc

/// The operating system's words for a failed call.
public enum SystemError {
    /// The text of the `errno` value `code`, as `strerror(3)` gives it: `No such file or
    /// directory` for `ENOENT`.
    public static func text(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
