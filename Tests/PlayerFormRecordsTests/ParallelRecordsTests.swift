import Glibc
import PropertyBased
import Testing

@testable import PlayerFormRecords

/// Lines of every kind a JSON Lines input may hold: valid and invalid records, forbidden names in
/// disguise, escapes, blank lines, CRLF, a byte order mark, bad JSON and UTF-8, lines longer than
/// the limit or than a chunk, and a last line without its line break.
private let lineKinds: [String] = [
    "{\"name\": \"Colin\", \"points\": 1}\n",
    "{\"points\": -3, \"team\": [1, {\"a\": null}], \"name\": \"Bob\"}\n",
    "{\"name\": \"DARN\", \"points\": 5}\r\n",
    "{\"name\": \"\\uff44\\uff41\\uff52\\uff4e\", \"points\": 10001}\n",
    "{\"name\": \" d\u{200B}arn \", \"points\": 2}\n",
    "{\"name\": \"tab\\there\", \"points\": 1e3}\n",
    "{\"name\": \"Zoë\", \"points\": 250.5}\n",
    "\n",
    "   \t \r\n",
    "\u{FEFF}{\"name\": \"bom\", \"points\": 1}\n",
    "{\"name\": \"broken\"\n",
    "[1, 2]\n",
    "{\"name\": \"\u{80}\", \"points\": 1}\n",
    "{\"name\": \"" + String(repeating: "long ", count: 30) + "\", \"points\": 3}\n",
    "{\"name\": \"" + String(repeating: "x", count: 400) + "\", \"points\": 4}\n",
    "{\"name\": \"last\", \"points\": 9}",
]

private let inputs = Gen.element(of: lineKinds).map { $0! }.array(of: 0...24)

/// What validating an input found.
struct Outcome: Equatable {
    var tally = ValidationTally()
    var findings: [Finding] = []
    var ending: RecordEvent = .end
    var flushes = 0
    /// What a ``RecordSplit`` wrote of the input: the valid records and the rejected ones.
    var valid: [UInt8] = []
    var rejected: [UInt8] = []
}

/// The two outputs of a ``RecordSplit``, kept in memory.
final class SplitOutputs {
    var valid: [UInt8] = []
    var rejected: [UInt8] = []

    /// A split of one input into these outputs, started.
    func split() -> RecordSplit {
        let split = RecordSplit(
            valid: { self.valid.append(contentsOf: $0) }, rejected: { self.rejected.append(contentsOf: $0) })
        split.startInput()
        return split
    }

    /// Ends the input as `ending` did and keeps the outputs in `outcome`.
    func finish(_ split: RecordSplit, into outcome: inout Outcome) {
        if outcome.ending == .end { split.finishInput() }
        outcome.valid = valid
        outcome.rejected = rejected
    }
}

/// What the one-record-at-a-time reader finds in `bytes`, read `readSize` bytes at a time.
func sequential(
    _ bytes: [UInt8], format: RecordFormat? = .jsonl, readSize: Int, limit: Int, reporting: Bool,
    unique: Bool = false
) -> Outcome {
    sequential(
        MemorySource(bytes, chunkSize: readSize), format: format, limit: limit, reporting: reporting,
        unique: unique)
}

/// What the one-record-at-a-time reader finds in `source`.
func sequential<Source: ByteSource>(
    _ source: Source, format: RecordFormat?, limit: Int = 8 << 20, reporting: Bool = true,
    unique: Bool = false
) -> Outcome {
    var outcome = Outcome()
    var findings: [Finding] = []
    let outputs = SplitOutputs()
    let split = outputs.split()
    let reader = RecordReader(source: source, format: format, bufferSize: 16, maximumLineLength: limit)
    reader.split = split
    outcome.ending = BatchValidator(rules: .defaults).validate(
        reader, file: "p.jsonl", tally: &outcome.tally, report: reporting ? { findings.append($0) } : nil,
        unique: unique ? UniqueNames() : nil)
    outcome.findings = findings
    outputs.finish(split, into: &outcome)
    return outcome
}

