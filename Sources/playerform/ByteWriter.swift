import Glibc
import PlayerFormSystem

/// Buffered output to a file descriptor, or to memory in specs.
public final class ByteWriter {
    private let descriptor: Int32?
    private var pending: [UInt8] = []
    /// Everything written, when writing to memory.
    public private(set) var captured: [UInt8] = []
    /// The `errno` of the first write that failed; later output is dropped.
    ///
    /// A reader that closed the pipe is not a failure: the process ends by SIGPIPE, as `cat` does.
    public private(set) var failure: Int32?

    /// A writer to `descriptor` (1 for standard output, 2 for standard error).
    public init(descriptor: Int32) {
        self.descriptor = descriptor
        pending.reserveCapacity(1 << 16)
    }

    /// A writer that keeps what it is given in ``captured``.
    public init() {
        self.descriptor = nil
    }

    /// What was written to memory, as text.
    public var capturedText: String { String(decoding: captured, as: UTF8.self) }

    /// Queues `text`, writing out when enough is queued.
    public func write(_ text: String) {
        guard descriptor != nil else {
            captured.append(contentsOf: text.utf8)
            return
        }
        pending.append(contentsOf: text.utf8)
        if pending.count >= 1 << 16 { flush() }
    }

    /// Queues `bytes`, writing out when enough is queued.
    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard descriptor != nil else {
            captured.append(contentsOf: bytes)
            return
        }
        guard pending.count + bytes.count >= 1 << 16 else {
            pending.append(contentsOf: bytes)
            return
        }
        // Much at once (a chunk of records) is written as it is, not copied first.
        flush()
        guard failure == nil, let descriptor, let failed = Descriptor.writeAll(bytes, to: descriptor) else {
            return
        }
        if failed == EPIPE { Signals.endBy(SIGPIPE) }
        failure = failed
    }

    /// Writes out everything queued.
    public func flush() {
        guard let descriptor, !pending.isEmpty else { return }
        defer { pending.removeAll(keepingCapacity: true) }
        guard failure == nil else { return }
        guard let failed = Descriptor.writeAll(pending, to: descriptor) else { return }
        // A reader that has gone ends the process by SIGPIPE, as a filter's does.
        if failed == EPIPE { Signals.endBy(SIGPIPE) }
        failure = failed
    }
}
