import BuiltBinaryTesting
import Foundation
import Testing

/// The built `playerform` binary started with standard streams closed or on a full disk, as a
/// careless shell line or a service manager may start it.
@Suite("playerform with its standard streams closed or full")
struct StandardStreamsTests {
    /// Runs `line` in `sh`, where `$0` is the binary and `$1` a database in a new folder.
    private func shell(_ line: String) throws -> ProgramRun {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = folder.path
        return try ProgramRunner.run(
            "/bin/sh", ["-c", line, BuiltBinary.path, folder.appendingPathComponent("scores.sqlite").path],
            environment: environment)
    }

    @Test("standard output closed: every run says it cannot write there, the same way, and fails")
    func outputClosed() throws {
        // Thirty runs: without /dev/null there, whichever descriptor the program opened first took
        // number 1 (the runtime's epoll descriptor, or the database when it opened at once), and
        // the message named that descriptor's error.
        for _ in 0..<30 {
            let run = try shell(#"exec "$0" --store "$1" -c players >&-"#)
            #expect(run.status == 1)
            #expect(run.errors == "error: cannot write to standard output: Bad file descriptor\n")
        }
    }

    @Test("standard error closed or on a full disk: a store that cannot be used ends with its status")
    func errorsNowhere() throws {
        for redirection in ["2>&-", "2>/dev/full"] {
            let run = try shell(#"exec "$0" --store / -c players "# + redirection)
            #expect(run.status == 66, "\(redirection)")
            #expect(run.output.isEmpty, "\(redirection)")
        }
    }

    @Test("standard input closed: an empty script, which succeeds")
    func inputClosed() throws {
        for script in [#"exec "$0" --store "$1" <&-"#, #"exec "$0" --store "$1" -f - <&-"#] {
            let run = try shell(script)
            #expect(run.status == 0, "\(script)")
            #expect(run.output.isEmpty && run.errors.isEmpty, "\(script)")
        }
    }
}
