import PropertyBased
import Testing

@testable import PlayerFormRecords

/// Byte pieces that make valid and invalid UTF-8: ASCII, two-, three- and four-byte sequences,
/// lone continuation bytes, cut sequences, overlong forms, surrogates and bytes never used.
private let pieces: [[UInt8]] = [
    [0x41], [0x20], [0x00], [0xC3, 0xAB], [0xE5, 0x90, 0x8D], [0xF0, 0x9F, 0x98, 0x80], [0x80], [0xBF],
    [0xC3], [0xE5, 0x90], [0xF0, 0x9F, 0x98], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80],
    [0xF4, 0x90, 0x80, 0x80], [0xFF], [0xFE], [0xEF, 0xBF, 0xBD], [0xC2, 0x80], [0xC1, 0xBF],
    [0xE0, 0xA0, 0x80], [0xE0, 0x9F, 0xBF], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xF0, 0x90, 0x80, 0x80],
    [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF], [0xF5, 0x80, 0x80, 0x80], [0xE5, 0x41, 0x8D],
    [0xF0, 0x9F, 0x41, 0x80],
]

@Suite("CSV names checked as UTF-8")
struct UTF8TextTests {
    @Test("bytes are valid UTF-8 exactly when String(validating:) makes text of them")
    func sameAsStandardLibrary() async {
        await propertyCheck(count: 2000, input: Gen.element(of: pieces).map { $0! }.array(of: 0...12)) {
            parts in
            let bytes = parts.flatMap { $0 }
            bytes.withUnsafeBufferPointer { buffer in
                let text = String(validating: buffer, as: UTF8.self)
                #expect(UTF8Text.isValid(buffer) == (text != nil), "\(bytes)")
            }
        }
    }

    @Test("random bytes are valid UTF-8 exactly when String(validating:) makes text of them")
    func randomBytesSameAsStandardLibrary() async {
        await propertyCheck(count: 3000, input: Gen.int(in: 0...255).array(of: 0...12)) { values in
            let bytes = values.map { UInt8($0) }
            bytes.withUnsafeBufferPointer { buffer in
                let text = String(validating: buffer, as: UTF8.self)
                #expect(UTF8Text.isValid(buffer) == (text != nil), "\(bytes)")
            }
        }
    }
}
