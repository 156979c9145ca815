import Glibc

/// One line of an input, without its line break ("\n" or "\r\n") and without a UTF-8 byte order
/// mark at the start of the input.
public struct Line {
    /// The line's bytes; valid only until the reader is asked for the next line.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// The line's number, counting from 1.
    public let number: Int
    /// Whether the line was longer than the reader's limit; its bytes are then empty.
    public let isTooLong: Bool
    /// Where the line starts in the input, in bytes from its start (a byte order mark before the
    /// first line included).
    public let offset: Int

    /// Where a record starting on this line is.
    var place: RecordPlace { RecordPlace(line: number, offset: offset) }
}

/// What asking a ``LineReader`` for a line produced.
public enum LineResult {
    /// The next line.
    case line(Line)
    /// The input has no more lines.
    case end
    /// Reading failed with this `errno`.
    case failed(Int32)
    /// Reading stopped because an interrupt was requested.
    case interrupted
}

/// Lines of an input given one at a time, as ``LineReader`` gives them: what records are read
/// from, whether the lines come from a ``ByteSource`` or from a chunk held in memory.
protocol LineSupply {
    /// The longest line given whole, in bytes.
    var maximumLineLength: Int { get }

    /// Where the next line starts in the input, in bytes: after the line break of the line given
    /// last, or the input's length once every line was given.
    var position: Int { get }

    /// The next line; a line longer than the limit is given to `overlong` piece by piece and then
    /// returned as too long (see ``LineReader/nextLine(passingOverlongPieces:)``).
    mutating func nextLine(passingOverlongPieces overlong: (UnsafeBufferPointer<UInt8>) -> Void) -> LineResult
}

/// Splits a ``ByteSource`` into lines through one reused buffer, so memory stays bounded whatever
/// the size of the input: a line longer than `maximumLineLength` is skipped and reported as too
/// long rather than held in memory.
public final class LineReader<Source: ByteSource>: LineSupply {
    /// The longest line read whole, in bytes.
    public let maximumLineLength: Int
    private var source: Source
    private var buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    private var sourceEnded = false
    private var lineNumber = 0
    private let startsInput: Bool
    /// Bytes read from the source so far.
    private(set) var bytesRead = 0
    /// How many bytes of the input come before `source`.
    private var bytesBefore = 0
    /// Given every byte read from the source, with its offset in the input, as it is read.
    var split: RecordSplit?

    /// A reader of `source` that starts with a buffer of `bufferSize` bytes and grows it for long
    /// lines up to `maximumLineLength`.
    ///
    /// `startsInput` says whether `source` starts at the start of the input, where a byte order
    /// mark is not part of the first line.
    public init(
        source: Source, bufferSize: Int = 1 << 18, maximumLineLength: Int = 8 << 20, startsInput: Bool = true
    ) {
        self.source = source
        self.startsInput = startsInput
        self.maximumLineLength = Swift.max(1, maximumLineLength)
        self.buffer = .allocate(
            byteCount: Swift.max(16, Swift.min(bufferSize, maximumLineLength + 2)), alignment: 8)
    }

    /// A reader of the rest of an input, `source`, after its first `linesBefore` lines and
    /// `bytesBefore` bytes: line numbers and offsets count on from there, and when there are no
    /// lines before, `source` starts the input.
    convenience init(
        source: Source, bufferSize: Int = 1 << 18, maximumLineLength: Int, linesBefore: Int, bytesBefore: Int
    ) {
        self.init(
            source: source, bufferSize: bufferSize, maximumLineLength: maximumLineLength,
            startsInput: linesBefore == 0)
        lineNumber = linesBefore
        self.bytesBefore = bytesBefore
    }

    deinit { buffer.deallocate() }

    /// How many bytes the reader's buffer holds: at most `maximumLineLength + 2` (and at least
    /// 16), whatever the input.
    public var bufferCapacity: Int { buffer.count }

    /// Where the next line starts in the input, in bytes.
    public var position: Int { bytesBefore + bytesRead - (end - start) }

    /// The next line; its bytes stay valid until the next call.
    public func nextLine() -> LineResult {
        nextLine(passingOverlongPieces: { _ in })
    }

