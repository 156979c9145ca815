import Foundation

/// The executables `swift build` put next to the test runner.
public enum BuiltProducts {
    /// The path of the executable product `name`, found in the runner's folder or up to three
    /// folders above it (the runner may sit inside a bundle).
    public static func path(of name: String) -> String {
        let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = runner.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return runner.deletingLastPathComponent().appendingPathComponent(name).path
    }
}
