import BuiltBinaryTesting
import Foundation

/// Runs the `playerform` executable that `swift build` put next to the test bundle.
enum BuiltBinary {
    /// What a run produced.
    typealias Run = ProgramRun

    /// The executable's path.
    static var path: String { BuiltProducts.path(of: "playerform") }

    /// A new, empty folder in the temporary folder; the caller removes it.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "playerform-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The default place of the scores under a data folder in `folder`, made, as `XDG_DATA_HOME`
    /// names it: the folder, the score file of earlier versions there, and the database's path.
    static func defaultPlace(in folder: URL) throws -> (data: URL, legacyFile: URL, database: String) {
        let data = folder.appendingPathComponent("data")
        try FileManager.default.createDirectory(
            at: data.appendingPathComponent("playerform"), withIntermediateDirectories: true)
        return (
            data, data.appendingPathComponent("playerform/scores.jsonl"),
            data.appendingPathComponent("playerform/scores.sqlite").path
        )
    }

    /// Runs the executable with `arguments`, `input` on standard input (a pipe), and waits, in
    /// `directory` when given.
    ///
    /// With `mergingErrors`, standard error goes to the same pipe as standard output (`2>&1`).
    ///
    /// Unless `environment` says otherwise, `XDG_DATA_HOME`, `XDG_CONFIG_HOME` and `HOME` are a new
    /// temporary folder, removed after the run, so that a run never touches the scores of the
    /// person running the specs, nor runs their start-up file.
    static func run(
        _ arguments: [String] = [], input: Data = Data(), environment: [String: String] = [:],
        mergingErrors: Bool = false, directory: URL? = nil, output: ProgramRunner.Output = .pipe
    ) throws -> Run {
        let data = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        var variables = ProcessInfo.processInfo.environment
        variables["XDG_DATA_HOME"] = data.path
        // Nor does the start-up file of the person running them apply (~/.playerformrc).
        variables["HOME"] = data.path
        variables["XDG_CONFIG_HOME"] = data.path
        variables.merge(environment) { $1 }
        return try ProgramRunner.run(
            path, arguments, input: input, environment: variables, directory: directory, output: output,
            mergingErrors: mergingErrors)
    }

    /// The executable running with its standard input and output on pipes, for specs that talk
    /// to it a line at a time while it waits for more input.
    ///
    /// Standard error is discarded.
    final class Session {
        private let process = Process()
        private let stdin = Pipe()
        private let stdout = Pipe()

        /// Starts the executable (or another program, at `executable`) with `arguments`; with
        /// `mergingErrors`, standard error goes to standard output (`2>&1`) instead of nowhere.
        init(
            _ arguments: [String], executable: String = BuiltBinary.path, environment: [String: String] = [:],
            mergingErrors: Bool = false
        ) throws {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = mergingErrors ? stdout : FileHandle.nullDevice
            try process.run()
        }

        /// What the program writes until it has written `text` (or nothing more for
        /// `milliseconds`).
        func output(until text: String, within milliseconds: Int32 = 20_000) -> String {
            var seen = ""
            while !seen.contains(text), let more = nextOutput(within: milliseconds), !more.isEmpty {
                seen += more
            }
            return seen
        }

        /// Writes `text` to standard input, leaving it open.
        func send(_ text: String) throws {
            try stdin.fileHandleForWriting.write(contentsOf: Data(text.utf8))
        }

        /// What the program has written once it writes anything, or nil when it writes nothing
        /// within `milliseconds`.
        func nextOutput(within milliseconds: Int32 = 10_000) -> String? {
            var descriptor = pollfd(
                fd: stdout.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, milliseconds) == 1 else { return nil }
            return String(decoding: stdout.fileHandleForReading.availableData, as: UTF8.self)
        }

        /// Closes standard input, reads the rest of the output and waits for the exit status.
        func finish() throws -> (rest: String, status: Int32) {
            try stdin.fileHandleForWriting.close()
            let rest = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (rest, process.terminationStatus)
        }
    }
}
