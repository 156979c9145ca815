import PlayerFormRecords
import PropertyBased
import Testing

/// A CSV input made piece by piece as it is read, so specs can feed inputs far larger than they
/// would keep: the header, a record whose quoted name holds `fieldLines` lines of `lineLength`
/// bytes each, then `tail`.
struct StreamedCSV: ByteSource {
    private var parts: [[UInt8]]
    private var repeats: [Int]
    private var part = 0
    private var offset = 0

    init(fieldLines: Int, lineLength: Int, tail: String) {
        let line = Array(repeating: UInt8(ascii: "x"), count: lineLength - 1) + [0x0A]
        parts = [Array("name,points\nColin,1\n\"".utf8), line, Array(("\",5\n" + tail).utf8)]
        repeats = [1, fieldLines, 1]
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        while part < parts.count && repeats[part] == 0 {
            part += 1
            offset = 0
        }
        guard part < parts.count else { return .end }
        let bytes = parts[part]
        let count = Swift.min(buffer.count, bytes.count - offset)
        bytes.withUnsafeBytes { all in
            buffer.baseAddress!.copyMemory(from: all.baseAddress! + offset, byteCount: count)
        }
        offset += count
        if offset == bytes.count {
            offset = 0
            repeats[part] -= 1
        }
        return .bytes(count)
    }
}

/// A record of a generated CSV input: its text and what reading it must give.
struct GeneratedRecord: Sendable, CustomStringConvertible {
    enum Expected: Equatable, Sendable {
        case record(name: String, points: Double)
        case malformed
    }

    let text: String
    let expected: Expected

    var description: String { text.count > 60 ? "\(text.prefix(60))... (\(text.utf8.count) bytes)" : text }

    /// How many lines the record takes.
    var lineCount: Int { text.utf8.count { $0 == 0x0A } }
}

/// Limit of the readers in the generated specs.
private let limit = 64

/// Records of every kind: plain ones, quoted names with commas, doubled quotes and line breaks,
/// quoted names far longer than the limit over many lines or one, with CRLF line breaks, and a
/// mistake after a long quoted field.
private let recordKinds: [GeneratedRecord] = [
    GeneratedRecord(text: "Ann,1\n", expected: .record(name: "Ann", points: 1)),
    GeneratedRecord(text: "darn,2\n", expected: .record(name: "darn", points: 2)),
    GeneratedRecord(text: "\"a,\"\"b\"\"\nc\",3\n", expected: .record(name: "a,\"b\"\nc", points: 3)),
    GeneratedRecord(
        text: "\"" + String(repeating: "many lines, \"\"quoted\"\"\n", count: 40) + "\",4\n",
        expected: .malformed),
    GeneratedRecord(
        text: "\"" + String(repeating: "one long line ", count: 30) + "\n"
            + String(repeating: "y", count: 300)
            + "\",5\r\n", expected: .malformed),
    GeneratedRecord(text: "\"" + String(repeating: "crlf\r\n", count: 30) + "\"\r\n", expected: .malformed),
    GeneratedRecord(text: "\"" + String(repeating: "z", count: 200) + "\"oops,6\n", expected: .malformed),
    GeneratedRecord(text: "\"\",7\n", expected: .record(name: "", points: 7)),
]

private let generatedRecords = Gen.element(of: recordKinds).map { $0! }.array(of: 0...8)

@Suite("CSV: reading goes on at the next record after one that cannot be read", .timeLimit(.minutes(10)))
struct CSVRecoveryTests {
    @Test("over-long quoted fields are one malformed record each; the records after them are read, in order")
    func generatedInputs() async {
        await propertyCheck(count: 300, input: generatedRecords, Gen.int(in: 1...40)) {
            records, chunkSize in
            let text = "name,points\n" + records.map(\.text).joined()
            var expected: [RecordEvent] = []
            var line = 2
            for record in records {
                switch record.expected {
                case .record(let name, let points):
                    expected.append(PlayerFormRecordsTests.record(line, name, points))
                case .malformed: expected.append(.record(NumberedRecord(line: line, content: .malformed(""))))
                }
                line += record.lineCount
            }
            expected.append(.end)
            let events = readAll(
                Array(text.utf8), format: .csv, chunkSize: chunkSize, maximumLineLength: limit)
            #expect(events.map(Self.withoutMessage) == expected, "\(records)")
        }
    }

    @Test("where records start does not depend on the limit: a small limit and none find the same records")
    func limitChangesNoBoundary() async {
        await propertyCheck(count: 300, input: generatedRecords, Gen.int(in: 1...40)) {
            records, chunkSize in
            let bytes = Array(("name,points\n" + records.map(\.text).joined()).utf8)
            let small = readAll(bytes, format: .csv, chunkSize: chunkSize, maximumLineLength: limit)
            let large = readAll(bytes, format: .csv, maximumLineLength: 1 << 20)
            #expect(small.map(Self.line) == large.map(Self.line), "\(records)")
        }
    }

