// Drives a score file from its own process, for the store specs:
//
//   ScoreStoreProbe upload PATH COUNT TAG   uploads COUNT records named TAG-1..., printing
//                                           "kept ID" as each one is on disk
//   ScoreStoreProbe upload-forever PATH TAG uploads until killed, printing "kept ID" for each
//   ScoreStoreProbe tear PATH               writes the first half of a record line, as a writer
//                                           killed in the middle of its write leaves it, prints
//                                           "torn" and waits to be killed
//   ScoreStoreProbe delete PATH ID...       appends a tombstone deleting the records with these ids
//   ScoreStoreProbe read PATH               prints "records N", then one "problem: ..." per
//                                           damaged line
//
// and on a score database (SQLiteScoreStore):
//
//   ScoreStoreProbe db-upload PATH COUNT TAG     uploads COUNT records, printing "kept ID" for each
//   ScoreStoreProbe db-upload-forever PATH TAG   uploads until killed, printing "kept ID" for each
//   ScoreStoreProbe db-watch PATH COUNT          reads the store until it holds COUNT records,
//                                                failing if a reading ever shows fewer than the one
//                                                before; prints "saw COUNT in N readings"
//   ScoreStoreProbe db-time PATH COUNT           times COUNT uploads, pages of 40 at the end of the
//                                                roster, counts and lookups by name; prints the
//                                                median of each in microseconds (for
//                                                Benchmarks/store.sh)
//   ScoreStoreProbe db-hold PATH                 holds the database with BEGIN EXCLUSIVE, prints
//                                                "holding", and lets go when standard input ends
//
// With PROBE_UID set while running as root, the probe first switches to that user, so that
// file permissions apply to it. Exit status: 0 on success, 1 when the store fails, 64 on bad usage.
import Foundation
import GRDB
import Glibc
import PlayerFormSQLite
import PlayerFormStore
import Synchronization

/// Writes a line to standard output at once, unbuffered, so a reader sees it before a kill.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    fail(
        "usage: ScoreStoreProbe upload|upload-forever|tear|delete|read|db-upload|db-upload-forever|db-watch|db-hold PATH ...",
        status: 64)
}
if let uid = ProcessInfo.processInfo.environment["PROBE_UID"].flatMap(UInt32.init), getuid() == 0 {
    guard setgid(uid) == 0, setuid(uid) == 0 else { fail("cannot switch to user \(uid)", status: 1) }
}
let store = FileScoreStore(path: arguments[1])

/// Runs `work` to its end from this synchronous program.
func wait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let result = Mutex<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        do {
            let value = try await work()
            result.withLock { $0 = .success(value) }
        } catch {
            result.withLock { $0 = .failure(error) }
        }
        done.signal()
    }
    done.wait()
    return try result.withLock { $0! }.get()
}

