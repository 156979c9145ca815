import PropertyBased
import Testing

@testable import PlayerFormRecords

/// Both ways of reading a CSV line read the same records.
///
/// A line with no quote is split at its commas at once; every other line is followed byte by byte.
@Suite("CSV lines without quotes: split at once, read as byte by byte")
struct CSVPlainLineTests {
    @Test("random CSV text has the same fields, record by record, or the same event, both ways")
    func plainSplitMatchesScan() async {
        await propertyCheck(count: 600, input: plainText) { text in
            #expect(
                fields(of: text, splittingPlainLines: true) == fields(of: text, splittingPlainLines: false))
        }
        await propertyCheck(count: 600, input: quotedText) { text in
            #expect(
                fields(of: text, splittingPlainLines: true) == fields(of: text, splittingPlainLines: false))
        }
    }

    @Test("a plain line's fields are the text between its commas, empty ones too")
    func plainFields() {
        #expect(
            fields(of: Array(",a,,b c,\r\n".utf8), splittingPlainLines: true) == [
                "1: [\"\", \"a\", \"\", \"b c\", \"\"]"
            ])
    }
}

/// What reading `bytes` as CSV records finds: each record's line number and fields, or the event
/// met instead, in order, with lines of at most 48 bytes.
private func fields(of bytes: [UInt8], splittingPlainLines: Bool) -> [String] {
    bytes.withUnsafeBufferPointer { chunk in
        var lines = ChunkLines(chunk, maximumLineLength: 48, linesBefore: 0, bytesBefore: 0)
        var steps = RecordSteps()
        steps.csv.splitsPlainLines = splittingPlainLines
        var found: [String] = []
        while true {
            switch steps.nextCSVFields(from: &lines) {
            case .fields(let place):
                let fields = (0..<steps.csv.count).map { index in
                    steps.csv.field(index) { String(decoding: $0, as: UTF8.self) }
                }
                found.append("\(place.line): \(fields)")
            case .event(.end): return found
            case .event(let event): found.append("\(event)")
            }
        }
    }
}

/// Text of lines without quotes, some over the length limit, with CRLF and blank lines.
private let plainText = Gen.element(of: Array("ab,,\n\r 1é\t")).map { $0! }.string(of: 0...120).map {
    Array($0.utf8)
}

/// Text in which quotes open fields, close them, are doubled or stray.
private let quotedText = Gen.element(of: Array("ab,\"\n\r 1é")).map { $0! }.string(of: 0...120).map {
    Array($0.utf8)
}
