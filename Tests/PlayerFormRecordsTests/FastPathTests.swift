import Glibc
import PlayerFormRules
import PropertyBased
import Testing

@testable import PlayerFormJSON
@testable import PlayerFormRecords

/// Number text made of pieces that reach every branch of the number scanners: digits, zeros,
/// signs, points, exponent letters, bytes that end a number, and digit runs at the edges of the
/// exact range (2^53, 10^15, 10^22) and beyond.
private let numberPieces: [String] = [
    "0", "1", "5", "9", "00", "12", "999", "-", "+", ".", "e", "E", "e-", "E+", "e2", "e22", "e-22", "e23",
    "e-23",
    "e308", "e-324", "e400", ",", "}", " ", "x", "9007199254740992", "9007199254740993", "4503599627370497",
    "999999999999999", "1000000000000000", "123456789012345678", "00000000000000000001",
    "1234567890123456789012",
]

private let signs = Gen.element(of: ["", "-", "+"]).map { $0! }
private let integerParts = Gen.element(of: [
    "0", "1", "7", "42", "9007199254740992", "9007199254740993", "999999999999999", "1000000000000000",
    "18446744073709551615", "123456789012345678901", "4503599627370497",
]).map { $0! }
private let fractions = Gen.int(in: 0...9).array(of: 0...24).map { digits in
    digits.map(String.init).joined()
}
private let exponentMarks = Gen.element(of: ["", "e", "E", "e+", "e-", "E-"]).map { $0! }

/// Decimal numbers in the grammar both CSV and JSON accept, with the pieces above in their places.
private let decimalNumbers = zip(signs, integerParts, fractions, exponentMarks, Gen.int(in: 0...330)).map {
    (sign: String, integer: String, fraction: String, mark: String, exponent: Int) -> String in
    let fractionPart = fraction.isEmpty ? "" : "." + fraction
    let exponentPart = mark.isEmpty ? "" : mark + String(exponent)
    return sign + integer + fractionPart + exponentPart
}

/// What scanning a number at the start of `text` gives: the value and where the cursor stops, or
/// the error.
private enum Scanned: Equatable {
    case value(bits: UInt64, end: Int)
    case error(JSONSyntaxError)
}

private func scannedFast(_ text: [UInt8]) -> Scanned {
    text.withUnsafeBufferPointer { bytes in
        var cursor = JSONCursor(bytes)
        do throws(JSONSyntaxError) {
            let value = try NumberText.scanJSON(&cursor)
            return .value(bits: value.bitPattern, end: cursor.index)
        } catch {
            return .error(error)
        }
    }
}

private func scannedGenerally(_ text: [UInt8]) -> Scanned {
    text.withUnsafeBufferPointer { bytes in
        var cursor = JSONCursor(bytes)
        do throws(JSONSyntaxError) {
            try cursor.scanNumber()
            let value = DecimalText.value(of: UnsafeBufferPointer(rebasing: bytes[..<cursor.index]))
            return .value(bits: value.bitPattern, end: cursor.index)
        } catch {
            return .error(error)
        }
    }
}

private func strtodValue(_ text: String) -> Double {
    strtod(text, nil)
}

@Suite("Number text converted the short way")
struct NumberFastPathTests {
    @Test("a decimal number gives the Double strtod gives, bit for bit")
    func sameAsStrtod() async {
        await propertyCheck(count: 3000, input: decimalNumbers) { text in
            let value = Array(text.utf8).withUnsafeBufferPointer { DecimalText.value(of: $0) }
            #expect(value.bitPattern == strtodValue(text).bitPattern, "\(text)")
        }
    }

    @Test("numbers at the edges of the exact range give the Double strtod gives")
    func edges() {
        let texts = [
            "0", "-0", "-0.0", "0e400", "-0e-400", "9007199254740992", "9007199254740993",
            "-9007199254740993",
            "9007199254740992e22", "9007199254740992e-22", "9007199254740993e-22", "1e22", "1e23", "1e-22",
            "1e-23",
            "4.9e-324", "2.2250738585072011e-308", "1.7976931348623157e308", "1e309", "123456789012345678",
            "0.1", "0.30000000000000004", "4503599627370497.5", "9999999999999999999", "99999999999999999999",
        ]
        for text in texts {
            let value = Array(text.utf8).withUnsafeBufferPointer { DecimalText.value(of: $0) }
            #expect(value.bitPattern == strtodValue(text).bitPattern, "\(text)")
        }
    }

