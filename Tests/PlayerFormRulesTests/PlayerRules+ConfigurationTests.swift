import Foundation
import PlayerFormRules
import Testing

@Suite("Rules configuration file")
struct RulesConfigurationTests {
    func load(_ json: String) throws(RulesFileError) -> PlayerRules {
        try PlayerRules(configuration: Array(json.utf8), path: "rules.json")
    }

    /// The message `json` is refused with, or nil when it is accepted.
    func refusal(_ json: String) -> String? {
        do {
            _ = try load(json)
            return nil
        } catch {
            #expect(error.reason == .rejected)
            return error.plain
        }
    }

    @Test("an empty object gives the defaults")
    func emptyObject() throws {
        #expect(try load("{}") == .defaults)
        #expect(try load(" \n{ }\r\n") == .defaults)
    }

    @Test("every key is read")
    func everyKey() throws {
        let rules = try load(
            """
            {"name": "Ann", "points": 5, "step": 0.5, "min": -10, "max": 50,
             "maxPointUpdates": 3, "maxUploads": 1, "forbiddenNames": ["heck", "Zo\\u00eb"]}
            """)
        #expect(rules.name == "Ann")
        #expect(rules.points == 5)
        #expect(rules.step == 0.5)
        #expect(rules.min == -10)
        #expect(rules.max == 50)
        #expect(rules.maxPointUpdates == 3)
        #expect(rules.maxUploads == 1)
        #expect(rules.forbiddenNames.names == ["heck", "Zoë"])
    }

