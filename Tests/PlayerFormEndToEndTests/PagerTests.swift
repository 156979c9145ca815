import Foundation
import Testing

/// Long output at a terminal goes through `$PAGER`; here a stand-in that records what it got.
@Suite(
    "playerform pages long output at a terminal",
    .enabled(if: TmuxTerminal.available || ProcessInfo.processInfo.environment["CI"] != nil, "needs tmux"),
    .serialized)
struct PagerTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
        "playerform-pager-\(UUID().uuidString)")

    /// A pager script in the spec's folder, made by `body` from the path of its record,
    /// `paged.txt`; by default it copies its input to the record, and counts its runs.
    func standInPager(
        _ body: (String) -> String = { "cat >> '\($0)'\necho '-- end of run' >> '\($0)'\n" }
    ) throws -> (script: String, record: URL) {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let record = home.appendingPathComponent("paged.txt")
        let script = home.appendingPathComponent("pager.sh")
        // Written through a close-on-exec descriptor: a process another spec starts meanwhile
        // (tmux forks a server that lives on) must not inherit it open for writing, or the
        // script could not be run ("Text file busy").
        let descriptor = open(script.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        try #require(descriptor >= 0)
        let text = Array(("#!/bin/sh\n" + body(record.path)).utf8)
        let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        try #require(written == text.count)
        return (script.path, record)
    }

    /// Starts a session with `pager` as `$PAGER` and types `help`, which is longer than its screen.
    func startPagingHelp(_ terminal: TmuxTerminal, pager: String) throws {
        try terminal.start(["-q", "--history-file", "/dev/null"], environment: ["PAGER=\(pager)"])
        try terminal.waitFor("Colin 100 ok> ")
        try terminal.type("help")
        try terminal.keys("Enter")
    }

    /// Waits, for at most ten seconds, until the pager's record satisfies `condition`.
    func waitForRecord(_ record: URL, _ condition: (String) -> Bool) -> String {
        let deadline = Date().addingTimeInterval(10)
        var text = ""
        while Date() < deadline {
            text = (try? String(contentsOf: record, encoding: .utf8)) ?? ""
            if condition(text) { return text }
            usleep(20_000)
        }
        Issue.record("timed out waiting for the pager's record; it holds:\n\(text)")
        return text
    }

    @Test("help, longer than the screen, goes to $PAGER; short output and pager off do not")
    func pagesLongOutput() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let (script, record) = try standInPager()
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }

        try startPagingHelp(terminal, pager: script)
        let paged = waitForRecord(record) { $0.contains("-- end of run") }
        #expect(paged.hasPrefix("Commands:\n  name [TEXT]\n"))
        #expect(paged.contains("  pager [on | off]\n"))
        let screen = try terminal.waitFor("the prompt after help") { $0.contains("ok> help\nColin 100 ok> ") }
        #expect(!screen.contains("Commands:"))

        // Output that fits the screen is written directly.
        try terminal.type("rules")
        try terminal.keys("Enter")
        try terminal.waitFor("from: defaults")

        // pager off writes long output directly.
        try terminal.type("pager off")
        try terminal.keys("Enter")
        try terminal.type("help")
        try terminal.keys("Enter")
        try terminal.waitFor("rules shows all of them.")
        try terminal.type("quit")
        try terminal.keys("Enter")
        #expect(try terminal.waitForExit() == 0)
        let after = try String(contentsOf: record, encoding: .utf8)
        #expect(after.components(separatedBy: "-- end of run").count == 2)
        #expect(!after.contains("from: defaults"))
    }

    @Test("the pager reads its keys from the terminal, as less does")
    func pagerOwnsTheTerminal() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        // Like less: read the input, set the terminal's modes, read a key from it, put the modes
        // back. A pager outside the terminal's foreground process group gets an error (or is
        // stopped) reading it. (The shell clears its own signal mask, so the pager's signals are
        // specified in ChildProcessTests, on cat.)
        let (script, record) = try standInPager { record in
            """
            cat >/dev/null
            echo 'input read' >> '\(record)'
            saved=$(stty -g < /dev/tty)
            stty icanon echo icrnl < /dev/tty
            if IFS= read -r key < /dev/tty; then echo "key: $key" >> '\(record)'
            else echo 'the terminal cannot be read' >> '\(record)'; fi
            stty "$saved" < /dev/tty
            echo '-- end of run' >> '\(record)'

            """
        }
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }

        try startPagingHelp(terminal, pager: script)
        _ = waitForRecord(record) { $0.contains("input read") }
        try terminal.type("k")
        try terminal.keys("Enter")
        let paged = waitForRecord(record) { $0.contains("-- end of run") }
        #expect(paged.contains("key: k\n"))
        try terminal.waitFor("the prompt after the pager") {
            $0.components(separatedBy: "Colin 100 ok> ").count >= 3
        }
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test("a signal that ends the session while the pager runs ends the pager first")
    func signalEndsThePager() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        // Reads its input, then waits for a key from the terminal, as less does. Left running
        // after the program ends, it would take the next key typed to the shell.
        let (script, record) = try standInPager { record in
            """
            cat >/dev/null
            echo "pids $$ $PPID" >> '\(record)'
            read -r key < /dev/tty

            """
        }
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }

        try startPagingHelp(terminal, pager: script)
        let pids = waitForRecord(record) { $0.contains("\n") }.split(whereSeparator: \.isWhitespace)
            .dropFirst()
        let (pager, program) = (pid_t(pids.first ?? "") ?? 0, pid_t(pids.last ?? "") ?? 0)
        try #require(pager > 0 && program > 0)
        kill(program, SIGTERM)
        #expect(try terminal.waitForExit() == 128 + SIGTERM)
        #expect(kill(pager, 0) == -1 && errno == ESRCH, "the pager is still running")
    }

    @Test("the pager finds the terminal in line mode with echo, as a shell leaves it")
    func pagerFindsLineMode() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        // less saves the settings it finds and puts them back when it ends, even when it is ended
        // in the background, where the session cannot set them again.
        let (script, record) = try standInPager { record in
            """
            stty -a < /dev/tty >> '\(record)'
            cat >/dev/null
            echo '-- end of run' >> '\(record)'

            """
        }
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }

        try startPagingHelp(terminal, pager: script)
        let words = waitForRecord(record) { $0.contains("-- end of run") }
            .split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" })
        #expect(words.contains("icanon") && words.contains("echo"))
        #expect(!words.contains("-icanon") && !words.contains("-echo"))
        try terminal.waitFor("the prompt after the pager") {
            $0.components(separatedBy: "Colin 100 ok> ").count >= 3
        }
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test("Ctrl-Z, then kill %1 in the shell, ends the session and its pager, and the shell keeps line mode")
    func killStoppedSession() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        // As less does: it saves the terminal's settings and sets its own, ignores SIGTTOU, and on
        // SIGTERM puts back what it saved, even in the background.
        let (script, record) = try standInPager { record in
            """
            trap '' TTOU
            saved=$(stty -g < /dev/tty)
            trap 'stty "$saved" < /dev/tty; exit 143' TERM
            stty -echo -icanon < /dev/tty
            echo "pid $$" >> '\(record)'
            echo 'stand-in pager running' > /dev/tty
            cat >/dev/null
            read -r key < /dev/tty

            """
        }
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }
        // An interactive shell with job control, the program's path in $P.
        try terminal.startScript(
            #"PS1='shell> ' PAGER="$2" P="$1" exec bash --norc --noprofile -i"#, arguments: [script])
        try terminal.waitFor("shell> ")
        try terminal.type(#""$P" -q --history-file /dev/null"#)
        try terminal.keys("Enter")
        try terminal.waitFor("Colin 100 ok> ")
        try terminal.type("help")
        try terminal.keys("Enter")
        // The screen says when the pager runs (and shows what it holds if it does not).
        try terminal.waitFor("stand-in pager running")
        let pager = pid_t(try String(contentsOf: record, encoding: .utf8).dropFirst(4).dropLast()) ?? 0
        try #require(pager > 0)
        try terminal.keys("C-z")
        try terminal.waitFor("the shell's prompt again") { $0.components(separatedBy: "shell> ").count >= 3 }
        // Stopped, the program is in the background: setting the terminal there would stop it
        // again (SIGTTOU) instead of letting it end.
        // Until bash hears that the job went on, `wait` answers at once with the status of its stop
        // (148); it is asked again until the job has ended.
        try terminal.type(
            #"kill %1; s=148; while [ $s = 148 ]; do wait %1 2>/dev/null; s=$?; done; "#
                + #"stty -a > "$HOME/stty.txt"; echo "[status $s]""#)
        try terminal.keys("Enter")
        let screen = try terminal.waitFor("[status 143]")
        // Nothing of the session's comes after the kill: no note about its pager, no prompt.
        let after = screen.components(separatedBy: "kill %1").last ?? ""
        #expect(!after.contains("Colin 100 ok>") && !after.contains("note:"), "\(after)")
        #expect(kill(pager, 0) == -1 && errno == ESRCH, "the pager is still running")
        let words = try String(contentsOf: home.appendingPathComponent("stty.txt"), encoding: .utf8)
            .split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" })
        #expect(words.contains("icanon") && words.contains("echo"))
        #expect(!words.contains("-icanon") && !words.contains("-echo"))
    }

    @Test("--no-pager writes long output directly")
    func noPagerFlag() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let (script, record) = try standInPager()
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }
        try terminal.start(
            ["-q", "--no-pager", "--history-file", "/dev/null"], environment: ["PAGER=\(script)"])
        try terminal.waitFor("Colin 100 ok> ")
        try terminal.type("help")
        try terminal.keys("Enter")
        try terminal.waitFor("rules shows all of them.")
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: record.path))
    }

    @Test("a pager that cannot start falls back to direct output with a note")
    func missingPager() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }
        try terminal.start(
            ["-q", "--history-file", "/dev/null"], environment: ["PAGER=/nonexistent/pager -x"])
        try terminal.waitFor("Colin 100 ok> ")
        try terminal.type("help")
        try terminal.keys("Enter")
        let screen = try terminal.waitFor(#"note: The pager "/nonexistent/pager -x" could not be started"#)
        #expect(screen.contains("rules shows all of them."))
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)
    }
}