    @Test(
        "scanning and converting a JSON number in one pass gives the value, end and error of doing both apart"
    )
    func scanSameAsGeneral() async {
        await propertyCheck(count: 5000, input: Gen.element(of: numberPieces).map { $0! }.array(of: 0...6)) {
            pieces in
            let text = Array(pieces.joined().utf8)
            #expect(scannedFast(text) == scannedGenerally(text), "\(pieces.joined())")
        }
    }

    @Test("decimal numbers scanned in one pass give the value and end of doing both apart")
    func scanDecimalsSameAsGeneral() async {
        await propertyCheck(count: 3000, input: decimalNumbers) { text in
            let bytes = Array(text.utf8)
            #expect(scannedFast(bytes) == scannedGenerally(bytes), "\(text)")
        }
    }
}

/// Bytes that reach every branch of the string scanner and its word test: plain ASCII, the
/// bytes it stops at (quote, backslash, control characters, 0x7F, bytes from 0x80), and their
/// neighbours.
private let stringBytes: [UInt8] = [
    0x00, 0x01, 0x09, 0x0A, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x41, 0x5B, 0x5C, 0x5D, 0x61, 0x7E, 0x7F, 0x80,
    0xA0,
    0xC3, 0xE5, 0xFF,
]

@Suite("JSON strings passed a word at a time")
struct StringFastPathTests {
    @Test("the run of plain bytes ends at the first quote, backslash, control byte or byte from 0x80")
    func plainRunEnd() async {
        await propertyCheck(
            count: 3000, input: Gen.element(of: stringBytes).map { $0! }.array(of: 0...40),
            Gen.int(in: 0...40)
        ) { bytes, from in
            let start = min(from, bytes.count)
            let end = bytes.withUnsafeBufferPointer { JSONCursor.endOfPlainRun($0, from: start) }
            let special = bytes[start...].firstIndex { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 || $0 >= 0x80 }
            // The word test stops at the special byte, or before the last bytes too few for a word.
            let expected = special.map { $0 - start < (bytes.count - start) / 8 * 8 ? $0 : nil } ?? nil
            if let expected {
                #expect(end == expected, "\(bytes) from \(start)")
            } else {
                #expect(end == start + (bytes.count - start) / 8 * 8, "\(bytes) from \(start)")
            }
        }
    }

    @Test("a scalar decoded from an escape is appended as its UTF-8 encoding")
    func escapedScalarEncoding() async {
        let scalars = Gen.oneOf(
            Gen.uint32(in: 0...0x7FF), Gen.uint32(in: 0x800...0xD7FF), Gen.uint32(in: 0xE000...0xFFFF),
            Gen.uint32(in: 0x1_0000...0x10_FFFF))
        await propertyCheck(count: 3000, input: scalars) { value in
            var text: [UInt8] = [0x41]
            JSONCursor.appendUTF8(of: value, to: &text)
            #expect(text == [0x41] + Array(String(Unicode.Scalar(value)!).utf8), "\(value)")
        }
    }
}

/// Key text near `"name"` and `"points"`: the keys themselves, cut short, with a byte changed,
/// escaped, or followed by more.
private let keyPieces: [String] = [
    #""name""#, #""points""#, #""nam"#, #""point"#, #""names""#, #""Name""#, #""pointS""#, #""na\u006de""#,
    #""p\u006fints""#, #""team""#, "\"", "e", "s", ":", " ", "x", #"\""#,
]

private enum KeyRead: Equatable {
    case key(JSONRecordParser.Key, end: Int)
    case error(JSONSyntaxError)
}

@Suite("Keys told from their bytes")
struct KeyFastPathTests {
    @Test("a key read from its bytes is the key, with the end, that scanning it as a string gives")
    func plainKeySameAsScanned() async {
        await propertyCheck(count: 3000, input: Gen.element(of: keyPieces).map { $0! }.array(of: 1...4)) {
            pieces in
            let text = Array(pieces.joined().utf8)
            guard text.first == 0x22 else { return }
            func read(
                _ scan: (inout JSONRecordParser, inout JSONCursor) throws(JSONSyntaxError) ->
                    JSONRecordParser.Key
            )
                -> KeyRead
            {
                text.withUnsafeBufferPointer { bytes in
                    var parser = JSONRecordParser()
                    var cursor = JSONCursor(bytes)
                    do throws(JSONSyntaxError) {
                        let key = try scan(&parser, &cursor)
                        return .key(key, end: cursor.index)
                    } catch {
                        return .error(error)
                    }
                }
            }
            let fast = read { parser, cursor throws(JSONSyntaxError) in try parser.readKey(&cursor) }
            let general = read { parser, cursor throws(JSONSyntaxError) in try parser.scanKey(&cursor) }
            #expect(fast == general, "\(pieces.joined())")
        }
    }
}

