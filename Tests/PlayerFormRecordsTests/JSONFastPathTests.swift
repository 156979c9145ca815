import PlayerFormRules
import PropertyBased
import Testing

@testable import PlayerFormRecords

/// Pieces of JSON Lines: the structure's bytes, the keys, spaces, tabs and carriage returns,
/// escapes good and bad, numbers of every form, other values, UTF-8 good and bad, a control
/// character, forbidden names, runs long enough to cross 8-byte words, and whole records.
private let jsonPieces: [[UInt8]] =
    [
        "{", "}", "\"name\"", "\"points\"", "\"team\"", "\"nam\"", "\"names\"", "\"pointsx\"", ":", ",", " ",
        "  ", "\t", "\r", "\"", "\\", "\\\"", "\\\\", "\\t", "\\u00e9", "\\ud83d\\ude00", "\\ud83d", "\\x",
        "1", "-0.5", "01", "1e3", "1.", "-", "0", "123456789012345", "1234567890123456", "1.5E2", "true",
        "null", "[1,2]", "{\"a\":1}", "é", "名前", "darn", "ｄａｒｎ", "Colin", "0123456789abcdef",
        "{\"name\": \"Ann\", \"points\": 5}", "{\"points\": 1.5, \"team\": \"x\", \"name\": \"B\\\"o\"}",
        "{\"name\":\"", "\", \"points\": 2}",
    ].map { Array($0.utf8) } + [[0xC3, 0x28], [0xFF], [0x01], [0xED, 0xA0, 0x80]]

/// Random JSON Lines text: lines of the pieces above, blank lines, and a last line with or without
/// its line break.
private let jsonText = Gen.element(of: jsonPieces).map { $0! }.array(of: 0...14).map { Array($0.joined()) }
    .array(of: 0...10).map { lines in Array(lines.joined(separator: [0x0A])) }

/// Names: plain, escaped, beyond ASCII, broken, blank, forbidden, long.
private let names = [
    "Ann", "", "   ", "Jean \\\"JJ\\\" Jacques", "back\\\\slash", "tab\\there", "\\u540d\\u524d", "Ünïcödé",
    "名前", "darn", "DaRn", "ｄａｒｎ", "d\\u200barn", "\\ud83d", "a\"b", "a\u{1}b", "a\\qb",
    String(repeating: "x", count: 40), "O'Brien",
]

/// Numbers: short forms, and forms only the general way reads or rejects.
private let numbers = [
    "0", "-0", "42", "-3", "250.5", "-0.5", "1000.0", "10001", "123456789012345", "1234567890123456",
    "0.000000000000001", "1e3", "1E-2", "01", "1.", ".5", "-", "+1", "\"5\"", "true", "null",
]

/// Records most of which take the fast way: the keys in any order, with or without another
/// member, spaces (now and then a tab) between the parts, a line break or CRLF or none.
private let records = zip(
    Gen.int(in: 0..<names.count), Gen.int(in: 0..<numbers.count), Gen.int(in: 0...5), Gen.int(in: 0...6),
    Gen.int(in: 0...5)
).map { name, number, order, spacing, ending -> [UInt8] in
    let space = ["", " ", "  ", " ", "", "\t", " "][spacing]
    let nameMember = "\"name\"\(space):\(space)\"\(names[name])\""
    let pointsMember = "\"points\"\(space):\(space)\(numbers[number])"
    let other = "\"team\":\(space)\"blue\""
    let members = [
        [nameMember, pointsMember], [pointsMember, nameMember], [pointsMember, other, nameMember],
        [nameMember, other, pointsMember], [nameMember], [nameMember, pointsMember, nameMember],
    ][order]
    let line = "{" + space + members.joined(separator: "," + space) + space + "}"
    return Array((line + ["\n", "\n", "\r\n", "", " \n", "x\n"][ending]).utf8)
}
.array(of: 1...12).map { Array($0.joined()) }

/// What checking `bytes` as one chunk of JSON Lines finds, its lines numbered from 11 or, when
/// `startsInput`, from 1 with a byte order mark dropped, with records read where they lie or not.
private func checked(
    _ bytes: [UInt8], limit: Int, whereTheyLie: Bool, startsInput: Bool = false
) -> (ValidationTally, [Finding]) {
    var checker = ChunkChecker(
        validator: BatchValidator(rules: .defaults), format: .jsonLines, maximumLineLength: limit)
    checker.plainJSONLines = whereTheyLie
    let outcome = bytes.withUnsafeBufferPointer {
        checker.check(
            $0, linesBefore: startsInput ? 0 : 10, bytesBefore: startsInput ? 0 : 300, file: "in.jsonl",
            reporting: true)
    }
    return (outcome.tally, outcome.findings)
}

