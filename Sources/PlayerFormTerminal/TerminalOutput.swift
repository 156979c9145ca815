import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the REPL writes: results to one stream, errors to another.
public protocol TerminalOutput: Sendable {
    /// Writes one line of results.
    func write(_ line: String)
    /// Writes one line about an error.
    func writeError(_ line: String)
    /// Makes everything written so far visible.
    func flush()
}

/// Writes results to standard output and errors to standard error.
///
/// Results are buffered when `buffered` is true (scripted mode) and flushed before every error,
/// so that both streams keep their order when they go to the same place.
public final class StandardOutput: TerminalOutput {
    private let pending = Mutex<[UInt8]>([])
    private let buffered: Bool

    /// Creates an output; `buffered` batches results until ``flush()`` or an error.
    public init(buffered: Bool) {
        self.buffered = buffered
    }

    public func write(_ line: String) {
        pending.withLock { bytes in
            bytes.append(contentsOf: line.utf8)
            bytes.append(UInt8(ascii: "\n"))
            if !buffered || bytes.count >= 64 * 1024 { Self.writeAll(&bytes, to: 1) }
        }
    }

    public func writeError(_ line: String) {
        pending.withLock { bytes in
            Self.writeAll(&bytes, to: 1)
            var message = Array(line.utf8)
            message.append(UInt8(ascii: "\n"))
            Self.writeAll(&message, to: 2)
        }
    }

    public func flush() {
        pending.withLock { Self.writeAll(&$0, to: 1) }
    }

    private static func writeAll(_ bytes: inout [UInt8], to fileDescriptor: Int32) {
        var offset = 0
        bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let written = Glibc.write(fileDescriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }
}
