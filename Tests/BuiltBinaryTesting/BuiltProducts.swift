import Foundation

/// The executables `swift build` put next to the test runner.
public enum BuiltProducts {
    /// The environment variable naming a folder whose executables the specs run instead, such as
    /// the static release build of `Scripts/release-build.sh`.
    public static let folderVariable = "PLAYERFORM_TEST_PRODUCTS"

    /// The path of the executable product `name`: in the folder ``folderVariable`` names when it
    /// holds one, else in the runner's folder or up to three folders above it (the runner may sit
    /// inside a bundle).
    public static func path(of name: String) -> String {
        if let folder = ProcessInfo.processInfo.environment[folderVariable], !folder.isEmpty {
            let candidate = URL(fileURLWithPath: folder).appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
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
