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
        var index = start
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa: UInt64 = 0
        let integerStart = index
        while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
            mantissa = mantissa &* 10 &+ UInt64(digit)
            index += 1
        }
        let integerDigits = index - integerStart
        // No digit, or a leading zero before more digits: the general way says what is wrong.
        var fast = integerDigits > 0 && (integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0"))
        var fractionDigits = 0
        if fast && index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
                index += 1
            }
            fractionDigits = index - fractionStart
            fast = fractionDigits > 0
        }
        // Up to 15 digits are below 2^53 and never overflow; an exponent takes the general way.
        fast =
            fast && integerDigits + fractionDigits <= 15
            && (index == bytes.count || (bytes[index] | 0x20) != UInt8(ascii: "e"))
        guard fast else {
            cursor.index = start
            try cursor.scanNumber()
            return DecimalText.value(of: UnsafeBufferPointer(rebasing: bytes[start..<cursor.index]))
        }
        cursor.index = index
        // An integer needs no division (by 1, which would change nothing).
        let value =
            fractionDigits == 0 ? Double(mantissa) : Double(mantissa) / DecimalText.exactPower(fractionDigits)
        return negative ? -value : value
    }
}
