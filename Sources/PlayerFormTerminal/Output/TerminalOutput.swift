import PlayerFormSystem
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
    /// Writes part of a line of results; the next ``write(_:)`` ends the line. For output too
    /// long to build at once, such as the whole roster as one JSON array.
    func writePart(_ text: String)
    /// Writes one line about an error.
    func writeError(_ line: String)
    /// Writes one line about an error made of `prefix` and then `message`, such as `line 3: ` and
    /// what went wrong, as ``writeError(_:)`` writes `prefix + message`.
    func writeError(_ message: String, prefix: String)
    /// Makes everything written so far visible.
    func flush()
    /// Whether results written now are dropped, as nothing reads them any more.
    ///
    /// True once the pager was quit, or standard output cannot be written. A command writing many
    /// results stops then.
    var dropsResults: Bool { get }
}

extension TerminalOutput {
    /// False: results are kept.
    public var dropsResults: Bool { false }

    /// Writes `prefix + message` with ``writeError(_:)``.
    public func writeError(_ message: String, prefix: String) {
        writeError(prefix + message)
    }
}

/// Writes results to standard output (or to a file, `-o FILE`) and errors to standard error.
///
/// When the results cannot be written (a full disk, `> /dev/full`), that is said once on
/// standard error, later results are dropped, and ``writeFailed`` is true. When its reader has
/// closed a pipe (`| head -1`), the process ends by SIGPIPE, as `cat` does.
///
/// When `buffered` (scripted mode), both streams are batched until ``flush()`` or 64 KiB. If
/// standard output and standard error are the same file, pipe or terminal (`2>&1`), the two
/// streams share one buffer, so that they keep their order; otherwise each has its own.
public final class StandardOutput: TerminalOutput {
    private struct Buffers {
        var out: [UInt8] = []
        var error: [UInt8] = []
        /// Whether standard output failed; its output is dropped from then on.
        var outFailed = false
    }

    private let pending = Mutex(Buffers())
    private let buffered: Bool
    private let merged: Bool
    /// Where results go: 1, or an open file.
    private let results: Int32
    /// What the results' destination is called in the message of a failed write.
    private let resultsName: String
    /// Whether a reader gone from a pipe ends the program, as it ends `cat`; when not, it is a
    /// failed write like any other.
    private let endsOnBrokenPipe: Bool

    /// Creates an output; `buffered` batches lines until ``flush()``.
    /// - Parameters:
    ///   - buffered: batch lines until ``flush()`` or 64 KiB.
    ///   - results: the open descriptor results go to; standard output by default.
    ///   - resultsName: how a failed write names it, such as `out.txt` (shown as it is: escape it).
    ///   - endsOnBrokenPipe: whether a reader gone from a pipe ends the program (standard
    ///     output), or is a failed write (a file of `output FILE`).
    public init(
        buffered: Bool, results: Int32 = 1, resultsName: String = "standard output",
        endsOnBrokenPipe: Bool = true
    ) {
        self.buffered = buffered
        self.results = results
        self.resultsName = resultsName
        self.endsOnBrokenPipe = endsOnBrokenPipe
        self.merged = Self.sameDestination(results, 2)
    }

    /// Writes one line to standard output; a buffered output keeps it until ``flush()`` or 64 KiB.
    public func write(_ line: String) {
        pending.withLock { buffers in
            buffers.out.append(contentsOf: line.utf8)
            buffers.out.append(UInt8(ascii: "\n"))
            if !buffered || buffers.out.count >= 64 * 1024 { self.writeOut(&buffers) }
        }
    }

    /// Writes part of a line to standard output, kept until the line ends, ``flush()`` or 64 KiB.
    public func writePart(_ text: String) {
        pending.withLock { buffers in
            buffers.out.append(contentsOf: text.utf8)
            if buffers.out.count >= 64 * 1024 { self.writeOut(&buffers) }
        }
    }

    /// Writes one line to standard error, or with the results when both go to the same place.
    public func writeError(_ line: String) {
        writeError(line, prefix: "")
    }

    /// Writes `prefix` and `message` as one line, as ``writeError(_:)`` does, without first
    /// joining them into one string.
    public func writeError(_ message: String, prefix: String) {
        func append(to bytes: inout [UInt8]) -> Bool {
            bytes.append(contentsOf: prefix.utf8)
            bytes.append(contentsOf: message.utf8)
            bytes.append(UInt8(ascii: "\n"))
            return !buffered || bytes.count >= 64 * 1024
        }
        pending.withLock { buffers in
            // One destination: keep the order by queueing errors with the results.
            if merged {
                if append(to: &buffers.out) { self.writeOut(&buffers) }
            } else if append(to: &buffers.error) {
                Self.writeAll(&buffers.error, to: 2)
            }
        }
    }

    /// Writes what is buffered to standard output and standard error.
    public func flush() {
        pending.withLock { buffers in
            self.writeOut(&buffers)
            Self.writeAll(&buffers.error, to: 2)
        }
    }

    /// Whether a write of the results has failed.
    public var writeFailed: Bool {
        pending.withLock { $0.outFailed }
    }

    /// Whether a write of the results has failed, so that results are dropped.
    public var dropsResults: Bool { writeFailed }

    /// Whether two descriptors lead to the same file, pipe or terminal.
    private static func sameDestination(_ first: Int32, _ second: Int32) -> Bool {
        var a = stat()
        var b = stat()
        guard fstat(first, &a) == 0, fstat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// Writes the results; on the first failure says so on standard error.
    private func writeOut(_ buffers: inout Buffers) {
        guard !buffers.outFailed else {
            buffers.out.removeAll(keepingCapacity: true)
            return
        }
        guard let failure = Self.writeAll(&buffers.out, to: results) else { return }
        if failure == EPIPE, endsOnBrokenPipe { Signals.endBy(SIGPIPE) }
        buffers.outFailed = true
        Descriptor.writeAll(
            Array("error: cannot write to \(resultsName): \(SystemError.text(failure))\n".utf8), to: 2)
    }

    /// Writes `bytes` and empties them; returns the `errno` of a write that failed.
    @discardableResult
    private static func writeAll(_ bytes: inout [UInt8], to fileDescriptor: Int32) -> Int32? {
        defer { bytes.removeAll(keepingCapacity: true) }
        return Descriptor.writeAll(bytes, to: fileDescriptor)
    }
}
