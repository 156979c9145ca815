import BuiltBinaryTesting
import Foundation
import Testing

/// Runs the built `playerform` executable and checks its output and exit status.
@Suite("playerform validate, end to end")
struct EndToEndTests {
    /// The executable sits next to the test bundle in the build folder.
    static let executable = URL(fileURLWithPath: BuiltProducts.path(of: "playerform"))

    func playerform(_ arguments: [String], input: String = "") throws -> ProgramRun {
        try ProgramRunner.run(Self.executable.path, arguments, input: Data(input.utf8))
    }

    @Test("validate --version prints the version, as help validate lists it")
    func version() throws {
        let outcome = try playerform(["validate", "--version"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output == (try playerform(["--version"])).output)
        #expect(try playerform(["help", "validate"]).output.contains("--version"))
    }

    @Test("exit 0 when every record is valid, with the summary on standard error")
    func valid() throws {
        let scratch = try Scratch()
        let path = try scratch.file("ok.csv", "name,points\nColin,100\n\"Zoë\",7.5\n")
        let outcome = try playerform(["validate", path])
        #expect(outcome.status == 0)
        #expect(outcome.output == "")
        #expect(outcome.errors == "2 records, 0 invalid\n")
    }

    @Test("exit 1 when a record is invalid or malformed; standard input is read with -")
    func invalid() throws {
        let input = "{\"name\": \"darn\", \"points\": 5}\n{\"name\": \"a\"}\n"
        let outcome = try playerform(["validate", "-"], input: input)
        #expect(outcome.status == 1)
        #expect(
            outcome.output
                == "<stdin>:1: \"darn\": The name darn has been forbidden.\n"
                + "<stdin>:2: malformed: the key \"points\" is missing\n")
        #expect(
            outcome.errors == """
                reason               records   share  first lines
                forbiddenName              1   50.0%  1
                malformed                  1   50.0%  2
                2 records, 2 invalid

                """)
    }

    @Test(
        "exit 64 for a usage error; 65 for a rules file that is not accepted, 66 for one that cannot be read")
    func usage() throws {
        let wrongOption = try playerform(["validate", "--format", "yaml"])
        #expect(wrongOption.status == 64)
        #expect(wrongOption.errors.contains("yaml"))
        let scratch = try Scratch()
        let config = try scratch.file("rules.json", #"{"max": "lots"}"#)
        let badConfig = try playerform(["validate", "--config", config], input: "")
        #expect(badConfig.status == 65)
        #expect(badConfig.errors == "\(config):1:9: \"max\" must be a number, found a string\n")
        let missingConfig = try playerform(["validate", "--config", scratch.folder.path + "/none.json"])
        #expect(missingConfig.status == 66)
        #expect(missingConfig.errors.contains("cannot read rules file"))
    }

    @Test("exit 65 for a CSV without the header, or standard input whose format cannot be told")
    func unusable() throws {
        let scratch = try Scratch()
        let path = try scratch.file("players.csv", "Colin,100\n")
        let headerless = try playerform(["validate", path])
        #expect(headerless.status == 65)
        #expect(headerless.errors.contains("the CSV header row must name the columns name and points"))
        let unknown = try playerform(["validate"], input: "Colin 100\n")
        #expect(unknown.status == 65)
        #expect(unknown.errors.contains("use --input-format jsonl or csv"))
        let told = try playerform(["validate", "--input-format", "csv"], input: "points,name\n5,Colin\n")
        #expect(told.status == 0)
    }

    @Test("exit 66 for a file that cannot be opened; the other files are still read")
    func cannotOpen() throws {
        let scratch = try Scratch()
        let path = try scratch.file("ok.jsonl", "{\"name\": \"Colin\", \"points\": 1}\n")
        let outcome = try playerform(["validate", scratch.folder.path + "/missing.jsonl", path])
        #expect(outcome.status == 66)
        #expect(outcome.errors.contains("missing.jsonl: No such file or directory"))
        #expect(outcome.errors.hasSuffix("1 record, 0 invalid\n"))
    }

    @Test(
        "--max-errors N stops at the Nth invalid record with status 2, says so, and counts what was checked")
    func maxErrors() throws {
        let input =
            (1...6).map { #"{"name": "p\#($0)", "points": \#($0.isMultiple(of: 2) ? -1 : 1)}"# }
            .joined(separator: "\n") + "\n"
        let stopped = try playerform(
            ["validate", "--max-errors", "2", "--input-format", "jsonl"], input: input)
        #expect(stopped.status == 2)
        #expect(
            stopped.output.split(separator: "\n").map { $0.prefix(11) } == ["<stdin>:2: ", "<stdin>:4: "])
        let errors = stopped.errors.split(separator: "\n")
        #expect(
            errors.first
                == "stopped after 2 invalid records (--max-errors); the records after it were not checked")
        #expect(errors.last == "4 records, 2 invalid")
        // In a file, which one more read never makes wait, a limit the input does not go past is no
        // stop; from a pipe the run stops at the limit without waiting to see.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pf-max-\(UUID().uuidString).jsonl")
        try Data(input.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let all = try playerform(["validate", "--max-errors", "3", file.path])
        #expect(all.status == 1)
        #expect(!all.errors.contains("stopped"))
        #expect(all.errors.hasSuffix("6 records, 3 invalid\n"))
        let piped = try playerform(
            ["validate", "--max-errors", "3", "--input-format", "jsonl"], input: input)
        #expect(piped.status == 2)
        #expect(piped.errors.hasSuffix("6 records, 3 invalid\n"))
        let json = try playerform(
            ["validate", "--max-errors", "1", "--format", "json", "--input-format", "jsonl"], input: input)
        #expect(json.status == 2)
        let report = try JSONSerialization.jsonObject(with: Data(json.errors.utf8)) as? [String: Any]
        #expect(report?["stopped"] as? String == "maxErrors" && report?["records"] as? Int == 2)
        let zero = try playerform(["validate", "--max-errors", "0", "-"], input: input)
        #expect(zero.status == 64)
        #expect(zero.errors.hasPrefix("error: --max-errors must be 1 or more, not 0."))
    }

    @Test("--max-errors on a pipe that stays open stops at the limit without waiting for the writer")
    func maxErrorsOnAnOpenPipe() throws {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["validate", "--max-errors", "1", "--input-format", "jsonl"]
        let stdin = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        stdin.fileHandleForWriting.write(Data("{\"name\": \"\", \"points\": 1}\n".utf8))
        // The writer keeps the pipe open: the run must end on its own, within a bound.
        let result = ended.wait(timeout: .now() + 30)
        if result == .timedOut { process.terminate() }
        #expect(result == .success, "validate waited for more input after reaching --max-errors")
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(errors.hasPrefix("stopped after 1 invalid record (--max-errors)"))
    }

    @Test("--max-errors counts over every input: reached in one, the later inputs are not read")
    func maxErrorsAcrossInputs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pf-max-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("a.csv")
        try Data("name,points\nAnn,-1\nBob,1\n".utf8).write(to: first)
        let second = folder.appendingPathComponent("b.csv")
        try Data("name,points\nCy,1\nDee,-1\nEve,-1\n".utf8).write(to: second)
        let missing = folder.appendingPathComponent("missing.csv").path
        let run = try playerform(["validate", "--max-errors", "2", first.path, second.path, missing])
        #expect(run.status == 2)
        #expect(run.output.split(separator: "\n").count == 2)
        #expect(!run.errors.contains("cannot open"))
        #expect(run.errors.hasSuffix("4 records, 2 invalid\n"))
    }

    @Test(
        "a UTF-16 spreadsheet export is refused with 65 naming the encoding and the fix; Windows-1252 names the byte"
    )
    func otherEncodings() throws {
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("Name,Points\r\nAnn,5\r\n".utf8).flatMap { [$0, 0] }
        let refused = try ProgramRunner.run(
            Self.executable.path, ["validate", "--input-format", "csv", "-"], input: Data(utf16))
        #expect(refused.status == 65)
        #expect(
            refused.errors.hasPrefix(
                "error: <stdin>: the input is UTF-16 (little-endian, by its byte order mark), not UTF-8; records must "
                    + "be UTF-8: convert it, for example with iconv -f UTF-16 -t UTF-8 FILE > FILE-utf8\n"))
        let windows = Array("Name,Points\r\nZo".utf8) + [0xEB] + Array(",5\r\nAnn,7\r\n".utf8)
        let hinted = try ProgramRunner.run(
            Self.executable.path, ["validate", "--input-format", "csv", "-"], input: Data(windows))
        #expect(hinted.status == 1)
        #expect(
            hinted.output
                == "<stdin>:2: malformed: the name is not valid UTF-8 (byte 0xEB, ë in Windows-1252); records must "
                + "be UTF-8: convert the file, for example with iconv -f WINDOWS-1252 -t UTF-8\n")
    }

    @Test(
        "a spreadsheet's export, Name;Points in Windows-1252 with CRLF and decimal commas, is read by its delimiter"
    )
    func spreadsheetExport() throws {
        let export = Array("Name;Points\r\nZo".utf8) + [0xEB] + Array(";5\r\nAnn;7,5\r\nBob;-0,5\r\n".utf8)
        let run = try ProgramRunner.run(
            Self.executable.path, ["validate", "--input-format", "csv", "-"], input: Data(export))
        #expect(run.status == 1)
        #expect(
            run.output
                == "<stdin>:2: malformed: the name is not valid UTF-8 (byte 0xEB, ë in Windows-1252); records must "
                + "be UTF-8: convert the file, for example with iconv -f WINDOWS-1252 -t UTF-8\n"
                + "<stdin>:4: \"Bob\": Points -0.5 are below the minimum of 0.\n")
        #expect(run.errors.hasSuffix("3 records, 2 invalid\n"))
        let tabs = try ProgramRunner.run(
            Self.executable.path, ["validate", "--delimiter", "tab", "-"],
            input: Data("name\tpoints\nAnn\t1\n".utf8))
        #expect(tabs.status == 0)
        let wrong = try ProgramRunner.run(
            Self.executable.path, ["validate", "--delimiter", ",", "-"], input: Data(export))
        #expect(wrong.status == 65)
        #expect(
            wrong.errors.contains(
                "the header is separated by semicolons: give --delimiter ';' or leave it out"))
        let unknown = try ProgramRunner.run(Self.executable.path, ["validate", "--delimiter", "|", "-"])
        #expect(unknown.status == 64)
        #expect(
            unknown.errors.contains("--delimiter takes , ; or tab (also comma, semicolon or \\t), not \"|\".")
        )
    }

    @Test("Ctrl-C stops reading, prints the summary of what was read, and exits 130")
    func interrupt() throws {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["validate", "--format", "json", "--input-format", "jsonl"]
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data("{\"name\": \"\", \"points\": 1}\n".utf8))
        // The finding is written once the input runs dry, so seeing it means the record was read
        // and the command is waiting for more.
        var seen = Data()
        while !seen.contains(UInt8(ascii: "\n")) {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        #expect(String(decoding: seen, as: UTF8.self).contains("\"issues\":[\"emptyName\"]"))
        process.interrupt()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try stdin.fileHandleForWriting.close()
        #expect(process.terminationStatus == 130)
        // With JSON findings the report is JSON too, and says that the run was stopped.
        let report = try JSONSerialization.jsonObject(with: errors) as? [String: Any]
        #expect(report?["stopped"] as? String == "interrupted")
        #expect(report?["records"] as? Int == 1 && report?["invalid"] as? Int == 1)
    }
}
