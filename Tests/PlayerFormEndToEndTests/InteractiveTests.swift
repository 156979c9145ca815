import BuiltBinaryTesting
import Foundation
import Testing

/// A terminal for the built binary: a tmux session on its own server, driven with send-keys and
/// read with capture-pane.
final class TmuxTerminal {
    /// The tmux server of the current run; each run gets its own, since a server that was just
    /// told to exit may still accept a new session and then take it down with it.
    private(set) var socket = ""
    let home: URL

    init(home: URL) {
        self.home = home
        socket = newSocket()
    }

    static var available: Bool {
        (try? run(["tmux", "-V"]).status) == 0
    }

    /// Runs a command and returns its status and output.
    ///
    /// With `capture` false, output goes to /dev/null: a tmux command that starts the server must
    /// not hand it a pipe, as the server keeps it open. Uses posix_spawn, because Foundation's
    /// Process waits for every inheritor of its descriptors, and the tmux server is one.
    @discardableResult
    static func run(_ arguments: [String], capture: Bool = true) throws -> (status: Int32, output: String) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let spawned = Result {
            try DetachedSpawn.start(["/usr/bin/env"] + arguments) { actions in
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                if capture {
                    posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
                    posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
                } else {
                    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
                    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
                }
            }
        }
        close(ends[1])
        defer { close(ends[0]) }
        let pid = try spawned.get()
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(ends[0], &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output.append(contentsOf: chunk[0..<count])
        }
        return (DetachedSpawn.wait(for: pid), String(decoding: output, as: UTF8.self))
    }

    @discardableResult
    func tmux(_ arguments: [String], capture: Bool = true) throws -> String {
        try Self.run(["tmux", "-S", socket, "-f", "/dev/null"] + arguments, capture: capture).output
    }

    /// Starts `playerform` with `arguments` in a fresh pane.
    ///
    /// The shell around it ignores Ctrl-C (the terminal sends SIGINT to the whole foreground group,
    /// and a shell would die of it) and prints the exit status when the program ends; the pane
    /// stays so it can be read. `extra` holds more `NAME=VALUE` settings of the environment.
    func start(_ arguments: [String] = [], inputrc: String = "/dev/null", environment extra: [String] = [])
        throws
    {
        let environment =
            [
                "INPUTRC=\(inputrc)", "TERM=dumb", "HOME=\(home.path)", "XDG_STATE_HOME=\(home.path)/state",
                "XDG_DATA_HOME=\(home.path)/data",
            ] + extra
        let script = #"trap "" INT; "$@"; echo "[exit $?]""#
        stop()
        socket = newSocket()
        try tmux(
            ["new-session", "-d", "-x", "120", "-y", "50", "sh", "-c", script, "sh", "env"] + environment
                + [BuiltBinary.path] + arguments + [";", "set-option", "-g", "remain-on-exit", "on"],
            capture: false)
    }

    /// Waits until the program has exited, and returns its exit status.
    func waitForExit() throws -> Int32? {
        let screen = try waitFor("the program to exit") { $0.contains("[exit ") }
        guard let range = screen.range(of: #"\[exit (\d+)\]"#, options: .regularExpression) else {
            return nil
        }
        return Int32(screen[range].dropFirst(6).dropLast())
    }

    func keys(_ keys: String...) throws {
        try tmux(["send-keys", "-t", "0"] + keys)
    }

    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", "0", "-l", text])
    }

    func screen() throws -> String {
        try tmux(["capture-pane", "-p", "-N", "-t", "0"])
    }

    /// Waits until the screen satisfies `condition`, for at most ten seconds, and returns it.
    ///
    /// A terminal has no other way to say that the program has answered, so this polls.
    @discardableResult
    func waitFor(_ description: String, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(10)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if condition(last) { return last }
            usleep(20_000)
        }
        Issue.record("timed out waiting for \(description); the screen shows:\n\(last)")
        return last
    }

    @discardableResult
    func waitFor(_ text: String) throws -> String {
        try waitFor(text) { $0.contains(text) }
    }

    /// A socket in the spec's own folder, which is removed with it.
    func newSocket() -> String {
        try? FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return home.appendingPathComponent("tmux-\(UUID().uuidString.prefix(8)).sock").path
    }

    func stop() {
        _ = try? tmux(["kill-server"], capture: false)
    }
}

/// The built binary at a terminal: prompt, editing, completion, history across two runs,
/// Ctrl-C and Ctrl-D.
///
/// Without tmux the suite is skipped, except under CI (CI=true), where a missing tmux must fail.
@Suite(
    "playerform at a terminal",
    .enabled(if: TmuxTerminal.available || ProcessInfo.processInfo.environment["CI"] != nil, "needs tmux"),
    .serialized)
