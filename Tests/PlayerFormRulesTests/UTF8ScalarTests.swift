import PropertyBased
import Testing

@testable import PlayerFormRules

/// Byte pieces of valid and invalid UTF-8: ASCII, two-, three- and four-byte sequences at the edges
/// of their ranges, overlong forms, surrogates, values past U+10FFFF, cut sequences, lone
/// continuation bytes and bytes never used.
private let pieces: [[UInt8]] = [
    [0x41], [0x00], [0x7F], [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xEF, 0xBF, 0xBF],
    [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x9F, 0xBF],
    [0xF0, 0x8F, 0xBF, 0xBF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
    [0xF5, 0x80, 0x80, 0x80], [0xC3], [0xE5, 0x90], [0xF0, 0x9F, 0x98], [0x80], [0xBF], [0xFE], [0xFF],
    [0xC3, 0xAB], [0xEF, 0xBC, 0xA4],
]

@Suite("Scalars decoded from UTF-8 bytes")
struct UTF8ScalarTests {
    @Test(
        "a scalar read from bytes is the one the standard library decodes there, and broken bytes give none")
    func sameAsStandardLibrary() async {
        await propertyCheck(count: 3000, input: Gen.element(of: pieces).map { $0! }.array(of: 1...6)) {
            parts in
            let bytes = parts.flatMap { $0 }
            bytes.withUnsafeBufferPointer { buffer in
                var iterator = buffer.makeIterator()
                var decoder = Unicode.UTF8()
                let expected: (Unicode.Scalar, Int)? =
                    switch decoder.decode(&iterator) {
                    case .scalarValue(let scalar): (scalar, UTF8.width(scalar))
                    default: nil
                    }
                let found = ForbiddenNames.scalar(in: buffer, at: 0)
                #expect(found?.0 == expected?.0 && found?.1 == expected?.1, "\(bytes)")
            }
        }
    }
}
