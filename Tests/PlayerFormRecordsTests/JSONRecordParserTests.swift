import PlayerFormRecords
import Testing

@Suite("JSON Lines records")
struct JSONRecordParserTests {
    @Test("a record has a string name and a number points, keys in any order, other keys ignored")
    func validShapes() {
        #expect(parseJSON(#"{"name": "Colin", "points": 100}"#) == .record(name: "Colin", points: 100))
        #expect(parseJSON(#"{"points":-3,"team":"blue","name":"darn"}"#) == .record(name: "darn", points: -3))
        #expect(
            parseJSON(
                #" { "x" : [1, {"a": [true, false, null, {}], "b": []}, "s", -0.5e-3] , "name" : "a" , "points" : 1 } "#
            )
                == .record(name: "a", points: 1))
        #expect(parseJSON("{\"name\":\t\"a\",\r\"points\":2}") == .record(name: "a", points: 2))
    }

    @Test("string escapes decode, including \\u escapes and surrogate pairs")
    func escapes() {
        #expect(parseJSON(#"{"name": "Zo\u00eb", "points": 1}"#) == .record(name: "Zoë", points: 1))
        #expect(parseJSON(#"{"name": "\ud83d\ude00!", "points": 1}"#) == .record(name: "😀!", points: 1))
        #expect(
            parseJSON(#"{"name": "a\"b\\c\/d\be\ff\ng\rh\ti\u001B", "points": 1}"#)
                == .record(name: "a\"b\\c/d\u{8}e\u{c}f\ng\rh\ti\u{1B}", points: 1))
        #expect(parseJSON(#"{"na\u006de": "a", "\u0070oints": 1}"#) == .record(name: "a", points: 1))
        #expect(parseJSON(#"{"name": "名前", "points": 1}"#) == .record(name: "名前", points: 1))
    }

    @Test("a name with escapes is kept whole while the keys and values after it are read")
    func escapedNameSurvivesLaterStrings() {
        var parser = JSONRecordParser()
        let lines = [
            #"{"name": "D\u0041RN", "t\u0065am": "a\tb", "x": ["\n", {"\u0041": "\r"}], "points": 1}"#,
            #"{"name": "plain", "points": 2}"#,
        ]
        let records = lines.map { line in
            Array(line.utf8).withUnsafeBufferPointer { parser.parse($0) }
        }
        #expect(records == [.record(name: "DARN", points: 1), .record(name: "plain", points: 2)])
    }

    @Test("reading the name as bytes finds what reading it as a String finds")
    func bytesAndStringAgree() {
        var parser = JSONRecordParser()
        for line in [
            #"{"name": "Zo\u00eb", "team": "a\tb", "points": 1}"#, #"{"points": 3, "name": "名前"}"#,
            #"{"name": 1, "points": 3}"#, #"{"name": "x""#,
        ] {
            let bytes = Array(line.utf8)
            let asString = bytes.withUnsafeBufferPointer { parser.parse($0) }
            let asBytes = bytes.withUnsafeBufferPointer { buffer in
                parser.parse(
                    buffer,
                    record: { name, points in
                        ParsedRecord.record(name: String(decoding: name, as: UTF8.self), points: points)
                    }, malformed: { ParsedRecord.malformed($0) })
            }
            #expect(asBytes == asString, "\(line)")
        }
    }

    @Test("numbers follow the JSON grammar: fractions, exponents, negative zero")
    func numbers() {
        let cases: [(String, Double)] = [
            ("0", 0), ("-0", -0.0), ("100", 100), ("250.5", 250.5), ("1e3", 1000), ("1E-2", 0.01),
            ("2.5E+3", 2500), ("-0.5", -0.5), ("123456789012345678", 123_456_789_012_345_680),
            ("0.1", 0.1), ("1.7976931348623157e308", .greatestFiniteMagnitude),
            ("5e-324", .leastNonzeroMagnitude),
        ]
        for (text, value) in cases {
            #expect(
                parseJSON(#"{"name": "a", "points": \#(text)}"#) == .record(name: "a", points: value),
                "\(text)")
        }
        if case .record(_, let negativeZero) = parseJSON(#"{"name": "a", "points": -0}"#) {
            #expect(negativeZero.sign == .minus)
        }
    }

    @Test("a long integer reads as the correctly rounded double (fuzzer finding)")
    func longIntegerIsCorrectlyRounded() {
        #expect(
            parseJSON(#"{"name": "Wolin", "points": 333333333333333333100}"#)
                == .record(name: "Wolin", points: 3.333333333333333e+20))
    }

    @Test("a number beyond the range of a double is valid JSON and reads as infinite points")
    func overflowIsInfinite() {
        #expect(parseJSON(#"{"name": "a", "points": 1e400}"#) == .record(name: "a", points: .infinity))
        #expect(parseJSON(#"{"name": "a", "points": -1e400}"#) == .record(name: "a", points: -.infinity))
    }

    @Test("mistyped and missing fields are malformed with a message naming the field")
    func mistypedFields() {
        let cases: [(String, String)] = [
            (#"{"name": "a", "points": "12"}"#, #""points" must be a number, not a string"#),
            (#"{"name": "a", "points": true}"#, #""points" must be a number, not a boolean"#),
            (#"{"name": "a", "points": null}"#, #""points" must be a number, not null"#),
            (#"{"name": 12, "points": 1}"#, #""name" must be a string, not a number"#),
            (#"{"name": ["a"], "points": 1}"#, #""name" must be a string, not an array"#),
            (#"{"name": {}, "points": 1}"#, #""name" must be a string, not an object"#),
            (#"{"points": 1}"#, #"the key "name" is missing"#),
            (#"{"name": "a"}"#, #"the key "points" is missing"#),
            (#"{}"#, #"the key "name" is missing"#),
            (#"{"name": "a", "name": "b", "points": 1}"#, #"the key "name" appears twice"#),
            (#"{"name": "a", "points": 1, "points": 2}"#, #"the key "points" appears twice"#),
        ]
        for (line, message) in cases {
            #expect(parseJSON(line) == .malformed(message), "\(line)")
        }
    }

    @Test(
        "invalid JSON is malformed, never guessed",
        arguments: [
            #"{"name": "a", "points": 1,}"#, #"{"name": "a", "points": 01}"#, #"{"name": "a", "points": 1.}"#,
            #"{"name": "a", "points": .5}"#, #"{"name": "a", "points": +1}"#, #"{"name": "a", "points": -}"#,
            #"{"name": "a", "points": 1e}"#, #"{"name": "a", "points": NaN}"#,
            #"{"name": "a", "points": Infinity}"#,
            #"{'name': 'a', 'points': 1}"#, #"{name: "a", "points": 1}"#, #"{"name": "a", "points": 1}x"#,
            #"{"name": "a", "points": 1}{"name": "b", "points": 2}"#, #"{"name": "a\x", "points": 1}"#,
            #"{"name": "\ud800", "points": 1}"#, #"{"name": "\udc00", "points": 1}"#,
            #"{"name": "\ud800\u0041", "points": 1}"#,
            #"{"name": "\u12", "points": 1}"#, "{\"name\": \"a\tb\", \"points\": 1}",
            #"[{"name": "a", "points": 1}]"#,
            #"{"name": "a", "points": 1"#, #"{"name": "a, "points": 1}"#,
            #"{"x": tru, "name": "a", "points": 1}"#,
            #"{"x": [1, 2}, "name": "a", "points": 1}"#, #"{"x": {"a" 1}, "name": "a", "points": 1}"#,
            #"{"x": [1,], "name": "a", "points": 1}"#, #"{"name" "a", "points": 1}"#, "\"just a string\"",
            "42", "{",
        ])
    func invalidJSON(line: String) {
        #expect(malformedMessage(parseJSON(line)) != nil)
    }

    @Test("invalid UTF-8 anywhere in the line is malformed, not a crash")
    func invalidUTF8() {
        let prefix = Array(#"{"name": ""#.utf8)
        let suffix = Array(#"", "points": 1}"#.utf8)
        for bad: [UInt8] in [
            [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80], [0x80],
        ] {
            let message = malformedMessage(parseJSON(prefix + bad + suffix))
            #expect(message?.contains("invalid UTF-8") == true, "\(bad)")
        }
        let ignored = Array(#"{"x": ""#.utf8) + [0xFE] + Array(#"", "name": "a", "points": 1}"#.utf8)
        #expect(malformedMessage(parseJSON(ignored))?.contains("invalid UTF-8") == true)
    }

    @Test("nesting deeper than the limit is malformed without overflowing the stack")
    func deepNesting() {
        let depth = JSONRecordParser.maximumNesting + 2
        let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let message = malformedMessage(parseJSON(#"{"x": \#(deep), "name": "a", "points": 1}"#))
        #expect(message?.contains("nested more than") == true)
        let limit = JSONRecordParser.maximumNesting
        let allowed = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(parseJSON(#"{"x": \#(allowed), "name": "a", "points": 1}"#) == .record(name: "a", points: 1))
        // One level more, whether the innermost array or object is empty or not.
        for innermost in ["[]", "[1]", "{}", #"{"a": 1}"#] {
            let over = String(repeating: "[", count: limit) + innermost + String(repeating: "]", count: limit)
            let found = malformedMessage(parseJSON(#"{"x": \#(over), "name": "a", "points": 1}"#))
            #expect(found?.contains("nested more than \(limit) levels") == true, "\(innermost)")
        }
    }

    @Test("a message says where the JSON went wrong and what was expected")
    func messageShowsColumn() {
        #expect(
            parseJSON(#"{"name": "a", "points": 1,}"#)
                == .malformed("bad JSON at column 27: found '}', expected a key in double quotes"))
        #expect(
            parseJSON("not json")
                == .malformed("bad JSON at column 1: found 'n', expected a JSON object starting with {"))
        // Columns count characters, as in the rules file: "éé" is two, not four bytes.
        #expect(
            parseJSON(#"{"name":"éé" x}"#)
                == .malformed("bad JSON at column 14: found 'x', expected ',' or '}' after a value"))
    }
}