/// What `bytes`, read `readSize` bytes at a time, gives one record at a time (`expected`) and in
/// chunks of `chunkSize` bytes on every core (`found`).
///
/// `size` is the size the input is said to have, as a regular file's is known.
func bothWays(
    _ bytes: [UInt8], format: RecordFormat?, size: Int? = nil, readSize: Int, chunkSize: Int, limit: Int,
    reporting: Bool = true, unique: Bool = false
) -> (expected: Outcome, found: Outcome) {
    let expected = sequential(
        bytes, format: format, readSize: readSize, limit: limit, reporting: reporting, unique: unique)
    let found = parallel(
        MemorySource(bytes, chunkSize: readSize), format: format, size: size, chunkSize: chunkSize,
        limit: limit, reporting: reporting, unique: unique)
    return (expected, found)
}

/// The size an input of `count` bytes is said to have: none, its own, less (it grew while read) or
/// more (it shrank), as `variant` (0 to 3) and `offset` pick.
func saidSize(_ count: Int, variant: Int, offset: Int) -> Int? {
    [nil, count, Swift.max(0, count - offset), count + offset][variant]
}

/// A source that gives `text`, as much as fits at a time, and then fails with `EIO`.
struct FailingSource: ByteSource {
    var rest: MemorySource

    init(_ text: String) { rest = MemorySource(Array(text.utf8)) }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        let result = rest.read(into: buffer)
        return result == .end ? .failed(5) : result
    }
}

/// A source that gives `text`, as much as fits at a time, and then stops as when Ctrl-C is pressed.
struct InterruptedSource: ByteSource {
    var rest: MemorySource

    init(_ text: String) { rest = MemorySource(Array(text.utf8)) }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        let result = rest.read(into: buffer)
        return result == .end ? .interrupted : result
    }
}

/// What checking `source` in chunks of `chunkSize` bytes on every core finds, the input said to be
/// `size` bytes long when given.
func parallel<Source: ByteSource>(
    _ source: Source, format: RecordFormat? = .jsonl, size: Int? = nil, idle: IdleRelay = IdleRelay(),
    chunkSize: Int, limit: Int, reporting: Bool, unique: Bool = false
) -> Outcome {
    var outcome = Outcome()
    var findings: [Finding] = []
    var flushes = 0
    let outputs = SplitOutputs()
    let split = outputs.split()
    outcome.ending = BatchValidator(rules: .defaults).validateInParallel(
        source, format: format, size: size, idle: idle, file: "p.jsonl", tally: &outcome.tally,
        report: reporting ? { findings.append($0) } : nil, flush: { flushes += 1 }, chunkSize: chunkSize,
        maximumLineLength: limit, split: split, unique: unique ? UniqueNames() : nil)
    outcome.findings = findings
    outcome.flushes = flushes
    outputs.finish(split, into: &outcome)
    return outcome
}

@Suite("JSON Lines checked on every core")
struct ParallelJSONLinesTests {
    @Test(
        "the bytes read go on counting after a record longer than a chunk hands the rest to one thread",
        arguments: [RecordFormat.jsonl, .csv])
    func progressPastALongRecord(format: RecordFormat) {
        let record = format == .jsonl ? #"{"name": "Ann", "points": 1}"# + "\n" : "Ann,1\n"
        let long =
            format == .jsonl
            ? #"{"name": ""# + String(repeating: "x", count: 500) + #"", "points": 2}"# + "\n"
            : String(repeating: "x", count: 500) + ",2\n"
        let text =
            (format == .csv ? "name,points\n" : "") + String(repeating: record, count: 20) + long
            + String(repeating: record, count: 40)
        let bytes = Array(text.utf8)
        var tally = ValidationTally()
        var seen: [(records: Int, bytes: Int)] = []
        let ending = BatchValidator(rules: .defaults).validateInParallel(
            MemorySource(bytes, chunkSize: 64), format: format, idle: IdleRelay(), file: "f", tally: &tally,
            report: nil, flush: {}, chunkSize: 128, progress: { seen.append(($0, $1)) })
        #expect(ending == .end)
        #expect(tally.records == 61)
        #expect(seen.last?.bytes == bytes.count, "\(seen)")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.bytes <= $1.bytes }, "\(seen)")
    }

