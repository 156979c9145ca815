import Foundation
import PlayerFormScores
import Testing

@testable import PlayerFormTransfer

@Suite("Reading score files quickly", .timeLimit(.minutes(10)))
struct ScoreFileReaderTests {
    @Test("the quick time reader agrees with the ISO 8601 parser on every millisecond it is given")
    func quickTimes() {
        var random = SplitMix(seed: 0x7133)
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        for _ in 0..<5_000 {
            // From 1600 to 2400, so leap years and centuries are crossed.
            let milliseconds = Int64(random.next() % 25_245_000_000_000) - 11_676_096_000_000
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let text = Timestamp.text(date)
            #expect(Timestamp.quickMilliseconds(text) == milliseconds, "\(text)")
            #expect(Timestamp.date(text) == (try? style.parse(text)).map(Timestamp.rounded), "\(text)")
        }
        for text in [
            "2026-02-29T00:00:00.000Z", "1900-02-29T00:00:00.000Z", "2026-13-01T00:00:00.000Z",
            "2026-01-01T24:00:00.000Z",
            "2026-01-01T00:00:00.00Z", "2026-01-01 00:00:00.000Z", "2026-01-01T00:00:00.000+01:00",
        ] {
            #expect(Timestamp.quickMilliseconds(text) == nil, "\(text)")
        }
        #expect(Timestamp.quickMilliseconds("2024-02-29T12:34:56.789Z") == 1_709_210_096_789)
        #expect(Timestamp.quickMilliseconds("2000-02-29T00:00:00.000Z") == 951_782_400_000)
    }

    @Test("times before 1600 are read and written in the proleptic Gregorian calendar, as ISO 8601 counts")
    func earlyYears() {
        // The milliseconds of Python's datetime, whose calendar is the proleptic Gregorian one.
        let known: [(String, Int64)] = [
            ("0001-01-01T00:00:00.000Z", -62_135_596_800_000),
            ("0400-02-29T23:59:59.999Z", -49_539_254_400_001),
            ("1500-06-01T00:00:00.000Z", -14_818_723_200_000),
            ("1582-10-04T12:00:00.000Z", -12_220_200_000_000),
        ]
        for (text, milliseconds) in known {
            #expect(Timestamp.quickMilliseconds(text) == milliseconds, "\(text)")
            #expect(Timestamp.text(Timestamp.date(milliseconds: milliseconds)) == text)
            #expect(Timestamp.date(text) == Timestamp.date(milliseconds: milliseconds), "\(text)")
        }
        #expect(Timestamp.quickMilliseconds("0000-12-31T23:59:59.999Z") == nil, "no year 0")
    }

