import BuiltBinaryTesting
import Foundation
import Testing

/// The built `playerform` binary given paths whose names are not UTF-8, as a shell passes them.
@Suite("Paths that are not UTF-8")
struct NonUTF8PathsTests {
    @Test("validate reads a file and a rules file whose names hold a byte that is not UTF-8")
    func validateByBytes() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The names are made by the shell: Swift cannot name such a file.
        let line = #"""
            cd "$1" && printf '{"name":"A","points":7}\n' > "$(printf 'bad\377.jsonl')" \
            && printf '{"max": 5}' > "$(printf 'c\377.json')" \
            && exec "$0" validate --quiet --config "$(printf 'c\377.json')" "$(printf 'bad\377.jsonl')"
            """#
        let run = try ProgramRunner.run("/bin/sh", ["-c", line, BuiltBinary.path, folder.path])
        #expect(run.status == 1, "the rules file's max of 5 makes 7 points invalid: \(run.errors)")
        #expect(run.errors == "1 record, 1 invalid\n")
    }

    @Test("two files whose names read the same once their bytes are replaced are each read")
    func twoNamesThatReadAlike() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let line = #"""
            cd "$1" && printf '{"name":"A","points":1}\n' > "$(printf 'p\377.jsonl')" \
            && printf '{"name":"B","points":2}\n{"name":"C","points":3}\n' > "$(printf 'p\376.jsonl')" \
            && exec "$0" validate --quiet "$(printf 'p\377.jsonl')" "$(printf 'p\376.jsonl')"
            """#
        let run = try ProgramRunner.run("/bin/sh", ["-c", line, BuiltBinary.path, folder.path])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors == "3 records, 0 invalid\n")
    }
}
