import PlayerFormRecords
import Testing

@Suite("The general path: one record at a time on the calling thread")
struct GeneralValidationTests {
    /// A source that gives at most one line a read and calls the relay once a line is given
    /// whole, as a pipe that runs dry after each line does.
    struct Trickle: ByteSource {
        let idle: IdleRelay
        var lines: [String]
        private var rest: [UInt8] = []

        init(idle: IdleRelay, lines: [String]) {
            self.idle = idle
            self.lines = lines
        }

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
            if rest.isEmpty {
                guard !lines.isEmpty else { return .end }
                rest = Array(lines.removeFirst().utf8)
            }
            let count = min(rest.count, buffer.count)
            buffer.copyBytes(from: rest[..<count])
            rest.removeFirst(count)
            if rest.isEmpty { idle() }
            return .bytes(count)
        }
    }

    @Test("when the input runs dry, the findings of the records read so far are flushed")
    func idleFlushes() {
        let idle = IdleRelay()
        var tally = ValidationTally()
        var events: [String] = []
        let source = Trickle(
            idle: idle, lines: ["{\"name\": \"\", \"points\": 1}\n", "{\"name\": \"ok\", \"points\": 1}\n"])
        let ending = BatchValidator(rules: .defaults).validate(
            RecordReader(source: source, format: .jsonl), idle: idle, file: "f", tally: &tally,
            report: { events.append("finding \($0.line)") }, flush: { events.append("flush") })
        #expect(ending == .end)
        #expect(tally.records == 2 && tally.invalid == 1)
        // The first line's finding is reported once the line is parsed, after the read that
        // brought it ran dry, and flushed when the next read runs dry.
        #expect(events == ["flush", "finding 1", "flush"])
    }

    @Test("after a run the relay does nothing: a later read that runs dry flushes nothing of this run")
    func relayLetGo() {
        let idle = IdleRelay()
        var tally = ValidationTally()
        var flushes = 0
        _ = BatchValidator(rules: .defaults).validate(
            RecordReader(source: Trickle(idle: idle, lines: []), format: .jsonl), idle: idle, file: "f",
            tally: &tally, report: nil, flush: { flushes += 1 })
        idle()
        #expect(flushes == 0)
    }

    @Test("progress is told the records checked and the bytes read, every 4,096 records and at the end")
    func progress() {
        let record = #"{"name": "Ann", "points": 1}"# + "\n"
        let bytes = Array(String(repeating: record, count: 10_000).utf8)
        var tally = ValidationTally()
        var seen: [(records: Int, bytes: Int)] = []
        let ending = BatchValidator(rules: .defaults).validate(
            RecordReader(source: MemorySource(bytes, chunkSize: 4093), format: .jsonl), file: "f",
            tally: &tally, report: nil, progress: { seen.append(($0, $1)) })
        #expect(ending == .end)
        #expect(seen.map(\.records) == [4096, 8192, 10_000])
        #expect(seen.last?.bytes == bytes.count)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.bytes <= $1.bytes })
    }
}
