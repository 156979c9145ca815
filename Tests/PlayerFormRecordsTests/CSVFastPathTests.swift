import PlayerFormRules
import PropertyBased
import Testing

@testable import PlayerFormRecords

/// Pieces of CSV lines: text, commas, quotes (alone and doubled), spaces, tabs, a carriage return,
/// points-like text, UTF-8 good and bad, and runs long enough to cross 16-byte blocks.
private let linePieces: [[UInt8]] =
    [
        "a", "Ann", ",", ",", "\"", "\"\"", " ", "\t", "\r", "1", "-0.5", "+.5", "7.", "1e3", "NaN", "é",
        "ｄａｒｎ", "darn", "poop", "0123456789abcdef", ",,,,,,,,,,,,,,,,,",
    ].map { Array($0.utf8) } + [[0xC3, 0x28], [0xFF]]

/// Random CSV text: lines of the pieces above, blank lines, and a last line with or without its
/// line break.
private let csvText = Gen.element(of: linePieces).map { $0! }.array(of: 0...12).map { Array($0.joined()) }
    .array(of: 0...12).map { lines in Array(lines.joined(separator: [0x0A])) }

/// The column layouts a header can give: two to four fields, name and points anywhere.
private let layouts = [
    CSVColumns(count: 2, name: 0, points: 1), CSVColumns(count: 2, name: 1, points: 0),
    CSVColumns(count: 3, name: 2, points: 0), CSVColumns(count: 4, name: 1, points: 3),
]

/// What checking `bytes` as one chunk of CSV records finds, its lines numbered from 2 (after a
/// header) or, when `startsInput`, from 1 with a byte order mark dropped, with lines split where
/// they lie or not.
private func checked(
    _ bytes: [UInt8], columns: CSVColumns, limit: Int, splitWhereTheyLie: Bool, startsInput: Bool = false
) -> (ValidationTally, [Finding]) {
    var checker = ChunkChecker(
        validator: BatchValidator(rules: .defaults), format: .csv(columns), maximumLineLength: limit)
    checker.plainCSVLines = splitWhereTheyLie
    let outcome = bytes.withUnsafeBufferPointer {
        checker.check(
            $0, linesBefore: startsInput ? 0 : 1, bytesBefore: startsInput ? 0 : 12, file: "in.csv",
            reporting: true)
    }
    return (outcome.tally, outcome.findings)
}

/// Short decimal numbers: a sign, 0 to 17 digits and a point somewhere among them or none, and now
/// and then a byte that makes them something else.
private let shortNumbers = zip(
    Gen.element(of: ["", "-", "+"]).map { $0! }, Gen.int(in: 0...9).array(of: 0...17),
    Gen.int(in: -1...18), Gen.element(of: ["", "", "", "e1", ".", " ", "x", "5"]).map { $0! }
).map { sign, digits, point, tail -> [UInt8] in
    var text = digits.map { UInt8(ascii: "0") + UInt8($0) }
    if point >= 0 && point <= text.count { text.insert(UInt8(ascii: "."), at: point) }
    return Array(sign.utf8) + text + Array(tail.utf8)
}

@Suite("CSV lines split where they lie")
struct CSVFastPathTests {
    @Test("random CSV lines give the counts and findings, line numbers and messages of the general reader")
    func sameAsGeneralReader() async {
        await propertyCheck(
            count: 2000, input: csvText, Gen.int(in: 0..<layouts.count), Gen.int(in: 0...2),
            Gen.int(in: 0...3)
        ) { text, layout, limitChoice, start in
            let limit = [8 << 20, 20, 40][limitChoice]
            // Now and then the chunk starts the input, with or without a byte order mark.
            let startsInput = start > 1
            let bytes = (start == 3 ? [0xEF, 0xBB, 0xBF] : []) + text
            let fast = checked(
                bytes, columns: layouts[layout], limit: limit, splitWhereTheyLie: true,
                startsInput: startsInput)
            let general = checked(
                bytes, columns: layouts[layout], limit: limit, splitWhereTheyLie: false,
                startsInput: startsInput)
            #expect(fast.0 == general.0, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
            #expect(fast.1 == general.1, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
    }

    @Test(
        "lines at the length limit, with and without a carriage return, and past it, are read as in general")
    func linesAtTheLimit() {
        let columns = CSVColumns(count: 2, name: 0, points: 1)
        for length in 17...21 {
            for ending in ["\n", "\r\n", ""] {
                let line = String(repeating: "n", count: length - 2) + ",1"
                let bytes = Array((line + ending + "a,2\n").utf8)
                let fast = checked(bytes, columns: columns, limit: 19, splitWhereTheyLie: true)
                let general = checked(bytes, columns: columns, limit: 19, splitWhereTheyLie: false)
                #expect(
                    fast.0 == general.0 && fast.1 == general.1, "\(length) bytes, \(ending.debugDescription)")
            }
        }
        // The limit holds the content, not its carriage return.
        let atLimit = checked(
            Array("nnnnnnnnnnnnnnnnn,1\r\n".utf8), columns: columns, limit: 19, splitWhereTheyLie: true)
        #expect(atLimit.0.records == 1 && atLimit.0.invalid == 0)
    }