    @Test(
        "after a record longer than a chunk hands the rest to one thread, a pipe that runs dry still flushes")
    func idleFlushesPastALongRecord() {
        let long = #"{"name": ""# + String(repeating: "x", count: 500) + #"", "points": 2}"# + "\n"
        let idle = IdleRelay()
        let source = GeneralValidationTests.Trickle(
            idle: idle,
            lines: [
                #"{"name": "", "points": 1}"# + "\n", long, #"{"name": "", "points": 3}"# + "\n",
                #"{"name": "ok", "points": 4}"# + "\n",
            ])
        var tally = ValidationTally()
        var events: [String] = []
        let ending = BatchValidator(rules: .defaults).validateInParallel(
            source, format: .jsonl, idle: idle, file: "f", tally: &tally,
            report: { events.append("finding \($0.line)") }, flush: { events.append("flush") }, chunkSize: 128
        )
        #expect(ending == .end)
        #expect(tally.records == 4 && tally.invalid == 2)
        #expect(events.filter { $0.hasPrefix("finding") } == ["finding 1", "finding 3"])
        #expect(events.last == "flush", "\(events)")
    }

    @Test(
        "chunks checked at once give the counts, findings, line numbers and order of the one-line-at-a-time reader"
    )
    func sameAsSequential() async {
        await propertyCheck(
            count: 300, input: inputs, Gen.int(in: 1...97), Gen.int(in: 16...300), Gen.int(in: 0...3)
        ) { lines, readSize, chunkSize, variant in
            // Limits below and above some lines' length; the byte order mark only counts at the start.
            let limit = [8 << 20, 120, 48, 300][variant]
            let bytes = Array(lines.joined().utf8)
            let reporting = variant != 3
            let (expected, found) = bothWays(
                bytes, format: .jsonl, readSize: readSize, chunkSize: chunkSize, limit: limit,
                reporting: reporting)
            #expect(found == expected, "\(lines)")
        }
    }

    @Test(
        "--unique: chunks tell the same players already seen as the one-line-at-a-time reader, in input order"
    )
    func uniqueSameAsSequential() async {
        await propertyCheck(
            count: 300, input: inputs, Gen.int(in: 1...97), Gen.int(in: 16...300), Gen.int(in: 0...3),
            Gen.int(in: 1...200)
        ) { lines, readSize, chunkSize, variant, offset in
            let bytes = Array(lines.joined().utf8)
            let (expected, found) = bothWays(
                bytes, format: .jsonl, size: saidSize(bytes.count, variant: variant, offset: offset),
                readSize: readSize, chunkSize: chunkSize, limit: 120, reporting: variant != 3, unique: true)
            #expect(found == expected, "\(lines)")
        }
    }

    @Test(
        "an input of known size is checked in one chunk on this thread, or in chunks when it is or grows longer, with the same answers"
    )
    func knownSize() async {
        await propertyCheck(
            count: 300, input: inputs, Gen.int(in: 1...97), Gen.int(in: 16...600), Gen.int(in: 0...3),
            Gen.int(in: 1...200)
        ) { lines, readSize, chunkSize, variant, offset in
            let bytes = Array(lines.joined().utf8)
            let (expected, found) = bothWays(
                bytes, format: variant == 0 ? nil : .jsonl,
                size: saidSize(bytes.count, variant: variant, offset: offset), readSize: readSize,
                chunkSize: chunkSize, limit: 120)
            #expect(found == expected, "\(lines)")
        }
    }

