import Glibc

/// Converts number text whose grammar has already been checked into a Double.
enum NumberText {
    /// Powers of ten that a Double holds exactly.
    private static let exactPowers: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { power, _ in power * 10 }
    }

    /// The value of `text`, a decimal number made of an optional sign, digits with an optional
    /// fraction, and an optional exponent (JSON's grammar, or the CSV grammar, already checked).
    ///
    /// Up to 15 significant digits with a small decimal exponent are converted exactly with one
    /// multiplication or division (both operands are exact, so the result is correctly rounded);
    /// anything else goes to strtod.
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
                mantissa = mantissa &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
                if sawPoint { scale -= 1 }
            } else if byte == UInt8(ascii: ".") {
                sawPoint = true
            } else {
                break
            }
            index += 1
            if digits > 15 { return slowValue(of: text) }
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
            guard scale >= -22 && scale <= 22 else { return slowValue(of: text) }
            value = scale < 0 ? value / exactPowers[-scale] : value * exactPowers[scale]
        }
        return negative ? -value : value
    }

    private static func slowValue(of text: UnsafeBufferPointer<UInt8>) -> Double {
        var terminated = [CChar](repeating: 0, count: text.count + 1)
        for (index, byte) in text.enumerated() { terminated[index] = CChar(bitPattern: byte) }
        return strtod(terminated, nil)
    }
}
