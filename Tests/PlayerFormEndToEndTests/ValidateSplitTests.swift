import BuiltBinaryTesting
import Foundation
import Testing

/// `playerform validate --valid FILE --invalid FILE`: the records split in two, byte for byte.
@Suite("playerform validate: valid and rejected records written apart, byte for byte")
struct ValidateSplitTests {
    /// A spreadsheet's CSV: a byte order mark, CRLF, a quoted field over two lines, a blank line,
    /// invalid and malformed records, and a last line without its line break.
    static let csv = Data(
        ([0xEF, 0xBB, 0xBF]
            + Array("Name , Points\r\nAnn,3\r\n\"\",4\r\n\r\n\"Bo,\r\nb\",5\r\nZed,x\r\nCy,10".utf8)))

    @Test(
        "the CSV's header goes to both outputs and every other byte to one; findings give each record's offset"
    )
    func csvByteForByte() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.csv.write(to: folder.appendingPathComponent("roster.csv"))
        let run = try BuiltBinary.run(
            ["validate", "--format", "json", "--valid", "ok.csv", "--invalid", "rejected.csv", "roster.csv"],
            directory: folder)
        #expect(run.status == 1)
        let valid = try Data(contentsOf: folder.appendingPathComponent("ok.csv"))
        let rejected = try Data(contentsOf: folder.appendingPathComponent("rejected.csv"))
        let header = Data([0xEF, 0xBB, 0xBF] + Array("Name , Points\r\n".utf8))
        #expect(valid == header + Data("Ann,3\r\n\r\nCy,10".utf8))
        #expect(rejected == header + Data("\"\",4\r\n\"Bo,\r\nb\",5\r\nZed,x\r\n".utf8))
        // Each finding's offset is where its record starts in the input.
        let starts = try run.outputLines.map { line in
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let offset = try #require(object["offset"] as? Int)
            return String(decoding: Self.csv[offset...].prefix(4), as: UTF8.self)
        }
        #expect(starts == ["\"\",4", "\"Bo,", "Zed,"])
    }

    @Test(
        "--valid - is a filter: valid records on standard output, findings and the report on standard error")
    func filter() throws {
        let records =
            "{\"name\": \"Ann\", \"points\": 1}\n{\"name\": \"darn\", \"points\": 2}\n{\"name\": \"Bob\", \"points\": 3}\n"
        let run = try BuiltBinary.run(["validate", "--valid", "-"], input: Data(records.utf8))
        #expect(run.status == 1)
        #expect(run.output == "{\"name\": \"Ann\", \"points\": 1}\n{\"name\": \"Bob\", \"points\": 3}\n")
        #expect(run.errors.contains("<stdin>:2: \"darn\": The name darn has been forbidden."))
        #expect(run.errors.hasSuffix("3 records, 1 invalid\n"))
    }

    @Test("several inputs are written one after another, the same header once, a missing line break supplied")
    func severalInputs() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("name,points\nAnn,1\n\"\",2".utf8).write(to: folder.appendingPathComponent("a.csv"))
        try Data("name,points\n\"\",3\nBob,4\n".utf8).write(to: folder.appendingPathComponent("b.csv"))
        let run = try BuiltBinary.run(
            ["validate", "--quiet", "--valid", "ok.csv", "--invalid", "no.csv", "a.csv", "b.csv"],
            directory: folder)
        #expect(run.status == 1)
        let valid = try String(contentsOf: folder.appendingPathComponent("ok.csv"), encoding: .utf8)
        let rejected = try String(contentsOf: folder.appendingPathComponent("no.csv"), encoding: .utf8)
        #expect(valid == "name,points\nAnn,1\nBob,4\n")
        #expect(rejected == "name,points\n\"\",2\n\"\",3\n")
    }

    @Test(
        "an output that is an input, or both on standard output, is refused with 64 before anything is read")
    func refusals() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("a.csv")
        try Data("name,points\nAnn,1\n".utf8).write(to: input)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("link.csv"), withDestinationURL: input)
        let same = try BuiltBinary.run(["validate", "--invalid", "link.csv", "a.csv"], directory: folder)
        #expect(same.status == 64)
        #expect(same.errors.contains("--invalid link.csv is the input a.csv"))
        #expect(try String(contentsOf: input, encoding: .utf8) == "name,points\nAnn,1\n")
        let both = try BuiltBinary.run(
            ["validate", "--valid", "-", "--invalid", "-", "a.csv"], directory: folder)
        #expect(both.status == 64)
        #expect(both.errors.contains("cannot both write to standard output"))
        for second in ["out.csv", "./out.csv"] {
            let one = try BuiltBinary.run(
                ["validate", "--valid", "out.csv", "--invalid", second, "a.csv"], directory: folder)
            #expect(one.status == 64, "\(second)")
            #expect(one.errors.contains("--valid and --invalid name the same file, out.csv"), "\(second)")
        }
        let discarded = try BuiltBinary.run(
            ["validate", "--valid", "/dev/null", "--invalid", "/dev/null", "a.csv"], directory: folder)
        #expect(discarded.status == 0, "both may go to /dev/null")
    }

    @Test("a file that cannot be made is refused with 73, leaving the other as it was; a full disk is 74")
    func cannotWrite() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("name,points\nAnn,1\n\"\",2\n".utf8).write(to: folder.appendingPathComponent("a.csv"))
        let kept = folder.appendingPathComponent("kept.csv")
        try Data("earlier results\n".utf8).write(to: kept)
        let missing = try BuiltBinary.run(
            ["validate", "--valid", "kept.csv", "--invalid", "no/such/folder.csv", "a.csv"], directory: folder
        )
        #expect(missing.status == 73)
        #expect(missing.errors.contains("cannot write the invalid records to no/such/folder.csv"))
        #expect(try String(contentsOf: kept, encoding: .utf8) == "earlier results\n")
        let full = try BuiltBinary.run(
            ["validate", "--quiet", "--valid", "/dev/full", "a.csv"], directory: folder)
        #expect(full.status == 74)
        #expect(full.errors.contains("cannot write the valid records to /dev/full: No space left on device"))
    }

    @Test(
        "an output that is the input by a name that is not UTF-8, or standard input's file, is refused and kept"
    )
    func inputsFoundByTheirFiles() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let record = #"{"name":"A","points":7}"#
        // The names are made by the shell: Swift cannot name such a file.
        let line = #"""
            cd "$1" && printf '%s\n' "$2" > "$(printf 'in\377.jsonl')" && printf '%s\n' "$2" > s.jsonl \
            && "$0" validate --valid "$(printf 'in\377.jsonl')" "$(printf 'in\377.jsonl')"; echo "status $?" \
            && "$0" validate --invalid s.jsonl < s.jsonl; echo "status $?" \
            && cat "$(printf 'in\377.jsonl')" s.jsonl
            """#
        let run = try ProgramRunner.run("/bin/sh", ["-c", line, BuiltBinary.path, folder.path, record])
        #expect(run.outputLines == ["status 64", "status 64", record, record], "\(run.errors)")
        #expect(run.errors.contains("is the input in\u{FFFD}.jsonl, which writing would empty"))
        #expect(run.errors.contains("--invalid s.jsonl is the input <stdin>, which writing would empty"))
    }
}
