import BuiltBinaryTesting
import Foundation
import Testing

/// The built binary importing files as people have them: damaged lines, spreadsheet rosters,
/// other encodings and separators.
@Suite("playerform import of damaged files and spreadsheet rosters")
struct ImportDamageAndRostersTests {
    static let record1 =
        #"{"id":"6F1C2B1E-0000-4000-8000-000000000001","kind":"score","name":"Colin","points":100,"#
        + #""uploadedAt":"2026-11-21T07:13:09.123Z"}"#
    static let record2 =
        #"{"id":"6F1C2B1E-0000-4000-8000-000000000002","name":"Ann","points":7,"#
        + #""uploadedAt":"2026-11-21T07:13:10.000Z"}"#
    /// What a crash in the middle of a write can leave: a run of NUL bytes.
    static let damage = String(repeating: "\u{0}", count: 40)

    /// A new folder with `files` (name to bytes) in it; the caller removes it.
    static func folder(_ files: [String: Data]) throws -> URL {
        let folder = try BuiltBinary.temporaryFolder()
        for (name, bytes) in files { try bytes.write(to: folder.appendingPathComponent(name)) }
        return folder
    }

    func store(_ folder: URL) -> [String] { ["--store", folder.appendingPathComponent("s.sqlite").path] }

    @Test("a damaged first line costs that line: the intact records of the file are kept, whatever its name")
    func damagedFirstLine() throws {
        let text = Data((Self.damage + "\n" + Self.record1 + "\n" + Self.record2 + "\n").utf8)
        let folder = try Self.folder(["old.jsonl": text, "old": text])
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["old.jsonl", "old", "-"] {
            let file = name == "-" ? "-" : folder.appendingPathComponent(name).path
            let target = folder.appendingPathComponent("\(name == "-" ? "stdin" : name).sqlite").path
            let run = try BuiltBinary.run(
                ["--store", target, "import", file], input: name == "-" ? text : Data())
            #expect(run.status == 65, "\(name): \(run.errors)")
            #expect(run.errorLines.first?.hasPrefix("\(file):1: not a score record") == true, "\(run.errors)")
            #expect(run.errorLines.last == "note: \(file): 2 records added, 0 already kept, 1 not imported")
        }
    }

    @Test(
        "the automatic import of an old score file with a damaged first line keeps its records, and a store that imported 0 of it retries once"
    )
    func legacyDamagedFirstLine() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (data, old, database) = try BuiltBinary.defaultPlace(in: folder)
        try Data((Self.damage + "\n" + Self.record1 + "\n").utf8).write(to: old)
        let environment = ["XDG_DATA_HOME": data.path]
        // An earlier version imported the file, kept nothing of it, and noted it as done.
        let made = try ProgramRunner.run(
            "/usr/bin/env", ["sqlite3", database, "SELECT 1"], environment: nil)
        #expect(made.status == 0)
        let opened = try BuiltBinary.run(["--store", database, "-c", "players"])
        #expect(opened.status == 0)
        let marked = try ProgramRunner.run(
            "/usr/bin/env", ["sqlite3", database, "UPDATE meta SET legacy_import = '\(old.path)'"])
        #expect(marked.status == 0)

