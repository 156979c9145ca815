import Foundation
import Glibc
import Testing

@testable import PlayerFormTerminal

@Suite("HistoryFile")
struct HistoryFileTests {
    @Test("the default is under XDG_STATE_HOME, else ~/.local/state")
    func defaults() {
        #expect(
            HistoryFile.resolve(option: nil, environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]).path
                == "/s/playerform/history")
        #expect(
            HistoryFile.resolve(option: nil, environment: ["HOME": "/h"]).path
                == "/h/.local/state/playerform/history")
        #expect(
            HistoryFile.resolve(option: nil, environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"]).path
                == "/h/.local/state/playerform/history")
        #expect(HistoryFile.resolve(option: nil, environment: [:]).path == nil)
    }

    @Test("--history-file wins, and /dev/null turns history off")
    func option() {
        #expect(HistoryFile.resolve(option: "/tmp/h", environment: ["HOME": "/h"]).path == "/tmp/h")
        #expect(HistoryFile.resolve(option: "/dev/null", environment: ["HOME": "/h"]).path == nil)
    }

    @Test("prepare creates the folders 0700 and the file 0600")
    func prepare() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "history-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.path + "/state/playerform/history"
        #expect(HistoryFile(path: path).prepare() == nil)
        let file = try FileManager.default.attributesOfItem(atPath: path)
        let folder = try FileManager.default.attributesOfItem(atPath: root.path + "/state/playerform")
        #expect((file[.posixPermissions] as? Int) == 0o600)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
    }

    @Test("prepare says why a history file cannot be used")
    func unusable() {
        #expect(HistoryFile(path: "/proc/forbidden/history").prepare()?.contains("/proc/forbidden") == true)
    }

    @Test("a FIFO or a device is refused at once, without waiting for a reader")
    func notRegularFile() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let fifo = root.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(HistoryFile(path: fifo).prepare() == "\(fifo) is not a regular file")
        #expect(HistoryFile(path: "/dev/full").prepare() == "/dev/full is not a regular file")
    }

    @Test("a line limit beyond what readline holds is kept within 0 and Int32.max")
    func lineLimit() {
        #expect(HistoryFile(path: nil, maxLines: .max).maxLines == Int(Int32.max))
        #expect(HistoryFile(path: nil, maxLines: .min).maxLines == 0)
        #expect(HistoryFile(path: nil, maxLines: 500).maxLines == 500)
    }
}
