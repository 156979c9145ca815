import Foundation
import GRDB
import Glibc
import PlayerFormSQLite
import PlayerFormScores
import Testing

/// The score database used by several real processes at once, killed, and on a full disk.
@Suite("A score database shared by processes")
struct SQLiteProcessTests {
    let path: String

    init() throws {
        path = try makeTemporaryFolder().appendingPathComponent("scores.sqlite").path
    }

    static func acknowledged(_ output: String) -> [UUID] {
        output.split(separator: "\n").filter { $0.hasPrefix("kept ") && $0.count == "kept ".count + 36 }
            .compactMap { UUID(uuidString: String($0.dropFirst("kept ".count))) }
    }

    static func integrity(_ path: String) throws -> String? {
        try DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
    }

    @Test("8 processes uploading 300 records each while a 9th reads: all 2400 kept, no reading goes back")
    func eightWritersAndAReader() async throws {
        _ = try SQLiteScoreStore(path: path)
        let reader = try Probe(["db-watch", path, "2400"])
        let writers = try (1...8).map { try Probe(["db-upload", path, "300", "writer\($0)"]) }
        let results = writers.map { $0.finish() }
        #expect(results.map(\.status) == Array(repeating: 0, count: 8))
        #expect(results.map(\.errors) == Array(repeating: "", count: 8))
        let acknowledged = results.flatMap { Self.acknowledged($0.output) }
        #expect(acknowledged.count == 2400)

        let watched = reader.finish()
        #expect(watched.status == 0)
        #expect(watched.errors == "")
        #expect(watched.output.hasPrefix("saw 2400 in "))

        let store = try SQLiteScoreStore(path: path)
        let records = try await store.records()
        #expect(Set(records.map(\.id)) == Set(acknowledged))
        #expect(try await store.playerCount() == 2400)
        for writer in 1...8 {
            let names = records.map(\.name).filter { $0.hasPrefix("writer\(writer)-") }
            #expect(names == (1...300).map { "writer\(writer)-\($0)" })
        }
        #expect(try Self.integrity(path) == "ok")
    }

    @Test("a writer killed with SIGKILL while uploading loses no upload it reported as kept")
    func killedWhileUploading() async throws {
        let writer = try Probe(["db-upload-forever", path, "busy"])
        let lines = writer.readLines(200)
        writer.kill()
        #expect(writer.process.terminationReason == .uncaughtSignal)
        let acknowledged = Self.acknowledged(lines.joined(separator: "\n"))
        #expect(acknowledged.count >= 200)

        let kept = Set(try await SQLiteScoreStore(path: path).records().map(\.id))
        #expect(Set(acknowledged).isSubset(of: kept))
        #expect(try Self.integrity(path) == "ok")
    }

    @Test(
        "a full disk: the upload fails with the system's reason, every acknowledged upload stays, integrity_check is ok",
        .enabled(if: SmallDisk.canMount, "mounting a tmpfs needs root; the spec is skipped otherwise"))
    func fullDisk() async throws {
        let disk = try SmallDisk(kilobytes: 512)
        defer { disk.unmount() }
        let file = disk.folder + "/scores.sqlite"
        let store = try SQLiteScoreStore(path: file)
        var kept: [ScoreRecord] = []
        let filler = String(repeating: "x", count: 2000)
        var failure: ScoreStoreError?
        for index in 0..<10_000 {
            do {
                kept.append(try await store.upload(name: "\(filler)-\(index)", points: Double(index)))
            } catch {
                failure = error
                break
            }
        }
        #expect(failure == .storageFull(.database(path: file), reason: "No space left on device"))
        #expect(!kept.isEmpty)
        #expect(try await SQLiteScoreStore(path: file).records() == kept)
        #expect(try Self.integrity(file) == "ok")
    }
}

/// A tmpfs of a few hundred kilobytes, to fill up.
struct SmallDisk {
    let folder: String

    /// Whether this process may mount one (root, with `mount` at hand).
    static let canMount: Bool = {
        guard getuid() == 0, let disk = try? SmallDisk(kilobytes: 64) else {
            print(
                "SmallDisk: cannot mount a tmpfs here (not root, or no mount); the full-disk spec is skipped")
            return false
        }
        disk.unmount()
        return true
    }()

    init(kilobytes: Int) throws {
        folder = try makeTemporaryFolder().path
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", folder]
        mount.standardError = FileHandle.nullDevice
        try mount.run()
        mount.waitUntilExit()
        guard mount.terminationStatus == 0 else { throw CocoaError(.fileWriteNoPermission) }
    }

    func unmount() {
        let umount = Process()
        umount.executableURL = URL(fileURLWithPath: "/bin/umount")
        umount.arguments = [folder]
        try? umount.run()
        umount.waitUntilExit()
    }
}
