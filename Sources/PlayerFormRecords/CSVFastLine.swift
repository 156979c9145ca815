import PlayerFormRules

/// CSV records of two fields, name and points in either order, read where they lie in a chunk
/// when the whole line is in the next ``window`` bytes: one look at those bytes finds the line
/// break, the comma, the quotes and the bytes beyond ASCII, and the points are read eight bytes at
/// a time.
///
/// A line is read this way when it ends within the window, has exactly one comma, is no longer
/// than the limit, has no quote but around the whole name (in which a quote is written twice), a
/// name that is valid UTF-8 and points that `CSVNumber.parse(_:)` reads as a number (spaces and
/// tabs around them dropped). It then gives the name's bytes and the value that
/// ``CSVFields/read(first:from:)`` and `RecordSteps.csvRecord` give. Any other line gets nil and is
/// read by ``CSVFields/plainFields(startOf:columns:limit:)`` or the general way, which say what is
/// wrong with it; the specs compare the ways on random lines.
struct CSVFastLine {
    /// A record read where it lies.
    struct Record {
        /// The bytes of the line before its line break, a carriage return before the break
        /// included.
        let length: Int
        /// The name's UTF-8 bytes: where they lie, or, for a name with doubled quotes, undoubled
        /// in storage of the reader's that they stay in until the next call.
        let name: UnsafeBufferPointer<UInt8>
        let points: Double
    }

    /// How many bytes from the line's start are looked at: lines that end later are read another
    /// way, as is a line within this many bytes of the end of its chunk.
    static let window = 32

    /// Whether the name is the first of the two fields.
    let nameFirst: Bool
    /// The byte between the two fields.
    let delimiter: UInt8
    /// The last name with doubled quotes, undoubled.
    private var undoubled = LineScratch(capacity: window)

    /// A reader of lines whose name comes first when `nameFirst` is set, else second, the fields
    /// separated by `delimiter`.
    init(nameFirst: Bool, delimiter: UInt8 = UInt8(ascii: ",")) {
        self.nameFirst = nameFirst
        self.delimiter = delimiter
    }

    /// The record on the line starting `rest`, or nil when the line is not of the kind above.
    ///
    /// `limit` is the longest line content accepted, without its line break and a carriage return
    /// before it.
    @inline(__always)
    mutating func record(startOf rest: UnsafeBufferPointer<UInt8>, limit: Int) -> Record? {
        guard rest.count >= Self.window, let base = rest.baseAddress else { return nil }
        // Every line is looked at whole, its 32 bytes at once: telling short lines from long ones
        // first cost more, in branches guessed wrong, than it saved.
        let classes = ByteClasses(base, delimiter: delimiter)
        let breaks = classes.lineBreaks
        guard breaks != 0 else { return nil }
        let length = breaks.trailingZeroBitCount
        // The bytes before the line break; `length` is at most 31.
        let line = UInt32(1) &<< UInt32(length) &- 1
        let commas = classes.delimiters & line
        guard commas != 0, commas & (commas &- 1) == 0 else { return nil }
        let comma = commas.trailingZeroBitCount
        let end = length > 0 && base[length &- 1] == 0x0D ? length &- 1 : length
        guard end <= limit else { return nil }
        // The comma comes before `end`: a carriage return there is not a comma.
        var nameStart = nameFirst ? 0 : comma &+ 1
        var nameEnd = nameFirst ? comma : end
        let quotes = classes.quotes & line
        var name: UnsafeBufferPointer<UInt8>
        if quotes == 0 {
            name = UnsafeBufferPointer(start: base + nameStart, count: nameEnd &- nameStart)
        } else {
            // Quotes around the whole name. A quote in the points makes them no number, which
            // sends the line the general way below.
            guard nameEnd &- nameStart >= 2 else { return nil }
            let first = UInt32(1) &<< UInt32(nameStart)
            let last = UInt32(1) &<< UInt32(nameEnd &- 1)
            guard quotes & first != 0, quotes & last != 0 else { return nil }
            nameStart &+= 1
            nameEnd &-= 1
            let inner = quotes & (last &- (first &<< 1))
            if inner == 0 {
                name = UnsafeBufferPointer(start: base + nameStart, count: nameEnd &- nameStart)
            } else {
                guard let doubled = undouble(base, from: nameStart, to: nameEnd, quotes: inner) else {
                    return nil
                }
                name = doubled
            }
        }
        let nameBits = (UInt32(1) &<< UInt32(nameEnd) &- 1) & ~(UInt32(1) &<< UInt32(nameStart) &- 1)
        if classes.beyondASCII & nameBits != 0 {
            guard UTF8Text.isValid(name) else { return nil }
        }
        var pointsStart = nameFirst ? comma &+ 1 : 0
        var pointsEnd = nameFirst ? end : comma
        while pointsStart < pointsEnd && (base[pointsStart] == 0x20 || base[pointsStart] == 0x09) {
            pointsStart &+= 1
        }
        while pointsEnd > pointsStart && (base[pointsEnd &- 1] == 0x20 || base[pointsEnd &- 1] == 0x09) {
            pointsEnd &-= 1
        }
        // The window holds the points' eight bytes unless they start in its last seven.
        if pointsStart &+ 8 <= Self.window,
            let value = Self.shortNumber(base + pointsStart, count: pointsEnd &- pointsStart)
        {
            return Record(length: length, name: name, points: value)
        }
        let text = UnsafeBufferPointer(start: base + pointsStart, count: pointsEnd &- pointsStart)
        guard case .value(let value) = CSVNumber.parse(text) else { return nil }
        return Record(length: length, name: name, points: value)
    }