@Suite("Line breaks counted in vector lanes")
struct LineBreakCountTests {
    @Test("the count is the number of line feed bytes, for any length and any start")
    func countsEveryLineFeed() async {
        let bytes = Gen.element(of: [0x0A, 0x0A, 0x0B, 0x09, 0x8A, 0x41, 0x00, 0xFF] as [UInt8]).map { $0! }
        await propertyCheck(count: 300, input: bytes.array(of: 0...9000), Gen.int(in: 0...31)) {
            bytes, skip in
            let start = min(skip, bytes.count)
            let count = bytes.withUnsafeBufferPointer {
                ChunkLines.lineBreaks(in: UnsafeBufferPointer(rebasing: $0[start...]))
            }
            #expect(count == bytes[start...].count { $0 == 0x0A })
        }
    }
}

/// String text with escapes of every kind, valid and not, plain runs, and bytes beyond ASCII.
private let stringPieces: [String] = [
    "a", "plain text", "\\\"", "\\\\", "\\/", "\\b", "\\n", "\\t", "\\u00e9", "\\u540D", "\\ud83d\\ude00",
    "\\ud83d",
    "\\udc00", "\\u12", "\\x", "é", "名前", "\u{1F600}", "\u{1}", "\"", " ",
]

private enum StringRead: Equatable {
    case string(plain: Bool, content: [UInt8], end: Int)
    case error(JSONSyntaxError)
}

@Suite("Strings decoded into a parser's own storage")
struct LineScratchTests {
    @Test("a string decoded into line storage gives the content, end and error of decoding it into an array")
    func sameAsArray() async {
        await propertyCheck(count: 3000, input: Gen.element(of: stringPieces).map { $0! }.array(of: 0...8)) {
            pieces in
            let bytes = Array(("\"" + pieces.joined()).utf8)
            let intoArray = bytes.withUnsafeBufferPointer { line -> StringRead in
                var cursor = JSONCursor(line)
                var text: [UInt8] = [0x41]
                do throws(JSONSyntaxError) {
                    let plain = try cursor.scanString(into: &text)
                    return .string(plain: plain, content: plain ? [] : text, end: cursor.index)
                } catch {
                    return .error(error)
                }
            }
            let intoScratch = bytes.withUnsafeBufferPointer { line -> StringRead in
                var cursor = JSONCursor(line)
                // Room for the line only, as a parser reserves it.
                var text = LineScratch(capacity: 1)
                text.reserve(line.count)
                text.append(0x41)
                text.removeAllKeepingStorage()
                do throws(JSONSyntaxError) {
                    let plain = try cursor.scanString(into: &text)
                    return .string(plain: plain, content: plain ? [] : Array(text.bytes), end: cursor.index)
                } catch {
                    return .error(error)
                }
            }
            #expect(intoScratch == intoArray, "\(pieces.joined())")
        }
    }

    @Test(
        "a copy of a scratch gets storage of its own when it makes room, leaving the original's bytes alone")
    func copiesKeepTheirBytes() {
        var original = LineScratch(capacity: 4)
        [1, 2, 3].withUnsafeBufferPointer { original.append(contentsOf: $0) }
        var copy = original
        copy.reserve(4)
        copy.removeAllKeepingStorage()
        copy.append(9)
        #expect(Array(original.bytes) == [1, 2, 3])
        #expect(Array(copy.bytes) == [9])
    }
}

@Suite("Line breaks found 16 bytes at a time")
struct LineBreakSearchTests {
    @Test(
        "the first line break found is the first line feed byte from the start, or the end when there is none"
    )
    func findsTheFirstLineFeed() async {
        let bytes = Gen.element(of: [0x0A, 0x0B, 0x09, 0x8A, 0x41, 0x00, 0xFF] as [UInt8]).map { $0! }
        await propertyCheck(count: 2000, input: bytes.array(of: 0...80), Gen.int(in: 0...80)) { bytes, from in
            let start = min(from, bytes.count)
            let found = bytes.withUnsafeBufferPointer { buffer in
                ChunkLines.firstLineBreak(
                    buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, from: start, count: buffer.count)
            }
            #expect(found == (bytes[start...].firstIndex(of: 0x0A) ?? bytes.count), "\(bytes) from \(start)")
        }
    }
}