    @Test("a time in a file beyond the year 9999 is a damaged line, not a crash")
    func farTimeInFile() throws {
        let folder = try makeTemporaryFolder()
        let path = folder.appendingPathComponent("scores.jsonl").path
        let line =
            #"{"id":"69A0E07A-2AA3-4079-A27F-CE8465159049","kind":"score","name":"Colin","points":100,"#
            + #""uploadedAt":"506713-02-07T00:00:00.000Z"}"# + "\n"
        try Data(line.utf8).write(to: URL(fileURLWithPath: path))
        let reader = try ScoreFileReader(path: path)
        #expect(
            try reader.next()
                == .problem(
                    "\(path):1: not a score record (invalid uploadedAt: expected a time in a string, ISO 8601 in "
                        + #"UTC with milliseconds, such as "2026-11-21T07:13:09.123Z")"#))
        #expect(try reader.next() == nil)
    }

    @Test("a time of the written form that does not exist is refused, not read as a later one")
    func impossibleTimes() {
        for text in [
            "2026-02-30T25:61:61.000Z", "2026-02-29T00:00:00.000Z", "2026-01-01T24:00:00.000Z",
            "2026-01-01T00:60:00.000Z", "2026-01-01T00:00:60.000Z", "2026-13-01T00:00:00.000Z",
        ] {
            #expect(Timestamp.date(text) == nil, "\(text)")
        }
    }

    @Test("the quick time writer agrees with Foundation's ISO 8601 formatter from 1600 to 9999")
    func quickTimeText() {
        var random = SplitMix(seed: 0x7E47)
        let style = Date.ISO8601FormatStyle()
        let first: Int64 = -11_676_096_000_000  // 1600-01-01T00:00:00.000Z
        let end: Int64 = 253_402_300_800_000  // 10000-01-01T00:00:00.000Z
        let edges: [Int64] = [first, first + 1, -1, 0, 1, 951_782_399_999, 951_868_800_000, end - 1]
        let randoms = (0..<5_000).map { _ in first + Int64(random.next() % UInt64(end - first)) }
        // Every day of the nine years around 1700, 1900, 2000 and 2100 (only 2000 is a leap year),
        // at a time that moves through the day, and the last millisecond of each.
        let centuries: [Int64] = [-8_646_566_400_000, -2_335_219_200_000, 820_454_400_000, 3_976_214_400_000]
        var days: [Int64] = []
        for start in centuries {
            for day in Int64(0)..<Int64(9 * 366) {
                let midnight: Int64 = start + day * 86_400_000
                days.append(midnight + day * 997 % 86_400_000)
                days.append(midnight + 86_399_999)
            }
        }
        for milliseconds in edges + randoms + days {
            let (whole, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
            let (second, millisecond) = fraction < 0 ? (whole - 1, fraction + 1000) : (whole, fraction)
            let expected =
                style.format(Date(timeIntervalSince1970: Double(second))).dropLast() + "."
                + String(String(millisecond + 1000).dropFirst()) + "Z"
            #expect(Timestamp.quickText(milliseconds) == expected, "\(milliseconds)")
        }
        // Before the year 1 and from 10000 on, Foundation writes the time.
        #expect(Timestamp.quickText(-62_135_596_800_001) == nil)
        #expect(Timestamp.quickText(end) == nil)
        #expect(Timestamp.quickText(1_709_210_096_789) == "2024-02-29T12:34:56.789Z")
    }

    @Test("the quick UUID reader agrees with UUID(uuidString:)")
    func quickUUIDs() {
        for _ in 0..<1_000 {
            let id = UUID()
            #expect(ScoreLineParser.uuid(id.uuidString) == id)
            #expect(ScoreLineParser.uuid(id.uuidString.lowercased()) == id)
        }
        for text in ["", "6F1C2B1E-0000-4000-8000-00000000000G", "6F1C2B1E00000-4000-8000-000000000001"] {
            #expect(ScoreLineParser.uuid(text) == UUID(uuidString: text))
        }
    }

    @Test(
        "every line the quick parser accepts decodes to the same record with JSONDecoder; the rest fall back")
    func quickLinesAgree() throws {
        let id = "6F1C2B1E-0000-4000-8000-000000000001"
        let time = "2026-11-21T07:13:09.123Z"
        let lines = [
            #"{"id":"\#(id)","name":"Colin","points":100,"uploadedAt":"\#(time)"}"#,
            #"{"id":"\#(id)","kind":"score","name":"Zoë","points":-0.5e2,"uploadedAt":"\#(time)"}"#,
            #" { "uploadedAt" : "\#(time)" , "points" : 1.25 , "name" : "" , "id" : "\#(id)" } "#,
            #"{"id":"\#(id)","name":"A \"quoted\" name\n","points":1,"uploadedAt":"\#(time)"}"#,
            #"{"id":"\#(id)","name":"Zo\u00eb","points":1,"uploadedAt":"\#(time)"}"#,
            #"{"id":"\#(id)","name":"Colin","points":01,"uploadedAt":"\#(time)"}"#,
            #"{"id":"\#(id)","name":"Colin","points":1.,"uploadedAt":"\#(time)"}"#,
            #"{"id":"\#(id)","name":"Colin","name":"Bob","points":1,"uploadedAt":"\#(time)"}"#,
            #"{"id":"\#(id)","name":"Colin","points":1,"uploadedAt":"\#(time)","extra":[1]}"#,
            #"{"id":"\#(id)","name":"Colin","points":1,"uploadedAt":"\#(time)"} x"#,
            #"{"id":"\#(id)","kind":"delete","name":"Colin","points":1,"uploadedAt":"\#(time)"}"#,
            #"{"id":"\#(id)","name":"Colin","points":"1","uploadedAt":"\#(time)"}"#,
            #"{"id":"\#(id)","name":"Colin","points":1e400,"uploadedAt":"\#(time)"}"#,
        ]
        let decoder = JSONDecoder()
        var quick = 0
        for line in lines {
            let bytes = Array(line.utf8)
            let fast = bytes.withUnsafeBufferPointer(ScoreLineParser.record)
            let full: ScoreRecord? = {
                guard let stored = try? decoder.decode(StoredLine.self, from: Data(bytes)),
                    case .record(let record)? = try? stored.content()
                else { return nil }
                return record
            }()
            if let fast {
                quick += 1
                #expect(fast == full, "\(line)")
            }
        }
        // The plain lines take the quick path; escapes, odd numbers and other shapes do not.
        #expect(quick == 3)
    }

    @Test("a reader gives records, deletions and damaged lines of a JSON Lines file, and of an export's CSV")
    func readsFiles() throws {
        let folder = try makeTemporaryFolder()
        let jsonl = folder.appendingPathComponent("in.jsonl").path
        let id = UUID()
        let lines = [
            #"{"id":"\#(id.uuidString)","name":"A \"q\" \u00e9","points":1,"uploadedAt":"2026-11-21T07:13:09.123Z"}"#,
            "",
            "garbage",
            #"{"deletedAt":"2026-11-21T07:20:00.000Z","ids":["\#(id.uuidString)"],"kind":"delete"}"#,
        ]
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: jsonl))
        let reader = try ScoreFileReader(path: jsonl)
        var items: [ScoreFileReader.Item] = []
        while let item = try reader.next() { items.append(item) }
        let record = ScoreRecord(
            id: id, name: "A \"q\" é", points: 1, uploadedAt: Timestamp.date("2026-11-21T07:13:09.123Z")!)
        #expect(
            items == [
                .record(record), .problem("\(jsonl):3: not a score record (not valid JSON)"), .deletion([id]),
            ])
        #expect(try ScoreFileReader.deletedIDs(in: jsonl) == [id])

