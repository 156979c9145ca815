import BuiltBinaryTesting
import Foundation
import Testing

/// The runner the end-to-end specs share (it lives with the other process plumbing's specs).
@Suite("Running a program for the end-to-end specs")
struct ProgramRunnerTests {
    /// More than a pipe holds (64 KiB on Linux): a runner that read one stream to its end before
    /// the other would wait forever on a child blocked writing the other.
    static let size = 300_000

    @Test(
        "a child filling standard error before standard output, while reading its input, does not stall",
        .timeLimit(.minutes(5)))
    func bothPipesFull() throws {
        let input = Data((0..<Self.size).map { UInt8(ascii: "a") + UInt8($0 % 26) })
        let script =
            "head -c \(Self.size) /dev/zero | tr '\\000' e >&2; cat; head -c \(Self.size) /dev/zero >&2"
        let run = try ProgramRunner.run("/bin/sh", ["-c", script], input: input)
        #expect(run.status == 0)
        #expect(run.standardOutput == input)
        #expect(run.standardError.count == 2 * Self.size)
        #expect(run.standardError.prefix(Self.size).allSatisfy { $0 == UInt8(ascii: "e") })
    }

    @Test("a child that exits without reading its input ends normally, and so does the runner")
    func unreadInput() throws {
        let run = try ProgramRunner.run(
            "/bin/sh", ["-c", "echo gone; exit 3"], input: Data(count: 4 * Self.size))
        #expect(run.status == 3)
        #expect(run.outputLines == ["gone"])
        #expect(run.errors == "")
    }

    @Test("merged errors arrive on standard output; the folder and environment are the ones given")
    func mergedAndPlaced() throws {
        let run = try ProgramRunner.run(
            "/bin/sh", ["-c", "echo out; echo err >&2; pwd; echo \"$ONLY\""],
            environment: ["ONLY": "this", "PATH": "/usr/bin:/bin"], directory: URL(fileURLWithPath: "/"),
            mergingErrors: true)
        #expect(run.outputLines == ["out", "err", "/", "this"])
        #expect(run.standardError.isEmpty)
    }

    @Test("standard output to a file: the program sees a full disk on /dev/full")
    func outputToFile() throws {
        let run = try ProgramRunner.run(
            "/bin/sh", ["-c", "echo lost || echo failed >&2"], output: .file("/dev/full"))
        #expect(run.standardOutput.isEmpty)
        #expect(run.errors.hasSuffix("failed\n"))
    }
    @Test(
        "a program still running at the deadline is killed, and the run says so instead of hanging the spec")
    func deadline() throws {
        let run = try ProgramRunner.run("/bin/sleep", ["600"], deadline: .milliseconds(200))
        #expect(run.timedOut)
        #expect(run.status == SIGKILL)
        #expect(run.errors.hasPrefix("the spec's runner killed the program: it was still running after"))
        let quick = try ProgramRunner.run("/bin/true", deadline: .seconds(60))
        #expect(!quick.timedOut && quick.status == 0 && quick.errors.isEmpty)
    }
}
