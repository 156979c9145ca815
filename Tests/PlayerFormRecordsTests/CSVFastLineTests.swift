import PlayerFormRules
import PropertyBased
import Testing

@testable import PlayerFormRecords

/// Names of two-field lines: plain, blank, forbidden, beyond ASCII, broken UTF-8, quoted whole,
/// with doubled quotes, with a lone or misplaced quote, with a comma, long enough to end the line
/// past the window.
private let fastNames: [[UInt8]] =
    [
        "Ann", "", "   ", "darn", "DaRn", " poop ", "Zoë", "名前", "ｄａｒｎ", "\"Ann\"", "\"   \"", "\"\"",
        "\"Jean \"\"JJ\"\" Jacques\"", "\"a\"\"\"", "\"\"\"", "\"a\"b\"", "a\"b", "\"a\" ", " \"a\"",
        "\"a,b\"",
        "a,b", "tab\there", "a\u{1}b", "\"Zoë\"", String(repeating: "n", count: 26),
    ].map { Array($0.utf8) } + [[0xC3, 0x28], [0x22, 0xFF, 0x22], [0xED, 0xA0, 0x80]]

/// Points of two-field lines: the short forms, with spaces or tabs around them, and forms only
/// the general way reads or rejects.
private let fastPoints = [
    "0", "-0", "42", "-3", "250.5", "-0.5", "1000.0", "10001", "+.5", "7.", ".", "-", "", " 12 ", "\t5",
    "12345678", "123456789", "1.2.3", "1e3", "NaN", "-inf", "0x1", "\"5\"", "1 2",
].map { Array($0.utf8) }

/// Chunks of two-field lines, most of them of the kind read in one look, with line breaks, CRLF,
/// and now and then a line of three fields or a blank one.
private let fastText = zip(
    Gen.int(in: 0..<fastNames.count), Gen.int(in: 0..<fastPoints.count), Gen.int(in: 0...9)
).map { name, points, shape -> [UInt8] in
    let ending: [UInt8] = shape == 1 ? [0x0D, 0x0A] : [0x0A]
    switch shape {
    case 2: return fastNames[name] + Array(",".utf8) + fastPoints[points] + Array(",x".utf8) + ending
    case 3: return ending
    default: return fastNames[name] + Array(",".utf8) + fastPoints[points] + ending
    }
}
.array(of: 1...16).map { Array($0.joined()) }

/// What checking `bytes` as one chunk of CSV records of two fields finds, lines numbered from 2,
/// with lines read where they lie or not.
private func checked(_ bytes: [UInt8], columns: CSVColumns, limit: Int, whereTheyLie: Bool) -> ChunkOutcome {
    var checker = ChunkChecker(
        validator: BatchValidator(rules: .defaults), format: .csv(columns), maximumLineLength: limit)
    checker.plainCSVLines = whereTheyLie
    return bytes.withUnsafeBufferPointer {
        checker.check($0, linesBefore: 1, bytesBefore: 12, file: "in.csv", reporting: true)
    }
}

/// Short numbers and what may follow them in the eight bytes read: a sign, up to ten digits, a
/// point anywhere or none, now and then another byte, then bytes that are not part of the text.
private let wordNumbers = zip(
    Gen.element(of: ["", "-", "+"]).map { $0! }, Gen.int(in: 0...9).array(of: 0...10), Gen.int(in: -1...11),
    Gen.element(of: ["", "", "", ".", "e", " ", "/", ":", "-"]).map { $0! },
    Gen.int(in: 0...255).array(of: 8...8)
).map { sign, digits, point, tail, after -> (text: [UInt8], after: [UInt8]) in
    var text = digits.map { UInt8(ascii: "0") + UInt8($0) }
    if point >= 0 && point <= text.count { text.insert(UInt8(ascii: "."), at: point) }
    return (Array(sign.utf8) + text + Array(tail.utf8), after.map { UInt8($0) })
}

@Suite("CSV lines of two fields read in one look")
struct CSVFastLineTests {
    @Test(
        "random two-field lines give the counts and findings, line numbers and messages of the general reader"
    )
    func sameAsGeneralReader() async {
        await propertyCheck(count: 3000, input: fastText, Gen.int(in: 0...1), Gen.int(in: 0...2)) {
            text, order, limitChoice in
            let columns =
                order == 0
                ? CSVColumns(count: 2, name: 0, points: 1) : CSVColumns(count: 2, name: 1, points: 0)
            let limit = [8 << 20, 12, 24][limitChoice]
            let fast = checked(text, columns: columns, limit: limit, whereTheyLie: true)
            let general = checked(text, columns: columns, limit: limit, whereTheyLie: false)
            let shown = String(decoding: text, as: UTF8.self).debugDescription
            #expect(fast.tally == general.tally, "\(shown)")
            #expect(fast.findings == general.findings, "\(shown)")
        }
    }