    /// The next line; its bytes stay valid until the next call.
    ///
    /// A line longer than the limit is not held: each piece of it is given to `overlong`, in
    /// order, as it is passed over (without the line break, and without a carriage return before
    /// it), and the line is then returned as too long, with no bytes. A reader of a format in
    /// which a record may span lines (CSV) follows the line's content this way.
    public func nextLine(passingOverlongPieces overlong: (UnsafeBufferPointer<UInt8>) -> Void) -> LineResult {
        var skipping = false
        let offset = position
        while true {
            if let newline = firstNewline() {
                lineNumber += 1
                if skipping {
                    pass(start, newline, to: overlong)
                    start = newline + 1
                    return .line(
                        Line(
                            bytes: UnsafeBufferPointer(start: nil, count: 0), number: lineNumber,
                            isTooLong: true, offset: offset))
                }
                let line = lineBytes(start, newline, offset: offset, overlong: overlong)
                start = newline + 1
                return .line(line)
            }
            if sourceEnded {
                guard start < end || skipping else { return .end }
                lineNumber += 1
                let line: Line
                if skipping {
                    pass(start, end, to: overlong)
                    line = Line(
                        bytes: UnsafeBufferPointer(start: nil, count: 0), number: lineNumber, isTooLong: true,
                        offset: offset)
                } else {
                    line = lineBytes(start, end, offset: offset, overlong: overlong)
                }
                start = end
                return .line(line)
            }
            if skipping || end - start > maximumLineLength + 1 {
                // The first line's byte order mark is not part of it, however long the line is.
                let first =
                    !skipping && startsInput && lineNumber == 0 && startsWithByteOrderMark(start, end)
                    ? start + 3 : start
                skipping = true
                // A carriage return at the end may come before the line break: keep it for later.
                let held = end > first && buffer[end - 1] == 0x0D ? 1 : 0
                overlong(bytes(first, end - held))
                start = end - held
            }
            makeRoom()
            switch source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...])) {
            case .bytes(let count):
                taken(count)
                end += count
                bytesRead += count
            case .end: sourceEnded = true
            case .failed(let code): return .failed(code)
            case .interrupted: return .interrupted
            }
        }
    }

    /// The first bytes of the input, up to `count` (at most 16), read without taking them.
    ///
    /// For telling the input's encoding. Empty when the reader does not start the input or has
    /// given a line.
    ///
    /// It does not wait for more once two bytes are there, enough for a byte order mark, so a
    /// pipe's short first line is not held back. A read that fails or is interrupted ends the
    /// look; the next line then meets it again.
    func head(_ count: Int) -> [UInt8] {
        guard startsInput && lineNumber == 0 && start == 0 else { return [] }
        let wanted = Swift.min(count, 16)
        reading: while end < wanted && !sourceEnded {
            switch source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...])) {
            case .bytes(let read):
                taken(read)
                end += read
                bytesRead += read
                if end >= 2 { break reading }
            case .end: sourceEnded = true
            case .failed, .interrupted: break reading
            }
        }
        return Array(bytes(0, Swift.min(end, wanted)))
    }

    /// What is left of the input once the lines wanted have been taken.
    ///
    /// That is the bytes read but not yet given as lines, the source to read the rest from (nil
    /// when it has ended), and how many lines and bytes were given. The reader must not be used
    /// afterwards.
    func handOver() -> (rest: [UInt8], source: Source?, lines: Int, bytesTaken: Int) {
        let rest = Array(bytes(start, end))
        return (rest, sourceEnded ? nil : source, lineNumber, bytesRead - rest.count)
    }

    /// Gives the `count` bytes just read after `end` to ``split``.
    private func taken(_ count: Int) {
        guard let split else { return }
        split.take(UnsafeRawBufferPointer(rebasing: buffer[end..<(end + count)]), at: bytesBefore + bytesRead)
    }

    /// Gives the last piece of an over-long line, `from..<to` without a final carriage return.
    private func pass(_ from: Int, _ to: Int, to overlong: (UnsafeBufferPointer<UInt8>) -> Void) {
        overlong(bytes(from, to > from && buffer[to - 1] == 0x0D ? to - 1 : to))
    }

    private func startsWithByteOrderMark(_ from: Int, _ to: Int) -> Bool {
        to - from >= 3 && buffer[from] == 0xEF && buffer[from + 1] == 0xBB && buffer[from + 2] == 0xBF
    }

    private func bytes(_ from: Int, _ to: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(
            start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + from, count: to - from)
    }

    private func firstNewline() -> Int? {
        guard start < end else { return nil }
        guard let found = memchr(buffer.baseAddress! + start, 0x0A, end - start) else { return nil }
        return found - UnsafeMutableRawPointer(buffer.baseAddress!)
    }

    private func lineBytes(
        _ from: Int, _ to: Int, offset: Int, overlong: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> Line {
        let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var first = from
        var last = to
        if startsInput && lineNumber == 1 && startsWithByteOrderMark(first, last) { first += 3 }
        if last > first && base[last - 1] == 0x0D { last -= 1 }
        let tooLong = last - first > maximumLineLength
        if tooLong { overlong(UnsafeBufferPointer(start: base + first, count: last - first)) }
        return Line(
            bytes: tooLong
                ? UnsafeBufferPointer(start: nil, count: 0)
                : UnsafeBufferPointer(start: base + first, count: last - first),
            number: lineNumber, isTooLong: tooLong, offset: offset)
    }

    /// Moves unread bytes to the front and grows the buffer when a line fills it.
    private func makeRoom() {
        if start > 0 {
            if end > start {
                buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: end - start)
            }
            end -= start
            start = 0
        }
        if end == buffer.count {
            let grown = UnsafeMutableRawBufferPointer.allocate(
                byteCount: Swift.min(buffer.count * 2, maximumLineLength + 2), alignment: 8)
            grown.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: end)
            buffer.deallocate()
            buffer = grown
        }
    }
}
