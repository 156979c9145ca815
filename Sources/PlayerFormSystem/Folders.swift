import Glibc

/// A folder that could not be created, and why.
public struct FolderCreationError: Error, Equatable, Sendable {
    /// The folder that failed, as it was passed to `mkdir(2)`: `./a/b` for a relative path.
    public let folder: String
    /// The `errno` of the failure.
    public let code: Int32

    /// The operating system's text for ``code``.
    public var reason: String { SystemError.text(code) }

    /// Creates the error for `folder` and the `errno` value `code`.
    public init(folder: String, code: Int32) {
        self.folder = folder
        self.code = code
    }
}

/// Creating folders (`mkdir -p`) and making new names in them survive a crash.
public enum Folders {
    /// Creates `folder` and every missing folder above it, one at a time, with `mode`, so that a
    /// failure names the folder that failed.
    ///
    /// Folders that exist are left as they are.
    ///
    /// With `syncingParents`, each new folder's parent is synced, so that the new name survives a
    /// crash (a file created in it later would be lost with it otherwise).
    /// - Throws: ``FolderCreationError`` naming the first folder that could not be created, for
    ///   example when a component is a file (`ENOTDIR`) or may not be written (`EACCES`).
    public static func create(
        _ folder: String, mode: mode_t = 0o700, syncingParents: Bool = false
    ) throws(FolderCreationError) {
        guard !folder.isEmpty else { return }
        try create(
            components: folder.split(separator: "/"), absolute: folder.hasPrefix("/"), mode, syncingParents)
    }

    /// Creates the folders above the file at `path` (nothing for a bare file name), as
    /// ``create(_:mode:syncingParents:)`` does.
    public static func createParents(
        of path: String, mode: mode_t = 0o700, syncingParents: Bool = false
    ) throws(FolderCreationError) {
        try create(
            components: path.split(separator: "/").dropLast(), absolute: path.hasPrefix("/"), mode,
            syncingParents)
    }

    /// Syncs `folder` itself, so that names created in it survive a crash; does nothing when the
    /// folder cannot be opened.
    public static func sync(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// Syncs the folder holding the file at `path` (`.` for a bare file name).
    public static func syncParent(of path: String) {
        let components = path.split(separator: "/").dropLast()
        if components.isEmpty {
            sync(path.hasPrefix("/") ? "/" : ".")
        } else {
            sync((path.hasPrefix("/") ? "/" : "") + components.joined(separator: "/"))
        }
    }

    private static func create(
        components: some Collection<Substring>, absolute: Bool, _ mode: mode_t, _ syncingParents: Bool
    ) throws(FolderCreationError) {
        var parent = absolute ? "/" : "."
        var current = absolute ? "" : "."
        for component in components {
            current += "/" + component
            if mkdir(current, mode) == 0 {
                if syncingParents { sync(parent) }
            } else if errno != EEXIST {
                throw FolderCreationError(folder: current, code: errno)
            } else {
                // Something is there already: it must be a folder (or a link to one).
                var status = stat()
                if stat(current, &status) == 0, status.st_mode & S_IFMT != S_IFDIR {
                    throw FolderCreationError(
                        folder: absolute ? current : String(current.dropFirst(2)), code: ENOTDIR)
                }
            }
            parent = current
        }
    }
}
