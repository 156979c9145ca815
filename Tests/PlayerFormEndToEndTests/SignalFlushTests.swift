import BuiltBinaryTesting
import Foundation
import Glibc
import Testing

/// A script ended by a signal while its commands run.
@Suite("A script ended by a signal")
struct SignalFlushTests {
    @Test(
        "what a script printed before SIGTERM, SIGINT or SIGHUP is written, and the status names the signal",
        .timeLimit(.minutes(5)), arguments: [SIGTERM, SIGINT, SIGHUP])
    func outputKept(signal: Int32) throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("commands").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let output = Pipe()
        let process = try startedProgram(
            [
                "--store", folder.appendingPathComponent("s.sqlite").path, "-c", "add Ann 5", "-c",
                "source \(fifo)",
            ], output: output)
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

    @Test(
        "a script whose file is a FIFO no one writes to ends at the first signal, its output written",
        .timeLimit(.minutes(5)))
    func fifoWithoutWriter() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = try madeFIFO(in: folder)
        let output = Pipe()
        let process = try startedProgram(
            [
                "--store", folder.appendingPathComponent("s.sqlite").path, "-c", "add Ann 5", "-f", fifo,
            ], output: output)
        // The script waits for the FIFO's writer once it has opened it.
        try #require(eventually { hasOpen(process.processIdentifier, fifo) })
        kill(process.processIdentifier, SIGTERM)
        try #require(endsWithinAMinute(process))
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGTERM)
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(printed == "+ 1 Ann 5\n")
    }

    @Test(
        "a signal stops a script's wait for a database another process holds, as Ctrl-C does at a terminal",
        .timeLimit(.minutes(5)))
    func signalStopsWaitForLock() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("s.sqlite").path
        #expect(try BuiltBinary.run(["--store", database, "-c", "players"]).status == 0)
        let errors = Pipe()
        let (process, holder, waited) = try programWaitingForLock(
            database, ["-c", "add Ann 2"], errors: errors)
        defer { _ = try? holder.finish() }
        var said = waited
        kill(process.processIdentifier, SIGTERM)
        try #require(endsWithinAMinute(process))
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGTERM)
        said += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.contains("cancelled"))
    }
}

/// `validate` stopped by Ctrl-C.
@Suite("validate and Ctrl-C")
struct ValidateInterruptTests {
    @Test(
        "validate of a FIFO no one writes to stops at the first Ctrl-C, with status 130",
        .timeLimit(.minutes(5)))
    func fifoWithoutWriter() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = try madeFIFO(in: folder)
        let errors = Pipe()
        let process = try startedProgram(
            ["validate", fifo], errors: errors)
        try #require(eventually { hasOpen(process.processIdentifier, fifo) })
        kill(process.processIdentifier, SIGINT)
        try #require(endsWithinAMinute(process))
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.contains("interrupted: 0 records"))
    }

    @Test(
        "a second Ctrl-C ends validate at once, by the signal, while its findings wait for a reader",
        .timeLimit(.minutes(5)))
    func secondInterruptEnds() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Far more findings than a pipe holds.
        let records = folder.appendingPathComponent("bad.jsonl")
        let line = #"{"name": "", "points": 1}"# + "\n"
        try Data(String(repeating: line, count: 50_000).utf8).write(to: records)
        let findings = Pipe()
        let process = try startedProgram(
            ["validate", records.path], output: findings)
        // Nothing reads the findings: once the pipe is full, validate waits to write.
        let readEnd = findings.fileHandleForReading.fileDescriptor
        // F_GETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 8), which the Glibc module does not bring.
        let capacity = fcntl(readEnd, 1024 + 8)
        try #require(
            eventually {
                var queued: Int32 = 0
                return ioctl(readEnd, UInt(FIONREAD), &queued) == 0 && queued >= capacity
            })
        kill(process.processIdentifier, SIGINT)
        // A second signal sent while the first is pending would be merged with it.
        try #require(eventually { !isPending(SIGINT, process.processIdentifier) })
        kill(process.processIdentifier, SIGINT)
        try #require(endsWithinAMinute(process))
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGINT)
    }
}

/// `import` stopped by Ctrl-C.
@Suite("import and Ctrl-C")
struct ImportInterruptTests {
    @Test(
        "Ctrl-C stops an import waiting for more input: what it took is kept and said, with status 130",
        .timeLimit(.minutes(5)))
    func stopsAndSaysWhatItKept() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("s.sqlite").path
        let lines = (1...2_500).map { index in
            let id = String(format: "00000000-0000-4000-8000-%012d", index)
            return #"{"id":"\#(id)","name":"P\#(index)","points":5,"uploadedAt":"2026-01-01T00:00:00.000Z"}"#
        }
        let text = lines.joined(separator: "\n") + "\n"
        let fifo = try madeFIFO(in: folder)
        let errors = Pipe()
        let process = try startedProgram(["--store", store, "import", fifo], errors: errors)
        // Opening the FIFO to write returns once the import has opened it to read.
        let writer = open(fifo, O_WRONLY)
        try #require(writer >= 0)
        defer { close(writer) }
        try FileHandle(fileDescriptor: writer).write(contentsOf: Data(text.utf8))
        // The import has read every byte and waits for more.
        try #require(
            eventually {
                var queued: Int32 = 0
                return ioctl(writer, UInt(FIONREAD), &queued) == 0 && queued == 0
            })
        kill(process.processIdentifier, SIGINT)
        try #require(endsWithinAMinute(process))
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let pattern = /note: .*: stopped by Ctrl-C: (\d+) records? added, 0 already kept; (.*)\n/
        let match = try #require(said.wholeMatch(of: pattern), "\(said)")
        // A FIFO cannot be read again.
        #expect(match.2 == "the rest of the input was not imported")
        let kept = try #require(Int(match.1))

        // What the note counts is what the database holds: importing everything again adds the
        // rest and finds those already kept.
        let file = folder.appendingPathComponent("all.jsonl")
        try Data(text.utf8).write(to: file)
        let again = Pipe()
        let second = try startedProgram(["--store", store, "import", file.path], errors: again)
        try #require(endsWithinAMinute(second))
        #expect(second.terminationStatus == 0)
        let secondSaid = String(decoding: again.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let rest = 2_500 - kept
        let noun = rest == 1 ? "record" : "records"
        #expect(secondSaid == "note: \(file.path): \(rest) \(noun) added, \(kept) already kept\n")
    }
}

