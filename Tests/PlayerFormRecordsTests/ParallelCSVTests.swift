import PlayerFormRecords
import PropertyBased
import Testing

/// Header rows: plain, with a byte order mark and CRLF, after blank lines, quoted, and ones that
/// make the input unusable (a title holding a line break, titles that are not name and points).
private let headers: [String] = [
    "name,points\n",
    "\u{FEFF}team,points,name\r\n",
    "\n  \t\r\n name , points \n",
    "\"name\",\"points\"\r\n",
    "\"na\nme\",points\n",
    "nom,pts\n",
]

/// Records of every kind a CSV input may hold: valid and invalid ones, quoted fields with commas,
/// doubled quotes and line breaks (LF and CRLF), blank lines, quotes where they may not be, wrong
/// field counts, bad numbers and UTF-8, lines and multi-line records longer than the limits, and a
/// last line without its line break.
private let recordKinds: [[UInt8]] =
    [
        "Ann,1\n",
        "darn,2\r\n",
        "\"a,\"\"b\"\"\nc\",3\n",
        "\"multi\r\nline\r\n\",4\r\n",
        "\n",
        "  \t\r\n",
        "a\"b,5\n",
        "\"x\"y,6\n",
        "\"x\"\r,6\n",
        "Zoë,7\n",
        "ｄａｒｎ,8\n",
        "bad,abc\n",
        "empty,\n",
        "nan,NaN\n",
        "inf, -Infinity \n",
        "x,1,2\n",
        "\"\",1e3\n",
        "\"" + String(repeating: "x", count: 60) + "\",9\n",
        String(repeating: "y", count: 130) + ",9\n",
        "\"" + String(repeating: "long line, \"\"q\"\"\n", count: 8) + "\",10\n",
        "\"\n\n\n,\",11\n",
        "last,12",
    ].map { Array($0.utf8) } + [[0xC3, 0x28, 0x2C, 0x31, 0x0A], [0x22, 0xFF, 0x22, 0x2C, 0x32, 0x0A]]

/// Characters that matter to CSV, for lines of random text: quotes may open fields that never
/// close, which must then run to the end of the input in both readers.
private let noise = Gen.element(of: Array("ab,\"\n\r 1é")).map { $0! }.string(of: 0...40)

private let records = Gen.element(of: recordKinds).map { $0! }.array(of: 0...30)

