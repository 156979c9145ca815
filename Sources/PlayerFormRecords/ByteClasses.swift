import CByteClasses

/// Where four kinds of bytes are among 32 at once, one bit a byte in memory order (bit i is byte
/// i): what CSV lines are split by (``CSVFastLine``) and where records end (``RecordEnds``).
struct ByteClasses: Equatable {
    var lineBreaks: UInt32
    /// The field delimiter's bytes (a comma, a semicolon or a tab).
    var delimiters: UInt32
    var quotes: UInt32
    var beyondASCII: UInt32

    init(lineBreaks: UInt32, delimiters: UInt32, quotes: UInt32, beyondASCII: UInt32) {
        self.lineBreaks = lineBreaks
        self.delimiters = delimiters
        self.quotes = quotes
        self.beyondASCII = beyondASCII
    }

    /// The classes of the 32 bytes at `base`, which must all be readable, fields being separated
    /// by `delimiter`: by SSE2 on x86-64, else by ``packed(_:delimiter:)``.
    @inline(__always)
    init(_ base: UnsafePointer<UInt8>, delimiter: UInt8 = UInt8(ascii: ",")) {
        #if arch(x86_64)
            let classes = pf_classify32(base, delimiter)
            self.init(
                lineBreaks: classes.lineBreaks, delimiters: classes.delimiters, quotes: classes.quotes,
                beyondASCII: classes.beyondASCII)
        #else
            self = Self.packed(base, delimiter: delimiter)
        #endif
    }

    /// The classes of the 32 bytes at `base` by Swift's SIMD comparisons, each packed into bits
    /// by multiplication.
    @inline(__always)
    static func packed(_ base: UnsafePointer<UInt8>, delimiter: UInt8 = UInt8(ascii: ",")) -> ByteClasses {
        let raw = UnsafeRawPointer(base)
        let low = raw.loadUnaligned(as: SIMD16<UInt8>.self)
        let high = raw.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self)
        func bits(_ byte: UInt8) -> UInt32 {
            UInt32(truncatingIfNeeded: packed(low .== SIMD16(repeating: byte)))
                | UInt32(truncatingIfNeeded: packed(high .== SIMD16(repeating: byte))) &<< 16
        }
        // Bytes beyond ASCII have their high bit set, which reads as negative.
        let beyondASCII =
            UInt32(
                truncatingIfNeeded: packed(unsafeBitCast(low, to: SIMD16<Int8>.self) .< SIMD16(repeating: 0)))
            | UInt32(
                truncatingIfNeeded: packed(unsafeBitCast(high, to: SIMD16<Int8>.self) .< SIMD16(repeating: 0))
            )
            &<< 16
        return ByteClasses(
            lineBreaks: bits(0x0A), delimiters: bits(delimiter), quotes: bits(0x22), beyondASCII: beyondASCII)
    }

    /// The comparison of 16 bytes, one bit each, in memory order: the high bit of each byte
    /// gathered into the top byte of each half by one multiplication.
    @inline(__always)
    static func packed(_ mask: SIMDMask<SIMD16<Int8>>) -> UInt64 {
        let halves = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        let gather: UInt64 = 0x0002_0408_1020_4081
        let low = ((UInt64(littleEndian: halves[0]) & 0x8080_8080_8080_8080) &* gather) &>> 56
        let high = ((UInt64(littleEndian: halves[1]) & 0x8080_8080_8080_8080) &* gather) &>> 56
        return low | high &<< 8
    }
}
