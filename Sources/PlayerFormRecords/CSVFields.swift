import Glibc

/// The fields of one CSV record (RFC 4180), read from one or more lines: fields are separated by
/// commas; a field in double quotes may hold commas, line breaks (read as "\n") and doubled
/// quotes.
///
/// A quote inside an unquoted field, or text after a closing quote, is malformed.
///
/// Where a record ends is found even when it cannot be read, so that reading goes on at the next
/// record and not inside this one:
/// - a record with a quote in an unquoted field, or text after a closing quote, ends with the line
///   that has the mistake;
/// - a record longer than the limit is followed to its end (a line break outside quotes) without
///   being kept, however long it is: its fields are not stored past the limit, and its over-long
///   lines are scanned piece by piece;
/// - a quoted field that is not closed runs to the end of the input: everything from the record's
///   first line on is that one malformed record.
struct CSVFields {
    enum Outcome {
        case fields
        case malformed(String)
        case stopped(LineResult)
    }

    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    private var state = State.fieldStart
    /// The longest record kept, in bytes of its fields.
    private var limit = Int.max
    /// Whether the record ran past the limit; its fields are then no longer kept, and reading
    /// goes on only to find where it ends.
    private var overflowed = false
    /// The first mistake in the record; the rest of its line is passed over.
    private var problem: String?
    /// How many bytes of the current line were scanned before the current piece.
    private var column = 0

    /// How many fields the last record read has.
    var count: Int { ends.count }

    /// How many bytes the stored fields may take before more memory is needed: bounded by the
    /// limit (plus one line break) whatever the input.
    var capacity: Int { bytes.capacity }

    /// Calls `body` with the bytes of field `index`.
    func field<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let start = index == 0 ? 0 : ends[index - 1]
        return bytes.withUnsafeBufferPointer { all in
            body(UnsafeBufferPointer(rebasing: all[start..<ends[index]]))
        }
    }

    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted }

    /// Starts a record whose fields may take up to `limit` bytes.
    ///
    /// Called before the record's first line is read, since an over-long first line is scanned
    /// (``scan(_:)``) while it is read.
    mutating func begin(limit: Int) {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        state = .fieldStart
        self.limit = limit
        overflowed = false
        problem = nil
        column = 0
    }

    /// Reads the record that starts on `first`, taking more lines from `lines` while a quoted
    /// field is open.
    ///
    /// ``begin(limit:)`` was called before `first` was read; when `first` is too long, its pieces
    /// were given to ``scan(_:)`` as it was read.
    mutating func read<Source>(first: Line, from lines: LineReader<Source>) -> Outcome {
        if first.isTooLong { overflowed = true } else { scan(first.bytes) }
        var lastLine = first.number
        while state == .quoted && problem == nil {
            keep(CollectionOfOne(0x0A))
            column = 0
            switch lines.nextLine(passingOverlongPieces: { scan($0) }) {
            case .line(let next):
                lastLine = next.number
                if next.isTooLong { overflowed = true } else { scan(next.bytes) }
            case .end:
                return .malformed("a quoted field is not closed before the end of the input")
            case let stop:
                return .stopped(stop)
            }
        }
        if overflowed {
            return .malformed(
                lastLine == first.number
                    ? "the line is longer than \(limit) bytes; not read"
                    : "the record runs past \(limit) bytes, to line \(lastLine); not read")
        }
        if let problem { return .malformed(problem) }
        ends.append(bytes.count)
        return .fields
    }

    /// Follows the record through `piece`, the next bytes of its current line.
    mutating func scan(_ piece: UnsafeBufferPointer<UInt8>) {
        defer { column += piece.count }
        guard problem == nil, let base = piece.baseAddress else { return }
        var index = 0
        while index < piece.count {
            if state == .quoted {
                // Most of a quoted field is passed in one step, up to its next quote.
                let rest = piece.count - index
                guard let found = memchr(base + index, Int32(UInt8(ascii: "\"")), rest) else {
                    keep(UnsafeBufferPointer(start: base + index, count: rest))
                    return
                }
                let quote = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
                keep(UnsafeBufferPointer(start: base + index, count: quote - index))
                state = .quoteInQuoted
                index = quote + 1
                continue
            }
            let byte = piece[index]
            switch state {
            case .fieldStart:
                if byte == UInt8(ascii: "\"") {
                    state = .quoted
                } else if byte == UInt8(ascii: ",") {
                    endField()
                } else {
                    keep(CollectionOfOne(byte))
                    state = .unquoted
                }
            case .unquoted:
                if byte == UInt8(ascii: ",") {
                    endField()
                    state = .fieldStart
                } else if byte == UInt8(ascii: "\"") {
                    problem =
                        "a double quote inside an unquoted field (column \(column + index + 1)); "
                        + "put the field in double quotes and double the quote"
                    return
                } else {
                    keep(CollectionOfOne(byte))
                }
            case .quoteInQuoted:
                if byte == UInt8(ascii: "\"") {
                    keep(CollectionOfOne(byte))
                    state = .quoted
                } else if byte == UInt8(ascii: ",") {
                    endField()
                    state = .fieldStart
                } else {
                    problem =
                        "text after the closing quote of a field (column \(column + index + 1)); "
                        + "a quote inside a quoted field is written twice"
                    return
                }
            case .quoted:
                break
            }
            index += 1
        }
    }

    /// Stores bytes of the current field while the record is within the limit.
    private mutating func keep(_ run: some Collection<UInt8>) {
        guard !overflowed else { return }
        guard bytes.count + run.count <= limit else {
            overflowed = true
            return
        }
        bytes.append(contentsOf: run)
    }

    private mutating func endField() {
        if !overflowed { ends.append(bytes.count) }
    }
}

/// A points field of a CSV record.
enum CSVNumber: Equatable {
    case value(Double)
    case empty
    case invalid

    /// Reads `[+-]digits[.digits][(e|E)[+-]digits]` (also `.5` and `5.`), or NaN, inf and
    /// infinity in any case with an optional sign, which read as non-finite points.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> CSVNumber {
        guard !text.isEmpty else { return .empty }
        var index = 0
        var negative = false
        if text[0] == UInt8(ascii: "+") || text[0] == UInt8(ascii: "-") {
            negative = text[0] == UInt8(ascii: "-")
            index = 1
        }
        if text.count - index <= 8 {
            switch String(decoding: UnsafeBufferPointer(rebasing: text[index...]), as: UTF8.self).lowercased()
            {
            case "nan": return .value(.nan)
            case "inf", "infinity": return .value(negative ? -.infinity : .infinity)
            default: break
            }
        }
        func isDigit(_ at: Int) -> Bool {
            at < text.count && text[at] >= UInt8(ascii: "0") && text[at] <= UInt8(ascii: "9")
        }
        var digits = 0
        while isDigit(index) {
            index += 1
            digits += 1
        }
        if index < text.count && text[index] == UInt8(ascii: ".") {
            index += 1
            while isDigit(index) {
                index += 1
                digits += 1
            }
        }
        guard digits > 0 else { return .invalid }
        if index < text.count && (text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E")) {
            index += 1
            if index < text.count && (text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard isDigit(index) else { return .invalid }
            while isDigit(index) { index += 1 }
        }
        guard index == text.count else { return .invalid }
        return .value(NumberText.value(of: text))
    }
}
