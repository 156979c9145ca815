#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads the text of a decimal number, already checked against a grammar, as the nearest Double:
/// the one reading of numbers for the records `validate` checks and the numbers typed at the REPL.
///
/// ```swift
/// Array("-3.5".utf8).withUnsafeBufferPointer { DecimalText.value(of: $0) }  // -3.5
/// ```
public enum DecimalText {
    /// 2^53: every integer up to it is a Double exactly.
    @usableFromInline static let exactIntegerLimit: UInt64 = 1 << 53

    /// 10^exponent, for an exponent in 0...22: the powers of ten a Double holds exactly.
    ///
    /// They are a vector built from literals, so that a call inlined into a caller's loop
    /// indexes constants rather than reaching a table through its lazily made global.
    @inlinable public static func exactPower(_ exponent: Int) -> Double {
        let powers = SIMD32<Double>(
            1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
            1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        return powers[exponent]
    }

    /// Whether `text` is a decimal literal.
    ///
    /// An optional sign, digits with an optional fraction (`12`, `-3.5`, `.5`), and an optional
    /// exponent (`1e3`); not `NaN`, `inf`, `0x10` or `12abc`, which `Double.init` would also read.
    /// The grammar of the numbers typed at the REPL and of the points of a roster `import` reads.
    public static func isLiteral(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { (0x30...0x39).contains($0) }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            bytes = bytes.dropFirst()
        }
        var mantissa = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                bytes = bytes.dropFirst()
            }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    /// The value of `text`, a decimal number made of an optional sign, digits with an optional
    /// fraction, and an optional exponent, whose grammar the caller has checked (JSON's, CSV's, or
    /// the numbers typed at the REPL).
    ///
    /// Digits whose value is at most 2^53 with a decimal exponent of at most 22 either way are
    /// converted with one multiplication or division of two Doubles that hold their values
    /// exactly, so the one rounding gives the correctly rounded result; anything else goes to
    /// strtod, which gives the same correctly rounded result the long way.
    @inlinable public static func value(of text: UnsafeBufferPointer<UInt8>) -> Double {
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

    @usableFromInline static func slowValue(of text: UnsafeBufferPointer<UInt8>) -> Double {
        var terminated = [CChar](repeating: 0, count: text.count + 1)
        for (index, byte) in text.enumerated() { terminated[index] = CChar(bitPattern: byte) }
        return strtod(terminated, nil)
    }
}