@Suite("JSON Lines records read where they lie")
struct JSONFastPathTests {
    /// Checks `bytes` both ways, as a chunk in the middle of the input and as its start, with
    /// and without a byte order mark, and expects the same counts and findings.
    func expectSameBothWays(_ bytes: [UInt8], limit: Int) {
        for start in 0...2 {
            let input = (start == 2 ? [0xEF, 0xBB, 0xBF] : []) + bytes
            let fast = checked(input, limit: limit, whereTheyLie: true, startsInput: start > 0)
            let general = checked(input, limit: limit, whereTheyLie: false, startsInput: start > 0)
            #expect(fast.0 == general.0, "\(String(decoding: input, as: UTF8.self).debugDescription)")
            #expect(fast.1 == general.1, "\(String(decoding: input, as: UTF8.self).debugDescription)")
        }
    }

    @Test("random lines give the counts and findings, line numbers and messages of the general reader")
    func randomPiecesSameAsGeneral() async {
        await propertyCheck(count: 2000, input: jsonText, Gen.int(in: 0...2)) { text, limitChoice in
            expectSameBothWays(text, limit: [8 << 20, 20, 40][limitChoice])
        }
    }

    @Test("random records, nearly all of the common shape, are read as the general reader reads them")
    func randomRecordsSameAsGeneral() async {
        await propertyCheck(count: 2000, input: records, Gen.int(in: 0...2)) { text, limitChoice in
            expectSameBothWays(text, limit: [8 << 20, 30, 60][limitChoice])
        }
    }

    @Test(
        "lines at the length limit, with and without a carriage return, and past it, are read as in general")
    func linesAtTheLimit() {
        for length in 26...30 {
            for ending in ["\n", "\r\n", "", "\r"] {
                let line = "{\"name\":\"" + String(repeating: "n", count: length - 22) + "\",\"points\":1}"
                #expect(line.utf8.count == length)
                let bytes = Array((line + ending + "{\"name\":\"a\",\"points\":2}\n").utf8)
                let fast = checked(bytes, limit: 28, whereTheyLie: true)
                let general = checked(bytes, limit: 28, whereTheyLie: false)
                #expect(
                    fast.0 == general.0 && fast.1 == general.1, "\(length) bytes, \(ending.debugDescription)")
            }
        }
    }

    @Test("lines of the common shape are read where they lie, with their length, name and points")
    func commonLinesTakeTheFastWay() {
        // The line's length, name and points when it takes the fast way; `after` follows it.
        func read(_ line: String, after: String = "", limit: Int = 100) -> [String]? {
            var reader = JSONFastLine()
            return Array((line + after).utf8).withUnsafeBufferPointer { rest in
                reader.record(startOf: rest, limit: limit).map {
                    ["\($0.length)", String(decoding: $0.name, as: UTF8.self), "\($0.points)"]
                }
            }
        }
        #expect(read(#"{"name": "Ann", "points": 5}"#) == ["28", "Ann", "5.0"])
        #expect(read(#"{"points":-0.5,"name":"Bob"}"#, after: "\n{") == ["28", "Bob", "-0.5"])
        #expect(read(#"{"name":"Bo","points":1}"# + "\r", after: "\n") == ["25", "Bo", "1.0"])
        #expect(read(#"{"team": "blue", "points": 250.5, "name": "Zoë"}  "#) == ["51", "Zoë", "250.5"])
        #expect(read(#"{"name":"J \"J\"","points":1,"x":"a\tb"}"#) == ["40", "J \"J\"", "1.0"])
        #expect(read(#"{"name":"\u540d","points":1}"#) == ["28", "名", "1.0"])
        #expect(read(#"{"n":7,"name":"","points":0}"#) == ["28", "", "0.0"])
        // The general way: what it reports, or reads only it reads.
        #expect(read(#" {"name":"A","points":1}"#) == nil)
        #expect(read("{\"name\":\"A\",\t\"points\":1}") == nil)
        #expect(read(#"{"name":"A","points":1e3}"#) == nil)
        #expect(read(#"{"name":"A","points":01}"#) == nil)
        #expect(read(#"{"name":"A","points":"1"}"#) == nil)
        #expect(read(#"{"name":"A","points":1,"x":true}"#) == nil)
        #expect(read(#"{"name":"A","points":1,"é":2}"#) == nil)
        #expect(read(#"{"name":"A","points":1,"name":"B"}"#) == nil)
        #expect(read(#"{"name":"A"}"#) == nil)
        #expect(read(#"{"name":"\ud83d","points":1}"#) == nil)
        #expect(read(#"{"name":"A","points":1} x"#) == nil)
        #expect(read(#"{"name":"A","points":1}"# + "\r") == nil)
        #expect(read("{\"name\":\"\u{1}\",\"points\":1}") == nil)
        #expect(read(#"{"name":"A","points":1}"#, limit: 22) == nil)
        #expect(read(#"{"name":"A","points":1}"#, limit: 23) != nil)
        // The limit holds the content, not a carriage return before the line break.
        #expect(read(#"{"name":"A","points":1}"# + "\r", after: "\n", limit: 23) == ["24", "A", "1.0"])
        var broken = Array(#"{"name":"A","points":1}"#.utf8)
        broken[9] = 0xFF
        var reader = JSONFastLine()
        #expect(broken.withUnsafeBufferPointer { reader.record(startOf: $0, limit: 100) } == nil)
    }
}