extension ImportInterruptTests {
    @Test(
        "Ctrl-C stops an import's wait for a database another process holds, with status 130",
        .timeLimit(.minutes(5)))
    func stopsWaitForLock() throws {
        let folder = try BuiltBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("s.sqlite").path
        #expect(try BuiltBinary.run(["--store", database, "-c", "players"]).status == 0)
        let file = folder.appendingPathComponent("in.jsonl")
        let line =
            #"{"id":"00000000-0000-4000-8000-000000000001","name":"Ann","points":5,"#
            + #""uploadedAt":"2026-01-01T00:00:00.000Z"}"#
        try Data((line + "\n").utf8).write(to: file)
        let errors = Pipe()
        let (process, holder, waited) = try programWaitingForLock(
            database, ["import", file.path], errors: errors)
        defer { _ = try? holder.finish() }
        var said = waited
        kill(process.processIdentifier, SIGINT)
        try #require(endsWithinAMinute(process))
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        said += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let note =
            "stopped by Ctrl-C: 0 records added, 0 already kept; importing the file again adds the rest"
        #expect(said.hasSuffix(note + "\n"), "\(said)")
    }
}

/// The built program started with `arguments`, standard input empty, and standard output or
/// standard error in a pipe when given (else nowhere).
private func startedProgram(_ arguments: [String], output: Pipe? = nil, errors: Pipe? = nil) throws -> Process
{
    let process = Process()
    process.executableURL = URL(fileURLWithPath: BuiltBinary.path)
    process.arguments = arguments
    process.standardOutput = output ?? FileHandle.nullDevice
    process.standardError = errors ?? FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return process
}

/// The program started with `arguments` on `database` while sqlite3 holds it (`BEGIN EXCLUSIVE`),
/// once it says it waits for it, with what it said so far; the holder is the spec's to finish.
///
/// The wait allowed is ten minutes: without a stop, the program would still be waiting when the
/// spec ends it.
private func programWaitingForLock(_ database: String, _ arguments: [String], errors: Pipe) throws
    -> (process: Process, holder: BuiltBinary.Session, said: String)
{
    let holder = try BuiltBinary.Session(
        ["-cmd", "BEGIN EXCLUSIVE;", "-cmd", "SELECT 'holding';", database], executable: "/usr/bin/sqlite3")
    do {
        #expect(holder.nextOutput() == "holding\n")
        let process = try startedProgram(
            ["--store", database, "--busy-timeout-milliseconds", "600000"] + arguments, errors: errors)
        var said = ""
        while !said.contains("waiting up to 600 s") {
            let more = errors.fileHandleForReading.availableData
            try #require(!more.isEmpty, "the program ended before it waited: \(said)")
            said += String(decoding: more, as: UTF8.self)
        }
        return (process, holder, said)
    } catch {
        _ = try? holder.finish()
        throw error
    }
}

/// A new FIFO in `folder`, by its path with symbolic links resolved, as `/proc` shows it.
private func madeFIFO(in folder: URL) throws -> String {
    let path = folder.resolvingSymlinksInPath().appendingPathComponent("commands").path
    try #require(mkfifo(path, 0o600) == 0)
    return path
}

/// Whether `condition` came true within a minute, asked again and again meanwhile.
private func eventually(_ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        sched_yield()
    }
    return false
}

/// Whether `process` ended within a minute; one that did not is killed, so that a spec fails
/// instead of waiting for ever.
private func endsWithinAMinute(_ process: Process) -> Bool {
    if eventually({ !process.isRunning }) { return true }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    return false
}

/// Whether process `pid` has `path` open.
private func hasOpen(_ pid: Int32, _ path: String) -> Bool {
    let folder = "/proc/\(pid)/fd"
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return entries.contains {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0)) == path
    }
}

/// Whether `signal`, sent to process `pid`, waits to be delivered (`ShdPnd` in its status).
private func isPending(_ signal: Int32, _ pid: Int32) -> Bool {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("ShdPnd:") }),
        let mask = UInt64(line.dropFirst("ShdPnd:".count).trimmingCharacters(in: .whitespaces), radix: 16)
    else { return false }
    return mask & (1 << UInt64(signal - 1)) != 0
}
