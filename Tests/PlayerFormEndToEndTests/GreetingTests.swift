import Foundation
import Testing

/// The line an interactive session starts with, and `--quiet`, which drops it.
@Suite(
    "playerform greets at a terminal",
    .enabled(if: TmuxTerminal.available || ProcessInfo.processInfo.environment["CI"] != nil, "needs tmux"),
    .serialized)
struct GreetingTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
        "playerform-greeting-\(UUID().uuidString)")

    @Test("an interactive session starts with the version and how to get help; --quiet drops it")
    func greeting() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = TmuxTerminal(home: home)
        defer { terminal.stop() }

        try terminal.start()
        let screen = try terminal.waitFor("Colin 100 ok> ")
        let lines = screen.components(separatedBy: "\n")
        #expect(lines.first == "playerform 0.1.0: type help for the commands, quit or Ctrl-D to leave.")
        try terminal.type("quit")
        try terminal.keys("Enter")
        #expect(try terminal.waitForExit() == 0)

        try terminal.start(["-q"])
        let quiet = try terminal.waitFor("Colin 100 ok> ")
        #expect(!quiet.contains("type help"))
        #expect(quiet.components(separatedBy: "\n").first == "Colin 100 ok> ")
        try terminal.keys("C-d")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test("a script gets no greeting")
    func noGreetingInScripts() throws {
        let run = try BuiltBinary.run(input: Data("points\n".utf8))
        #expect(run.outputLines == ["points: 100"])
    }
}