@Suite("CSV checked on every core")
struct ParallelCSVTests {
    @Test(
        "chunks that end outside quotes give the counts, findings, line numbers and order of the one-record-at-a-time reader"
    )
    func sameAsSequential() async {
        await propertyCheck(
            count: 400, input: records, noise, Gen.int(in: 1...97), Gen.int(in: 16...300),
            Gen.int(in: 0..<(headers.count * 12))
        ) { records, noise, readSize, chunkSize, variant in
            // Limits below and above some records' length, the format given or told from the header,
            // findings reported or only counted, random text among the records or after them.
            let limit = [8 << 20, 40, 100][variant % 3]
            let format: RecordFormat? = variant / 3 % 2 == 0 ? .csv : nil
            let reporting = variant / 6 % 2 == 0
            let header = Array(headers[variant / 12].utf8)
            let middle = reporting ? records.count / 2 : records.count
            let bytes =
                header + records[..<middle].joined() + Array(noise.utf8) + records[middle...].joined()
            let (expected, found) = bothWays(
                bytes, format: format, readSize: readSize, chunkSize: chunkSize, limit: limit,
                reporting: reporting)
            #expect(found == expected, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
    }

    @Test(
        "an input of known size is checked in one chunk on this thread, or in chunks when it is or grows longer, with the same answers"
    )
    func knownSize() async {
        await propertyCheck(
            count: 300, input: records, noise, Gen.int(in: 1...97), Gen.int(in: 16...900), Gen.int(in: 0...3),
            Gen.int(in: 1...300)
        ) { records, noise, readSize, chunkSize, variant, offset in
            let bytes = Array(headers[0].utf8) + records.joined() + Array(noise.utf8)
            let (expected, found) = bothWays(
                bytes, format: .csv, size: saidSize(bytes.count, variant: variant, offset: offset),
                readSize: readSize, chunkSize: chunkSize, limit: 100)
            #expect(found == expected, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
    }

    @Test("a large CSV input with multi-line records over many chunks gives the same findings as one thread")
    func manyChunks() {
        var text = "name,points\n"
        for index in 0..<20_000 {
            switch index % 9 {
            case 0: text += "darn,\(index)\n"
            case 3: text += "\"p, \"\"\(index)\"\"\r\nsecond line\",\(index % 10_001)\r\n"
            case 5: text += "\"\(index)\"x,1\n"
            default: text += "p\(index),\(index % 10_001)\n"
            }
            if index % 1000 == 0 { text += "\n" }
        }
        let bytes = Array(text.utf8)
        let (expected, found) = bothWays(bytes, format: .csv, readSize: 4093, chunkSize: 8192, limit: 8 << 20)
        #expect(expected.tally.records == 20_000)
        #expect(expected.findings.count > 4000)
        #expect(found == expected)
    }

    @Test("--unique: CSV chunks tell the same players already seen as the one-record-at-a-time reader")
    func uniqueSameAsSequential() async {
        await propertyCheck(
            count: 300, input: records, noise, Gen.int(in: 1...97), Gen.int(in: 16...300), Gen.int(in: 0..<4)
        ) { records, noise, readSize, chunkSize, header in
            let bytes = Array(headers[header].utf8) + records.joined() + Array(noise.utf8)
            let (expected, found) = bothWays(
                bytes, format: nil, readSize: readSize, chunkSize: chunkSize, limit: 100, unique: true)
            #expect(found == expected, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
    }

    @Test(
        "a CSV separated by semicolons, told from its header, reads as the same CSV with commas, both ways"
    )
    func semicolons() async {
        await propertyCheck(
            count: 300, input: records, noise, Gen.int(in: 1...97), Gen.int(in: 16...300), Gen.int(in: 0..<4)
        ) { records, noise, readSize, chunkSize, header in
            let bytes = Array(headers[header].utf8) + records.joined() + Array(noise.utf8)
            // Commas and semicolons trade places: the same records, separated by semicolons.
            let swapped = bytes.map {
                $0 == UInt8(ascii: ",") ? UInt8(ascii: ";") : $0 == UInt8(ascii: ";") ? UInt8(ascii: ",") : $0
            }
            let commas = sequential(bytes, format: nil, readSize: readSize, limit: 100, reporting: true)
            let (expected, found) = bothWays(
                swapped, format: nil, readSize: readSize, chunkSize: chunkSize, limit: 100)
            #expect(found == expected, "\(String(decoding: swapped, as: UTF8.self).debugDescription)")
            #expect(expected.tally.records == commas.tally.records)
            #expect(expected.tally.invalid == commas.tally.invalid)
            #expect(expected.findings.map(\.line) == commas.findings.map(\.line))
            #expect(expected.findings.map(\.offset) == commas.findings.map(\.offset))
            #expect(
                expected.findings.map { $0.problems.map(\.code) }
                    == commas.findings.map { $0.problems.map(\.code) })
            #expect(
                expected.valid.count == commas.valid.count && expected.rejected.count == commas.rejected.count
            )
        }
    }

    @Test("points with a decimal comma read as with a point when fields are separated by semicolons or tabs")
    func decimalComma() {
        for header in ["Name;Points\r\n", "name\tpoints\n"] {
            let delimiter = header.contains(";") ? ";" : "\t"
            let text =
                header + ["Ann", "3,5"].joined(separator: delimiter) + "\n"
                + ["Bob", "-0,25"].joined(separator: delimiter) + "\n"
                + ["Cy", "1,2,3"].joined(separator: delimiter)
                + "\n" + ["Di", "1,5.0"].joined(separator: delimiter) + "\n"
                + ["Ed", "\"20000,5\""].joined(separator: delimiter) + "\n"
            let (expected, found) = bothWays(
                Array(text.utf8), format: .csv, readSize: 7, chunkSize: 32, limit: 100)
            #expect(found == expected)
            #expect(expected.tally.records == 5)
            // -0,25 is read, and below the minimum.
            #expect(expected.findings.map(\.line) == [3, 4, 5, 6])
            #expect(
                expected.findings.map { $0.problems.map(\.code) } == [
                    ["belowMin"], ["malformed"], ["malformed"], ["aboveMax"],
                ])
        }
        // With commas between fields, a comma in points is a field of its own.
        let commas = sequential(
            Array("name,points\nAnn,\"3,5\"\n".utf8), format: .csv, readSize: 64, limit: 100, reporting: true)
        #expect(commas.findings.map { $0.problems.map { $0.code } } == [["malformed"]])
    }

    @Test("reading that fails inside a quoted field keeps only the records complete before it")
    func failureInsideQuotedField() {
        let input = FailingSource("name,points\n\"\"\"a\"\"\",1\n\"open,\n\nstill open")
        let expected = sequential(input, format: .csv)
        let found = parallel(input, format: .csv, chunkSize: 1 << 16, limit: 8 << 20, reporting: true)
        #expect(expected.ending == .failed(5))
        #expect(expected.tally.records == 1)
        #expect(found == expected)
        let inOneChunk = parallel(
            input, format: .csv, size: 60, chunkSize: 1 << 16, limit: 8 << 20, reporting: true)
        #expect(inOneChunk == expected)
    }
}