    /// The bytes from `start` to `end` with each doubled quote written once, or nil when a quote
    /// stands alone (the field is then a mistake the general way reports).
    ///
    /// `quotes` marks the quotes among them, bit i for byte i; the runs between quotes are copied
    /// whole.
    private mutating func undouble(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, quotes: UInt32
    ) -> UnsafeBufferPointer<UInt8>? {
        undoubled.reserve(end &- start)
        undoubled.removeAllKeepingStorage()
        var pending = quotes
        var from = start
        while pending != 0 {
            let quote = pending.trailingZeroBitCount
            // The quote's twin comes next; the field's closing quote is not among `quotes`.
            guard pending & (UInt32(2) &<< UInt32(quote)) != 0 else { return nil }
            undoubled.append(contentsOf: UnsafeBufferPointer(start: base + from, count: quote &+ 1 &- from))
            from = quote &+ 2
            pending &= ~(UInt32(3) &<< UInt32(quote))
        }
        undoubled.append(contentsOf: UnsafeBufferPointer(start: base + from, count: end &- from))
        return undoubled.bytes
    }

    /// The value of the `count` bytes at `start` when they are an optional sign and one to eight
    /// digits with at most one point among, before or after them (eight bytes in all), else nil:
    /// the value `CSVNumber.parseShort(_:)` gives, read as one 64-bit word without a branch per
    /// byte.
    ///
    /// Eight bytes must be readable at `start`; those past `count` are not looked at.
    @inline(__always)
    static func shortNumber(_ start: UnsafePointer<UInt8>, count: Int) -> Double? {
        guard count > 0 && count <= 8 else { return nil }
        // Byte i of the word is the text's byte i; the bytes past the text become zero.
        var word = UInt64(littleEndian: UnsafeRawPointer(start).loadUnaligned(as: UInt64.self))
        word &= UInt64.max &>> UInt64(64 &- 8 &* count)
        // A sign is dropped, and the first point taken out, by arithmetic rather than branches:
        // which of them a number has is as good as random from one record to the next.
        let lead = word & 0xFF
        let negative = lead == UInt64(UInt8(ascii: "-"))
        let signed = negative || lead == UInt64(UInt8(ascii: "+")) ? 1 : 0
        word &>>= UInt64(8 &* signed)
        var digits = count &- signed
        guard digits > 0 else { return nil }
        // The first point, if any (a second one fails the digit check below); `at` is the number
        // of digits before it, all of them when there is none.
        let points = zeroBytes(word ^ 0x2E2E_2E2E_2E2E_2E2E) & (UInt64.max &>> UInt64(64 &- 8 &* digits))
        let at = Swift.min(points.trailingZeroBitCount / 8, digits)
        let hasPoint = points != 0 ? 1 : 0
        // The bytes before the point, all of them when there is none (two shifts: one of 64 bits
        // would shift by nothing).
        let before = ((UInt64(1) &<< UInt64(4 &* at)) &<< UInt64(4 &* at)) &- 1
        word = (word & before) | ((word &>> 8) & ~before)
        digits &-= hasPoint
        let fractionDigits = digits &- at
        guard digits > 0 else { return nil }
        // Every byte of the text is a digit: its high half is 3, and stays 3 when 6 is added.
        let kept = UInt64.max &>> UInt64(64 &- 8 &* digits)
        let threes = 0x3030_3030_3030_3030 & kept
        let highHalves = 0xF0F0_F0F0_F0F0_F0F0 & kept
        guard word & highHalves == threes, (word &+ 0x0606_0606_0606_0606) & highHalves == threes else {
            return nil
        }
        // The digits moved to the top of the word, with zeros before them, then combined in pairs,
        // fours and eights: the first byte holds the most significant digit.
        var mantissa = (word &- threes) &<< UInt64(64 &- 8 &* digits)
        mantissa = (mantissa &* 2561) &>> 8
        mantissa = ((mantissa & 0x00FF_00FF_00FF_00FF) &* 6_553_601) &>> 16
        mantissa = ((mantissa & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) &>> 32
        // At most eight digits: the value and the power of ten are exact, and so is dividing by 1.
        let value = Double(Int64(bitPattern: mantissa)) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    /// 10^0 to 10^7, the divisors of up to seven fraction digits.
    private static let powersOfTen: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7]

    /// The bytes of `word` that are zero, as their high bits; a byte above a zero byte may be
    /// marked too, but the lowest mark is always a zero byte.
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }
}