struct InteractiveTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
        "playerform-tty-\(UUID().uuidString)")

    @Test("Tab completes a command's options, a file's name after \\i, and players' names from the store")
    func completionPlaces() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }
        try terminal.start()
        try terminal.waitFor("Colin 100 ok> ")
        try terminal.type("show --j")
        try terminal.keys("Tab")
        try terminal.waitFor("ok> show --json ")
        try terminal.keys("Enter")
        try terminal.waitFor(#"{"name":"Colin""#)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try Data("name Dana\n".utf8).write(to: home.appendingPathComponent("setup-commands.txt"))
        try terminal.type("\\i " + home.path + "/setup-c")
        try terminal.keys("Tab")
        try terminal.waitFor("setup-commands.txt ")
        try terminal.keys("Enter")
        try terminal.waitFor("Dana 100 ok> ")
        // Players' names from the store, after select, delete and find, from where the word starts.
        for player in ["add \"Ann Lee\" 5", "add Annie 7"] {
            try terminal.type(player)
            try terminal.keys("Enter")
        }
        try terminal.waitFor("+ 2 Annie 7")
        try terminal.type("select ann l")
        try terminal.keys("Tab")
        try terminal.waitFor("ok> select ann Lee ")
        try terminal.keys("Enter")
        try terminal.waitFor("~ 1 Ann Lee 5 *")
        // The first Tab completes what the names share, as the store spells it; then, as in bash,
        // a Tab that changes nothing and a second one list them.
        try terminal.type("find AN")
        try terminal.keys("Tab")
        try terminal.waitFor("ok> find Ann")
        try terminal.keys("Tab")
        try terminal.keys("Tab")
        try terminal.waitFor("both names listed") { $0.contains("Ann Lee  Annie") }
        try terminal.keys("C-u")
        try terminal.type("delete --yes anni")
        try terminal.keys("Tab")
        try terminal.waitFor("ok> delete --yes Annie ")
        try terminal.keys("Enter")
        try terminal.waitFor("- 2 Annie")
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test(
        "a line recalled from the history file, with the arrow keys or Ctrl-R, shows its C1 controls and bidirectional overrides escaped"
    )
    func recalledLinesEscaped() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let folder = home.appendingPathComponent("state/playerform")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let history = folder.appendingPathComponent("history")
        try Data("name Zed\u{202E}evil\nname C1\u{9B}31mred\n".utf8).write(to: history)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: history.path)
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }
        try terminal.start()
        try terminal.waitFor("Colin 100 ok> ")
        try terminal.keys("Up")
        try terminal.waitFor(#"ok> name C1\u{9B}31mred"#)
        try terminal.keys("Up")
        let recalled = try terminal.waitFor(#"ok> name Zed\u{202E}evil"#)
        #expect(
            !recalled.contains("\u{202E}") && !recalled.contains("\u{9B}"),
            "no raw control reached the screen")
        try terminal.keys("Down")
        try terminal.keys("Down")
        try terminal.keys("C-r")
        try terminal.type("C1")
        let found = try terminal.waitFor(#"(reverse-i-search)`C1': name C1\u{9B}31mred"#)
        #expect(!found.contains("\u{9B}"))
        try terminal.keys("C-g")
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test("\\watch at a terminal draws the page again when another process changes the store, until Ctrl-C")
    func watchFollowsOtherProcesses() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let store = home.appendingPathComponent("league.sqlite").path
        #expect(try BuiltBinary.run(["--store", store, "-c", "add Ann 5"]).status == 0)
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }
        try terminal.start(["--store", store])
        try terminal.waitFor("Colin 100 ok> ")
        try terminal.type("\\watch 0")
        try terminal.keys("Enter")
        try terminal.waitFor("Players: rows 1-1 of 1")
        #expect(try BuiltBinary.run(["--store", store, "-c", "add Zed 9"]).status == 0)
        let redrawn = try terminal.waitFor("the page drawn again with Zed") {
            $0.contains("Players: rows 1-2 of 2") && $0.contains("2  Zed")
        }
        #expect(redrawn.components(separatedBy: "UTC (every 0s)").count == 3, "two drawings:\n\(redrawn)")
        #expect(!redrawn.contains("+ 2 Zed"), "the change is drawn as the page, not as a change line")
        try terminal.keys("C-c")
        try terminal.type("name Dana")
        try terminal.keys("Enter")
        try terminal.waitFor("Dana 100 ok> ")
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test("in a 40-column terminal the table of players fits the width instead of wrapping each row")
    func tableFitsANarrowTerminal() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }
        try terminal.start()
        try terminal.waitFor("Colin 100 ok> ")
        try terminal.tmux(["resize-window", "-t", "0", "-x", "40"])
        try terminal.type("add \"Ann Lee Longname Of Great Length\" 5")
        try terminal.keys("Enter")
        try terminal.waitFor("+ 1 Ann Lee")
        try terminal.type("players")
        try terminal.keys("Enter")
        let screen = try terminal.waitFor("  row  name     points  uploaded     sel")
        let rows = screen.split(separator: "\n").filter { $0.hasPrefix("    1  ") }
        #expect(rows.count == 1 && rows[0].hasPrefix("    1  Ann Le…       5  "), "\(rows)")
        #expect(rows.allSatisfy { $0.count <= 40 })
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test("prompt, completion, Ctrl-C, history across two runs, and Ctrl-D exiting 0")
    func session() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }

        try terminal.start()
        try terminal.waitFor("Colin 100 ok> ")

        // Tab completes a command word, then the rest of the line is typed.
        try terminal.type("na")
        try terminal.keys("Tab")
        try terminal.waitFor("Colin 100 ok> name ")
        try terminal.type("Dana")
        try terminal.keys("Enter")
        try terminal.waitFor("Dana 100 ok> ")
        #expect(try terminal.screen().contains("name: \"Dana\""))

        // Editing: Ctrl-A goes to the start of the line, and the word typed there is kept.
        try terminal.type(" 2")
        try terminal.keys("C-a")
        try terminal.type("up")
        try terminal.keys("Enter")
        try terminal.waitFor("Dana 102 ok> ")

        // Completion of help topics.
        try terminal.type("help sh")
        try terminal.keys("Tab")
        try terminal.waitFor("help show ")
        try terminal.keys("Enter")
        try terminal.waitFor("usage: show [--json]")

        // Ctrl-C abandons the line: the name stays.
        try terminal.type("name Abandoned")
        try terminal.waitFor("ok> name Abandoned")
        try terminal.keys("C-c")
        try terminal.waitFor("Abandoned^C\nDana 102 ok> ")
        try terminal.type("name")
        try terminal.keys("Enter")
        let afterInterrupt = try terminal.waitFor("the name shown again") {
            $0.components(separatedBy: "name: \"Dana\"").count == 3
        }
        #expect(!afterInterrupt.contains("name: \"Abandoned"))

        // Ctrl-D on an empty line ends the session with status 0.
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)

        let history = home.appendingPathComponent("state/playerform/history")
        let attributes = try FileManager.default.attributesOfItem(atPath: history.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let kept = try String(contentsOf: history, encoding: .utf8)
        #expect(kept.components(separatedBy: "\n").contains("help show "))

        // A second run recalls the first run's lines with the up arrow.
        try terminal.start()
        try terminal.waitFor("Colin 100 ok> ")
        try terminal.keys("Up")
        try terminal.waitFor("Colin 100 ok> name")
        try terminal.keys("Up")
        try terminal.waitFor("Colin 100 ok> help show")
        try terminal.keys("Enter")
        try terminal.waitFor("Draw the whole form")
        try terminal.type("quit")
        try terminal.keys("Enter")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test(
        "-o FILE at a terminal: results go to the file; the greeting, prompts and errors stay on the terminal"
    )
    func resultsToFile() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let results = home.appendingPathComponent("results.txt")
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }
        try terminal.start(["--history-file", "/dev/null", "-o", results.path])
        try terminal.waitFor("Colin 100 ok> ")
        try terminal.type("show")
        try terminal.keys("Enter")
        try terminal.type("vaildate")
        try terminal.keys("Enter")
        try terminal.waitFor("error: Unknown command \"vaildate\"")
        let screen = try terminal.screen()
        #expect(screen.contains("playerform 0.1.0: type help"))
        #expect(!screen.contains("Points:  100"))
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)
        let written = try String(contentsOf: results, encoding: .utf8)
        #expect(written.hasPrefix("Name:    [Colin]\nPoints:  100\n"))
        #expect(!written.contains("playerform 0.1.0") && !written.contains("vaildate"))
    }

    @Test("Ctrl-C during an upload cancels it and returns to the prompt")
    func cancelUpload() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }

        try terminal.start(["--history-file", "/dev/null", "--upload-delay-milliseconds", "60000"])
        try terminal.waitFor("Colin 100 ok> ")
        try terminal.type("upload")
        try terminal.keys("Enter")
        try terminal.waitFor("uploading...")
        try terminal.keys("C-c")
        try terminal.waitFor("error: Upload of Colin was cancelled")
        try terminal.type("show --json")
        try terminal.keys("Enter")
        try terminal.waitFor("\"canUpload\":true,")
        #expect(try terminal.screen().contains("\"uploads\":"))
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("state").path))
    }

    @Test("Ctrl-C while an upload or an add waits for a database another process holds stops the wait")
    func cancelWaitingForLock() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let database = home.appendingPathComponent("data/playerform/scores.sqlite").path
        #expect(
            try BuiltBinary.run(
                ["import", "-"], environment: ["XDG_DATA_HOME": home.appendingPathComponent("data").path]
            ).status == 0)
        let holder = try BuiltBinary.Session(
            ["-cmd", "BEGIN EXCLUSIVE;", "-cmd", "SELECT 'holding';", database],
            executable: "/usr/bin/sqlite3")
        #expect(holder.nextOutput() == "holding\n")
        defer { _ = try? holder.finish() }
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }

        try terminal.start([
            "--history-file", "/dev/null", "--upload-delay-milliseconds", "0", "--busy-timeout-milliseconds",
            "600000",
        ])
        try terminal.waitFor("Colin 100 ok> ")
        try terminal.type("upload")
        try terminal.keys("Enter")
        try terminal.waitFor("waiting up to 600 s (Ctrl-C stops waiting)")
        try terminal.keys("C-c")
        try terminal.waitFor("error: Upload of Colin was cancelled")
        try terminal.type("add Ann 2")
        try terminal.keys("Enter")
        try terminal.waitFor("the second wait") {
            $0.components(separatedBy: "waiting up to 600 s (Ctrl-C stops waiting)").count == 3
        }
        try terminal.keys("C-c")
        try terminal.waitFor("error: The change was cancelled.")
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test("at a terminal, delete asks Delete NAME? [y/N] and deletes only after y")
    func deleteAsks() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }

        let history = home.appendingPathComponent("history")
        try terminal.start(["--history-file", history.path])
        try terminal.waitFor("Colin 100 ok> ")
        try terminal.type("add Bob 120")
        try terminal.keys("Enter")
        try terminal.waitFor("+ 1 Bob 120")
        try terminal.type("delete 1")
        try terminal.keys("Enter")
        try terminal.waitFor("Delete Bob? [y/N] ")
        try terminal.keys("Enter")
        try terminal.waitFor("not deleted")
        try terminal.type("delete 1")
        try terminal.keys("Enter")
        try terminal.waitFor("the question asked again") {
            $0.components(separatedBy: "Delete Bob? [y/N] ").count == 3
        }
        try terminal.type("y")
        try terminal.keys("Enter")
        try terminal.waitFor("- 1 Bob")
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)
        // The default store is under XDG_DATA_HOME: the add and the deletion were kept there.
        let data = home.appendingPathComponent("data")
        #expect(FileManager.default.fileExists(atPath: data.path + "/playerform/scores.sqlite"))
        let kept = try BuiltBinary.run(["export"], environment: ["XDG_DATA_HOME": data.path])
        #expect(kept.status == 0)
        #expect(kept.outputLines.isEmpty)
        // Answers are not commands: the history holds the commands only.
        let commands = try String(contentsOf: history, encoding: .utf8).split(separator: "\n")
        #expect(commands == ["add Bob 120", "delete 1"])
    }

    @Test("at an idle prompt, another process's upload shows above the prompt and the typed line is kept")
    func changesWhileIdle() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }

        try terminal.start(["--history-file", "/dev/null"])
        try terminal.waitFor("Colin 100 ok> ")
        try terminal.type("name Par")
        try terminal.waitFor("Colin 100 ok> name Par")

        // Another process adds a player to the same store; nothing is typed meanwhile.
        let store = home.appendingPathComponent("data/playerform/scores.sqlite").path
        let other = try BuiltBinary.run(["--store", store], input: Data("add Zed 9\n".utf8))
        #expect(other.status == 0)
        // The line above the prompt may end in the blanks that cleared the prompt.
        try terminal.waitFor("the change above the prompt, then the typed line") { screen in
            let lines = screen.split(separator: "\n").map {
                String($0.reversed().drop { $0 == " " }.reversed())
            }
            return zip(lines, lines.dropFirst()).contains { $0 == ("+ 1 Zed 9", "Colin 100 ok> name Par") }
        }

        try terminal.type("tial")
        try terminal.keys("Enter")
        try terminal.waitFor("name: \"Partial\"")
        try terminal.type("players")
        try terminal.keys("Enter")
        try terminal.waitFor("the table of one row") {
            $0.contains("Players: rows 1-1 of 1\n  row  name  points")
                && $0.contains("\n    1  Zed        9  ")
        }
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test("~/.inputrc applies under the name playerform")
    func inputrc() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let inputrc = home.appendingPathComponent("inputrc")
        let bindings = """
            $if playerform
            "\\C-t": "show --json\\n"
            $endif
            $if other
            "\\C-t": "up\\n"
            $endif
            """
        try Data(bindings.utf8).write(to: inputrc)
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }

        try terminal.start(["--history-file", "/dev/null"], inputrc: inputrc.path)
        try terminal.waitFor("Colin 100 ok> ")
        try terminal.keys("C-t")
        try terminal.waitFor("\"pointUpdatesRemaining\":10,")
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)
    }
}
