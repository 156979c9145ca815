import Foundation
import Testing

extension TmuxTerminal {
    /// Starts `sh -c script` in a fresh pane `width` columns wide, with `TERM` set to `term` (one
    /// tmux speaks, so that readline draws and colours as at a real terminal) and `NO_COLOR` unset.
    ///
    /// The script gets the binary as `$1`, followed by `arguments`.
    func startScript(_ script: String, arguments: [String], term: String = "screen", width: Int = 80) throws {
        let environment = [
            "INPUTRC=/dev/null", "TERM=\(term)", "HOME=\(home.path)", "XDG_STATE_HOME=\(home.path)/state",
            "XDG_DATA_HOME=\(home.path)/data",
        ]
        try tmux(
            ["new-session", "-d", "-x", String(width), "-y", "30", "env", "-u", "NO_COLOR"] + environment
                + ["sh", "-c", script, "sh", BuiltBinary.path] + arguments
                + [";", "set-option", "-g", "remain-on-exit", "on"],
            capture: false)
    }

    /// The screen with its colours as escape sequences.
    func screenWithColors() throws -> String {
        try tmux(["capture-pane", "-p", "-e", "-N", "-t", "0"])
    }

    /// The screen with lines that the terminal wrapped joined again.
    func joinedScreen() throws -> String {
        try tmux(["capture-pane", "-p", "-J", "-t", "0"])
    }

    /// Pastes `text` as a terminal does: bracketed when the program asked for it.
    func paste(_ text: String) throws {
        let file = home.appendingPathComponent("paste-\(UUID().uuidString.prefix(8))")
        try Data(text.utf8).write(to: file)
        try tmux(["load-buffer", file.path])
        try tmux(["paste-buffer", "-p", "-d", "-t", "0"])
    }
}

/// The process ids of running `playerform` programs whose command line contains `text`.
private func processes(containing text: String) -> [pid_t] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    let binary = URL(fileURLWithPath: BuiltBinary.path).resolvingSymlinksInPath().path
    return entries.compactMap { entry -> pid_t? in
        guard let pid = pid_t(entry),
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/exe")) == binary,
            let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
            String(decoding: line, as: UTF8.self).contains(text)
        else { return nil }
        return pid
    }
}

/// The built binary at a terminal that tmux emulates fully (not `TERM=dumb`): pasting, resizing,
/// signals that end it, and colour per stream.
@Suite(
    "playerform at a full terminal",
    .enabled(if: TmuxTerminal.available || ProcessInfo.processInfo.environment["CI"] != nil, "needs tmux"),
    .serialized)