    @Test("the forbidden name after a huge multi-line quoted field is found; findings keep the input's order")
    func forbiddenNameAfterLongField() {
        let field = String(repeating: "a line of a long quoted field, \"\"quoted\"\"\n", count: 2000)
        let text = "name,points\nColin,1\nd\u{200B}arn,-1\n\"" + field + "\",5\nAlice,3\ndarn,4\n"
        let reader = RecordReader(
            source: MemorySource(Array(text.utf8), chunkSize: 777), format: nil, maximumLineLength: 1000)
        var tally = ValidationTally()
        var findings: [Finding] = []
        let ending = BatchValidator(rules: .defaults).validate(
            reader, file: "players.csv", tally: &tally, report: { findings.append($0) })
        #expect(ending == .end)
        #expect(
            findings == [
                Finding(
                    file: "players.csv", place: RecordPlace(line: 3, offset: offset(ofLine: 3, in: text)),
                    name: "d\u{200B}arn",
                    problems: [.issue(.forbiddenName("d\u{200B}arn")), .issue(.belowMin(points: -1, min: 0))]),
                Finding(
                    file: "players.csv", place: RecordPlace(line: 4, offset: offset(ofLine: 4, in: text)),
                    name: nil,
                    problems: [.malformed("the record runs past 1000 bytes, to line 2004; not read")]),
                Finding(
                    file: "players.csv",
                    place: RecordPlace(line: 2006, offset: offset(ofLine: 2006, in: text)),
                    name: "darn", problems: [.issue(.forbiddenName("darn"))]),
            ])
        #expect(tally.records == 5 && tally.invalid == 3)
    }

    @Test("a quoted field that is never closed makes everything to the end one malformed record")
    func unterminated() {
        let events = readAll(
            "name,points\na,1\n\"open\nb,2\n" + String(repeating: "c,3\n", count: 500), format: .csv)
        #expect(events.count == 3)
        #expect(events[0] == record(2, "a", 1))
        #expect(
            events[1]
                == .record(
                    NumberedRecord(
                        line: 3,
                        content: .malformed("a quoted field is not closed before the end of the input"))))
        #expect(events[2] == .end)
    }

    @Test("an over-long first line that opens a quoted field is followed to the field's end")
    func overlongFirstLine() {
        let text = "name,points\n\"" + String(repeating: "x", count: 5000) + "\nstill the name\",1\nbob,2\n"
        let events = readAll(Array(text.utf8), format: .csv, chunkSize: 7, maximumLineLength: 100)
        #expect(
            events == [
                .record(
                    NumberedRecord(
                        line: 2, content: .malformed("the record runs past 100 bytes, to line 3; not read"))),
                record(4, "bob", 2), .end,
            ])
        let oneLine = "name,points\n\"" + String(repeating: "x", count: 5000) + "\",1\r\nbob,2\n"
        #expect(
            readAll(Array(oneLine.utf8), format: .csv, chunkSize: 5, maximumLineLength: 100) == [
                .record(
                    NumberedRecord(
                        line: 2, content: .malformed("the line is longer than 100 bytes; not read"))),
                record(3, "bob", 2), .end,
            ])
    }

    @Test("a 50 MB quoted field streams through a bounded buffer, and the records after it are read")
    func boundedMemory() {
        let limit = 1 << 16
        let reader = RecordReader(
            source: StreamedCSV(fieldLines: 50 << 10, lineLength: 1 << 10, tail: "Alice,3\ndarn,4\n"),
            format: nil,
            bufferSize: 1 << 12, maximumLineLength: limit)
        var events: [RecordEvent] = []
        var largest = 0
        while true {
            let event = reader.next()
            largest = max(largest, reader.bufferCapacity)
            events.append(event.atLineOnly)
            if case .record = event { continue }
            break
        }
        #expect(largest <= 2 * limit + 64, "the reader held \(largest) bytes")
        #expect(
            events.map(Self.withoutMessage) == [
                record(2, "Colin", 1), .record(NumberedRecord(line: 3, content: .malformed(""))),
                record(3 + (50 << 10) + 1, "Alice", 3), record(3 + (50 << 10) + 2, "darn", 4), .end,
            ])
        let overlong = StreamedCSV(fieldLines: 50, lineLength: 1 << 20, tail: "darn,4\n")
        let lines = RecordReader(
            source: overlong, format: .csv, bufferSize: 1 << 12, maximumLineLength: limit)
        _ = lines.next()
        #expect(malformedMessage(lines.next()) == "the record runs past 65536 bytes, to line 53; not read")
        #expect(lines.bufferCapacity <= 2 * limit + 64)
        #expect(lines.next().atLineOnly == record(54, "darn", 4))
    }

    @Test("a blank line longer than the limit is skipped like a short one, in CSV and JSON Lines")
    func longBlankLines() {
        let blank = String(repeating: " \t", count: 300) + "\r\n"
        let csv = blank + "name,points\n" + blank + "a,1\n"
        #expect(
            readAll(Array(csv.utf8), format: .csv, chunkSize: 9, maximumLineLength: 50) == [
                record(4, "a", 1), .end,
            ])
        let jsonl = blank + "{\"name\": \"a\", \"points\": 1}\n" + blank
        #expect(
            readAll(Array(jsonl.utf8), format: .jsonl, chunkSize: 9, maximumLineLength: 50) == [
                record(2, "a", 1), .end,
            ])
    }

    @Test("the byte order mark of an over-long first line is not part of it: a blank one is still blank")
    func byteOrderMarkOnLongLine() {
        let blank = [0xEF, 0xBB, 0xBF] + Array(String(repeating: "\t", count: 60).utf8) + [0x0A]
        let csv = blank + Array("name,points\na,1\n".utf8)
        #expect(
            readAll(csv, format: .csv, chunkSize: 16, maximumLineLength: 24) == [record(3, "a", 1), .end])
        let jsonl = blank + Array("{\"name\": \"a\", \"points\": 1}\n".utf8)
        #expect(
            readAll(jsonl, format: .jsonl, chunkSize: 16, maximumLineLength: 30) == [record(2, "a", 1), .end])
    }

    /// `event` with the message of a malformed record left out.
    private static func withoutMessage(_ event: RecordEvent) -> RecordEvent {
        guard case .record(let record) = event, case .malformed = record.content else { return event }
        return .record(NumberedRecord(line: record.line, content: .malformed("")))
    }

    private static func line(_ event: RecordEvent) -> Int? {
        if case .record(let record) = event { return record.line }
        return nil
    }
}
