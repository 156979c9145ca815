import Foundation
import PlayerFormTerminalTesting
import Testing

@testable import PlayerFormTerminal

/// The output that holds a command's results back until they fill the screen, then pages them.
@Suite("PagingOutput")
struct PagingOutputTests {
    let output = CapturedOutput()

    func file() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("paged-\(UUID().uuidString).txt")
    }

    @Test("output that fits the screen is written directly, in order, with nothing paged")
    func fits() throws {
        let record = file()
        defer { try? FileManager.default.removeItem(at: record) }
        let paging = PagingOutput(
            base: output, settings: PagerSettings(command: "cat > '\(record.path)'", rows: { 4 }))
        paging.begin()
        for line in ["a", "b", "c"] { paging.write(line) }
        paging.writeError("oops")
        #expect(paging.end().isEmpty)
        #expect(output.results == ["a", "b", "c"])
        #expect(output.errors == ["oops"])
        #expect(!FileManager.default.fileExists(atPath: record.path))
    }

    @Test("output longer than the screen goes whole to the pager, a line of 100 KB included")
    func pages() throws {
        let record = file()
        defer { try? FileManager.default.removeItem(at: record) }
        let paging = PagingOutput(
            base: output, settings: PagerSettings(command: "cat > '\(record.path)'", rows: { 4 }))
        paging.begin()
        for line in (1...10).map({ "line \($0)" }) { paging.write(line) }
        let long = String(repeating: "x", count: 100_000)
        paging.writePart(long)
        paging.writePart("y")
        paging.write("")
        #expect(paging.end().isEmpty)
        #expect(output.lines.isEmpty)
        let paged = try String(contentsOf: record, encoding: .utf8)
        #expect(paged == (1...10).map { "line \($0)\n" }.joined() + long + "y\n")
    }

    @Test("one line of more than 64 KiB starts the pager before it ends, so it is never held whole")
    func longLineStartsPager() throws {
        let record = file()
        defer { try? FileManager.default.removeItem(at: record) }
        let paging = PagingOutput(
            base: output, settings: PagerSettings(command: "cat > '\(record.path)'", rows: { 40 }))
        paging.begin()
        paging.writePart("[" + String(repeating: "1,", count: 40_000))
        #expect(paging.isPaging)
        paging.write("1]")
        #expect(paging.end().isEmpty)
        #expect(try String(contentsOf: record, encoding: .utf8).hasSuffix("1,1]\n"))
    }

    @Test("a pager whose program is missing leaves the output direct, with a note")
    func missingPager() {
        let paging = PagingOutput(
            base: output, settings: PagerSettings(command: "/nonexistent/pager -R", rows: { 3 }))
        paging.begin()
        for line in (1...5).map({ "line \($0)" }) { paging.write(line) }
        let notes = paging.end()
        #expect(notes.count == 1)
        #expect(notes.first?.hasPrefix(#"The pager "/nonexistent/pager -R" could not be started"#) == true)
        #expect(output.results == (1...5).map { "line \($0)" })
    }

    @Test("a pager that ends with a failure says so in a note, its command escaped")
    func failingPager() {
        let paging = PagingOutput(
            base: output,
            settings: PagerSettings(command: "sh -c 'cat >/dev/null; exit 3' \u{1B}[2J", rows: { 3 }))
        paging.begin()
        for line in (1...5).map({ "line \($0)" }) { paging.write(line) }
        #expect(
            paging.end() == [
                #"The pager "sh -c 'cat >/dev/null; exit 3' \u{1B}[2J" ended with status 3; output it did not"#
                    + " show is lost (pager off writes it directly)."
            ])
        #expect(output.results.isEmpty)

        // Ended by a signal, as by the person's Ctrl-C, it was ended on purpose: no note.
        let ended = PagingOutput(
            base: output,
            settings: PagerSettings(command: "sh -c 'cat >/dev/null; kill -TERM $$'", rows: { 3 }))
        ended.begin()
        for line in (1...5).map({ "line \($0)" }) { ended.write(line) }
        #expect(ended.end().isEmpty)
    }

    @Test("$PAGER may set the pager's environment before its program, as a shell command does")
    func pagerWithSettings() throws {
        let record = file()
        defer { try? FileManager.default.removeItem(at: record) }
        #expect(PagingOutput.program(of: "LESS=-R _X1=2  less -S") == "less")
        #expect(PagingOutput.program(of: "/usr/bin/less=x") == "/usr/bin/less=x")
        #expect(PagingOutput.program(of: "A=1") == nil)
        #expect(PagingOutput.program(of: #"LESS='-R -S' B="x \" y" less"#) == "less")
        #expect(PagingOutput.program(of: #"'/opt/my pager/less' -R"#) == "/opt/my pager/less")
        #expect(PagingOutput.program(of: #"my\ pager"#) == "my pager")
        #expect(PagingOutput.program(of: "=x less") == "=x")
        let paging = PagingOutput(
            base: output,
            settings: PagerSettings(
                command: "KEPT='yes, kept' sh -c 'echo \"$KEPT\"; cat' > '\(record.path)'", rows: { 3 }))
        paging.begin()
        for line in (1...5).map({ "line \($0)" }) { paging.write(line) }
        #expect(paging.end().isEmpty)
        #expect(
            try String(contentsOf: record, encoding: .utf8)
                == "yes, kept\nline 1\nline 2\nline 3\nline 4\nline 5\n"
        )
    }

    @Test("a $PAGER of several commands runs them all; a simple one is exec'd")
    func compoundPager() throws {
        let record = file()
        let second = file()
        defer {
            try? FileManager.default.removeItem(at: record)
            try? FileManager.default.removeItem(at: second)
        }
        let paging = PagingOutput(
            base: output,
            settings: PagerSettings(
                command: "cat > '\(record.path)'; echo second > '\(second.path)'", rows: { 3 }))
        paging.begin()
        for line in (1...5).map({ "line \($0)" }) { paging.write(line) }
        #expect(paging.end().isEmpty)
        #expect(try String(contentsOf: record, encoding: .utf8).hasPrefix("line 1\n"))
        #expect(try String(contentsOf: second, encoding: .utf8) == "second\n")
        #expect(PagingOutput.isSimpleCommand(#"LESS='a;b' less -R "x|y" \& > f"#))
        #expect(PagingOutput.isSimpleCommand("less 2>&1 <&0 $(echo -R) -x"))
        for compound in ["a; b", "a | b", "a && b", "a &", "(a)", "a\nb", #"a "x"; b"#, "$(a) | b"] {
            #expect(!PagingOutput.isSimpleCommand(compound), "\(compound.debugDescription)")
        }
    }

    @Test("a simple $PAGER is exec'd, redirections and all, so that the child is the pager itself")
    func simplePagerIsExeced() throws {
        let record = file()
        defer { try? FileManager.default.removeItem(at: record) }
        // The pager writes the process id it runs as: the child's own when the shell exec'd it.
        let pager = "sh -c 'echo $$ > \"$0\"; cat >/dev/null' '\(record.path)'"
        for command in [pager, "2>/dev/null " + pager, pager + " 2>&1", "LESS=x " + pager + " $(echo x)"] {
            let launched = try #require(PagingOutput.launch(command), "\(command)")
            close(launched.input)
            #expect(launched.process.wait() == 0)
            let written = try String(contentsOf: record, encoding: .utf8)
            #expect(written == "\(launched.process.pid)\n", "\(command)")
        }
        #expect(PagingOutput.program(of: "2> /dev/null LESS=x less") == "less")
        #expect(PagingOutput.program(of: "2>/dev/null less") == "less")
        #expect(!PagingOutput.exists("/tmp"), "a directory is not a program")
        #expect(PagingOutput.launch("/tmp -R") == nil)
    }

    @Test("a line wider than the screen counts the rows it wraps to; colours take none")
    func wrappedRows() throws {
        #expect(PagerSettings.rows(of: "", columns: 80) == 1)
        #expect(PagerSettings.rows(of: String(repeating: "x", count: 80), columns: 80) == 1)
        #expect(PagerSettings.rows(of: String(repeating: "x", count: 81), columns: 80) == 2)
        #expect(
            PagerSettings.rows(
                of: "\u{1B}[1;31m" + String(repeating: "é", count: 80) + "\u{1B}[0m", columns: 80) == 1)
        #expect(PagerSettings.rows(of: String(repeating: "x", count: 500), columns: 0) == 1)

        // One line of 8,000 characters on a screen 100 wide and 30 high goes to the pager.
        let record = file()
        defer { try? FileManager.default.removeItem(at: record) }
        let paging = PagingOutput(
            base: output,
            settings: PagerSettings(command: "cat > '\(record.path)'", rows: { 30 }, columns: { 100 }))
        paging.begin()
        paging.write(String(repeating: "x", count: 8_000))
        #expect(paging.end().isEmpty)
        #expect(output.results.isEmpty)
        #expect(try String(contentsOf: record, encoding: .utf8).count == 8_001)
    }

    @Test("$PAGER chooses the pager; unset or blank, less -FRX")
    func command() {
        #expect(PagerSettings.command(environment: [:]) == "less -FRX")
        #expect(PagerSettings.command(environment: ["PAGER": "  "]) == "less -FRX")
        #expect(PagerSettings.command(environment: ["PAGER": "most"]) == "most")
    }
}