    @Test("which lines are read in one look, with their length, name and points")
    func linesReadInOneLook() {
        // The line's length, name and points when it is read in one look; 32 bytes of padding
        // follow it, as a line within 32 bytes of the chunk's end is left to the other ways.
        func read(_ line: String, nameFirst: Bool = true, limit: Int = 100) -> [String]? {
            var reader = CSVFastLine(nameFirst: nameFirst)
            let bytes = Array((line + String(repeating: "x", count: 32)).utf8)
            return bytes.withUnsafeBufferPointer { rest in
                reader.record(startOf: rest, limit: limit).map {
                    ["\($0.length)", String(decoding: $0.name, as: UTF8.self), "\($0.points)"]
                }
            }
        }
        #expect(read("Ann,12\n") == ["6", "Ann", "12.0"])
        #expect(read("Ann,-0.5\r\n") == ["9", "Ann", "-0.5"])
        #expect(read("12, Ann\n", nameFirst: false) == ["7", " Ann", "12.0"])
        #expect(read("Ann, 7. \t\n") == ["9", "Ann", "7.0"])
        #expect(read("\" poop \",1\n") == ["10", " poop ", "1.0"])
        #expect(read("\"Jean \"\"JJ\"\" Jacques\",1\n") == ["23", "Jean \"JJ\" Jacques", "1.0"])
        #expect(read("5,\"a\"\"\"\r\n", nameFirst: false) == ["8", "a\"", "5.0"])
        #expect(read("名前,1e3\n") == ["10", "名前", "1000.0"])
        #expect(read(",\n") == nil, "empty points: the general way says so")
        #expect(read("Ann\n") == nil, "one field")
        #expect(read("a,b,1\n") == nil, "three fields")
        #expect(read("\"a,b\",1\n") == nil, "a comma inside quotes")
        #expect(read("\"a\"b,1\n") == nil, "text after a closing quote")
        #expect(read("\"a\"\"\",1\n", nameFirst: false) == nil, "quotes around the points")
        #expect(read("\"\"\",1\n") == nil, "a lone quote")
        #expect(read("Ann,x\n") == nil, "points that are no number")
        #expect(read("Ann,1\n", limit: 4) == nil, "a line over the limit")
        #expect(read("Ann,1\r\n", limit: 5) == ["6", "Ann", "1.0"], "the limit counts no carriage return")
        #expect(read(String(repeating: "n", count: 30) + ",1\n") == nil, "a line ending past 32 bytes")
        #expect(
            read(String(repeating: "n", count: 29) + ",1\n") == [
                "31", String(repeating: "n", count: 29), "1.0",
            ])
        let short = Array("Ann,1\n".utf8)
        var reader = CSVFastLine(nameFirst: true)
        #expect(
            short.withUnsafeBufferPointer { reader.record(startOf: $0, limit: 100) } == nil, "near the end")
    }

    @Test("a short number read as one word is the value the one-pass reader gives, bit for bit")
    func wordNumbersSameAsOnePass() async {
        await propertyCheck(count: 6000, input: wordNumbers) { number in
            let bytes = number.text + number.after
            bytes.withUnsafeBufferPointer { buffer in
                let text = UnsafeBufferPointer(rebasing: buffer[..<number.text.count])
                let word =
                    number.text.count <= 8
                    ? CSVFastLine.shortNumber(buffer.baseAddress!, count: text.count) : nil
                let shown = String(decoding: number.text, as: UTF8.self)
                guard let word else {
                    // Up to eight bytes, only what the one-pass reader refuses is refused.
                    if number.text.count <= 8, case .value = CSVNumber.parseShort(text) {
                        Issue.record("refused as one word but read in one pass: \(shown)")
                    }
                    return
                }
                guard case .value(let onePass)? = CSVNumber.parseShort(text) else {
                    Issue.record("read as one word but refused in one pass: \(shown)")
                    return
                }
                #expect(word.bitPattern == onePass.bitPattern, "\(shown)")
            }
        }
    }

    @Test(
        "the classes of 32 bytes are where their line breaks, delimiters, quotes and bytes beyond ASCII are"
    )
    func byteClasses() async {
        let kinds: [UInt8] = [0x0A, 0x2C, 0x3B, 0x09, 0x22, 0x80, 0xFF, 0x41, 0x0D, 0x7F]
        await propertyCheck(
            count: 500, input: Gen.int(in: 0..<kinds.count).array(of: 32...32),
            Gen.element(of: CSVDelimiter.allCases)
        ) { picks, delimiter in
            let delimiter = delimiter!.rawValue
            let bytes = picks.map { kinds[$0] }
            func bitsWhere(_ test: (UInt8) -> Bool) -> UInt32 {
                bytes.enumerated().reduce(UInt32(0)) { $0 | (test($1.element) ? 1 << UInt32($1.offset) : 0) }
            }
            let expected = ByteClasses(
                lineBreaks: bitsWhere { $0 == 0x0A }, delimiters: bitsWhere { $0 == delimiter },
                quotes: bitsWhere { $0 == 0x22 },
                beyondASCII: bitsWhere { $0 >= 0x80 })
            bytes.withUnsafeBufferPointer { buffer in
                // The classes used on this machine, and the Swift ones used where SSE2 is not.
                #expect(ByteClasses(buffer.baseAddress!, delimiter: delimiter) == expected, "\(bytes)")
                #expect(ByteClasses.packed(buffer.baseAddress!, delimiter: delimiter) == expected, "\(bytes)")
            }
        }
    }

    @Test("a comparison of 16 bytes packs into one bit a byte, in memory order")
    func packedBits() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...3).array(of: 16...16)) { lanes in
            let bytes = SIMD16<UInt8>(lanes.map { UInt8(10 * $0) })
            let packed = ByteClasses.packed(bytes .== SIMD16(repeating: 10))
            let expected = lanes.enumerated().reduce(UInt64(0)) {
                $0 | ($1.element == 1 ? 1 << $1.offset : 0)
            }
            #expect(packed == expected, "\(lanes)")
        }
    }
}
