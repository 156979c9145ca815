import Foundation
import Glibc
import PlayerFormSystem
import Testing

@Suite("Creating folders")
struct FoldersTests {
    /// A new folder in the temporary folder, removed by `body`'s caller.
    private func scratch() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "playerform-folders-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        return folder
    }

    private func mode(_ path: String) -> mode_t? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return nil }
        return status.st_mode & 0o777
    }

    @Test("every missing folder is made with the mode given; existing ones are left alone")
    func nested() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Folders.create(root + "/a/b/c", mode: 0o700)
        #expect(mode(root + "/a") == 0o700)
        #expect(mode(root + "/a/b/c") == 0o700)
        try Folders.create(root + "/a/b/c/", mode: 0o700)
        try Folders.createParents(of: root + "/a/x/file", mode: 0o700, syncingParents: true)
        #expect(mode(root + "/a/x") == 0o700)
        #expect(!FileManager.default.fileExists(atPath: root + "/a/x/file"))
    }

    @Test("a component that is a file is named, with why")
    func componentIsAFile() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(FileManager.default.createFile(atPath: root + "/plain", contents: Data()))
        let error = #expect(throws: FolderCreationError.self) {
            try Folders.createParents(of: root + "/plain/sub/history")
        }
        #expect(error == FolderCreationError(folder: root + "/plain", code: ENOTDIR))
        #expect(error?.reason == "Not a directory")
        // The file itself where the last folder should be.
        let direct = #expect(throws: FolderCreationError.self) {
            try Folders.createParents(of: root + "/plain/history")
        }
        #expect(direct == FolderCreationError(folder: root + "/plain", code: ENOTDIR))
    }

    @Test("a folder that may not be written names the folder and EACCES")
    func permissionDenied() throws {
        guard geteuid() != 0 else { return }  // root may write anywhere
        let root = try scratch()
        defer {
            chmod(root + "/locked", 0o700)
            try? FileManager.default.removeItem(atPath: root)
        }
        try Folders.create(root + "/locked", mode: 0o500)
        let error = #expect(throws: FolderCreationError.self) { try Folders.create(root + "/locked/inner") }
        #expect(error?.folder == root + "/locked/inner")
        #expect(error?.reason == "Permission denied")
    }

    @Test("a bare file name needs no folder")
    func bareName() throws {
        try Folders.createParents(of: "history")
        try Folders.create("")
    }
}
