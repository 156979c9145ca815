import Foundation
import Glibc
import PlayerFormScores
import PlayerFormStore
import Testing

@Suite("FileScoreStore")
struct FileScoreStoreTests {
    let folder: URL
    let path: String

    init() throws {
        folder = try makeTemporaryFolder()
        path = folder.appendingPathComponent("data/playerform/scores.jsonl").path
    }

    func fileBytes() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func appendRaw(_ text: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    // MARK: Keeping records

    @Test("an upload returns a record that a new store on the same file reads back, after a restart")
    func restart() async throws {
        let clock = Date(timeIntervalSince1970: 1_763_712_000.123_456)
        let first = FileScoreStore(path: path, now: { clock })
        let colin = try await first.upload(name: "Colin", points: 100)
        let ana = try await first.upload(name: "Ana \"the\" Ace\n", points: 0.5)

        let second = FileScoreStore(path: path)
        #expect(try await second.records() == [colin, ana])
        #expect(colin.uploadedAt == Date(timeIntervalSince1970: 1_763_712_000.123))
        #expect(try await second.read() == ScoreReading(records: [colin, ana], problems: []))
    }

    @Test("the folders of a new file are made on the first upload")
    func makesFolders() throws {
        #expect(!FileManager.default.fileExists(atPath: path))
        _ = try FileScoreStore(path: path).appendRecord(name: "Colin", points: 100)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test("a missing file holds no records and is not created by reading")
    func missingFile() throws {
        let contents = try FileScoreStore(path: path).load()
        #expect(contents == FileScoreStore.Contents(records: [], problems: []))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("each upload appends exactly one line and leaves the bytes before it untouched")
    func appendOnly() throws {
        let store = FileScoreStore(path: path)
        _ = try store.appendRecord(name: "Colin", points: 100)
        let before = try fileBytes()
        _ = try store.appendRecord(name: "Bob", points: 120)
        let after = try fileBytes()
        #expect(Array(after.prefix(before.count)) == before)
        #expect(after.count > before.count)
        #expect(after.filter { $0 == 0x0A }.count == 2)
        #expect(after.last == 0x0A)
    }

    @Test("deleting appends a tombstone: the records disappear, the bytes before stay")
    func deletionAppendsTombstone() async throws {
        let store = FileScoreStore(path: path)
        let colin = try await store.upload(name: "Colin", points: 100)
        let bob = try await store.upload(name: "Bob", points: 120)
        let before = try fileBytes()
        try await store.delete(ids: [colin.id])
        let after = try fileBytes()
        #expect(Array(after.prefix(before.count)) == before)
        #expect(String(decoding: after[before.count...], as: UTF8.self).contains("\"kind\":\"delete\""))
        #expect(try await FileScoreStore(path: path).records() == [bob])
    }

    @Test("points that are not finite are refused and nothing is written")
    func notFinite() throws {
        let store = FileScoreStore(path: path)
        #expect(throws: StoreError.notFinite(points: .infinity)) {
            try store.appendRecord(name: "Colin", points: .infinity)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("the store's operations throw the typed error: points not finite, a file that cannot be read")
    func typedErrors() async throws {
        let store = FileScoreStore(path: path)
        await #expect(throws: ScoreStoreError.notFinite(points: .infinity)) {
            try await store.upload(name: "Colin", points: .infinity)
        }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        await #expect(throws: ScoreStoreError.io(.file(path: path), access: .read, reason: "Is a directory"))
        {
            try await store.records()
        }
    }

    // MARK: Damage

    @Test("a corrupt line in the middle is reported with its file and line; the records around it are kept")
    func corruptLineInTheMiddle() throws {
        let store = FileScoreStore(path: path)
        let colin = try store.appendRecord(name: "Colin", points: 100)
        try appendRaw("this is not json\n")
        let bob = try store.appendRecord(name: "Bob", points: 120)
        try appendRaw("{\"kind\":\"score\",\"name\":\"NoID\"}\n")
        let ana = try store.appendRecord(name: "Ana", points: 5)

        let contents = try store.load()
        #expect(contents.records == [colin, bob, ana])
        #expect(
            contents.problems == [
                .corruptLine(path: path, line: 2, reason: "not valid JSON"),
                .corruptLine(path: path, line: 4, reason: "no id"),
            ])
        #expect(contents.problems[0].description.hasPrefix("\(path):2: not a score record"))
    }

    @Test("a torn last line is reported and skipped, and the next upload starts on a new line")
    func tornLastLine() throws {
        let store = FileScoreStore(path: path)
        let colin = try store.appendRecord(name: "Colin", points: 100)
        try appendRaw("{\"id\":\"6F1C2B1E-0000-4000-8000-0000000")

        let torn = try store.load()
        #expect(torn.records == [colin])
        #expect(torn.problems == [.tornLine(path: path, line: 2)])

        let bob = try store.appendRecord(name: "Bob", points: 120)
        let after = try store.load()
        #expect(after.records == [colin, bob])
        #expect(after.problems == [.corruptLine(path: path, line: 2, reason: "not valid JSON")])
    }

    @Test("a last line that is a whole record without its line break is kept, and the next upload ends it")
    func unterminatedWholeRecord() throws {
        let store = FileScoreStore(path: path)
        let colin = try store.appendRecord(name: "Colin", points: 100)
        let bytes = try fileBytes()
        try Data(bytes.dropLast()).write(to: URL(fileURLWithPath: path))
        #expect(try store.load() == FileScoreStore.Contents(records: [colin], problems: []))

        let bob = try store.appendRecord(name: "Bob", points: 120)
        #expect(try store.load() == FileScoreStore.Contents(records: [colin, bob], problems: []))
        #expect(try fileBytes().filter { $0 == 0x0A }.count == 2)
    }

    @Test("a file that cannot be read gives an error naming it")
    func unreadable() throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let store = FileScoreStore(path: path)
        #expect(throws: StoreError.unreadable(path: path, reason: "Is a directory")) { try store.load() }
        #expect(throws: StoreError.self) { try store.appendRecord(name: "Colin", points: 100) }
        #expect(StoreError.unreadable(path: path, reason: "Is a directory").description.hasPrefix(path))
    }

    @Test("a read-only file can be read, but an upload fails with permission denied naming the file")
    func readOnlyFile() throws {
        let store = FileScoreStore(path: path)
        _ = try store.appendRecord(name: "Colin", points: 100)
        let before = try fileBytes()
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o755], ofItemAtPath: (path as NSString).deletingLastPathComponent)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o755],
            ofItemAtPath: ((path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        )

        // As root, permissions do not apply: the probe runs as nobody then.
        let asNobody = ["PROBE_UID": "65534"]
        let read = try Probe(["read", path], environment: asNobody).finish()
        #expect(read.status == 0)
        #expect(read.output == "records 1\n")

        let upload = try Probe(["upload", path, "1", "late"], environment: asNobody).finish()
        #expect(upload.status == 1)
        #expect(upload.errors == "\(path): permission denied: the file may not be written\n")
        #expect(StoreError.permissionDenied(path: path, access: .write).description.hasPrefix(path))
        #expect(try fileBytes() == before)
    }

    @Test("a folder that cannot be made is named in the error, with the reason")
    func folderCannotBeMade() throws {
        let blocker = folder.appendingPathComponent("data").path
        try Data("a file, not a folder".utf8).write(to: URL(fileURLWithPath: blocker))
        // The file in the way is named.
        #expect(throws: StoreError.cannotCreateDirectory(path: blocker, reason: "Not a directory")) {
            try FileScoreStore(path: path).appendRecord(name: "Colin", points: 100)
        }
    }

    // MARK: Several writers

    @Test("many uploads at once from one process, through several store instances, are all kept")
    func concurrentTasks() async throws {
        let stores = (0..<4).map { _ in FileScoreStore(path: path) }
        let kept = try await withThrowingTaskGroup(of: [ScoreRecord].self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask {
                    var kept: [ScoreRecord] = []
                    for upload in 0..<50 {
                        kept.append(try await store.upload(name: "t\(index)-\(upload)", points: 1))
                    }
                    return kept
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let contents = try FileScoreStore(path: path).load()
        #expect(contents.problems == [])
        #expect(Set(contents.records) == Set(kept))
        #expect(contents.records.count == 200)
    }

    @Test("4 processes uploading 500 records each at once keep all 2000, with no broken line")
    func concurrentProcesses() throws {
        let probes = try (1...4).map { try Probe(["upload", path, "500", "writer\($0)"]) }
        let results = probes.map { $0.finish() }
        #expect(results.map(\.status) == [0, 0, 0, 0])
        let acknowledged = results.flatMap { $0.output.split(separator: "\n") }
            .map { UUID(uuidString: String($0.dropFirst("kept ".count)))! }
        #expect(acknowledged.count == 2000)

        let contents = try FileScoreStore(path: path).load()
        #expect(contents.problems == [])
        #expect(contents.records.count == 2000)
        #expect(Set(contents.records.map(\.id)) == Set(acknowledged))
        let text = String(decoding: try fileBytes(), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2001)
        #expect(lines.last == "")
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") })
        // Each writer's records stay in its own order.
        for writer in 1...4 {
            let names = contents.records.map(\.name).filter { $0.hasPrefix("writer\(writer)-") }
            #expect(names == (1...500).map { "writer\(writer)-\($0)" })
        }
    }

    @Test(
        "a writer killed with SIGKILL in the middle of a record: every kept upload stays, the torn tail is reported"
    )
    func killedInTheMiddleOfARecord() throws {
        let kept = try Probe(["upload", path, "5", "before"]).finish()
        #expect(kept.status == 0)

        let writer = try Probe(["tear", path])
        #expect(writer.readLines(1) == ["torn"])
        writer.kill()
        #expect(writer.process.terminationReason == .uncaughtSignal)

        let store = FileScoreStore(path: path)
        let afterCrash = try store.load()
        #expect(afterCrash.records.map(\.name) == (1...5).map { "before-\($0)" })
        #expect(afterCrash.problems == [.tornLine(path: path, line: 6)])

        let next = try store.appendRecord(name: "after", points: 1)
        let afterNext = try store.load()
        #expect(afterNext.records.map(\.name) == (1...5).map { "before-\($0)" } + ["after"])
        #expect(afterNext.records.last == next)
        #expect(afterNext.problems == [.corruptLine(path: path, line: 6, reason: "not valid JSON")])
    }

    @Test("a writer killed with SIGKILL at any moment loses no upload it reported as kept")
    func killedWhileUploading() throws {
        let writer = try Probe(["upload-forever", path, "busy"])
        let lines = writer.readLines(200)
        writer.kill()
        let acknowledged = lines.filter { $0.hasPrefix("kept ") && $0.count == "kept ".count + 36 }
            .map { UUID(uuidString: String($0.dropFirst("kept ".count)))! }
        #expect(acknowledged.count >= 200)

        let contents = try FileScoreStore(path: path).load()
        #expect(Set(acknowledged).isSubset(of: Set(contents.records.map(\.id))))
        // The only damage a kill can leave is an incomplete last line.
        for problem in contents.problems {
            guard case .tornLine = problem else {
                Issue.record("unexpected damage: \(problem)")
                continue
            }
        }
        #expect(contents.problems.count <= 1)
    }
}
