import Foundation
import PlayerFormRecords
import PlayerFormRules
import Testing

@testable import playerform

/// A temporary folder with files, removed when the spec ends.
final class Scratch {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "playerform-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func file(_ name: String, _ content: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(content.utf8).write(to: url)
        return url.path
    }
}

@Suite("Validating inputs")
struct ValidationRunTests {
    static let players = """
        {"name": "Colin", "points": 100}
        {"name": "darn", "points": -3}
        {"name": "Alice", "points": 400}
        {"name": "Bob", "points": "12"}

        """

    func run(
        _ inputs: [String], style: FindingStyle = .text, quiet: Bool = false, rules: PlayerRules = .defaults,
        format: RecordFormat? = nil
    ) -> (status: ValidationExit, output: String, errors: String) {
        var run = ValidationRun(inputs: inputs, format: format, style: style, quiet: quiet, rules: rules)
        run.isInterrupted = { false }
        let output = ByteWriter()
        let errors = ByteWriter()
        let status = run.run(output: output, errors: errors)
        return (status, output.capturedText, errors.capturedText)
    }

    @Test("each invalid record gets one finding with its location, name and every reason in the form's words")
    func textFindings() throws {
        let scratch = try Scratch()
        let path = try scratch.file("players.jsonl", Self.players)
        let result = run([path])
        #expect(result.status == .invalid)
        #expect(
            result.output == """
                \(path):2: "darn": The name darn has been forbidden. Points -3 are below the minimum of 0.
                \(path):4: malformed: "points" must be a number, not a string

                """)
        #expect(
            result.errors == """
                reason               records   share  first lines
                forbiddenName              1   25.0%  2
                belowMin                   1   25.0%  2
                malformed                  1   25.0%  4
                4 records, 2 invalid

                """)
    }

    @Test(
        "a record that cannot be read says why in the reader's words, with what came from the input escaped once"
    )
    func malformedWords() throws {
        let scratch = try Scratch()
        let json = try scratch.file("bad.jsonl", #"{"name": "a\q", "points": 1}"# + "\n")
        #expect(
            run([json]).output
                == #"\#(json):1: malformed: bad JSON at column 12: unknown escape; accepted: \" \\ \/ \b \f \n \r \t \uXXXX"#
                + "\n")
        let csv = try scratch.file("bad.csv", "name,points\nG,x\\y\u{1B}[2J\n")
        #expect(
            run([csv]).output
                == #"\#(csv):2: malformed: "points" must be a number such as 12, -3.5 or 1e3, not "x\\y\u{1B}[2J""#
                + "\n")
        let header = try scratch.file("header.csv", "\"a\"\",\"\"b\",x\nA,1\n")
        #expect(
            run([header]).errors.hasPrefix(
                #"error: \#(header): the CSV header row must name the columns name and points, separated by commas, semicolons or tabs; found: "a\",\"b", "x""#
            ))
    }

    @Test("the JSON format gives one object per finding with codes and messages")
    func jsonFindings() throws {
        let scratch = try Scratch()
        let path = try scratch.file("players.jsonl", Self.players)
        let lines = run([path], style: .json).output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(
            lines[0]
                == #"{"file":"\#(path)","line":2,"offset":33,"name":"darn","issues":["forbiddenName","belowMin"],"#
                + #""messages":["The name darn has been forbidden.","Points -3 are below the minimum of 0."]}"#
        )
        #expect(
            lines[1] == #"{"file":"\#(path)","line":4,"offset":97,"name":null,"issues":["malformed"],"#
                + #""messages":["\"points\" must be a number, not a string"]}"#)
        for line in lines {
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
        }
    }

    @Test("one source of truth: a rules file changes the findings, with the library's codes and messages")
    func customRules() throws {
        let scratch = try Scratch()
        let path = try scratch.file("players.jsonl", Self.players)
        let config = try scratch.file("rules.json", #"{"max": 300, "forbiddenNames": ["alice"]}"#)
        let rules = try PlayerRules(configurationFile: config)
        let result = run([path], style: .json, rules: rules)
        let findings = try result.output.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        #expect(findings.map { $0["line"] as? Int } == [2, 3, 4])
        // The list replaces the default one: "darn" is allowed now, its points are still too low.
        #expect(findings[0]["issues"] as? [String] == ["belowMin"])
        let alice = rules.validate(name: "Alice", points: 400)
        #expect(alice.map(\.code) == [.forbiddenName, .aboveMax])
        #expect(findings[1]["issues"] as? [String] == alice.map(\.code.rawValue))
        #expect(findings[1]["messages"] as? [String] == alice.map(\.message))
        let report = try JSONSerialization.jsonObject(with: Data(result.errors.utf8)) as? [String: Any]
        #expect(report?["records"] as? Int == 4 && report?["invalid"] as? Int == 3)
        #expect(run([path], rules: .defaults).output.contains(":3:") == false)
    }

    @Test("names and messages are escaped for the terminal in text, and JSON-escaped in JSON")
    func escaping() throws {
        let scratch = try Scratch()
        let path = try scratch.file(
            "evil.jsonl", #"{"name": "darn\u001b[2J\u0007\u202e\\", "points": 1e9}"# + "\n")
        let text = run([path]).output
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
        #expect(text.contains(#""darn\u{1B}[2J\u{7}\u{202E}\\": "#))
        let json = run([path], style: .json).output
        #expect(json.contains(#""name":"darn\u001b[2J\u0007\u202e\\""#))
        #expect(!json.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
    }

    @Test("quiet prints only the summary")
    func quiet() throws {
        let scratch = try Scratch()
        let result = run([try scratch.file("players.jsonl", Self.players)], quiet: true)
        #expect(result.output == "")
        #expect(result.errors == "4 records, 2 invalid\n")
        #expect(result.status == .invalid)
    }

    @Test("every record valid exits 0")
    func allValid() throws {
        let scratch = try Scratch()
        let path = try scratch.file("ok.csv", "name,points\nColin,100\n")
        #expect(run([path]).status == .valid)
    }

    @Test("with several inputs, a file that cannot be opened is reported, the rest are read, and 66 wins")
    func severalInputs() throws {
        let scratch = try Scratch()
        let good = try scratch.file("players.jsonl", Self.players)
        let headerless = try scratch.file("bad.csv", "Colin,100\n")
        let missing = scratch.folder.appendingPathComponent("missing.jsonl").path
        let result = run([missing, headerless, good])
        #expect(result.status == .cannotOpen)
        #expect(result.errors.hasPrefix("error: cannot open \(missing): No such file or directory\n"))
        #expect(result.errors.contains("error: \(headerless): the CSV header row must name the columns"))
        #expect(result.errors.hasSuffix("4 records, 2 invalid\n"))
        #expect(run([headerless, good]).status == .unusable)
        #expect(run([scratch.folder.path]).status == .cannotOpen)
    }

    @Test("an interrupt stops reading, prints the summary of what was read, and exits 130")
    func interrupted() throws {
        let scratch = try Scratch()
        let path = try scratch.file("players.jsonl", Self.players)
        var run = ValidationRun(
            inputs: [path, path], format: nil, style: .text, quiet: true, rules: .defaults)
        run.isInterrupted = { true }
        let errors = ByteWriter()
        #expect(run.run(output: ByteWriter(), errors: errors) == .interrupted)
        #expect(errors.capturedText == "interrupted: 0 records, 0 invalid\n")
    }

    @Test(
        "the report counts each reason, a record with two under both, most common first (ties in the list's order), with its share and first three lines"
    )
    func reportByReason() throws {
        let scratch = try Scratch()
        let text =
            (1...6).map { index in
                index.isMultiple(of: 2)
                    ? #"{"name": "darn", "points": \#(index * 5000)}"#
                    : #"{"name": "p\#(index)", "points": -1}"#
            }.joined(separator: "\n") + "\n" + #"{"name": 1}"# + "\n"
        let path = try scratch.file("players.jsonl", text)
        let result = run([path])
        #expect(
            result.errors == """
                reason               records   share  first lines
                forbiddenName              3   42.9%  2, 4, 6
                belowMin                   3   42.9%  1, 3, 5
                aboveMax                   2   28.6%  4, 6
                malformed                  1   14.3%  7
                7 records, 7 invalid

                """)
        #expect(result.status == .invalid)
    }

    @Test(
        "with several inputs the report gives each input's counts, reasons and first lines, then the reasons of all, whose lines would not say whose"
    )
    func reportPerInput() throws {
        let scratch = try Scratch()
        let first = try scratch.file("a.jsonl", Self.players)
        let second = try scratch.file("b.csv", "name,points\nAnn,1\n,2\n")
        let result = run([first, second])
        #expect(
            result.errors == """
                \(first): 4 records, 2 invalid
                  forbiddenName              1   25.0%  2
                  belowMin                   1   25.0%  2
                  malformed                  1   25.0%  4
                \(second): 2 records, 1 invalid
                  emptyName                  1   50.0%  3
                all inputs:
                reason               records   share
                emptyName                  1   16.7%
                forbiddenName              1   16.7%
                belowMin                   1   16.7%
                malformed                  1   16.7%
                6 records, 3 invalid

                """)
    }

    @Test("at a terminal the report draws a bar per reason, 20 cells for all records, in eighths")
    func reportBars() throws {
        #expect(ValidationReport.bar(1) == String(repeating: "█", count: 20))
        #expect(
            ValidationReport.bar(0.5) == String(repeating: "█", count: 10) + String(repeating: " ", count: 10)
        )
        #expect(ValidationReport.bar(0.025) == "▌" + String(repeating: " ", count: 19))
        #expect(ValidationReport.bar(0) == String(repeating: " ", count: 20))
        let scratch = try Scratch()
        var run = ValidationRun(
            inputs: [try scratch.file("p.jsonl", Self.players)], format: nil, style: .text, quiet: false,
            rules: .defaults)
        run.isInterrupted = { false }
        run.barsInReport = true
        let errors = ByteWriter()
        _ = run.run(output: ByteWriter(), errors: errors)
        #expect(errors.capturedText.contains("25.0%  █████" + String(repeating: " ", count: 15) + "  2\n"))
        #expect(ValidationReport.percent(0.0004) == "<0.1%")
        #expect(ValidationReport.percent(0.0005) == "0.1%")
    }

    @Test("the summary counts 1 record in the singular, others in the plural")
    func summarySingular() {
        var tally = ValidationTally()
        tally.records = 1
        #expect(tally.summary == "1 record, 0 invalid")
        tally.records = 2
        tally.invalid = 1
        #expect(tally.summary == "2 records, 1 invalid")
    }
}