    @Test("an input that fits in one chunk is read on the calling thread, a longer one on another")
    func smallInputOnCallingThread() {
        /// Notes the thread of every read.
        final class Readers: @unchecked Sendable {
            var threads: [pthread_t] = []
        }
        struct NotingSource: ByteSource {
            var rest: MemorySource
            let readers: Readers
            mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
                readers.threads.append(pthread_self())
                return rest.read(into: buffer)
            }
        }
        let bytes = Array(String(repeating: "{\"name\": \"Ann\", \"points\": 1}\n", count: 40).utf8)
        func threads(chunkSize: Int) -> [pthread_t] {
            let readers = Readers()
            let found = parallel(
                NotingSource(rest: MemorySource(bytes, chunkSize: 100), readers: readers), size: bytes.count,
                chunkSize: chunkSize, limit: 8 << 20, reporting: true)
            #expect(found.tally.records == 40)
            return readers.threads
        }
        let caller = pthread_self()
        #expect(threads(chunkSize: bytes.count).allSatisfy { pthread_equal($0, caller) != 0 })
        #expect(threads(chunkSize: bytes.count - 1).contains { pthread_equal($0, caller) == 0 })
    }

    @Test("JSON Lines whose format is told from the first line is checked in chunks with the same answers")
    func formatToldFromFirstLine() async {
        await propertyCheck(count: 200, input: inputs, Gen.int(in: 1...97), Gen.int(in: 16...300)) {
            lines, readSize, chunkSize in
            let bytes = Array(lines.joined().utf8)
            let (expected, found) = bothWays(
                bytes, format: nil, readSize: readSize, chunkSize: chunkSize, limit: 120)
            #expect(found == expected, "\(lines)")
        }
    }

    @Test("a large input over many chunks gives the same findings as one thread")
    func manyChunks() {
        var text = ""
        for index in 0..<20_000 {
            text +=
                index % 7 == 0
                ? "{\"name\": \"darn\", \"points\": \(index)}\n"
                : "{\"name\": \"p\(index)\", \"points\": \(index % 10_001)}\n"
            if index % 1000 == 0 { text += "\n" }
        }
        let bytes = Array(text.utf8)
        let (expected, found) = bothWays(
            bytes, format: .jsonl, readSize: 4093, chunkSize: 8192, limit: 8 << 20)
        #expect(expected.tally.records == 20_000)
        #expect(found == expected)
    }

    @Test("reading that fails keeps the complete lines read before, like the one-line-at-a-time reader")
    func failureAfterLines() {
        let input = FailingSource("{\"name\": \"\", \"points\": 1}\n{\"name\": \"cut")
        let expected = sequential(input, format: .jsonl)
        let found = parallel(input, chunkSize: 1 << 16, limit: 8 << 20, reporting: true)
        #expect(expected.ending == .failed(5))
        #expect(expected.tally.records == 1)
        #expect(found == expected)
        let inOneChunk = parallel(input, size: 40, chunkSize: 1 << 16, limit: 8 << 20, reporting: true)
        #expect(inOneChunk == expected)
    }

    @Test("reading that is interrupted keeps the complete lines read before, in one chunk or many")
    func interruptionAfterLines() {
        let input = InterruptedSource("{\"name\": \"\", \"points\": 1}\n{\"name\": \"cut")
        let expected = sequential(input, format: .jsonl)
        #expect(expected.ending == .interrupted)
        #expect(expected.tally.records == 1)
        #expect(parallel(input, chunkSize: 1 << 16, limit: 8 << 20, reporting: true) == expected)
        #expect(parallel(input, size: 40, chunkSize: 1 << 16, limit: 8 << 20, reporting: true) == expected)
    }

    @Test("when the input runs dry, the lines read so far are checked and then flushed")
    func idleFlushes() {
        struct Trickle: ByteSource {
            let idle: IdleRelay
            var lines = ["{\"name\": \"\", \"points\": 1}\n{\"na", "me\": \"ok\", \"points\": 1}\n"]
            mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
                guard !lines.isEmpty else { return .end }
                idle()
                let line = Array(lines.removeFirst().utf8)
                buffer.copyBytes(from: line)
                return .bytes(line.count)
            }
        }
        let idle = IdleRelay()
        var tally = ValidationTally()
        var events: [String] = []
        let ending = BatchValidator(rules: .defaults).validateInParallel(
            Trickle(idle: idle), format: .jsonl, idle: idle, file: "f", tally: &tally,
            report: { events.append("finding \($0.line)") }, flush: { events.append("flush") })
        #expect(ending == .end)
        #expect(tally.records == 2 && tally.invalid == 1 && tally.reasons[.emptyName] == 1)
        // The first read, which runs dry before anything was read, is the look at the input's
        // encoding, before the chunks start: there is nothing to flush then.
        #expect(events == ["finding 1", "flush"])
    }
}

