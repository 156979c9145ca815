import PlayerFormRecords
import Testing

@Suite("Reading on a second thread")
struct RecordPipelineTests {
    /// Records over several batches, every third one invalid, a malformed one now and then.
    static let input: [UInt8] = {
        var text = ""
        for index in 0..<10_000 {
            if index % 997 == 0 {
                text += "{\"name\": \"broken\"}\n"
            } else {
                text += "{\"name\": \"p\(index)\", \"points\": \(index % 3 == 0 ? -1 : index % 10_000)}\n"
            }
        }
        return Array(text.utf8)
    }()

    @Test("validating while a second thread reads gives the same findings, in input order, as one thread")
    func sameFindingsInOrder() {
        let validator = BatchValidator(rules: .defaults)
        var sequentialTally = ValidationTally()
        var sequential: [Finding] = []
        let ending = validator.validate(
            RecordReader(source: MemorySource(Self.input, chunkSize: 4093), format: .jsonl), file: "f",
            tally: &sequentialTally, report: { sequential.append($0) })
        var concurrentTally = ValidationTally()
        var concurrent: [Finding] = []
        var flushes = 0
        let concurrentEnding = validator.validateConcurrently(
            RecordReader(source: MemorySource(Self.input, chunkSize: 4093), format: .jsonl),
            idle: IdleRelay(),
            file: "f", tally: &concurrentTally, report: { concurrent.append($0) }, flush: { flushes += 1 })
        #expect(ending == .end)
        #expect(concurrentEnding == .end)
        #expect(sequentialTally.records == 10_000)
        #expect(sequentialTally.invalid == sequential.count)
        #expect(concurrentTally == sequentialTally)
        #expect(concurrent == sequential)
        #expect(concurrent.map(\.line) == concurrent.map(\.line).sorted())
        #expect(flushes == 0)
    }

    @Test("when the input runs dry, the records read so far are checked and then flushed")
    func idleFlushes() {
        struct Trickle: ByteSource {
            let idle: IdleRelay
            var lines = ["{\"name\": \"\", \"points\": 1}\n", "{\"name\": \"ok\", \"points\": 1}\n"]
            mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
                guard !lines.isEmpty else { return .end }
                let line = Array(lines.removeFirst().utf8)
                buffer.copyBytes(from: line)
                idle()
                return .bytes(line.count)
            }
        }
        let idle = IdleRelay()
        var tally = ValidationTally()
        var events: [String] = []
        let ending = BatchValidator(rules: .defaults).validateConcurrently(
            RecordReader(source: Trickle(idle: idle), format: .jsonl), idle: idle, file: "f", tally: &tally,
            report: { events.append("finding \($0.line)") }, flush: { events.append("flush") })
        #expect(ending == .end)
        #expect(tally.records == 2)
        #expect(events.first == "flush")
        #expect(events.contains("finding 1"))
        #expect(events.firstIndex(of: "finding 1")! < events.lastIndex(of: "flush")!)
    }
}
