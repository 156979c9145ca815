import BuiltBinaryTesting
import Foundation
import Glibc
import Testing

/// A script ended by a signal while its commands run.
@Suite("A script ended by a signal")
struct SignalFlushTests {
    @Test(
        "what a script printed before SIGTERM, SIGINT or SIGHUP is written, and the status names the signal",
        .timeLimit(.minutes(1)), arguments: [SIGTERM, SIGINT, SIGHUP])
    func outputKept(signal: Int32) throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("commands").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltBinary.path)
        process.arguments = [
            "--store", folder.appendingPathComponent("s.sqlite").path, "-c", "add Ann 5", "-c",
            "source \(fifo)",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Opening the FIFO to write returns once the script opens it to read: `add` has run and
        // its line waits in the output, which a sourced file does not write out before waiting.
        let writer = open(fifo, O_WRONLY)
        defer { close(writer) }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == signal)
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(printed == "+ 1 Ann 5\n")
    }
}
