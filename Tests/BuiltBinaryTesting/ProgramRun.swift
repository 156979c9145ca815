import Foundation
import Glibc
import Synchronization

/// What a finished program wrote, and how it ended.
public struct ProgramRun: Sendable {
    /// Everything the program wrote to standard output (and standard error, when merged).
    public var standardOutput: Data
    /// Everything the program wrote to standard error; empty when merged into standard output.
    public var standardError: Data
    /// The exit status, or the number of the signal that ended the program.
    public var status: Int32
    /// Whether the program was still running at the runner's deadline, and was killed.
    public var timedOut = false

    /// Standard output as text.
    public var output: String { String(decoding: standardOutput, as: UTF8.self) }
    /// Standard error as text.
    public var errors: String { String(decoding: standardError, as: UTF8.self) }
    /// The lines of standard output, without a last empty one.
    public var outputLines: [String] { Self.lines(standardOutput) }
    /// The lines of standard error, without a last empty one.
    public var errorLines: [String] { Self.lines(standardError) }

    /// Creates a run's outcome.
    public init(standardOutput: Data, standardError: Data, status: Int32) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.status = status
    }

    /// The lines of `data`, without a last empty one.
    public static func lines(_ data: Data) -> [String] {
        var text = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
        if text.last == "" { text.removeLast() }
        return text
    }
}

/// Runs a program to its end with pipes on its standard streams.
///
/// Standard input is written on one thread while standard output and standard error are read on
/// two others, so a program that fills one pipe while the runner waits on another cannot stall:
/// each pipe is drained as the program writes it. A program that exits without reading all of
/// its input does not end the runner by `SIGPIPE`.
public enum ProgramRunner {
    /// Where the program's standard output goes.
    public enum Output: Sendable {
        /// A pipe the runner reads.
        case pipe
        /// The file at this path, opened for writing (`/dev/full` for a full disk).
        case file(String)
    }

    /// Runs `executable` with `arguments` and waits for it to end.
    /// - Parameters:
    ///   - executable: the path of the program.
    ///   - arguments: its arguments.
    ///   - input: written to standard input, which is then closed.
    ///   - environment: the whole environment; nil keeps this process's.
    ///   - directory: the working folder; nil keeps this process's.
    ///   - output: where standard output goes.
    ///   - mergingErrors: standard error goes where standard output goes (`2>&1`).
    ///   - deadline: how long the program may run; one still running then is killed with
    ///     `SIGKILL` (so that a spec fails instead of hanging), and its standard error ends with a
    ///     line that says so.
    /// - Returns: the exit status and everything the program wrote.
    /// - Throws: when the program cannot be started.
    public static func run(
        _ executable: String, _ arguments: [String] = [], input: Data = Data(),
        environment: [String: String]? = nil, directory: URL? = nil, output: Output = .pipe,
        mergingErrors: Bool = false, deadline: Duration = .seconds(300)
    ) throws -> ProgramRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        let outputFile: FileHandle?
        switch output {
        case .pipe:
            outputFile = nil
            process.standardOutput = stdout
        case .file(let path):
            guard let file = FileHandle(forWritingAtPath: path) else {
                throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
            }
            outputFile = file
            process.standardOutput = file
        }
        process.standardError = mergingErrors ? process.standardOutput : stderr
        try process.run()
        // The child holds its own copies; closing ours lets each reader see the end of its pipe.
        try? outputFile?.close()
        try? stdout.fileHandleForWriting.close()
        try? stderr.fileHandleForWriting.close()
        try? stdin.fileHandleForReading.close()

        let writer = Thread {
            write(input, to: stdin.fileHandleForWriting.fileDescriptor)
            try? stdin.fileHandleForWriting.close()
        }
        let outputs = Gate<Data>()
        let errors = Gate<Data>()
        let outputReader = Thread { outputs.open(stdout.fileHandleForReading.readDataToEndOfFile()) }
        let errorReader = Thread { errors.open(stderr.fileHandleForReading.readDataToEndOfFile()) }
        writer.start()
        outputReader.start()
        errorReader.start()
        // Whether the program has been waited for, and whether the deadline killed it first.
        let watch = Mutex((done: false, killed: false))
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem {
            watch.withLock { watch in
                guard !watch.done else { return }
                watch.killed = kill(pid, SIGKILL) == 0
            }
        }
        let (seconds, attoseconds) = deadline.components
        DispatchQueue.global().asyncAfter(
            deadline: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)),
            execute: watchdog)
        let standardOutput = outputs.wait()
        var standardError = errors.wait()
        process.waitUntilExit()
        let killed = watch.withLock { watch in
            watch.done = true
            return watch.killed
        }
        watchdog.cancel()
        if killed {
            standardError += Data(
                "the spec's runner killed the program: it was still running after \(deadline)\n".utf8)
        }
        var run = ProgramRun(
            standardOutput: standardOutput, standardError: standardError, status: process.terminationStatus)
        run.timedOut = killed
        return run
    }

    /// Writes `data` to `descriptor` until done or the reader has gone, with `SIGPIPE` blocked on
    /// this thread, and any `SIGPIPE` the write raised taken back before the thread ends (it would
    /// end the whole test process otherwise).
    private static func write(_ data: Data, to descriptor: Int32) {
        var pipeOnly = sigset_t()
        sigemptyset(&pipeOnly)
        sigaddset(&pipeOnly, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeOnly, nil)
        var brokenPipe = false
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    brokenPipe = written < 0 && errno == EPIPE
                    return
                }
                offset += written
            }
        }
        if brokenPipe {
            var none = timespec(tv_sec: 0, tv_nsec: 0)
            _ = sigtimedwait(&pipeOnly, nil, &none)
        }
    }
}

/// A value handed from one thread to another.
final class Gate<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is guarded by `condition`.
    private let condition = NSCondition()
    private var value: Value?

    func open(_ value: Value) {
        condition.lock()
        self.value = value
        condition.signal()
        condition.unlock()
    }

    func wait() -> Value {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value!
    }
}
