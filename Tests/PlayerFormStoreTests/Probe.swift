import Foundation
import Glibc

/// Runs the ScoreStoreProbe executable, built next to the test runner, as a separate process.
struct Probe {
    let process = Process()
    let output = Pipe()
    let errors = Pipe()
    let input = Pipe()

    /// The probe built with the package, found next to this test runner.
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["SCORE_STORE_PROBE"] {
            return URL(fileURLWithPath: path)
        }
        let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = runner.deletingLastPathComponent()
        // The runner may sit inside a bundle folder; walk up until the probe is found.
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("ScoreStoreProbe")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return runner.deletingLastPathComponent().appendingPathComponent("ScoreStoreProbe")
    }

    /// Starts the probe with `arguments`; `environment` adds to this process's environment.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = Self.executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
    }

    /// Reads standard output until `count` lines have arrived (or the probe ends), and returns them.
    func readLines(_ count: Int) -> [String] {
        var text = ""
        while text.filter({ $0 == "\n" }).count < count {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return text.split(separator: "\n").map(String.init)
    }

    /// Waits for the probe to end and returns its exit status, standard output and standard error.
    func finish() -> (status: Int32, output: String, errors: String) {
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: out, as: UTF8.self),
            String(decoding: err, as: UTF8.self)
        )
    }

    /// Kills the probe with SIGKILL and waits for it to end.
    func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// A fresh folder for one spec's files.
func makeTemporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("playerform-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    return folder
}