    @Test("a duplicate key is refused where it appears the second time; the last one never wins")
    func duplicateKey() {
        #expect(
            refusal("{\n  \"forbiddenNames\": [\"heck\"],\n  \"forbiddenNames\": []\n}")
                == #"rules.json:3:3: duplicate key "forbiddenNames"; each key may appear once"#)
        #expect(
            refusal(#"{"max": 5, "max": 5}"#)
                == #"rules.json:1:12: duplicate key "max"; each key may appear once"#)
        // Keys are compared as decoded: an escape does not make a second key.
        #expect(
            refusal(#"{"max": 5, "m\u0061x": 6}"#)
                == #"rules.json:1:12: duplicate key "max"; each key may appear once"#)
    }

    @Test("a trailing comma in the object or in the names is refused with its place")
    func trailingComma() {
        #expect(
            refusal("{\"max\": 5,\n}")
                == "rules.json:1:10: found ',' before '}', a trailing comma; expected another key after ','")
        #expect(
            refusal(#"{"forbiddenNames": ["heck",]}"#)
                == "rules.json:1:28: found ']' after ',', a trailing comma; expected another name after ','")
    }

    @Test(
        "a syntax error gives the line and column, what was found and what is accepted",
        arguments: [
            (
                "{\n  \"max\": 5\n  \"min\": 1}",
                "rules.json:3:3: found '\"', expected ',' or '}' after a value"
            ),
            ("{max: 5}", "rules.json:1:2: found 'm', expected a key in double quotes"),
            (#"{"max" 5}"#, "rules.json:1:8: found '5', expected ':' after a key"),
            (#"{"max": 05}"#, "rules.json:1:10: found '5', expected ',' or '}' after a value"),
            (#"{"max": 5"#, "rules.json:1:10: the file ends early; expected ',' or '}' after a value"),
            (
                #"{"name": "Ann}"#,
                "rules.json:1:10: a string is not closed; the file ends before its closing quote"
            ),
            (#"{"max": 5} {}"#, "rules.json:1:12: found '{', expected the end of the file after the object"),
            (
                #"{"name": "a\qb"}"#,
                #"rules.json:1:12: unknown escape; accepted: \" \\ \/ \b \f \n \r \t \uXXXX"#
            ),
            (
                "{\"name\": \"a\tb\"}",
                #"rules.json:1:12: a control character inside a string; write it as an escape such as \n or \u001B"#
            ),
            (#"{"max": NaN}"#, "rules.json:1:9: found 'N', expected a value for \"max\""),
        ])
    func syntaxError(json: String, expected: String) {
        #expect(refusal(json) == expected)
    }

    @Test(
        "valid JSON that is not an object is refused: an object is expected",
        arguments: [
            (#""max""#, "found a string"), ("[1, 2]", "found an array"), ("500", "found a number"),
            ("null", "found null"), ("true", "found a boolean"),
        ])
    func notAnObject(json: String, found: String) {
        #expect(refusal(json) == #"rules.json:1:1: \#(found), expected a JSON object such as {"max": 500}"#)
    }

    @Test("a number beyond the range of a Double is refused with the accepted range")
    func numberOutOfRange() {
        #expect(
            refusal(#"{"max": 1e400}"#)
                == #"rules.json:1:9: "max" is 1e400, out of range; accepted: a number from "#
                + "-1.7976931348623157e+308 to 1.7976931348623157e+308")
        #expect(
            refusal(#"{"points": -1e309}"#)?.hasPrefix(#"rules.json:1:12: "points" is -1e309, out of range"#)
                == true)
    }

    @Test("a limit must be a whole number from 0 to the maximum, which the message gives")
    func limits() throws {
        #expect(
            refusal(#"{"maxUploads": 1000000000000}"#)
                == #"rules.json:1:16: "maxUploads" is 1000000000000, out of range; accepted: a whole number from 0 to 1000000000"#
        )
        #expect(
            refusal(#"{"maxPointUpdates": -1}"#)?.contains(#""maxPointUpdates" is -1, out of range"#) == true)
        #expect(
            refusal(#"{"maxUploads": 2.5}"#)?.contains(#""maxUploads" is 2.5, not a whole number"#) == true)
        #expect(refusal(#"{"maxUploads": 1e999}"#)?.contains("1e999, out of range") == true)
        #expect(try load(#"{"maxUploads": 1e3, "maxPointUpdates": 1000000000}"#).maxUploads == 1000)
        #expect(
            try load(#"{"maxPointUpdates": 1000000000}"#).maxPointUpdates
                == PlayerRules.maximumConfiguredLimit)
    }

    @Test("an unknown key is refused with its place and the accepted keys")
    func unknownKey() {
        #expect(
            refusal(#"{"max": 5, "maximum": 5}"#)
                == #"rules.json:1:12: unknown key "maximum"; accepted keys: name, points, step, min, max, maxPointUpdates, maxUploads, forbiddenNames"#
        )
    }

    @Test(
        "a value of the wrong kind names the key, what was found and what is accepted",
        arguments: [
            (#"{"step": "1"}"#, #"rules.json:1:10: "step" must be a number, found a string"#),
            (#"{"max": true}"#, #"rules.json:1:9: "max" must be a number, found a boolean"#),
            (#"{"name": 3}"#, #"rules.json:1:10: "name" must be a string, found a number"#),
            (
                #"{"maxPointUpdates": "ten"}"#,
                #"rules.json:1:21: "maxPointUpdates" must be a whole number from 0 to 1000000000, found a string"#
            ),
            (
                #"{"forbiddenNames": "darn"}"#,
                #"rules.json:1:20: "forbiddenNames" must be an array of strings, found a string"#
            ),
            (
                #"{"forbiddenNames": ["darn", 1]}"#,
                #"rules.json:1:29: "forbiddenNames" entry 2 must be a string, found a number"#
            ),
            (#"{"min": null}"#, #"rules.json:1:9: "min" must be a number, found null"#),
        ])
    func wrongType(json: String, expected: String) {
        #expect(refusal(json) == expected)
    }

    @Test("inconsistent values are refused where they are written, with the rule they break")
    func inconsistent() {
        #expect(
            refusal("{\"min\": 10,\n \"max\": 5}")
                == #"rules.json:2:9: "min" (10) must not be above "max" (5)"#)
        #expect(refusal(#"{"step": 0}"#) == #"rules.json:1:10: "step" must be greater than 0, got 0"#)
        #expect(
            refusal(#"{"forbiddenNames": ["heck", "  "]}"#)
                == #"rules.json:1:29: "forbiddenNames" entry 2 is empty; every forbidden name needs a visible character"#
        )
    }

    @Test("an empty file, or one of whitespace only, says so")
    func empty() {
        #expect(refusal("") == #"rules.json: the file is empty; expected a JSON object such as {"max": 500}"#)
        #expect(
            refusal(" \n")
                == #"rules.json: the file holds only whitespace; expected a JSON object such as {"max": 500}"#
        )
    }

    @Test("text from the file is kept apart from the words, as it is, for the front end to show")
    func foundKeptApart() throws {
        let key = "\u{1B}[2J\u{202E}"
        do {
            _ = try load("{\"\\u001b[2J\\u202e\": 1}")
            Issue.record("accepted")
        } catch {
            #expect(
                error.message.parts == [
                    .words("unknown key "), .found(key),
                    .words("; accepted keys: " + PlayerRules.configurationKeys.joined(separator: ", ")),
                ])
        }
        let long = String(repeating: "k", count: 10_000)
        do {
            _ = try load("{\"\(long)\": 1}")
            Issue.record("accepted")
        } catch {
            #expect(error.message.parts.contains(.found(long)))
        }
        let path = "rules\u{1B}[31m.json"
        do {
            _ = try PlayerRules(configuration: Array("{".utf8), path: path)
            Issue.record("accepted")
        } catch {
            #expect(error.path == path)
        }
    }

    @Test("invalid UTF-8 is refused with its place")
    func invalidUTF8() {
        do {
            _ = try PlayerRules(
                configuration: Array(#"{"name": "a"#.utf8) + [0xFF] + Array(#""}"#.utf8), path: "r.json")
            Issue.record("accepted")
        } catch {
            #expect(error.plain == "r.json:1:12: invalid UTF-8; a rules file must be UTF-8")
        }
    }

    @Test("columns count characters, not bytes; a byte order mark is skipped")
    func columns() throws {
        #expect(refusal(#"{"name": "Zoë", "x": 1}"#)?.hasPrefix(#"rules.json:1:17: unknown key "x""#) == true)
        #expect(try PlayerRules(configuration: [0xEF, 0xBB, 0xBF] + Array(#"{"max": 7}"#.utf8)).max == 7)
    }

    @Test(
        "a byte order mark is skipped at the start of the file only; one inside a name is kept (fuzzer finding)"
    )
    func byteOrderMarkInName() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let rules = try PlayerRules(
            configuration: bom + Array(#"{"name": ""#.utf8) + bom + Array("Ann".utf8) + bom
                + Array(#""}"#.utf8))
        #expect(rules.name == "\u{FEFF}Ann\u{FEFF}")
        #expect(try load(rules.configuration) == rules)
        let marked = try load(#"{"name": "\ufeff\u081bP"}"#)
        #expect(marked.name.unicodeScalars.map(\.value) == [0xFEFF, 0x081B, 0x50])
    }

    @Test(
        "rules written as a rules file read back equal",
        arguments: [
            try! PlayerRules(),
            try! PlayerRules(
                name: "Zoë \"Z\" \\ \u{1B}[2J\u{0}\u{202E}😀", points: -0.0, step: 0.1, min: -1e300,
                max: .leastNonzeroMagnitude,
                maxPointUpdates: 0, maxUploads: 1_000_000_000, forbiddenNames: ["a\nb", "ｄａｒｎ"]),
            try! PlayerRules(points: 1e20, step: 1e15, min: 0.30000000000000004, max: 1.7976931348623157e308),
            try! PlayerRules(forbiddenNames: []),
        ])
    func roundTrip(rules: PlayerRules) throws {
        let text = rules.configuration
        let again = try load(text)
        #expect(again == rules)
        #expect(again.configuration == text)
    }

    @Test("the defaults written as a rules file")
    func defaultsWritten() {
        #expect(
            PlayerRules.defaults.configuration
                == #"{"name": "Colin", "points": 100, "step": 1, "min": 0, "max": 10000, "maxPointUpdates": 10, "#
                + #""maxUploads": 5, "forbiddenNames": ["dag nabbit", "darn", "poop"]}"#)
    }
}

@Suite("Reading a rules file")
struct RulesFileReadingTests {
    func readError(_ path: String) -> RulesFileError? {
        do {
            _ = try PlayerRules(configurationFile: path)
            return nil
        } catch {
            return error
        }
    }

    @Test("a missing file or a directory cannot be read, and the message says why")
    func unreadable() throws {
        let missing = try #require(readError("/nonexistent/rules.json"))
        #expect(missing.reason == .unreadable)
        #expect(
            missing.plain == "cannot read rules file /nonexistent/rules.json: No such file or directory"
        )
        let folder = try #require(readError(FileManager.default.temporaryDirectory.path))
        #expect(folder.reason == .unreadable)
        #expect(folder.plain.hasSuffix(": it is a directory; name a JSON file"))
        #expect(readError("")?.reason == .unreadable)
    }

    @Test("/dev/null is read as an empty file")
    func devNull() {
        #expect(
            readError("/dev/null")?.plain
                == #"/dev/null: the file is empty; expected a JSON object such as {"max": 500}"#)
    }

    @Test("a pipe is read, as a process substitution <(...) hands it over")
    func pipe() throws {
        let pipe = Pipe()
        try pipe.fileHandleForWriting.write(contentsOf: Data(#"{"max": 500}"#.utf8))
        try pipe.fileHandleForWriting.close()
        let rules = try PlayerRules(configurationFile: "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)")
        #expect(rules.max == 500)
    }

    @Test("a FIFO is read once its writer has written and closed it")
    func fifo() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString)")
            .path
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        // Opening a FIFO for writing waits for its reader, so the writer has a thread of its own.
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: path)
            handle?.write(Data(#"{"maxUploads": 2}"#.utf8))
            try? handle?.close()
        }
        writer.start()
        #expect(try PlayerRules(configurationFile: path).maxUploads == 2)
    }

    @Test("an endless input is refused past 1 MiB without being read to its end")
    func endless() throws {
        let error = try #require(readError("/dev/zero"))
        #expect(error.reason == .rejected)
        #expect(
            error.plain
                == #"/dev/zero: the file is larger than 1 MiB (1048576 bytes); a rules file is a small JSON object such as {"max": 500}"#
        )
    }

    @Test("a file of exactly 1 MiB is read; one byte more is refused")
    func sizeLimit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let object = Array(#"{"max": 7}"#.utf8)
        let padding = [UInt8](repeating: 0x20, count: PlayerRules.maximumConfigurationSize - object.count)
        let exact = folder.appendingPathComponent("exact.json")
        try Data(object + padding).write(to: exact)
        #expect(try PlayerRules(configurationFile: exact.path).max == 7)
        let over = folder.appendingPathComponent("over.json")
        try Data(object + padding + [0x20]).write(to: over)
        #expect(
            readError(over.path)?.message.text(found: { $0 }).hasPrefix("the file is larger than 1 MiB")
                == true)
    }
}

extension RulesFileError {
    /// The message as a plain reader shows it: the path as it is, text from the file in double
    /// quotes. (The terminal's escaped showing is specified with `TerminalWords`.)
    var plain: String { text(path: { $0 }, found: { "\"\($0)\"" }) }
}
