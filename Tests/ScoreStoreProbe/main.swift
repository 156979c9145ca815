// Drives a score database (SQLiteScoreStore) from its own process, for the store specs:
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
        "usage: ScoreStoreProbe db-upload|db-upload-forever|db-watch|db-time|db-hold PATH ...",
        status: 64)
}
if let uid = ProcessInfo.processInfo.environment["PROBE_UID"].flatMap(UInt32.init), getuid() == 0 {
    guard setgid(uid) == 0, setuid(uid) == 0 else { fail("cannot switch to user \(uid)", status: 1) }
}

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
    default:
        fail("unknown command \(arguments[0])", status: 64)
    }
} catch {
    fail("\(error)", status: 1)
}
