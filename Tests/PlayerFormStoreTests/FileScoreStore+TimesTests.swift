import Foundation
import PlayerFormStore
import Testing

@Suite("FileScoreStore times")
struct StoreTimeTests {
    let folder: URL
    let path: String

    init() throws {
        folder = try makeTemporaryFolder()
        path = folder.appendingPathComponent("scores.jsonl").path
    }

    @Test(
        "a clock outside the years 1 to 9999 is refused with a reason, and nothing is written",
        arguments: [1e16, 1e308, -1e308, .infinity, -.infinity, .nan, 0x1p63, -0x1p63, 253_402_300_800])
    func clockOutOfRange(seconds: Double) throws {
        let store = FileScoreStore(path: path, now: { Date(timeIntervalSince1970: seconds) })
        let reason = "the time \(seconds) seconds since 1970 lies outside the years 1 to 9999"
        #expect(throws: StoreError.unwritable(path: path, reason: reason)) {
            try store.appendRecord(name: "Colin", points: 100)
        }
        #expect(throws: StoreError.unwritable(path: path, reason: reason)) {
            try store.appendTombstone(ids: [UUID()])
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("the first and last millisecond of the years 1 to 9999 are written and read back")
    func rangeEnds() throws {
        for seconds in [-62_135_596_800, 253_402_300_799.999] {
            let store = FileScoreStore(path: path, now: { Date(timeIntervalSince1970: seconds) })
            let record = try store.appendRecord(name: "Colin", points: 100)
            #expect(record.uploadedAt.timeIntervalSince1970 == seconds)
            #expect(try store.load().records.last == record)
        }
    }

    @Test("a time in the file beyond the year 9999 is a damaged line, not a crash")
    func farTimeInFile() throws {
        let line =
            #"{"id":"69A0E07A-2AA3-4079-A27F-CE8465159049","kind":"score","name":"Colin","points":100,"#
            + #""uploadedAt":"506713-02-07T00:00:00.000Z"}"# + "\n"
        try Data(line.utf8).write(to: URL(fileURLWithPath: path))
        let contents = try FileScoreStore(path: path).load()
        #expect(contents.records.isEmpty)
        #expect(
            contents.problems == [
                .corruptLine(
                    path: path, line: 1,
                    reason:
                        "invalid uploadedAt: expected a time in a string, ISO 8601 in UTC with milliseconds, "
                        + #"such as "2026-11-21T07:13:09.123Z""#)
            ])
    }
}
