import Foundation
import Glibc
import PlayerFormSystem
import Testing

@Suite("A child process that shares the terminal", .serialized)
struct ChildProcessTests {
    /// A file in a folder of the spec's own, removed with it.
    private func scratchFile() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "playerform-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("record.txt")
    }

    @Test("the child reads the pipe to its end, in this process group, with no signal blocked or ignored")
    func startsClean() throws {
        let record = try scratchFile()
        defer { try? FileManager.default.removeItem(at: record.deletingLastPathComponent()) }
        // What this program does to itself: its workers block nearly every signal, and the pager
        // is started with SIGPIPE ignored.
        var blocked = sigset_t()
        sigfillset(&blocked)
        var previousMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previousMask)
        defer { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }
        let previousPipe = Signals.ignore(SIGPIPE)
        defer { Signals.restore(SIGPIPE, previousPipe) }

        let script =
            "cat > '\(record.path)'; echo \"group $(cut -d ' ' -f 5 /proc/$$/stat)\" >> '\(record.path)'"
        let (child, input) = try ChildProcess.startReadingPipe(["/bin/sh", "-c", script]).get()
        #expect(Descriptor.writeAll(Array("line one\nline two\n".utf8), to: input) == nil)
        close(input)
        #expect(child.wait() == 0)
        let text = try String(contentsOf: record, encoding: .utf8)
        #expect(text == "line one\nline two\ngroup \(getpgrp())\n")

        // The shell clears its own mask, so the signals are read off cat, waiting for its input.
        let (cat, catInput) = try ChildProcess.startReadingPipe(["/bin/cat"]).get()
        let status = try String(contentsOfFile: "/proc/\(cat.pid)/status", encoding: .utf8)
        close(catInput)
        #expect(cat.wait() == 0)
        // The signals 1 to 31; glibc keeps 32 and 33 for itself.
        func standardSignals(_ name: String) -> UInt64? {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":\t") }
                .flatMap { UInt64($0.dropFirst(name.count + 2), radix: 16) }
                .map { $0 & 0x7FFF_FFFF }
        }
        #expect(standardSignals("SigBlk") == 0)
        #expect(standardSignals("SigIgn") == 0)
    }

    @Test("a program that cannot be run is its errno; a child's status is the shell's")
    func failures() throws {
        guard case .failure(let missing) = ChildProcess.startReadingPipe(["/nonexistent/pager"]) else {
            Issue.record("a program that does not exist was started")
            return
        }
        #expect(missing.rawValue == ENOENT)
        let (child, input) = try ChildProcess.startReadingPipe(["/bin/sh", "-c", "exit 3"]).get()
        close(input)
        #expect(child.wait() == 3)
        let (killed, killedInput) = try ChildProcess.startReadingPipe(["/bin/sh", "-c", "kill -TERM $$"])
            .get()
        close(killedInput)
        #expect(killed.wait() == 128 + SIGTERM)
    }
}
