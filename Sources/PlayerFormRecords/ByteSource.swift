import Glibc

/// What one read from a ``ByteSource`` produced.
public enum ReadResult: Equatable, Sendable {
    /// This many bytes were placed at the start of the buffer (more than zero).
    case bytes(Int)
    /// There is nothing more to read.
    case end
    /// Reading failed with this `errno`.
    case failed(Int32)
    /// Reading stopped because an interrupt (Ctrl-C) was requested.
    case interrupted
}

/// Where the bytes of an input come from: an open file, standard input, or memory in specs and
/// the fuzzer.
public protocol ByteSource: SendableMetatype {
    /// Fills the start of `buffer` with the next bytes of the input.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult
}

/// The bytes of an array, handed out at most `chunkSize` at a time so that specs and the fuzzer
/// can place line and field boundaries across reads.
public struct MemorySource: ByteSource {
    private let bytes: [UInt8]
    private let chunkSize: Int
    private var offset = 0

    /// A source of `bytes`, `chunkSize` (at least 1) bytes per read at most.
    public init(_ bytes: [UInt8], chunkSize: Int = .max) {
        self.bytes = bytes
        self.chunkSize = Swift.max(1, chunkSize)
    }

    /// Copies the next bytes, at most `chunkSize` of them, into `buffer`.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        guard offset < bytes.count else { return .end }
        let count = Swift.min(buffer.count, chunkSize, bytes.count - offset)
        bytes.withUnsafeBytes { all in
            buffer.baseAddress!.copyMemory(from: all.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return .bytes(count)
    }
}

/// An open file descriptor, read with read(2).
///
/// While the input has nothing to give (a pipe or a terminal), it calls `onIdle` once and then
/// waits in short slices so that an interrupt is noticed promptly.
public struct FileDescriptorSource: ByteSource {
    private let descriptor: Int32
    private let isInterrupted: () -> Bool
    private let onIdle: () -> Void

    /// A source reading `descriptor`, which it does not close.
    public init(
        descriptor: Int32, isInterrupted: @escaping () -> Bool = { false }, onIdle: @escaping () -> Void = {}
    ) {
        self.descriptor = descriptor
        self.isInterrupted = isInterrupted
        self.onIdle = onIdle
    }

    /// Reads the next bytes of the descriptor into `buffer`.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        var idleReported = false
        while true {
            if isInterrupted() { return .interrupted }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, idleReported ? 100 : 0)
            if ready == 0 {
                if !idleReported {
                    onIdle()
                    idleReported = true
                }
                continue
            }
            if ready < 0 && errno == EINTR { continue }
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count > 0 { return .bytes(count) }
            if count == 0 { return .end }
            if errno == EINTR || errno == EAGAIN { continue }
            return .failed(errno)
        }
    }
}
