import Foundation
import PlayerForm
import Testing

@Suite("Rules configuration file")
struct RulesConfigurationTests {
    func load(_ json: String) throws(RulesError) -> PlayerRules {
        try PlayerRules(configuration: Data(json.utf8))
    }

    @Test("an empty object gives the defaults")
    func emptyObject() throws {
        #expect(try load("{}") == .defaults)
    }

    @Test("every key is read")
    func everyKey() throws {
        let rules = try load(
            """
            {"name": "Ann", "points": 5, "step": 0.5, "min": -10, "max": 50,
             "maxPointUpdates": 3, "maxUploads": 1, "forbiddenNames": ["heck"]}
            """)
        #expect(rules.name == "Ann")
        #expect(rules.points == 5)
        #expect(rules.step == 0.5)
        #expect(rules.min == -10)
        #expect(rules.max == 50)
        #expect(rules.maxPointUpdates == 3)
        #expect(rules.maxUploads == 1)
        #expect(rules.forbiddenNames.names == ["heck"])
    }

    @Test("an unknown key is an error that names it and lists the accepted keys")
    func unknownKey() {
        #expect(throws: RulesError.unknownKey("maximum")) { try load(#"{"maximum": 5}"#) }
        #expect(
            RulesError.unknownKey("maximum").description
                == "unknown key \"maximum\"; accepted keys: name, points, step, min, max, maxPointUpdates, maxUploads, forbiddenNames"
        )
    }

    @Test(
        "a value of the wrong kind is an error naming the key and what it accepts",
        arguments: [
            (#"{"step": "1"}"#, RulesError.wrongType(key: "step", expected: "a number")),
            (#"{"max": true}"#, .wrongType(key: "max", expected: "a number")),
            (#"{"name": 3}"#, .wrongType(key: "name", expected: "a string")),
            (#"{"maxUploads": 2.5}"#, .wrongType(key: "maxUploads", expected: "a whole number of 0 or more")),
            (
                #"{"maxPointUpdates": "ten"}"#,
                .wrongType(key: "maxPointUpdates", expected: "a whole number of 0 or more")
            ),
            (
                #"{"forbiddenNames": "darn"}"#,
                .wrongType(key: "forbiddenNames", expected: "an array of strings")
            ),
            (
                #"{"forbiddenNames": ["darn", 1]}"#,
                .wrongType(key: "forbiddenNames", expected: "an array of strings")
            ),
        ])
    func wrongType(json: String, expected: RulesError) {
        #expect(throws: expected) { try load(json) }
    }

    @Test("inconsistent values are refused with the rule they break")
    func inconsistent() {
        #expect(throws: RulesError.minAboveMax(min: 10, max: 5)) { try load(#"{"min": 10, "max": 5}"#) }
        #expect(throws: RulesError.negativeLimit(key: "maxUploads", value: -1)) {
            try load(#"{"maxUploads": -1}"#)
        }
        #expect(throws: RulesError.stepNotPositive(0)) { try load(#"{"step": 0}"#) }
    }

    @Test("something that is not a JSON object is refused")
    func notAnObject() {
        #expect(throws: RulesError.notAnObject) { try load("[1, 2]") }
    }

    @Test("text that is not JSON is refused as malformed")
    func malformed() {
        #expect {
            try load("{max: 5}")
        } throws: { error in
            guard case .malformedJSON = error as? RulesError else { return false }
            return true
        }
    }

    @Test("a file that cannot be read is an error naming the file")
    func unreadableFile() {
        let path = "/nonexistent/playerform-rules.json"
        #expect {
            try PlayerRules(configurationFile: path)
        } throws: { error in
            guard case .unreadable(let named, _) = error as? RulesError else { return false }
            return named == path && "\(error)".contains(path)
        }
    }

    @Test("a problem inside a file names the file and the key")
    func problemInFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID()).json").path
        try Data(#"{"colour": "red"}"#.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: RulesError.inFile(path: path, .unknownKey("colour"))) {
            try PlayerRules(configurationFile: path)
        }
        #expect(
            RulesError.inFile(path: path, .unknownKey("colour")).description.hasPrefix(
                "configuration file \(path): unknown key \"colour\""))
    }
}
