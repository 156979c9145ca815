import Testing

@testable import PlayerFormRecords

@Suite("Reading lines and telling formats", .timeLimit(.minutes(10)))
struct RecordReaderTests {
    @Test(
        "JSON Lines: blank lines are skipped, line numbers count them, CRLF and a final line without break are read"
    )
    func jsonLines() {
        let text = "{\"name\": \"a\", \"points\": 1}\r\n\n   \n{\"name\": \"b\", \"points\": 2}"
        #expect(readAll(text, format: .jsonl, chunkSize: 1) == [record(1, "a", 1), record(4, "b", 2), .end])
    }

    @Test("a byte order mark is accepted at the start of the input only")
    func byteOrderMark() {
        let line = Array("{\"name\": \"a\", \"points\": 1}\n".utf8)
        let events = readAll(
            [0xEF, 0xBB, 0xBF] + line + [0xEF, 0xBB, 0xBF] + line, format: .jsonl, chunkSize: 2)
        #expect(events.first == record(1, "a", 1))
        #expect(malformedMessage(events[1]) != nil)
    }

    @Test("a line longer than the limit is malformed, not held in memory, and the next line is read")
    func tooLongLine() {
        let long = "{\"name\": \"" + String(repeating: "x", count: 300) + "\", \"points\": 1}\n"
        let events = readAll(
            Array((long + "{\"name\": \"b\", \"points\": 2}\n" + long).utf8), format: .jsonl, chunkSize: 7,
            maximumLineLength: 100)
        #expect(events.count == 4)
        #expect(malformedMessage(events[0]) == "the line is longer than 100 bytes; not read")
        #expect(events[1] == record(2, "b", 2))
        #expect(malformedMessage(events[2]) == "the line is longer than 100 bytes; not read")
        #expect(events[3] == .end)
    }

    @Test("with no format given, a first line starting with { means JSON Lines")
    func detectsJSONLines() {
        #expect(readAll("\n  {\"name\": \"a\", \"points\": 1}\n", format: nil) == [record(2, "a", 1), .end])
    }

    @Test("with no format given, a CSV header naming name and points means CSV")
    func detectsCSV() {
        #expect(readAll("points,name\n5,x\n", format: nil) == [record(2, "x", 5), .end])
    }

    @Test("with no format given, anything else makes the input unusable; an empty input has no records")
    func undetectable() {
        guard case .unusable(let reason) = readAll("hello\n{}\n", format: nil).first else {
            Issue.record("not unusable")
            return
        }
        #expect(reason.contains("use --input-format jsonl or csv"))
        #expect(readAll("", format: nil) == [.end])
        #expect(readAll("\n\n", format: nil) == [.end])
    }

    @Test("the format comes from .jsonl, .ndjson and .csv extensions in any case")
    func extensions() {
        #expect(RecordFormat(fileExtensionOf: "a/players.jsonl") == .jsonl)
        #expect(RecordFormat(fileExtensionOf: "players.NDJSON") == .jsonl)
        #expect(RecordFormat(fileExtensionOf: "players.Csv") == .csv)
        #expect(RecordFormat(fileExtensionOf: "players.txt") == nil)
        #expect(RecordFormat(fileExtensionOf: "dir.csv/players") == nil)
        #expect(RecordFormat(fileExtensionOf: "-") == nil)
    }

    @Test("a read failure ends the input with its errno")
    func readFailure() {
        struct Failing: ByteSource {
            var sent = false
            mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
                guard !sent else { return .failed(5) }
                sent = true
                let line = Array("{\"name\": \"a\", \"points\": 1}\n".utf8)
                buffer.copyBytes(from: line)
                return .bytes(line.count)
            }
        }
        let reader = RecordReader(source: Failing(), format: .jsonl)
        #expect(reader.next() == record(1, "a", 1))
        #expect(reader.next() == .failed(5))
        #expect(reader.next() == .failed(5))
    }
}

@Suite("CSV delimiters", .timeLimit(.minutes(10)))
struct CSVDelimiterTests {
    @Test("the delimiter is the first of comma, semicolon and tab whose titles name name and points")
    func toldByHeader() {
        let cases: [(String, CSVDelimiter?)] = [
            ("name,points", .comma), ("Name;Points", .semicolon), ("name\tpoints", .tab),
            (" NAME ; points ;team", .semicolon), ("name,points,x;y", .comma),
            ("\"name\";\"points\"", .semicolon),
            ("name,points;x", nil), ("\"na;me\";points", nil), ("\"name;points\",x", nil), ("nom;pts", nil),
            ("name;name", nil), ("", nil),
        ]
        for (header, expected) in cases {
            let told = Array(header.utf8).withUnsafeBufferPointer { CSVDelimiter.told(byHeader: $0) }
            #expect(told == expected, "\(header.debugDescription)")
        }
    }

    @Test("a delimiter is named by its character or its name; anything else is refused")
    func naming() {
        #expect(
            [",", "comma", ";", "Semicolon", "\t", "\\t", "TAB"].map(CSVDelimiter.init(naming:)) == [
                .comma, .comma, .semicolon, .semicolon, .tab, .tab, .tab,
            ])
        #expect(["", "|", ",,", "colon"].allSatisfy { CSVDelimiter(naming: $0) == nil })
    }

    @Test("a delimiter given that is not the file's makes it unusable, naming the one its header uses")
    func givenDelimiterWrong() {
        let reader = RecordReader(
            source: MemorySource(Array("Name;Points\nAnn;1\n".utf8)), format: .csv, delimiter: .tab)
        #expect(
            reader.next()
                == .unusable(
                    "the CSV header row must name the columns name and points, separated by tabs as --delimiter "
                        + "says; found: \"Name;Points\"; the header is separated by semicolons: give --delimiter ';' "
                        + "or leave it out"))
        let given = RecordReader(
            source: MemorySource(Array("name;points\nAnn;1\n".utf8)), format: .csv, delimiter: .semicolon)
        #expect(given.next().atLineOnly == record(2, "Ann", 1))
    }
}
