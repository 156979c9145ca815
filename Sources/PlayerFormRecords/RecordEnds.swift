import Foundation

/// Finds where the last complete record ends in the bytes gathered for a chunk, looking at each
/// byte once however often it is asked, so that a chunk never ends inside a record.
///
/// In JSON Lines every line break ends a record. In CSV a line break ends a record unless a quoted
/// field is open, as ``CSVFields`` reads it: a quote opens a field only at the start of a field (at
/// the start of a line or after a comma, or the file's delimiter); inside a quoted field, two quotes are one and a single
/// quote closes it; a quote anywhere else, or text after a closing quote, is a mistake that ends
/// the record with its line. Gathered bytes always start where a record starts.
struct RecordEnds {
    private enum Place {
        /// Outside quotes: in an unquoted field or between fields.
        case outside
        /// Inside a quoted field.
        case quoted
        /// Just after a quote inside a quoted field: it closes the field or is doubled.
        case afterQuote
        /// After a mistake: the record ends with this line.
        case restOfLine
    }

    private let isCSV: Bool
    /// The byte between a CSV's fields.
    private let delimiter: UInt8
    private var place = Place.outside
    /// How many of the gathered bytes were looked at.
    private var scanned = 0
    /// Where the last complete record found ends, or 0 when none is.
    private var end = 0

    /// Ends of records in `format`.
    init(format: ChunkFormat) {
        if case .csv(let columns) = format {
            isCSV = true
            delimiter = columns.delimiter
        } else {
            isCSV = false
            delimiter = UInt8(ascii: ",")
        }
    }

    /// The length of the complete records at the start of `gathered` (0 when there is none): the
    /// bytes gathered so far, the earlier ones the same as at the last call.
    mutating func complete(in gathered: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = gathered.baseAddress, scanned < gathered.count else { return end }
        let count = gathered.count
        defer { scanned = count }
        guard isCSV else {
            if let newline = Self.last(0x0A, base, scanned, count) { end = newline + 1 }
            return end
        }
        var index = scanned
        while index < count {
            switch place {
            case .outside:
                guard let quote = firstQuote(base, from: index, count: count, noteBreaks: true) else {
                    return end
                }
                let before = quote == 0 ? 0x0A : base[quote - 1]
                place = before == 0x0A || before == delimiter ? .quoted : .restOfLine
                index = quote + 1
            case .quoted:
                guard let quote = firstQuote(base, from: index, count: count, noteBreaks: false) else {
                    return end
                }
                place = .afterQuote
                index = quote + 1
            case .afterQuote:
                switch base[index] {
                case UInt8(ascii: "\""):
                    place = .quoted
                    index += 1
                case delimiter, 0x0A: place = .outside
                default: place = .restOfLine
                }
            case .restOfLine:
                guard let newline = Self.firstLineBreak(base, from: index, count: count) else { return end }
                end = newline + 1
                place = .outside
                index = newline + 1
            }
        }
        return end
    }

    /// The offset of the first quote in `base[from..<count]`, or nil when there is none.
    ///
    /// With `noteBreaks`, the line breaks before it end records. Looked for 32 bytes at a time:
    /// quotes are few, and a call to memchr for each cost more than the search.
    private mutating func firstQuote(_ base: UnsafePointer<UInt8>, from: Int, count: Int, noteBreaks: Bool)
        -> Int?
    {
        var index = from
        while count - index >= 32 {
            let classes = ByteClasses(base + index)
            let quotes = classes.quotes
            if noteBreaks {
                // The line breaks before the first quote: the bits below its bit.
                let breaks = classes.lineBreaks & (quotes & (0 &- quotes) &- 1)
                if breaks != 0 { end = index + 32 - breaks.leadingZeroBitCount }
            }
            if quotes != 0 { return index + quotes.trailingZeroBitCount }
            index += 32
        }
        while index < count {
            if base[index] == UInt8(ascii: "\"") { return index }
            if noteBreaks && base[index] == 0x0A { end = index + 1 }
            index += 1
        }
        return nil
    }

    /// The offset of the first line break in `base[from..<count]`, or nil when there is none.
    private static func firstLineBreak(_ base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int? {
        var index = from
        while count - index >= 32 {
            let breaks = ByteClasses(base + index).lineBreaks
            if breaks != 0 { return index + breaks.trailingZeroBitCount }
            index += 32
        }
        while index < count {
            if base[index] == 0x0A { return index }
            index += 1
        }
        return nil
    }

    /// The first `complete` bytes were handed over; the rest start the next chunk.
    mutating func drop(_ complete: Int) {
        scanned -= complete
        end = 0
    }

    private static func last(_ byte: UInt8, _ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> Int? {
        var index = to
        while index > from {
            index -= 1
            if base[index] == byte { return index }
        }
        return nil
    }
}

/// A source that gives `prefix` first and then the rest of `source`, or nothing more when
/// `source` is nil (it has ended).
struct PrefixedSource<Source: ByteSource>: ByteSource {
    private var prefix: [UInt8]
    private var offset = 0
    private var source: Source?

    init(prefix: [UInt8], source: Source?) {
        self.prefix = prefix
        self.source = source
    }

    /// The bytes of the prefix not read yet, and the source after them.
    consuming func split() -> (rest: [UInt8], source: Source?) {
        (Array(prefix[Swift.min(offset, prefix.count)...]), source)
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        guard offset < prefix.count else {
            if !prefix.isEmpty {
                prefix = []
                offset = 0
            }
            return source?.read(into: buffer) ?? .end
        }
        let count = Swift.min(buffer.count, prefix.count - offset)
        prefix.withUnsafeBytes { all in
            buffer.baseAddress!.copyMemory(from: all.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return .bytes(count)
    }
}
