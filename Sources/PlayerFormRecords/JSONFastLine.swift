import PlayerFormJSON
import PlayerFormRules

/// JSON Lines records in the shape nearly every line has, read where they lie in a chunk in one
/// pass that also finds where the line ends.
///
/// The shape: `{` at the start of the line, then members separated by commas, each a key in
/// quotes, a colon and a value, then `}` and the line break (or the end of the chunk), with only
/// spaces between the parts. A key holds no escape, no control character and only ASCII; a value
/// is a string or a number in the short form `NumberText.shortJSON(_:at:end:)` reads (a sign,
/// up to 15 digits and at most one point), and `name` and `points` each appear once. A string
/// with escapes is decoded by `JSONCursor.scanString(into:)`, as the general way decodes it. Any
/// other line gets nil and is read the general way (`JSONRecordParser`), which says what is
/// wrong with it; a line of this shape is read by both with the same name bytes and the same
/// points, as the specs check on random lines.
struct JSONFastLine {
    /// A record read where it lies.
    struct Record {
        /// The bytes of the line before its line break, a carriage return before the break
        /// included.
        let length: Int
        /// The name's UTF-8 bytes, between its quotes or decoded from its escapes.
        ///
        /// They stay until the next call.
        let name: UnsafeBufferPointer<UInt8>
        let points: Double
    }

    private static let quote = UInt8(ascii: "\"")
    private static let space = UInt8(ascii: " ")

    /// The last name with escapes, decoded.
    private var decodedName = LineScratch(capacity: 256)
    /// Another string with escapes, decoded to be checked and dropped.
    private var decodedOther = LineScratch(capacity: 256)

    /// The record on the line starting `rest`, or nil when the line is not of the shape above or
    /// is longer than `limit` bytes without its line break and a carriage return before it.
    mutating func record(startOf rest: UnsafeBufferPointer<UInt8>, limit: Int) -> Record? {
        guard let base = rest.baseAddress, rest.count > 1, base[0] == UInt8(ascii: "{") else { return nil }
        let end = rest.count
        var index = 1
        var nameStart = -1
        var nameEnd = -1
        var nameDecoded = false
        var points = 0.0
        var hasPoints = false
        while true {
            while index < end && base[index] == Self.space { index += 1 }
            guard index < end, base[index] == Self.quote else { return nil }
            let key = JSONRecordParser.plainKey(rest, at: index)
            if let key {
                index += key == .name ? 6 : 8
            } else {
                var nonASCII = false
                let close = Self.plainRun(base, from: index + 1, end: end, nonASCII: &nonASCII)
                guard close < end, base[close] == Self.quote, !nonASCII else { return nil }
                index = close + 1
            }
            while index < end && base[index] == Self.space { index += 1 }
            guard index < end, base[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            while index < end && base[index] == Self.space { index += 1 }
            guard index < end else { return nil }
            if base[index] == Self.quote {
                guard key != .points else { return nil }
                if key == .name {
                    guard nameStart < 0 else { return nil }
                    nameStart = index + 1
                }
                var nonASCII = false
                let stop = Self.plainRun(base, from: index + 1, end: end, nonASCII: &nonASCII)
                guard stop < end else { return nil }
                if base[stop] == Self.quote {
                    // UTF-8 is checked here only when a byte says it must be.
                    if nonASCII {
                        let text = UnsafeBufferPointer(start: base + index + 1, count: stop - index - 1)
                        guard UTF8Text.isValid(text) else { return nil }
                    }
                    if key == .name { nameEnd = stop }
                    index = stop + 1
                } else {
                    guard base[stop] == UInt8(ascii: "\\") else { return nil }
                    // Escapes: decoded, and checked, as the general way does.
                    var cursor = JSONCursor(rest)
                    cursor.index = index
                    let plain: Bool?
                    if key == .name {
                        decodedName.reserve(end)
                        plain = try? cursor.scanString(into: &decodedName)
                        nameDecoded = true
                    } else {
                        decodedOther.reserve(end)
                        plain = try? cursor.scanString(into: &decodedOther)
                    }
                    guard plain == false else { return nil }
                    index = cursor.index
                }
            } else {
                guard key != .name, let number = NumberText.shortJSON(base, at: &index, end: end) else {
                    return nil
                }
                if key == .points {
                    guard !hasPoints else { return nil }
                    hasPoints = true
                    points = number
                }
            }
            while index < end && base[index] == Self.space { index += 1 }
            guard index < end else { return nil }
            if base[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard base[index] == UInt8(ascii: "}") else { return nil }
            index += 1
            break
        }
        while index < end && base[index] == Self.space { index += 1 }
        var content = index
        if index < end {
            if base[index] == 0x0D && index + 1 < end && base[index + 1] == 0x0A {
                index += 1
            } else if base[index] != 0x0A {
                return nil
            }
        } else {
            content = end
        }
        guard content <= limit, nameStart >= 0, hasPoints else { return nil }
        let name =
            nameDecoded
            ? decodedName.bytes : UnsafeBufferPointer(start: base + nameStart, count: nameEnd - nameStart)
        return Record(length: index, name: name, points: points)
    }

    /// The offset of the first quote, backslash or control character (below 0x20) at or after
    /// `start`, or `end` when there is none; `nonASCII` is set when a byte of 0x80 or more comes
    /// before it.
    @inline(__always)
    private static func plainRun(
        _ base: UnsafePointer<UInt8>, from start: Int, end: Int, nonASCII: inout Bool
    ) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        var high: UInt64 = 0
        while end - index >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            // The high bit of a byte of each mask is set where the byte is of its kind; a borrow
            // only sets bits above a byte that is, so the lowest set bit is exact.
            let quotes = word ^ (ones &* 0x22)
            let backslashes = word ^ (ones &* 0x5C)
            let stops =
                ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes | (word &- ones &* 0x20)
                    & ~word)
                & highs
            if stops == 0 {
                high |= word & highs
                index += 8
                continue
            }
            let offset = stops.trailingZeroBitCount / 8
            high |= word & highs & ((1 << (offset * 8)) &- 1)
            if high != 0 { nonASCII = true }
            return index + offset
        }
        if high != 0 { nonASCII = true }
        while index < end {
            let byte = base[index]
            if byte == quote || byte == UInt8(ascii: "\\") || byte < 0x20 { return index }
            if byte >= 0x80 { nonASCII = true }
            index += 1
        }
        return end
    }
}