struct TerminalBehaviourTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
        "playerform-term-\(UUID().uuidString)")

    private static let runAndReport = #"p="$1"; shift; "$p" "$@"; echo "[exit $?]""#

    @Test("three pasted lines run as three commands, each shown as typed; a pasted line stays editable")
    func paste() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }

        try terminal.startScript(Self.runAndReport, arguments: ["--history-file", "/dev/null"])
        try terminal.waitFor("Colin 100 ok> ")
        try terminal.paste("name Pasted\nup 2\nshow\n")
        let screen = try terminal.waitFor("the three commands run") { $0.contains("Valid:   yes") }
        let lines = screen.split(separator: "\n").map(String.init)
        let shown = ["Colin 100 ok> name Pasted", "Pasted 100 ok> up 2", "Pasted 102 ok> show"]
        #expect(shown.allSatisfy { lines.contains($0) })
        #expect(lines.contains("name: \"Pasted\""))

        // A line pasted without a line break waits to be edited.
        try terminal.paste("name Solo")
        try terminal.waitFor("Pasted 102 ok> name Solo")
        try terminal.type("ist")
        try terminal.keys("Enter")
        try terminal.waitFor("name: \"Soloist\"")
        try terminal.type("show --json")
        try terminal.keys("Enter")
        try terminal.waitFor("{\"name\":\"Soloist\",\"points\":102,")
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test("after the terminal is narrowed, editing a long line draws the prompt once, at the start of a line")
    func resize() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }

        try terminal.startScript(Self.runAndReport, arguments: ["--history-file", "/dev/null"], width: 100)
        try terminal.waitFor("Colin 100 ok> ")
        let long = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
        try terminal.type("name " + long)
        try terminal.waitFor(String(long.suffix(10)))
        try terminal.tmux(["resize-window", "-t", "0", "-x", "40"])
        try terminal.waitFor("the narrower window") { screen in
            screen.split(separator: "\n").allSatisfy { $0.count <= 40 }
        }
        // Edit at both ends: the start of the name, then the end of the line.
        try terminal.keys("C-a")
        for _ in 0..<5 { try terminal.keys("Right") }
        try terminal.type("X")
        try terminal.keys("End")
        try terminal.type("Z")
        let edited = "Colin 100 ok> name X" + long + "Z"
        try terminal.waitFor("the edited line") { _ in
            ((try? terminal.joinedScreen()) ?? "").contains(edited)
        }
        let screen = try terminal.screen()
        let prompts = screen.components(separatedBy: "ok> ").count - 1
        #expect(prompts == 1, "the prompt is drawn \(prompts) times:\n\(screen)")
        let lines = screen.split(separator: "\n")
        #expect(lines.allSatisfy { !$0.contains("ok> ") || $0.hasPrefix("Colin 100 ok> ") })
        try terminal.keys("Enter")
        try terminal.waitFor("name: \"X\(long.prefix(20))")
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test(
        "SIGTERM, SIGHUP and SIGQUIT at the prompt give the terminal back echo and line mode, and end by the signal",
        arguments: [SIGTERM, SIGHUP, SIGQUIT])
    func signalRestoresTerminal(signal: Int32) throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }

        let settings = home.appendingPathComponent("stty.txt")
        // No core file for SIGQUIT; the terminal's settings are read after the program ends.
        let script =
            #"ulimit -c 0; p="$1"; shift; "$p" "$@"; s=$?; stty -a > "$HOME/stty.txt"; echo "[exit $s]""#
        let store = home.appendingPathComponent("scores.jsonl").path
        try terminal.startScript(script, arguments: ["--history-file", "/dev/null", "--store", store])
        try terminal.waitFor("Colin 100 ok> ")
        try terminal.type("name Half")
        try terminal.waitFor("Colin 100 ok> name Half")
        let running = processes(containing: store)
        #expect(running.count == 1)
        for pid in running { kill(pid, signal) }
        #expect(try terminal.waitForExit() == 128 + signal)
        let words = try String(contentsOf: settings, encoding: .utf8)
            .split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" })
        #expect(words.contains("echo"))
        #expect(words.contains("icanon"))
        #expect(!words.contains("-echo"))
        #expect(!words.contains("-icanon"))
    }

    @Test("SIGHUP ignored at start, as nohup does, stays ignored")
    func ignoredHangUp() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }

        let store = home.appendingPathComponent("scores.jsonl").path
        let script = #"trap "" HUP; p="$1"; shift; "$p" "$@"; echo "[exit $?]""#
        try terminal.startScript(script, arguments: ["--history-file", "/dev/null", "--store", store])
        try terminal.waitFor("Colin 100 ok> ")
        for pid in processes(containing: store) { kill(pid, SIGHUP) }
        // Still reading: the next command runs.
        try terminal.type("name Kept")
        try terminal.keys("Enter")
        try terminal.waitFor("name: \"Kept\"")
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test("errors to a file get no colour while results at the terminal keep theirs")
    func colourPerStream() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }

        let script = #"p="$1"; shift; "$p" "$@" 2>"$HOME/errors.txt"; echo "[exit $?]""#
        try terminal.startScript(script, arguments: ["--history-file", "/dev/null"])
        try terminal.waitFor("Colin 100 ok> ")
        try terminal.type("up x")
        try terminal.keys("Enter")
        try terminal.type("show")
        try terminal.keys("Enter")
        try terminal.waitFor("Valid:   yes")
        let coloured = try terminal.screenWithColors()
        #expect(coloured.contains("\u{1B}[32myes"), "\(coloured)")
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)
        let errors = try String(contentsOf: home.appendingPathComponent("errors.txt"), encoding: .utf8)
        #expect(errors.hasPrefix("error: "))
        #expect(!errors.contains("\u{1B}"))
    }
}

/// Output that cannot be written: said once on standard error, and in the exit status.
@Suite("playerform when standard output cannot be written")
struct UnwritableOutputTests {
    /// Runs the binary with `input` on standard input, standard output to /dev/full and
    /// standard error to a pipe.
    private func runToFullDevice(_ arguments: [String], input: String) throws -> (
        status: Int32, errors: String
    ) {
        let run = try BuiltBinary.run(arguments, input: Data(input.utf8), output: .file("/dev/full"))
        return (run.status, run.errors)
    }

    @Test("the REPL says once that standard output cannot be written, and exits 1")
    func repl() throws {
        let run = try runToFullDevice([], input: "show\nhelp\nup 2\nshow --json\n")
        #expect(run.status == 1)
        let message = "error: cannot write to standard output: No space left on device"
        #expect(run.errors.components(separatedBy: "\n").filter { $0 == message }.count == 1, "\(run.errors)")
    }

    @Test("validate says once that findings cannot be written, and exits 74")
    func validate() throws {
        let records = (1...3).map { "{\"name\":\"darn\",\"points\":\($0)}\n" }.joined()
        let run = try runToFullDevice(["validate", "--input-format", "jsonl"], input: records)
        #expect(run.status == 74)
        let lines = run.errors.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("error: cannot write to standard output") }.count == 1)
        #expect(lines.contains("3 records, 3 invalid"))
    }
}
