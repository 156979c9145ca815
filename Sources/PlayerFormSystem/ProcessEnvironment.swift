import Glibc

/// The process's environment variables, read from `environ`.
///
/// Foundation's `ProcessInfo.processInfo.environment` gives the same dictionary, but its first
/// use costs a session start about a quarter of a millisecond in the static executable (bridging,
/// and the runtime's conformance lookups for the types it makes); this reads the C strings.
public enum ProcessEnvironment {
    /// Every variable of the process as name and value (see ``variables(of:)``).
    public static func current() -> [String: String] {
        variables(of: environ)
    }

    /// The variables of `entries`, a list of `NAME=value` C strings ending with a null pointer.
    ///
    /// The list is read as `environ` is: an entry with no `=` is skipped, and when a name appears
    /// twice the first entry wins, as `getenv(3)` finds it. Bytes that are not UTF-8 are replaced,
    /// as Foundation does. A null list (what `clearenv(3)` leaves) has no variables.
    public static func variables(of entries: UnsafePointer<UnsafeMutablePointer<CChar>?>?) -> [String: String]
    {
        var variables: [String: String] = [:]
        guard var entry = entries else { return variables }
        while let pointer = entry.pointee {
            let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: bytes[..<equals], as: UTF8.self)
                if variables[name] == nil {
                    variables[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
                }
            }
            entry += 1
        }
        return variables
    }
}
