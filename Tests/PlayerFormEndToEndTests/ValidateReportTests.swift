import Foundation
import Testing

/// `playerform validate --format json` as programs read it: findings and the report, each
/// checked against the JSON Schema committed in `docs/schemas`.
@Suite("playerform validate: findings and the report as JSON, by their schemas")
struct ValidateReportTests {
    static let records = """
        {"name": "Colin", "points": 100}
        {"name": "darn", "points": -3}
        {"name": "\\u001b[2J", "points": 20000}
        {"name": " ", "points": 1e400}
        {"name": "Bob", "points": "12"}
        not json

        """

    @Test("every finding and the report of several inputs conform to their schemas")
    func conform() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.records.utf8).write(to: folder.appendingPathComponent("a.jsonl"))
        try Data("name,points\nAnn,1\npoop,2\n".utf8).write(to: folder.appendingPathComponent("b.csv"))
        let run = try BuiltBinary.run(
            ["validate", "--format", "json", "a.jsonl", "b.csv"], directory: folder)
        #expect(run.status == 1)
        let findings = try SchemaCheck(file: "docs/schemas/validate-finding.schema.json")
        #expect(run.outputLines.count == 6)
        for line in run.outputLines {
            #expect(findings.problems(line) == [], "\(line)")
        }
        let report = try SchemaCheck(file: "docs/schemas/validate-report.schema.json")
        let last = try #require(run.errorLines.last)
        #expect(run.errorLines.count == 1)
        #expect(report.problems(last) == [], "\(last)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(object["records"] as? Int == 8 && object["invalid"] as? Int == 6)
        #expect(object["malformed"] as? Int == 2)
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.map { $0["file"] as? String } == ["a.jsonl", "b.csv"])
        // Lines of two inputs together would not say whose: only each file's reasons give them.
        let all = try #require(object["reasons"] as? [[String: Any]])
        #expect(all.allSatisfy { ($0["firstLines"] as? [Int]) == [] })
        let perFile = files.flatMap { ($0["reasons"] as? [[String: Any]]) ?? [] }
        #expect(perFile.allSatisfy { !(($0["firstLines"] as? [Int]) ?? []).isEmpty })
    }

    @Test("--report-only writes the report by reason and no finding; with --quiet it is a usage error")
    func reportOnly() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.records.utf8).write(to: folder.appendingPathComponent("a.jsonl"))
        let run = try BuiltBinary.run(["validate", "--report-only", "a.jsonl"], directory: folder)
        #expect(run.status == 1)
        #expect(run.output == "")
        let full = try BuiltBinary.run(["validate", "a.jsonl"], directory: folder)
        #expect(run.errors == full.errors, "the same report as with the findings")
        #expect(run.errors.contains("forbiddenName") && run.errors.hasSuffix("6 records, 5 invalid\n"))
        let json = try BuiltBinary.run(
            ["validate", "--report-only", "--format", "json", "a.jsonl"], directory: folder)
        let report = try SchemaCheck(file: "docs/schemas/validate-report.schema.json")
        #expect(json.output == "")
        #expect(report.problems(try #require(json.errorLines.last)) == [])
        let both = try BuiltBinary.run(
            ["validate", "--quiet", "--report-only", "a.jsonl"], directory: folder)
        #expect(both.status == 64)
    }

    @Test("the schema check refuses a report that breaks the schema, so that conforming means something")
    func checkCanFail() throws {
        let report = try SchemaCheck(file: "docs/schemas/validate-report.schema.json")
        let good =
            #"{"records":1,"valid":0,"invalid":1,"malformed":0,"#
            + #""reasons":[{"reason":"emptyName","records":1,"share":1.0,"firstLines":[1]}],"files":[]}"#
        #expect(report.problems(good) == [])
        #expect(!report.problems(#"{"records":1,"valid":0,"invalid":1,"malformed":0,"reasons":[]}"#).isEmpty)
        #expect(!report.problems(good.replacingOccurrences(of: "emptyName", with: "emptyname")).isEmpty)
        #expect(!report.problems(good.replacingOccurrences(of: "[1]}", with: "[1,2,3,4]}")).isEmpty)
        #expect(!report.problems(good.replacingOccurrences(of: "[1]}", with: "[0]}")).isEmpty)
        #expect(
            !report.problems(
                good.replacingOccurrences(of: #""records":1,"valid""#, with: #""records":-1,"valid""#)
            ).isEmpty)
        #expect(
            !report.problems(good.replacingOccurrences(of: "\"files\"", with: "\"extra\":1,\"files\""))
                .isEmpty)
    }
}

/// `playerform validate --unique`: a player twice in a file.
@Suite("playerform validate --unique")
struct ValidateUniqueTests {
    @Test(
        "a player already in the file, by the form's comparison of names, is invalid and names the first line"
    )
    func duplicates() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = "name,points\nAnn,1\n\"ＡＮＮ \",2\nBob,3\n\"\",4\n\"\",5\nbo\u{200B}b,6\n"
        try Data(first.utf8).write(to: folder.appendingPathComponent("a.csv"))
        try Data("name,points\nAnn,7\n".utf8).write(to: folder.appendingPathComponent("b.csv"))
        let run = try BuiltBinary.run(
            ["validate", "--unique", "--invalid", "rejected.csv", "a.csv", "b.csv"], directory: folder)
        #expect(run.status == 1)
        #expect(
            run.outputLines == [
                "a.csv:3: \"ＡＮＮ \": The same player is on line 2.",
                "a.csv:5: \"\": The name is empty.",
                "a.csv:6: \"\": The name is empty.",
                "a.csv:7: \"bo\\u{200B}b\": The same player is on line 4.",
            ])
        #expect(run.errors.contains("duplicateName              2"))
        let rejected = try String(contentsOf: folder.appendingPathComponent("rejected.csv"), encoding: .utf8)
        #expect(rejected == "name,points\n\"ＡＮＮ \",2\n\"\",4\n\"\",5\nbo\u{200B}b,6\n")
        let json = try BuiltBinary.run(
            ["validate", "--unique", "--format", "json", "a.csv"], directory: folder)
        let findings = try SchemaCheck(file: "docs/schemas/validate-finding.schema.json")
        let report = try SchemaCheck(file: "docs/schemas/validate-report.schema.json")
        #expect(json.outputLines.allSatisfy { findings.problems($0) == [] })
        #expect(json.outputLines.first?.contains(#""issues":["duplicateName"]"#) == true)
        #expect(report.problems(try #require(json.errorLines.last)) == [])
        let without = try BuiltBinary.run(["validate", "a.csv"], directory: folder)
        #expect(without.outputLines.count == 2, "without --unique a name may come back")
    }
}
