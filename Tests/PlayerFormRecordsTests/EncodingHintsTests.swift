import Testing

@testable import PlayerFormRecords

@Suite("Inputs that are not UTF-8", .timeLimit(.minutes(10)))
struct EncodingHintsTests {
    @Test(
        "UTF-16 and UTF-32, by their byte order marks or by zero bytes, are named with the way to convert them",
        arguments: [
            ([0xFF, 0xFE, 0x6E, 0x00], "UTF-16 (little-endian, by its byte order mark)"),
            ([0xFE, 0xFF, 0x00, 0x6E], "UTF-16 (big-endian, by its byte order mark)"),
            ([0xFF, 0xFE, 0x00, 0x00], "UTF-32 (little-endian, by its byte order mark)"),
            ([0x00, 0x00, 0xFE, 0xFF], "UTF-32 (big-endian, by its byte order mark)"),
            ([0x6E, 0x00, 0x61, 0x00], "UTF-16 (little-endian: every other byte is zero)"),
            ([0x00, 0x6E, 0x00, 0x61], "UTF-16 (big-endian: every other byte is zero)"),
        ] as [([UInt8], String)])
    func otherEncodings(head: [UInt8], named: String) {
        let family = named.hasPrefix("UTF-32") ? "UTF-32" : "UTF-16"
        #expect(
            EncodingHints.wrongEncoding(head: head)
                == "the input is \(named), not UTF-8; records must be UTF-8: convert it, for example with "
                + "iconv -f \(family) -t UTF-8 FILE > FILE-utf8")
    }

    @Test("UTF-8, with or without its byte order mark, and short or empty inputs are not refused")
    func utf8() {
        for head: [UInt8] in [
            [0xEF, 0xBB, 0xBF, 0x7B], Array("{\"n".utf8), Array("{}".utf8), [], [0x6E, 0x00],
        ] {
            #expect(EncodingHints.wrongEncoding(head: head) == nil, "\(head)")
        }
    }

    @Test("a byte that is not UTF-8 is named, with what Windows-1252 reads in it when it reads a character")
    func byteNotes() {
        #expect(EncodingHints.byteNote(0xEB) == "(byte 0xEB, ë in Windows-1252)")
        #expect(EncodingHints.byteNote(0x80) == "(byte 0x80, € in Windows-1252)")
        #expect(EncodingHints.byteNote(0x92) == "(byte 0x92, ’ in Windows-1252)")
        #expect(EncodingHints.byteNote(0x81) == "(byte 0x81)")
        let bytes: [UInt8] = [0x5A, 0x6F, 0xC3, 0xAB, 0xEB, 0x41]
        #expect(bytes.withUnsafeBufferPointer { EncodingHints.firstInvalidByte($0) } == 0xEB)
        #expect(Array("Zoë".utf8).withUnsafeBufferPointer { EncodingHints.firstInvalidByte($0) } == nil)
    }

    @Test("a UTF-16 input is refused whole, as unusable, whatever its format; JSON Lines names the byte too")
    func readerRefuses() {
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("name,points\n".utf8).flatMap { [$0, 0] }
        for format in [RecordFormat.csv, .jsonl, nil] {
            let reader = RecordReader(source: MemorySource(utf16), format: format)
            guard case .unusable(let message) = reader.next() else {
                Issue.record("\(String(describing: format)) read as records")
                continue
            }
            #expect(message.hasPrefix("the input is UTF-16 (little-endian, by its byte order mark)"))
        }
        let latin = Array(#"{"name": "Zo"#.utf8) + [0xEB] + Array(#"", "points": 1}"#.utf8) + [0x0A]
        guard case .record(let record) = RecordReader(source: MemorySource(latin), format: .jsonl).next(),
            case .malformed(let reason) = record.content
        else {
            Issue.record("not malformed")
            return
        }
        #expect(
            reason
                == "invalid UTF-8 at column 13 (byte 0xEB, ë in Windows-1252); records must be UTF-8: convert "
                + "the file, for example with iconv -f WINDOWS-1252 -t UTF-8")
    }
}