        let csv = folder.appendingPathComponent("in.csv").path
        let text =
            "id,name,points,uploadedAt\r\n\(id.uuidString),\"two\nlines, \"\"quoted\"\"\",2.5,"
            + "2026-11-21T07:13:09.123Z\r\nnot,a,record,here\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: csv))
        let csvReader = try ScoreFileReader(path: csv)
        var csvItems: [ScoreFileReader.Item] = []
        while let item = try csvReader.next() { csvItems.append(item) }
        #expect(
            csvItems == [
                .record(
                    ScoreRecord(
                        id: id, name: "two\nlines, \"quoted\"", points: 2.5, uploadedAt: record.uploadedAt)),
                .problem("\(csv):4: not a score record (invalid id)"),
            ])
    }

    @Test("a record longer than 8 MiB is passed over without being held, and the next one read")
    func overlongRecord() throws {
        let folder = try makeTemporaryFolder()
        let path = folder.appendingPathComponent("long.jsonl").path
        let id = UUID()
        let long = #"{"id":"\#(UUID().uuidString)","name":""# + String(repeating: "x", count: 9 << 20) + "\"}"
        let good =
            #"{"id":"\#(id.uuidString)","name":"B","points":1,"uploadedAt":"2026-01-01T00:00:00.000Z"}"#
        try Data((long + "\n" + good + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let reader = try ScoreFileReader(path: path)
        var items: [ScoreFileReader.Item] = []
        while let item = try reader.next() { items.append(item) }
        #expect(items.count == 2)
        #expect(items.first == .problem("\(path):1: not a score record (longer than 8 MiB; not read)"))
        if case .record(let record) = items.last {
            #expect(record.id == id)
        } else {
            Issue.record("\(items.last!)")
        }
        #expect(reader.lineNumber == 2)
    }

    @Test("an over-long CSV record whose quoted field holds line breaks is passed over to its real end")
    func overlongCSVRecord() throws {
        let folder = try makeTemporaryFolder()
        let path = folder.appendingPathComponent("long.csv").path
        let id = UUID()
        let field = "\"x\ny" + String(repeating: "z", count: 9 << 20) + "\nw,\"\"still inside\"\"\""
        let text =
            "id,name,points,uploadedAt\n\(UUID().uuidString),\(field),1,2026-01-01T00:00:00.000Z\n"
            + "\(id.uuidString),B,1,2026-01-01T00:00:00.000Z\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let reader = try ScoreFileReader(path: path)
        var items: [ScoreFileReader.Item] = []
        while let item = try reader.next() { items.append(item) }
        #expect(items.count == 2)
        #expect(items.first == .problem("\(path):2: not a score record (longer than 8 MiB; not read)"))
        if case .record(let record) = items.last {
            #expect(record.id == id)
        } else {
            Issue.record("\(items)")
        }
        #expect(reader.lineNumber == 5)
    }

    @Test("a byte order mark before the first line is not part of it, in JSON Lines and in CSV")
    func byteOrderMark() throws {
        let folder = try makeTemporaryFolder()
        let id = UUID()
        let record = ScoreRecord(
            id: id, name: "B", points: 1, uploadedAt: Timestamp.date("2026-01-01T00:00:00.000Z")!)
        for (name, text) in [
            (
                "bom.jsonl",
                #"{"id":"\#(id.uuidString)","name":"B","points":1,"uploadedAt":"2026-01-01T00:00:00.000Z"}"#
            ),
            ("bom.csv", "id,name,points,uploadedAt\n\(id.uuidString),B,1,2026-01-01T00:00:00.000Z"),
        ] {
            let path = folder.appendingPathComponent(name).path
            try Data([0xEF, 0xBB, 0xBF] + Array(text.utf8)).write(to: URL(fileURLWithPath: path))
            let reader = try ScoreFileReader(path: path)
            var items: [ScoreFileReader.Item] = []
            while let item = try reader.next() { items.append(item) }
            #expect(items == [.record(record)], "\(name)")
        }
    }

    @Test("a line that is JSON but no score record says which field is wrong and what it takes")
    func fieldReasons() throws {
        let folder = try makeTemporaryFolder()
        let path = folder.appendingPathComponent("in.jsonl").path
        let good = #""name":"x","points":1"#
        let lines = [
            #"{"id":"not-a-uuid",\#(good),"uploadedAt":"2026-01-01T00:00:00.000Z"}"#,
            #"[1, 2, 3]"#,
            #"{"id":"\#(UUID().uuidString)",\#(good),"uploadedAt":5}"#,
        ]
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
        let reader = try ScoreFileReader(path: path)
        var reasons: [String] = []
        while let item = try reader.next() {
            if case .problem(let text) = item { reasons.append(String(text.dropFirst(path.count + 4))) }
        }
        #expect(
            reasons == [
                #"not a score record (invalid id: expected a UUID in a string, such as "3F2504E0-4F89-11D3-9A0C-0305E82C3301")"#,
                #"not a score record (not one JSON object; a record is {"id": ..., "name": ..., "points": ..., "uploadedAt": ...})"#,
                #"not a score record (invalid uploadedAt: expected a time in a string, ISO 8601 in UTC with milliseconds, such as "2026-11-21T07:13:09.123Z")"#,
            ])
    }

    @Test(
        "the tombstones of a file are found wherever their mark falls in the quick scan's reads of 1 MiB",
        arguments: [-8, -5, -1, 0, 1])
    func deletionMarkAcrossReads(shift: Int) throws {
        let folder = try makeTemporaryFolder()
        let path = folder.appendingPathComponent("in.jsonl").path
        let id = UUID()
        let tombstone =
            #"{"deletedAt":"2026-11-21T07:20:00.000Z","ids":["\#(id.uuidString)"],"kind":"delete"}"#
        let markOffset = Array(tombstone.utf8).count - #""delete"}"#.utf8.count
        // Filler lines, then one padding line, so that the mark starts `shift` bytes from 1 MiB.
        let filler = String(repeating: "x", count: 999) + "\n"
        var text = String(repeating: filler, count: 1_000)
        let padding = (1 << 20) + shift - text.utf8.count - markOffset - 1
        text += String(repeating: "y", count: padding) + "\n" + tombstone + "\n"
        #expect(Array(text.utf8)[(1 << 20) + shift] == UInt8(ascii: "\""))
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try ScoreFileReader.deletedIDs(in: path) == [id])
        // Without the mark, nothing is deleted.
        try Data(text.replacingOccurrences(of: #""delete""#, with: #""delets""#).utf8)
            .write(to: URL(fileURLWithPath: path))
        #expect(try ScoreFileReader.deletedIDs(in: path) == [])
    }

    @Test("the pass for tombstones stops at the first time it is told to, for a file of several MiB")
    func deletionPassStops() throws {
        let path = NSTemporaryDirectory() + "pf-tombstones-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let id = UUID()
        let record =
            #"{"id":"\#(UUID().uuidString)","name":"Ann","points":5,"uploadedAt":"2026-01-01T00:00:00.000Z"}"#
        let tombstone =
            #"{"deletedAt":"2026-01-01T00:00:03.000Z","ids":["\#(id.uuidString)"],"kind":"delete"}"#
        let text = String(repeating: record + "\n", count: 30_000) + tombstone + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try ScoreFileReader.deletedIDs(in: path, shouldStop: { false }) == [id])
        // Told to stop during the scan for the mark (a question a MiB) or the pass over the lines
        // (a question a line).
        for stopAt in [1, 2, 3, 50] {
            var questions = 0
            let ids = try ScoreFileReader.deletedIDs(
                in: path,
                shouldStop: {
                    questions += 1
                    return questions >= stopAt
                })
            #expect(ids == nil, "stopping at question \(stopAt)")
            #expect(questions == stopAt)
        }
    }
}
