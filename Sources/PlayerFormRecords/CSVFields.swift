import Glibc
import PlayerFormRules

/// The fields of one CSV record (RFC 4180), read from one or more lines: fields are separated by
/// commas (or the file's ``delimiter``); a field in double quotes may hold commas, line breaks
/// (read as "\n") and doubled quotes.
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
    /// Where each field starts and ends in ``bytes``.
    private var starts: [Int] = []
    private var ends: [Int] = []
    /// Whether a line without quotes is split at its commas at once, kept whole, rather than
    /// followed byte by byte; off only in specs, to compare the two ways.
    var splitsPlainLines = true
    /// The byte between fields: a comma, or a semicolon or tab for a file that says so.
    var delimiter = UInt8(ascii: ",")
    private var state = State.fieldStart
    /// The longest record kept, in bytes of its fields.
    private var limit = Int.max
    /// Whether the record ran past the limit; its fields are then no longer kept, and reading
    /// goes on only to find where it ends.
    private var overflowed = false
    /// The first mistake in the record; the rest of its line is passed over.
    private var problem: String?
    /// How many characters (code points) of the current line were scanned before the current
    /// piece: columns count code points, as in the rules file, not bytes.
    private var column = 0
    /// The number of the line being scanned when the record runs past its first line; nil on its
    /// first, whose number the finding gives.
    private var lineNumber: Int?

    /// How many fields the last record read has.
    var count: Int { ends.count }

    /// How many bytes the stored fields (or a line kept whole, commas and all) may take before
    /// more memory is needed: bounded by the limit (plus one line break) whatever the input.
    var capacity: Int { bytes.capacity }

    /// Calls `body` with the bytes of field `index`.
    func field<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { all in
            body(UnsafeBufferPointer(rebasing: all[starts[index]..<ends[index]]))
        }
    }

    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted }

    /// Starts a record whose fields may take up to `limit` bytes.
    ///
    /// Called before the record's first line is read, since an over-long first line is scanned
    /// (``scan(_:)``) while it is read.
    mutating func begin(limit: Int) {
        bytes.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        starts.append(0)
        ends.removeAll(keepingCapacity: true)
        state = .fieldStart
        self.limit = limit
        overflowed = false
        problem = nil
        column = 0
        lineNumber = nil
    }

    /// Reads the record that starts on `first`, taking more lines from `lines` while a quoted
    /// field is open.
    ///
    /// ``begin(limit:)`` was called before `first` was read; when `first` is too long, its pieces
    /// were given to ``scan(_:)`` as it was read.
    mutating func read<Lines: LineSupply>(first: Line, from lines: inout Lines) -> Outcome {
        if splitsPlainLines, !first.isTooLong, splitPlain(first.bytes) { return .fields }
        if first.isTooLong { overflowed = true } else { scan(first.bytes) }
        var lastLine = first.number
        while state == .quoted && problem == nil {
            keepLineBreak()
            column = 0
            switch lines.nextLine(passingOverlongPieces: { scan($0) }) {
            case .line(let next):
                lastLine = next.number
                lineNumber = next.number
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

    /// Where byte `index` of `piece` is: its column in code points, and its line when the record
    /// runs past its first.
    private func place(_ piece: UnsafeBufferPointer<UInt8>, _ index: Int) -> String {
        let at = "column \(column + UTF8Text.codePoints(UnsafeBufferPointer(rebasing: piece[..<index])) + 1)"
        return lineNumber.map { "line \($0), " + at } ?? at
    }

    /// Follows the record through `piece`, the next bytes of its current line.
    mutating func scan(_ piece: UnsafeBufferPointer<UInt8>) {
        defer { column += UTF8Text.codePoints(piece) }
        guard problem == nil, let base = piece.baseAddress else { return }
        let count = piece.count
        var index = 0
        while index < count {
            switch state {
            case .quoted:
                // Most of a quoted field is passed in one step, up to its next quote.
                guard let found = memchr(base + index, Int32(UInt8(ascii: "\"")), count - index) else {
                    keep(base + index, count - index)
                    return
                }
                let quote = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
                keep(base + index, quote - index)
                state = .quoteInQuoted
                index = quote + 1
            case .fieldStart:
                let byte = base[index]
                if byte == UInt8(ascii: "\"") {
                    state = .quoted
                    index += 1
                } else if byte == delimiter {
                    endField()
                    index += 1
                } else {
                    state = .unquoted
                }
            case .unquoted:
                // An unquoted field runs to the next comma, and may not hold a quote.
                var stop = index
                while stop < count && base[stop] != delimiter && base[stop] != UInt8(ascii: "\"") {
                    stop += 1
                }
                keep(base + index, stop - index)
                guard stop < count else { return }
                if base[stop] == UInt8(ascii: "\"") {
                    problem =
                        "a double quote inside an unquoted field (\(place(piece, stop))); "
                        + "put the field in double quotes and double the quote"
                    return
                }
                endField()
                state = .fieldStart
                index = stop + 1
            case .quoteInQuoted:
                let byte = base[index]
                if byte == UInt8(ascii: "\"") {
                    keep(base + index, 1)
                    state = .quoted
                } else if byte == delimiter {
                    endField()
                    state = .fieldStart
                } else {
                    problem =
                        "text after the closing quote of a field (\(place(piece, index))); "
                        + "a quote inside a quoted field is written twice"
                    return
                }
                index += 1
            }
        }
    }

    /// Reads `line` as a whole record when it holds no quote, as most lines do.
    ///
    /// Its fields are the text between its commas, which ``scan(_:)`` would find one byte at a
    /// time. The line is kept whole, commas and all, with where each field starts and ends. False,
    /// with nothing read, for a line with a quote or longer than the limit.
    private mutating func splitPlain(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = line.baseAddress else {
            ends.append(0)
            return true
        }
        guard line.count <= limit, memchr(base, Int32(UInt8(ascii: "\"")), line.count) == nil else {
            return false
        }
        bytes.append(contentsOf: line)
        var index = 0
        while let found = memchr(base + index, Int32(delimiter), line.count - index) {
            let comma = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
            ends.append(comma)
            starts.append(comma + 1)
            index = comma + 1
        }
        ends.append(line.count)
        return true
    }

    /// The length of the line at the start of `rest` and its `name` and `points` fields, where
    /// they lie, when the line holds no double quote or only quotes that wrap whole fields.
    ///
    /// `rest` runs from the start of a line, not the input's first line, to the end of a chunk.
    /// The line ends at the first line break, or at the end of `rest`; its length counts neither
    /// the line break nor what follows. Its content (without a carriage return before the line
    /// break) is no longer than `limit`, and has as many fields as `columns` says: they are the
    /// bytes ``read(first:from:)`` would give. Nil for any other line, which is then read the
    /// general way. A line with quotes is split by ``simplyQuotedFields(of:columns:)``.
    ///
    /// The line is looked at 16 bytes at a time, for its line break, commas and quotes at once.
    static func plainFields(
        startOf rest: UnsafeBufferPointer<UInt8>, columns: CSVColumns, limit: Int
    ) -> (length: Int, name: UnsafeBufferPointer<UInt8>, points: UnsafeBufferPointer<UInt8>)? {
        guard let base = rest.baseAddress else { return nil }
        let count = rest.count
        var field = 0
        var fieldStart = 0
        var name = 0..<0
        var points = 0..<0
        // Called with each comma's offset, in order: the field before it ends there.
        func endField(at comma: Int) {
            if field == columns.name { name = fieldStart..<comma }
            if field == columns.points { points = fieldStart..<comma }
            field += 1
            fieldStart = comma + 1
        }
        var index = 0
        var quoted = false
        var length = count
        scan: while index < count {
            // A line longer than the limit is the general way's to report.
            guard index <= limit + 1 else { return nil }
            guard count - index >= 16 else {
                // The last bytes of the chunk, one at a time.
                while index < count {
                    switch base[index] {
                    case 0x0A:
                        length = index
                        break scan
                    case UInt8(ascii: "\""): quoted = true
                    case columns.delimiter: endField(at: index)
                    default: break
                    }
                    index += 1
                }
                break
            }
            let block = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
            // Each half's comparison has the byte's high bit set where the byte was found; only the
            // bytes before the line break count.
            let breaks = Self.halves(block .== SIMD16(repeating: 0x0A))
            var low = ~UInt64(0)
            var high = ~UInt64(0)
            if breaks.low != 0 {
                low = ((breaks.low & (0 &- breaks.low)) >> 7) &- 1
                high = 0
                length = index + breaks.low.trailingZeroBitCount / 8
            } else if breaks.high != 0 {
                high = ((breaks.high & (0 &- breaks.high)) >> 7) &- 1
                length = index + 8 + breaks.high.trailingZeroBitCount / 8
            }
            let quotes = Self.halves(block .== SIMD16(repeating: UInt8(ascii: "\"")))
            if quotes.low & low != 0 || quotes.high & high != 0 { quoted = true }
            let commas = Self.halves(block .== SIMD16(repeating: columns.delimiter))
            var bits = commas.low & low
            while bits != 0 {
                endField(at: index + bits.trailingZeroBitCount / 8)
                bits &= bits &- 1
            }
            bits = commas.high & high
            while bits != 0 {
                endField(at: index + 8 + bits.trailingZeroBitCount / 8)
                bits &= bits &- 1
            }
            if length < count { break }
            index += 16
        }
        // The content ends before a carriage return that comes before the line break.
        let end = length > 0 && base[length - 1] == 0x0D ? length - 1 : length
        guard end <= limit else { return nil }
        if quoted {
            return simplyQuotedFields(of: UnsafeBufferPointer(rebasing: rest[..<end]), columns: columns).map {
                (length, $0.name, $0.points)
            }
        }
        endField(at: end)
        guard field == columns.count else { return nil }
        return (
            length, UnsafeBufferPointer(rebasing: rest[name]), UnsafeBufferPointer(rebasing: rest[points])
        )
    }

    /// The `name` and `points` fields of a line whose quotes only open and close whole fields.
    ///
    /// `line` is no longer than the limit. When each of its quotes opens a field or closes it,
    /// right before a comma or the line's end, and it has as many fields as `columns` says, a
    /// quoted field's text is the bytes between its quotes, as ``read(first:from:)`` gives it. Nil
    /// for any other line (one with a doubled quote, a field going on to the next line, or a
    /// mistake), which is then read the general way.
    static func simplyQuotedFields(
        of line: UnsafeBufferPointer<UInt8>, columns: CSVColumns
    ) -> (name: UnsafeBufferPointer<UInt8>, points: UnsafeBufferPointer<UInt8>)? {
        let count = line.count
        var field = 0
        var index = 0
        var name = 0..<0
        var points = 0..<0
        while true {
            var text = index..<index
            if index < count && line[index] == UInt8(ascii: "\"") {
                var close = index + 1
                while close < count && line[close] != UInt8(ascii: "\"") { close += 1 }
                // Not closed on this line, or closed and followed by anything but a comma or the
                // line's end (a doubled quote among them).
                guard close < count, close + 1 == count || line[close + 1] == columns.delimiter else {
                    return nil
                }
                text = index + 1..<close
                index = close + 1
            } else {
                while index < count && line[index] != columns.delimiter {
                    if line[index] == UInt8(ascii: "\"") { return nil }
                    index += 1
                }
                text = text.lowerBound..<index
            }
            if field == columns.name { name = text }
            if field == columns.points { points = text }
            field += 1
            // `index` is at the comma after the field or at the line's end.
            guard index < count else { break }
            index += 1
        }
        guard field == columns.count else { return nil }
        return (UnsafeBufferPointer(rebasing: line[name]), UnsafeBufferPointer(rebasing: line[points]))
    }

    /// The two halves of a comparison of 16 bytes, as numbers whose bytes are in memory order,
    /// with only each byte's high bit kept: set where the comparison held.
    private static func halves(_ mask: SIMDMask<SIMD16<Int8>>) -> (low: UInt64, high: UInt64) {
        let halves = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        let high = UInt64(0x8080_8080_8080_8080)
        return (UInt64(littleEndian: halves[0]) & high, UInt64(littleEndian: halves[1]) & high)
    }

    /// Stores `count` bytes of the current field while the record is within the limit.
    private mutating func keep(_ start: UnsafePointer<UInt8>, _ count: Int) {
        guard !overflowed, count > 0 else { return }
        guard bytes.count + count <= limit else {
            overflowed = true
            return
        }
        bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
    }

    /// Stores the line break that a quoted field holds between two lines.
    private mutating func keepLineBreak() {
        var lineBreak = UInt8(0x0A)
        keep(&lineBreak, 1)
    }

    private mutating func endField() {
        guard !overflowed else { return }
        ends.append(bytes.count)
        starts.append(bytes.count)
    }
}

/// A points field of a CSV record.
enum CSVNumber: Equatable {
    case value(Double)
    case empty
    case invalid

    /// Reads `[+-]digits[.digits][(e|E)[+-]digits]` (also `.5` and `5.`), or NaN, inf and
    /// infinity in any case with an optional sign, which read as non-finite points.
    ///
    /// The common short forms, an optional sign and at most 15 digits with an optional point
    /// before, among or after them, are checked and converted in one pass (``parseShort(_:)``); anything else is
    /// checked, then converted by `DecimalText.value(of:)`.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> CSVNumber {
        parseShort(text) ?? parseGenerally(text)
    }

    /// The value of `text` when it is an optional sign and 1 to 15 digits with at most one point
    /// among, before or after them, else nil: the value ``parseGenerally(_:)`` gives, as such
    /// digits are a Double exactly and so is the power of ten they are divided by.
    static func parseShort(_ text: UnsafeBufferPointer<UInt8>) -> CSVNumber? {
        let count = text.count
        // A sign, 15 digits and a point at most.
        guard count > 0 && count <= 17 else { return nil }
        let negative = text[0] == UInt8(ascii: "-")
        var index = negative || text[0] == UInt8(ascii: "+") ? 1 : 0
        var mantissa: UInt64 = 0
        let integerStart = index
        while index < count, case let digit = text[index] &- UInt8(ascii: "0"), digit < 10 {
            mantissa = mantissa &* 10 &+ UInt64(digit)
            index += 1
        }
        var digits = index - integerStart
        var fractionDigits = 0
        if index < count && text[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < count, case let digit = text[index] &- UInt8(ascii: "0"), digit < 10 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
                index += 1
            }
            fractionDigits = index - fractionStart
            digits += fractionDigits
        }
        guard index == count && digits > 0 && digits <= 15 else { return nil }
        let value =
            fractionDigits == 0 ? Double(mantissa) : Double(mantissa) / DecimalText.exactPower(fractionDigits)
        return .value(negative ? -value : value)
    }

    /// `text` read with its one comma as the decimal point (`3,5`, `-0,25`, `1,5e3`), as a
    /// spreadsheet that separates fields with semicolons or tabs writes points; `.invalid` when it
    /// has no comma, more than one, or a point too.
    static func parse(decimalCommaRead text: UnsafeBufferPointer<UInt8>) -> CSVNumber {
        guard text.count(where: { $0 == UInt8(ascii: ",") }) == 1, !text.contains(UInt8(ascii: ".")) else {
            return .invalid
        }
        let pointed = text.map { $0 == UInt8(ascii: ",") ? UInt8(ascii: ".") : $0 }
        return pointed.withUnsafeBufferPointer { parse($0) }
    }

    /// Checks `text` against the grammar, then converts it with `DecimalText.value(of:)`: every
    /// form, the way ``parseShort(_:)`` must agree with.
    static func parseGenerally(_ text: UnsafeBufferPointer<UInt8>) -> CSVNumber {
        guard !text.isEmpty else { return .empty }
        var index = 0
        var negative = false
        if text[0] == UInt8(ascii: "+") || text[0] == UInt8(ascii: "-") {
            negative = text[0] == UInt8(ascii: "-")
            index = 1
        }
        let rest = UnsafeBufferPointer(rebasing: text[index...])
        if Self.isASCIILetters(rest, caselessly: "nan") { return .value(.nan) }
        if Self.isASCIILetters(rest, caselessly: "inf") || Self.isASCIILetters(rest, caselessly: "infinity") {
            return .value(negative ? -.infinity : .infinity)
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
        return .value(DecimalText.value(of: text))
    }

    /// Whether `text` is `word` (lowercase ASCII letters) in any mix of cases; bytes outside ASCII
    /// never match, as no other character lowercases to an ASCII letter in these words.
    private static func isASCIILetters(_ text: UnsafeBufferPointer<UInt8>, caselessly word: StaticString)
        -> Bool
    {
        guard text.count == word.utf8CodeUnitCount else { return false }
        let letters = word.utf8Start
        for index in 0..<text.count where text[index] | 0x20 != letters[index] { return false }
        return true
    }
}