        let first = try BuiltBinary.run(["-c", "players"], environment: environment)
        #expect(
            first.errorLines.first?.hasPrefix("\(old.path):1: not a score record") == true, "\(first.errors)")
        #expect(first.errorLines.last?.hasPrefix("note: imported 1 score from \(old.path)") == true)
        #expect(first.output.contains("Colin"))
        let second = try BuiltBinary.run(["-c", "players"], environment: environment)
        #expect(second.errorLines.isEmpty, "the retry is made once: \(second.errors)")
    }

    @Test(
        "a spreadsheet roster (Name , Points and other columns, BOM, CRLF) imports as uploads; importing it again adds nothing"
    )
    func spreadsheetRoster() throws {
        let roster = "\u{FEFF}Team, Name , Points\r\nRed,Ann,5\r\nBlue,\"Bo, Jr.\",7\r\n"
        let folder = try Self.folder(["roster.csv": Data(roster.utf8)])
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("roster.csv").path
        let first = try BuiltBinary.run(store(folder) + ["import", file])
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.errorLines == ["note: \(file): 2 records added, 0 already kept"])
        let again = try BuiltBinary.run(store(folder) + ["import", file])
        #expect(again.errorLines == ["note: \(file): 0 records added, 2 already kept"])
        let listed = try BuiltBinary.run(store(folder) + ["-c", "players --csv"])
        let rows = listed.outputLines.dropFirst()
        #expect(rows.count == 2 && rows.first?.hasPrefix("Ann,5,") == true, "\(listed.output)")
        #expect(rows.last?.hasPrefix("\"Bo, Jr.\",7,") == true, "\(listed.output)")
        // validate reads the same file.
        #expect(try BuiltBinary.run(["validate", file]).status == 0)
    }

    @Test("a ';'-separated roster with decimal commas, and JSON Lines without ids, import as uploads")
    func semicolonsAndJSONWithoutIDs() throws {
        let folder = try Self.folder([
            "roster.csv": Data("name;points\nAnn;5,5\nBob;3\n".utf8),
            "roster.jsonl": Data((#"{"name":"Cy","points":2}"# + "\n").utf8),
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["roster.csv", "roster.jsonl"] {
            let run = try BuiltBinary.run(
                store(folder) + ["import", folder.appendingPathComponent(name).path])
            #expect(run.status == 0, "\(name): \(run.errors)")
        }
        let listed = try BuiltBinary.run(store(folder) + ["-c", "players --json"])
        for part in [#""name":"Ann","points":5.5"#, #""name":"Bob","points":3"#, #""name":"Cy","points":2"#] {
            #expect(listed.output.contains(part), "\(listed.output)")
        }
    }

    @Test("a CSV header without name and points is reported once, not per line, and nothing is imported")
    func headerOnce() throws {
        let folder = try Self.folder(["r.csv": Data("player,score\nAnn,5\nBob,6\nCy,7\n".utf8)])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try BuiltBinary.run(
            store(folder) + ["import", folder.appendingPathComponent("r.csv").path])
        #expect(run.status == 65)
        #expect(run.errorLines.count == 2, "\(run.errors)")
        #expect(run.errors.contains("must name the columns name and points"))
        #expect(run.errorLines.last?.hasSuffix("0 records added, 0 already kept, 1 not imported") == true)
    }

    @Test("UTF-16 and Windows-1252 files get a message naming the encoding and the iconv that converts them")
    func encodingHints() throws {
        var utf16 = Data([0xFF, 0xFE])
        for unit in "name,points\nAnn,5\n".utf16 {
            utf16.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)])
        }
        let cp1252 = Data("name,points\nRen".utf8) + Data([0xE9]) + Data(",5\n".utf8)
        let folder = try Self.folder(["u16.csv": utf16, "cp.csv": cp1252])
        defer { try? FileManager.default.removeItem(at: folder) }
        let wide = try BuiltBinary.run(
            store(folder) + ["import", folder.appendingPathComponent("u16.csv").path])
        #expect(wide.status == 65)
        #expect(
            wide.errors.contains("UTF-16") && wide.errors.contains("iconv -f UTF-16 -t UTF-8"),
            "\(wide.errors)")
        let latin = try BuiltBinary.run(
            store(folder) + ["import", folder.appendingPathComponent("cp.csv").path])
        #expect(latin.status == 65)
        #expect(
            latin.errors.contains(":2: not a score record (not UTF-8")
                && latin.errors.contains("iconv -f cp1252"))
    }

    @Test(
        "a roster's points are decimal numbers as validate reads them, and a record without an id needs a name"
    )
    func strictRosterRecords() throws {
        let folder = try Self.folder(["r.csv": Data("name,points\nHex,0x10\n ,5\nInf,inf\nAnn,+7.5e0\n".utf8)]
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("r.csv").path
        let run = try BuiltBinary.run(store(folder) + ["import", file])
        #expect(run.status == 65)
        #expect(
            run.errorLines == [
                "\(file):2: not a score record (invalid points: expected a finite number)",
                "\(file):3: not a score record (a record without an id needs a name)",
                "\(file):4: not a score record (invalid points: expected a finite number)",
                "note: \(file): 1 record added, 0 already kept, 3 not imported",
            ])
    }

    @Test("a wrong header on standard input is said once; a hint names the file in quotes a shell reads back")
    func headerOnceOnStandardInputAndQuotedHint() throws {
        let folder = try Self.folder([
            "my roster;x.csv": Data("name,points\nRen".utf8) + Data([0xE9]) + Data(",5\n".utf8)
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let piped = try BuiltBinary.run(
            store(folder) + ["import", "-"], input: Data("Player,Score\nAnn,5\nBob,6\nCy,7\n".utf8))
        #expect(piped.status == 65)
        #expect(piped.errorLines.count == 2, "\(piped.errors)")
        #expect(piped.errorLines.first?.contains("must name the columns name and points") == true)
        let file = folder.appendingPathComponent("my roster;x.csv").path
        let latin = try BuiltBinary.run(store(folder) + ["import", file])
        #expect(latin.errors.contains("iconv -f cp1252 -t utf-8 '\(file)'"), "\(latin.errors)")
    }

    @Test("validate reads CSV header titles in any case, with spaces around them")
    func validateHeaderCase() throws {
        let run = try BuiltBinary.run(
            ["validate", "--input-format", "csv", "-"], input: Data(" Name , POINTS\nAnn,5\n".utf8))
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errorLines == ["1 record, 0 invalid"])
    }
}
