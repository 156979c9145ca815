import PlayerFormJSON
import PlayerFormRules

/// Reads a JSON number and its value in one pass where it can.
enum NumberText {
    /// Scans the JSON number at `cursor`, as `JSONCursor.scanNumber()` does, and returns the
    /// value `DecimalText.value(of:)` gives for its text.
    ///
    /// The common short forms, an integer part and an optional fraction with 15 digits in all
    /// and nothing after them that could continue the number, are checked and converted in one
    /// pass; anything else is scanned and converted the general way.
    static func scanJSON(_ cursor: inout JSONCursor) throws(JSONSyntaxError) -> Double {
        let bytes = cursor.bytes
        let start = cursor.index
        if let base = bytes.baseAddress, start < bytes.count {
            var index = start
            // An exponent after the digits takes the general way.
            if let value = shortJSON(base, at: &index, end: bytes.count),
                index == bytes.count || (bytes[index] | 0x20) != UInt8(ascii: "e")
            {
                cursor.index = index
                return value
            }
        }
        try cursor.scanNumber()
        return DecimalText.value(of: UnsafeBufferPointer(rebasing: bytes[start..<cursor.index]))
    }

    /// The value of the JSON number at `index` in the short form (a minus sign or none, an integer
    /// part without a leading zero before more digits, an optional fraction with at least one
    /// digit, 15 digits in all), leaving `index` after its last digit; nil, with `index` left as
    /// it was, when the text there does not start with that form.
    ///
    /// What follows the digits is the caller's to check: `1e3` reads as 1 with `e3` left.
    @inline(__always)
    static func shortJSON(_ base: UnsafePointer<UInt8>, at index: inout Int, end: Int) -> Double? {
        var at = index
        let negative = base[at] == UInt8(ascii: "-")
        if negative { at += 1 }
        var mantissa: UInt64 = 0
        let integerStart = at
        while at < end, case let digit = base[at] &- UInt8(ascii: "0"), digit < 10 {
            mantissa = mantissa &* 10 &+ UInt64(digit)
            at += 1
        }
        let integerDigits = at - integerStart
        // No digit, or a leading zero before more digits: the general way says what is wrong.
        guard integerDigits > 0 && (integerDigits == 1 || base[integerStart] != UInt8(ascii: "0")) else {
            return nil
        }
        var fractionDigits = 0
        if at < end && base[at] == UInt8(ascii: ".") {
            at += 1
            let fractionStart = at
            while at < end, case let digit = base[at] &- UInt8(ascii: "0"), digit < 10 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
                at += 1
            }
            fractionDigits = at - fractionStart
            guard fractionDigits > 0 else { return nil }
        }
        // Up to 15 digits are below 2^53: no overflow, and the value converts exactly, as a signed
        // integer in one instruction.
        guard integerDigits + fractionDigits <= 15 else { return nil }
        index = at
        let whole = Double(Int64(bitPattern: mantissa))
        // An integer needs no division (by 1, which would change nothing).
        let value = fractionDigits == 0 ? whole : whole / DecimalText.exactPower(fractionDigits)
        return negative ? -value : value
    }
}