    @Test("lines without quotes, and with quotes only around whole fields, are split where they lie")
    func commonLinesTakeTheFastWay() {
        let columns = CSVColumns(count: 3, name: 1, points: 2)
        // The line's length and its name and points fields, when it takes the fast way; `after`
        // follows the line in the chunk.
        func fields(_ line: String, after: String = "") -> [String]? {
            let bytes = Array((line + after).utf8)
            return bytes.withUnsafeBufferPointer { rest in
                CSVFields.plainFields(startOf: rest, columns: columns, limit: 100).map {
                    [
                        "\($0.length)", String(decoding: $0.name, as: UTF8.self),
                        String(decoding: $0.points, as: UTF8.self),
                    ]
                }
            }
        }
        #expect(fields("t,Ann,12") == ["8", "Ann", "12"])
        #expect(fields("t,Ann,12", after: "\nx,\"y\",z,,,,,,,,,,,,,,,,,,,") == ["8", "Ann", "12"])
        #expect(fields("t,Ann,12\r", after: "\n") == ["9", "Ann", "12"])
        #expect(
            fields("team of the year,a much longer name,12.5", after: "\n1,2,3") == [
                "40", "a much longer name", "12.5",
            ])
        #expect(fields("\"t\",\" a, b \",\"7\"", after: "\n") == ["16", " a, b ", "7"])
        #expect(fields("t,,") == ["3", "", ""])
        // The general way: a doubled quote, a quote inside a field, a field going on to the
        // next line, text after a closing quote, a wrong number of fields, a line over the limit.
        #expect(fields("t,\"a \"\"b\"\"\",1") == nil)
        #expect(fields("t,a\"b,1", after: "\n") == nil)
        #expect(fields("t,\"a,1", after: "\n\",2") == nil)
        #expect(fields("t,\"a\"x,1") == nil)
        #expect(fields("t,a,1,2") == nil)
        #expect(fields("t,a", after: "\n,1") == nil)
        #expect(fields("t," + String(repeating: "n", count: 99) + ",1") == nil)
    }

    @Test(
        "a short number read in one pass is the value of checking its grammar and converting it, bit for bit")
    func shortNumbersSameAsGeneral() async {
        await propertyCheck(count: 4000, input: shortNumbers) { text in
            text.withUnsafeBufferPointer { bytes in
                guard case .value(let fast)? = CSVNumber.parseShort(bytes) else { return }
                guard case .value(let general) = CSVNumber.parseGenerally(bytes) else {
                    Issue.record("read in one pass but not valid: \(String(decoding: text, as: UTF8.self))")
                    return
                }
                #expect(fast.bitPattern == general.bitPattern, "\(String(decoding: text, as: UTF8.self))")
            }
        }
        for text in ["0", "-0", "+.5", "7.", "-0.5", "123456789012345", "1000.0"] {
            let fast = Array(text.utf8).withUnsafeBufferPointer { CSVNumber.parseShort($0) }
            #expect(fast != nil, "\(text) takes the one-pass way")
        }
        for text in ["", ".", "-", "1e3", "NaN", "1234567890123456", "1.2.3", " 1"] {
            let fast = Array(text.utf8).withUnsafeBufferPointer { CSVNumber.parseShort($0) }
            #expect(fast == nil, "\(text) takes the general way")
        }
    }
}