@Suite("Reasons counted without findings")
struct ReportOnlyTests {
    @Test(
        "counting reasons without findings gives the tally, reasons and first lines of the findings, both ways"
    )
    func sameReasonsAsFindings() async {
        await propertyCheck(count: 300, input: inputs, Gen.int(in: 1...97), Gen.int(in: 16...300)) {
            lines, readSize, chunkSize in
            let bytes = Array(lines.joined().utf8)
            let withFindings = sequential(
                bytes, format: .jsonl, readSize: readSize, limit: 120, reporting: true)
            let counting = BatchValidator(rules: .defaults, countingReasons: true)
            var general = ValidationTally()
            _ = counting.validate(
                RecordReader(
                    source: MemorySource(bytes, chunkSize: readSize), format: .jsonl, bufferSize: 16,
                    maximumLineLength: 120),
                file: "p.jsonl", tally: &general, report: nil)
            var chunks = ValidationTally()
            _ = counting.validateInParallel(
                MemorySource(bytes, chunkSize: readSize), format: .jsonl, idle: IdleRelay(), file: "p.jsonl",
                tally: &chunks, report: nil, flush: {}, chunkSize: chunkSize, maximumLineLength: 120)
            #expect(general == withFindings.tally, "\(lines)")
            #expect(chunks == withFindings.tally, "\(lines)")
        }
    }
}

@Suite("Records split into valid and rejected outputs")
struct RecordSplitTests {
    /// The lines of `bytes`, each with its line break.
    static func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in bytes {
            current.append(byte)
            if byte == 0x0A {
                lines.append(current)
                current = []
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    @Test(
        "JSON Lines: the rejected output is the lines of the findings and the valid one every other line, both ways"
    )
    func jsonLinesOracle() async {
        await propertyCheck(count: 300, input: inputs, Gen.int(in: 1...97), Gen.int(in: 16...300)) {
            lines, readSize, chunkSize in
            let bytes = Array(lines.joined().utf8)
            let (expected, found) = bothWays(
                bytes, format: .jsonl, readSize: readSize, chunkSize: chunkSize, limit: 8 << 20)
            let numbered = Self.lines(bytes)
            let rejectedLines = Set(expected.findings.map(\.line))
            let rejected = numbered.indices.filter { rejectedLines.contains($0 + 1) }.flatMap { numbered[$0] }
            let valid = numbered.indices.filter { !rejectedLines.contains($0 + 1) }.flatMap { numbered[$0] }
            #expect(expected.rejected == rejected, "\(lines)")
            #expect(expected.valid == valid, "\(lines)")
            #expect(found.rejected == rejected, "\(lines)")
            #expect(found.valid == valid, "\(lines)")
            // Each finding's offset is the start of its line.
            let offsets = expected.findings.map { finding in
                numbered[..<(finding.line - 1)].reduce(0) { $0 + $1.count }
            }
            #expect(expected.findings.map(\.offset) == offsets, "\(lines)")
            #expect(found.findings.map(\.offset) == offsets, "\(lines)")
        }
    }

    @Test(
        "bytes held past the limit can only be an over-long record's: they go to the rejected output as they come"
    )
    func holdLimit() {
        let outputs = SplitOutputs()
        let split = RecordSplit(
            valid: { outputs.valid.append(contentsOf: $0) },
            rejected: { outputs.rejected.append(contentsOf: $0) },
            holdLimit: 10)
        split.startInput()
        let bytes = Array("ok\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 30) + [0x0A]
        bytes.withUnsafeBytes { split.take(UnsafeRawBufferPointer(rebasing: $0[..<3]), at: 0) }
        split.accept(upTo: 3)
        bytes.withUnsafeBytes { split.take(UnsafeRawBufferPointer(rebasing: $0[3...]), at: 3) }
        #expect(outputs.rejected.count == 21, "the bytes beyond the limit are written at once")
        split.reject(3..<bytes.count)
        #expect(outputs.valid == Array("ok\n".utf8))
        #expect(outputs.rejected == Array(bytes[3...]))
    }
}
