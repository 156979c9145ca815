import PlayerFormSystem
import PlayerFormText

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads lines from a file descriptor or from bytes in memory, with no prompt and no echo: the
/// scripted mode of the REPL (`playerform < session.txt`).
///
/// Lines end at `\n`; a `\r` before it is dropped. Lines longer than ``LineLimits/maxBytes`` are
/// skipped without being held in memory and reported as ``LineInput/tooLong(byteCount:)``.
public final class ScriptedLineReader: LineReader {
    private let fileDescriptor: Int32?
    private var buffer: [UInt8]
    private var position = 0
    private var atEnd: Bool
    private let maxBytes: Int
    /// Called before the reader waits for more input, so that buffered output is seen while a
    /// slow producer (`tail -f`, a person typing into a pipe) has not sent the next line yet.
    public var beforeWaiting: () -> Void = {}

    /// Whether the reader closes its descriptor when it is done with it.
    private let ownsDescriptor: Bool
    /// Whether the reader is to stop, asked while it waits for input and between reads.
    ///
    /// Once it says true, the reader gives ``LineInput/interrupted`` and then nothing more: for a
    /// file run by `source` at a terminal, where Ctrl-C stops it, even in a line that never ends
    /// (`/dev/zero`) or a FIFO no one writes to.
    public var isStopped: (() -> Bool)?
    private var stopped = false

    /// Reads from `fileDescriptor` (standard input by default), which stays open.
    public init(fileDescriptor: Int32 = 0, maxBytes: Int = LineLimits.maxBytes) {
        self.fileDescriptor = fileDescriptor
        self.buffer = []
        self.atEnd = false
        self.maxBytes = maxBytes
        self.ownsDescriptor = false
    }

    /// Reads the file at `path`, which it closes when it is released.
    /// - Throws: ``CommandError`` saying why the file cannot be read (missing, a directory, not
    ///   permitted).
    public init(path: String, maxBytes: Int = LineLimits.maxBytes) throws(CommandError) {
        // A FIFO opens at once, so that a stop ends a wait for its writer: refill() polls.
        let descriptor = Descriptor.openForReading { Glibc.open(path, $0) }
        guard descriptor >= 0 else {
            let reason = SystemError.text(errno)
            throw CommandError("Cannot read \(TerminalText.quoted(path)): \(reason).")
        }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw CommandError(
                "Cannot read \(TerminalText.quoted(path)): it is a directory; give a file of commands.")
        }
        self.fileDescriptor = descriptor
        self.buffer = []
        self.atEnd = false
        self.maxBytes = maxBytes
        self.ownsDescriptor = true
    }

    deinit {
        if ownsDescriptor, let fileDescriptor { close(fileDescriptor) }
    }

    /// Reads from `bytes`, for specs.
    public init(bytes: [UInt8], maxBytes: Int = LineLimits.maxBytes) {
        self.ownsDescriptor = false
        self.fileDescriptor = nil
        self.buffer = bytes
        self.atEnd = true
        self.maxBytes = maxBytes
    }

    /// Reads from `text`, for specs.
    public convenience init(text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// False: a script has no person to prompt.
    public var isInteractive: Bool { false }

    /// The next line of the script; `prompt` is not shown.
    public func read(prompt: String) async -> LineInput {
        nextLine()
    }

    /// The next line, read synchronously.
    public func nextLine() -> LineInput {
        var line: [UInt8] = []
        var length = 0
        var lastByte: UInt8?
        while true {
            if position == buffer.count {
                guard refill() else {
                    if stopped { return .interrupted }
                    if length == 0 { return .end }
                    break
                }
            }
            let available = buffer[position...]
            if let newline = newlineIndex(from: position) {
                if newline > position { lastByte = buffer[newline - 1] }
                take(available[..<newline], into: &line, length: &length)
                position = newline + 1
                break
            }
            if let last = available.last { lastByte = last }
            take(available, into: &line, length: &length)
            position = buffer.count
        }
        // A carriage return before the line break is not part of the line, nor of its length.
        let counted = lastByte == UInt8(ascii: "\r") ? length - 1 : length
        if counted > maxBytes { return .tooLong(byteCount: counted) }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return .line(line)
    }

    /// The index of the first line feed in the buffer at or after `start`, found by `memchr`.
    private func newlineIndex(from start: Int) -> Int? {
        buffer.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress,
                let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    private func take(_ bytes: ArraySlice<UInt8>, into line: inout [UInt8], length: inout Int) {
        length += bytes.count
        // One byte more is kept: it may be the carriage return of a CRLF.
        if length > maxBytes + 1 {
            line.removeAll()
        } else if line.isEmpty {
            // Most lines lie in the buffer whole: one allocation of the right size.
            line = Array(bytes)
        } else {
            line.append(contentsOf: bytes)
        }
    }

    /// Reads more input; false at the end, or once ``isStopped`` said so.
    private func refill() -> Bool {
        guard !atEnd, !stopped, let fileDescriptor else { return false }
        beforeWaiting()
        // Waits in slices, so that a stop is seen while nothing comes; and reads only once there
        // is input, as a FIFO whose writer has not come yet reads as ended.
        let isStopped = self.isStopped ?? { false }
        var request = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        while !isStopped() {
            let ready = poll(&request, 1, 100)
            if ready > 0 || (ready < 0 && errno != EINTR) { break }
        }
        if isStopped() {
            stopped = true
            return false
        }
        buffer.removeAll(keepingCapacity: true)
        position = 0
        buffer = [UInt8](unsafeUninitializedCapacity: 64 * 1024) { storage, count in
            while true {
                let got = Glibc.read(fileDescriptor, storage.baseAddress, storage.count)
                if got < 0 && errno == EINTR { continue }
                count = Swift.max(got, 0)
                return
            }
        }
        if buffer.isEmpty { atEnd = true }
        return !buffer.isEmpty
    }
}
