import Foundation
import PlayerFormRecords
import Testing

@testable import playerform

@Suite("Validating inputs: the name rule and the escaping rule")
struct NameRuleValidationTests {
    func run(_ path: String, style: FindingStyle) -> (status: ValidationExit, output: String) {
        var run = ValidationRun(inputs: [path], format: nil, style: style, quiet: false, rules: .defaults)
        run.isInterrupted = { false }
        let output = ByteWriter()
        let status = run.run(output: output, errors: ByteWriter())
        return (status, output.capturedText)
    }

    @Test("a forbidden name hidden by default-ignorable code points is found, and shown escaped")
    func invisibleForbiddenNames() throws {
        let scratch = try Scratch()
        let jsonl = try scratch.file(
            "players.jsonl",
            #"{"name": "d\u200Barn", "points": 1}"# + "\n" + #"{"name": "Colin", "points": 1}"# + "\n"
                + #"{"name": "\ufeffpo\u00adop", "points": 1}"# + "\n")
        let text = run(jsonl, style: .text)
        #expect(text.status == .invalid)
        #expect(
            text.output.split(separator: "\n").map(String.init) == [
                jsonl + #":1: "d\u{200B}arn": The name d\u{200B}arn has been forbidden."#,
                jsonl + #":3: "\u{FEFF}po\u{AD}op": The name \u{FEFF}po\u{AD}op has been forbidden."#,
            ])
        let json = run(jsonl, style: .json).output
        #expect(json.contains(#""line":1,"offset":0,"name":"d\u200barn","issues":["forbiddenName"]"#))
        #expect(json.contains(#""messages":["The name d\u200barn has been forbidden."]"#))
        let csv = try scratch.file("players.csv", "name,points\nda\u{2060}rn,1\nok,2\n")
        #expect(
            run(csv, style: .text).output == csv
                + #":2: "da\u{2060}rn": The name da\u{2060}rn has been forbidden."# + "\n")
    }

    @Test("a name with a control character is invalid in JSON Lines and CSV, shown escaped, with its code")
    func controlCharacters() throws {
        let scratch = try Scratch()
        let jsonl = try scratch.file(
            "players.jsonl",
            #"{"name": "Pasted\nup 2", "points": 1}"# + "\n" + #"{"name": "Bell\u0007", "points": 1}"# + "\n"
                + #"{"name": "Colin", "points": 1}"# + "\n")
        let text = run(jsonl, style: .text)
        #expect(text.status == .invalid)
        #expect(
            text.output.split(separator: "\n").map(String.init) == [
                jsonl
                    + #":1: "Pasted\nup 2": The name contains control characters (\n): a name is one line of visible text."#,
                jsonl
                    + #":2: "Bell\u{7}": The name contains control characters (\u{7}): a name is one line of visible text."#,
            ])
        #expect(
            run(jsonl, style: .json).output.contains(
                #""line":1,"offset":0,"name":"Pasted\nup 2","issues":["controlCharacters"]"#))
        let csv = try scratch.file("players.csv", "name,points\n\"two\nlines\",1\nok,2\n")
        #expect(
            run(csv, style: .text).output == csv
                + #":2: "two\nlines": The name contains control characters (\n): a name is one line of visible text."#
                + "\n")
    }
}