do {
    switch arguments[0] {
    case "db-upload", "db-upload-forever":
        let forever = arguments[0] == "db-upload-forever"
        guard arguments.count == (forever ? 3 : 4), forever || Int(arguments[2]) != nil else {
            fail("usage: ScoreStoreProbe db-upload PATH COUNT TAG | db-upload-forever PATH TAG", status: 64)
        }
        let database = try SQLiteScoreStore(path: arguments[1], busyTimeout: .seconds(30))
        let count = forever ? Int.max : Int(arguments[2])!
        let tag = arguments.last!
        var index = 0
        while index < count {
            index += 1
            let (name, points) = ("\(tag)-\(index)", Double(index))
            let record = try wait { try await database.upload(name: name, points: points) }
            say("kept \(record.id)")
        }
    case "db-watch":
        guard arguments.count == 3, let target = Int(arguments[2]) else {
            fail("usage: ScoreStoreProbe db-watch PATH COUNT", status: 64)
        }
        let database = try SQLiteScoreStore(path: arguments[1], busyTimeout: .seconds(30))
        var last = 0
        var readings = 0
        while last < target {
            let (count, players) = try wait {
                (try await database.records().count, try await database.playerCount())
            }
            readings += 1
            guard count >= last else { fail("a reading showed \(count) records after \(last)", status: 1) }
            // The count is read after the records, and every record here is a player of its own.
            guard players >= count else { fail("\(players) players for \(count) records", status: 1) }
            last = count
        }
        say("saw \(last) in \(readings) readings")
    case "db-time":
        guard arguments.count == 3, let count = Int(arguments[2]), count > 0 else {
            fail("usage: ScoreStoreProbe db-time PATH COUNT", status: 64)
        }
        let database = try SQLiteScoreStore(path: arguments[1])
        func median(_ work: @escaping @Sendable () async throws -> Void) throws -> Double {
            var samples: [Double] = []
            for _ in 0..<count {
                let started = ContinuousClock.now
                try wait { try await work() }
                let elapsed = ContinuousClock.now - started
                samples.append(
                    Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
            }
            return samples.sorted()[samples.count / 2]
        }
        let tag = UUID().uuidString.prefix(8)
        let counter = Mutex(0)
        let upload = try median {
            let index = counter.withLock {
                $0 += 1
                return $0
            }
            _ = try await database.upload(name: "Timed \(tag) \(index)", points: 1)
        }
        let total = try wait { try await database.playerCount() }
        let page = try median { _ = try await database.players(from: max(total - 40, 0), limit: 40) }
        let size = try median { _ = try await database.playerCount() }
        let find = try median { _ = try await database.player(named: "timed \(tag) 1") }
        let revision = try median { _ = try await database.revision() }
        say(
            "upload \(Int(upload)) us, last page \(Int(page)) us, count \(Int(size)) us, "
                + "find \(Int(find)) us, revision \(Int(revision)) us")
    case "db-hold":
        let queue = try DatabaseQueue(path: arguments[1])
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN EXCLUSIVE")
            say("holding")
            var byte: UInt8 = 0
            while Glibc.read(STDIN_FILENO, &byte, 1) > 0 {}
            try db.execute(sql: "ROLLBACK")
        }
    case "upload":
        guard arguments.count == 4, let count = Int(arguments[2]), count >= 0 else {
            fail("usage: ScoreStoreProbe upload PATH COUNT TAG", status: 64)
        }
        for index in 0..<count {
            let record = try store.appendRecord(name: "\(arguments[3])-\(index + 1)", points: Double(index))
            say("kept \(record.id)")
        }
    case "upload-forever":
        guard arguments.count == 3 else { fail("usage: ScoreStoreProbe upload-forever PATH TAG", status: 64) }
        var index = 0
        while true {
            index += 1
            let record = try store.appendRecord(name: "\(arguments[2])-\(index)", points: Double(index))
            say("kept \(record.id)")
        }
    case "tear":
        let line = #"{"id":"6F1C2B1E-0000-4000-8000-000000000001","kind":"score","name":"Torn","points":1,"#
        let descriptor = open(arguments[1], O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else {
            fail("cannot open \(arguments[1])", status: 1)
        }
        guard write(descriptor, line, line.utf8.count) == line.utf8.count else {
            fail("short write", status: 1)
        }
        say("torn")
        var byte: UInt8 = 0
        _ = Glibc.read(STDIN_FILENO, &byte, 1)
        fail("the probe was not killed", status: 1)
    case "delete":
        let ids = arguments.dropFirst(2).compactMap { UUID(uuidString: $0) }
        guard ids.count == arguments.count - 2, !ids.isEmpty else {
            fail("usage: ScoreStoreProbe delete PATH ID...", status: 64)
        }
        try store.appendTombstone(ids: ids)
    case "read":
        let contents = try store.load()
        say("records \(contents.records.count)")
        for problem in contents.problems { say("problem: \(problem)") }
    default:
        fail("unknown command \(arguments[0])", status: 64)
    }
} catch {
    fail("\(error)", status: 1)
}
