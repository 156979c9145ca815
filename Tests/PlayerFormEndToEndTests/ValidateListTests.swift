import Foundation
import Testing

/// `playerform validate --files0-from`: inputs named by a list of NUL-ended paths.
@Suite("playerform validate --files0-from")
struct ValidateListTests {
    @Test("the paths find -print0 writes are checked in order, names that are not UTF-8 included")
    func findPrint0() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("name,points\nAnn,1\n\"\",2\n".utf8).write(to: folder.appendingPathComponent("a.csv"))
        // A name with a byte that is not UTF-8, made through the file system's bytes.
        let odd = Array("b".utf8) + [0xFF] + Array(".jsonl".utf8)
        let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + odd + [0]
        let descriptor = path.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
        }
        #expect(descriptor >= 0)
        _ = Array("{\"name\": \"darn\", \"points\": 1}\n".utf8).withUnsafeBytes {
            write(descriptor, $0.baseAddress, $0.count)
        }
        close(descriptor)
        let list = Data(Array("a.csv".utf8) + [0] + odd + [0] + Array("missing.csv".utf8) + [0] + [0])
        let run = try BuiltBinary.run(["validate", "--files0-from", "-"], input: list, directory: folder)
        #expect(run.status == 66, "a missing file and an empty name are 66, the highest")
        #expect(
            run.outputLines == [
                "a.csv:3: \"\": The name is empty.",
                "b\u{FFFD}.jsonl:1: \"darn\": The name darn has been forbidden.",
            ])
        #expect(run.errors.contains("error: cannot open missing.csv: No such file or directory"))
        #expect(run.errors.contains("error: the list of inputs (--files0-from) holds an empty name"))
        #expect(run.errors.hasSuffix("3 records, 2 invalid\n"))
    }

    @Test(
        "an empty list checks nothing; a list naming - reads records from standard input unless it is the list"
    )
    func standardInput() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = try BuiltBinary.run(["validate", "--files0-from", "-"], input: Data(), directory: folder)
        #expect(empty.status == 0)
        #expect(empty.errors == "0 records, 0 invalid\n")
        try Data("-\0".utf8).write(to: folder.appendingPathComponent("list"))
        let records = try BuiltBinary.run(
            ["validate", "--files0-from", "list"], input: Data("{\"name\": \"\", \"points\": 1}\n".utf8),
            directory: folder)
        #expect(records.status == 1)
        #expect(records.outputLines == ["<stdin>:1: \"\": The name is empty."])
        let itself = try BuiltBinary.run(
            ["validate", "--files0-from", "-"], input: Data("-\0".utf8), directory: folder)
        #expect(itself.status == 64)
        #expect(itself.errors.contains("the list on standard input names - (standard input)"))
        let both = try BuiltBinary.run(["validate", "--files0-from", "list", "a.csv"], directory: folder)
        #expect(both.status == 64)
        let missing = try BuiltBinary.run(["validate", "--files0-from", "nowhere"], directory: folder)
        #expect(missing.status == 66)
        #expect(missing.errors.contains("cannot open the list nowhere: No such file or directory"))
    }

    @Test(
        "many small files, checked at once, give the findings, messages and report of one at a time, in order"
    )
    func manySmallFiles() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var names: [String] = []
        for index in 1...60 {
            let name = String(format: "f%02d.jsonl", index)
            names.append(name)
            let text =
                index == 30
                ? "not a record\n"
                : "{\"name\": \"p\(index)\", \"points\": 1}\n{\"name\": \"\", \"points\": \(index)}\n"
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        names.insert("missing.jsonl", at: 45)
        let together = try BuiltBinary.run(["validate"] + names, directory: folder)
        var findings: [String] = []
        var errors: [String] = []
        for name in names {
            let alone = try BuiltBinary.run(["validate", name], directory: folder)
            findings += alone.outputLines
            errors += alone.errorLines.filter { $0.hasPrefix("error:") }
        }
        #expect(together.status == 66)
        #expect(together.outputLines == findings)
        #expect(together.errorLines.filter { $0.hasPrefix("error:") } == errors)
        #expect(together.errors.hasSuffix("119 records, 60 invalid\n"))
        #expect(together.errorLines.filter { $0.hasSuffix(": 2 records, 1 invalid") }.count == 59)
    }
}
