import Glibc
import PlayerFormJSON

/// Converts number text whose grammar has already been checked into a Double.
enum NumberText {
    /// 2^53: every integer up to it is a Double exactly.
    private static let exactIntegerLimit: UInt64 = 1 << 53

    /// 10^0 through 10^22, the powers of ten a Double holds exactly; a literal, so the table is
    /// laid out by the compiler rather than made when first used.
    private static let exactPowers: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// 10^exponent, for an exponent in 0...22.
    @inline(__always)
    private static func exactPower(_ exponent: Int) -> Double { exactPowers[exponent] }

    /// The value of `text`, a decimal number made of an optional sign, digits with an optional
    /// fraction, and an optional exponent (JSON's grammar, or the CSV grammar, already checked).
    ///
    /// Digits whose value is at most 2^53 with a decimal exponent of at most 22 either way are
    /// converted with one multiplication or division of two Doubles that hold their values
    /// exactly, so the one rounding gives the correctly rounded result; anything else goes to
    /// strtod, which gives the same correctly rounded result the long way.
    static func value(of text: UnsafeBufferPointer<UInt8>) -> Double {
        var index = 0
        var negative = false
        if index < text.count && (text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+")) {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var sawPoint = false
        while index < text.count {
            let byte = text[index]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                if mantissa != 0 || byte != UInt8(ascii: "0") { digits += 1 }
                // 19 digits never overflow 64 bits.
                if digits > 19 { return slowValue(of: text) }
                mantissa = mantissa &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
                if sawPoint { scale -= 1 }
            } else if byte == UInt8(ascii: ".") {
                sawPoint = true
            } else {
                break
            }
            index += 1
        }
        if index < text.count {
            // An exponent: e or E, an optional sign, digits.
            index += 1
            var exponentNegative = false
            if text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            var exponent = 0
            while index < text.count {
                exponent = exponent * 10 + Int(text[index] - UInt8(ascii: "0"))
                if exponent > 400 { return slowValue(of: text) }
                index += 1
            }
            scale += exponentNegative ? -exponent : exponent
        }
        var value = Double(mantissa)
        if mantissa != 0 {
            guard mantissa <= exactIntegerLimit && scale >= -22 && scale <= 22 else {
                return slowValue(of: text)
            }
            value = scale < 0 ? value / exactPower(-scale) : value * exactPower(scale)
        }
        return negative ? -value : value
    }

    /// Scans the JSON number at `cursor`, as `JSONCursor.scanNumber()` does, and returns the
    /// value ``value(of:)`` gives for its text.
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
            return value(of: UnsafeBufferPointer(rebasing: bytes[start..<cursor.index]))
        }
        cursor.index = index
        // An integer needs no division (by 1, which would change nothing).
        let value = fractionDigits == 0 ? Double(mantissa) : Double(mantissa) / exactPower(fractionDigits)
        return negative ? -value : value
    }

    private static func slowValue(of text: UnsafeBufferPointer<UInt8>) -> Double {
        var terminated = [CChar](repeating: 0, count: text.count + 1)
        for (index, byte) in text.enumerated() { terminated[index] = CChar(bitPattern: byte) }
        return strtod(terminated, nil)
    }
}
