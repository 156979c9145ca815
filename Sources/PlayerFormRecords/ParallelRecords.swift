import Foundation

/// What checking one chunk of JSON Lines found; line numbers count from the chunk's first line.
struct ChunkOutcome {
    /// Lines in the chunk, blank ones included.
    var lines = 0
    var tally = ValidationTally()
    /// Findings in input order, at lines counted from 1 within the chunk.
    var findings: [Finding] = []
}

/// Checks the lines of a chunk of JSON Lines as ``RecordReader`` and ``BatchValidator`` check them
/// one by one: the same lines, blank lines skipped, the same records, messages and findings.
struct JSONLinesChunkChecker {
    let validator: BatchValidator
    let maximumLineLength: Int
    private var parser = JSONRecordParser()

    init(validator: BatchValidator, maximumLineLength: Int) {
        self.validator = validator
        self.maximumLineLength = Swift.max(1, maximumLineLength)
    }

    /// Checks every line of `chunk`; the last line may lack its line break.
    ///
    /// `startsInput` says whether the chunk's first line is the input's first line, whose byte
    /// order mark is not part of it.
    mutating func check(
        _ chunk: UnsafeBufferPointer<UInt8>, startsInput: Bool, file: String, reporting: Bool
    ) -> ChunkOutcome {
        var outcome = ChunkOutcome()
        var tally = ValidationTally()
        var findings: [Finding] = []
        guard let base = chunk.baseAddress else { return outcome }
        var start = 0
        let end = chunk.count
        while start < end {
            let newline = memchr(base + start, 0x0A, end - start).map {
                UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base
            }
            let stop = newline ?? end
            outcome.lines += 1
            var first = start
            var last = stop
            if startsInput && outcome.lines == 1 && last - first >= 3 && base[first] == 0xEF
                && base[first + 1] == 0xBB && base[first + 2] == 0xBF
            {
                first += 3
            }
            if last > first && base[last - 1] == 0x0D { last -= 1 }
            start = stop + 1
            let line = UnsafeBufferPointer(start: base + first, count: last - first)
            if Self.isBlank(line) { continue }
            let content: ParsedRecord =
                line.count > maximumLineLength
                ? .malformed("the line is longer than \(maximumLineLength) bytes; not read")
                : parser.parse(line)
            let record = NumberedRecord(line: outcome.lines, content: content)
            if let finding = validator.check(record, file: file, tally: &tally, reporting: reporting) {
                findings.append(finding)
            }
        }
        outcome.tally = tally
        outcome.findings = findings
        return outcome
    }

    private static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
}

/// A source that gives `prefix` first and then the rest of `source`.
struct PrefixedSource<Source: ByteSource>: ByteSource {
    private var prefix: [UInt8]
    private var offset = 0
    private var source: Source

    init(prefix: [UInt8], source: Source) {
        self.prefix = prefix
        self.source = source
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        guard offset < prefix.count else {
            if !prefix.isEmpty { prefix = [] }
            return source.read(into: buffer)
        }
        let count = Swift.min(buffer.count, prefix.count - offset)
        prefix.withUnsafeBytes { all in
            buffer.baseAddress!.copyMemory(from: all.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return .bytes(count)
    }
}

/// Validates JSON Lines on every core: one thread reads the input into chunks that end on a line
/// break, two threads parse and check chunks at the same time, and the calling thread hands the
/// counts and findings on in input order.
///
/// At most `slotCount` chunks are held, so memory stays bounded. A line too long for a chunk hands
/// the rest of the input to the one-line-at-a-time reader, which gives the same answers.
final class ParallelJSONLines<Source: ByteSource>: @unchecked Sendable {
    // @unchecked: the slots' states and the work cursor are read and written only while
    // `condition` is locked; a slot's other contents belong to the one thread whose state (filling,
    // working) says so; the reading thread's own fields are touched only by it.
    private enum State { case free, filling, filled, working, done }

    private final class Slot {
        let buffer: UnsafeMutableRawBufferPointer
        var count = 0
        var state = State.free
        var startsInput = false
        var inputIdle = false
        var ending: RecordEvent?
        /// The start of a line longer than a chunk, and the source to read its rest and what
        /// follows from, when the one-line-at-a-time reader must take over.
        var handOff: (prefix: [UInt8], source: Source)?
        var outcome = ChunkOutcome()

        init(capacity: Int) {
            buffer = .allocate(byteCount: capacity, alignment: 64)
        }

        deinit { buffer.deallocate() }

        var bytes: UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
        }
    }

    private let validator: BatchValidator
    private let maximumLineLength: Int
    private let file: String
    private let reporting: Bool
    private let slots: [Slot]
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var nextToWork = 0
    private var lastSequence: Int?
    // The reading thread's own.
    private var source: Source?
    private let readBuffer: UnsafeMutableRawBufferPointer
    private let carry: UnsafeMutableRawBufferPointer
    private var carried = 0
    private var filling = 0
    private var startsInput = true

    /// A pipeline over `source`; chunks hold `chunkSize` bytes at most.
    init(
        source: Source, idle: IdleRelay, validator: BatchValidator, file: String, reporting: Bool,
        chunkSize: Int = 1 << 20, slotCount: Int = 6, maximumLineLength: Int = 8 << 20
    ) {
        let capacity = Swift.max(chunkSize, 16)
        self.source = source
        self.validator = validator
        self.file = file
        self.reporting = reporting
        self.maximumLineLength = maximumLineLength
        self.slots = (0..<Swift.max(slotCount, 2)).map { _ in Slot(capacity: capacity) }
        self.readBuffer = .allocate(byteCount: Swift.min(capacity, 1 << 18), alignment: 64)
        self.carry = .allocate(byteCount: capacity, alignment: 64)
        idle.action = { [unowned self] in publish(ending: nil, idle: true) }
    }

    deinit {
        readBuffer.deallocate()
        carry.deallocate()
    }

    /// Reads, checks and hands on the whole input; returns the event that ended it.
    func run(
        tally: inout ValidationTally, report: ((Finding) -> Void)?, flush: () -> Void, idle: IdleRelay,
        progress: ((_ records: Int, _ bytesRead: Int) -> Void)?
    ) -> RecordEvent {
        let reader = Thread { self.produce() }
        reader.stackSize = 1 << 20
        reader.start()
        for _ in 0..<2 {
            let worker = Thread { self.work() }
            worker.stackSize = 4 << 20
            worker.start()
        }
        var sequence = 0
        var lineBase = 0
        var bytesRead = 0
        while true {
            let slot = slots[sequence % slots.count]
            condition.lock()
            while slot.state != .done { condition.wait() }
            condition.unlock()
            tally.records += slot.outcome.tally.records
            tally.invalid += slot.outcome.tally.invalid
            if let report {
                for finding in slot.outcome.findings {
                    report(
                        Finding(
                            file: finding.file, line: finding.line + lineBase, name: finding.name,
                            problems: finding.problems))
                }
            }
            lineBase += slot.outcome.lines
            bytesRead += slot.count
            let inputIdle = slot.inputIdle
            let ending = slot.ending
            let handOff = slot.handOff
            let startsInput = slot.startsInput && slot.outcome.lines == 0
            slot.outcome = ChunkOutcome()
            slot.handOff = nil
            condition.lock()
            slot.state = .free
            condition.broadcast()
            condition.unlock()
            progress?(tally.records, bytesRead)
            if inputIdle { flush() }
            if let handOff {
                let base = lineBase
                let rest = RecordReader(
                    source: PrefixedSource(prefix: handOff.prefix, source: handOff.source), format: .jsonl,
                    maximumLineLength: maximumLineLength, startsInput: startsInput)
                return validator.validateConcurrently(
                    rest, idle: idle, file: file, tally: &tally,
                    report: report.map { report in
                        { finding in
                            report(
                                Finding(
                                    file: finding.file, line: finding.line + base, name: finding.name,
                                    problems: finding.problems))
                        }
                    }, flush: flush, progress: progress.map { progress in { progress($0, bytesRead) } })
            }
            if let ending { return ending }
            sequence += 1
        }
    }

    // MARK: The reading thread

    private func produce() {
        acquire()
        while true {
            guard var source else { return }
            let result = source.read(into: readBuffer)
            self.source = source
            switch result {
            case .bytes(let count):
                if append(count) { return }
            case .end:
                publish(ending: .end, idle: false)
                return
            case .failed(let code):
                publish(ending: .failed(code), idle: false)
                return
            case .interrupted:
                publish(ending: .interrupted, idle: false)
                return
            }
        }
    }

    /// Waits for the slot to fill next and starts it with the carried start of a line.
    private func acquire() {
        let slot = slots[filling % slots.count]
        condition.lock()
        while slot.state != .free { condition.wait() }
        slot.state = .filling
        condition.unlock()
        if carried > 0 { slot.buffer.baseAddress!.copyMemory(from: carry.baseAddress!, byteCount: carried) }
        slot.count = carried
        slot.startsInput = startsInput
        carried = 0
    }

    /// Adds `count` bytes of the read buffer to the chunk being filled, handing full chunks over.
    ///
    /// Returns true when the rest of the input has been handed to the one-line-at-a-time reader.
    private func append(_ count: Int) -> Bool {
        var offset = 0
        while offset < count {
            let slot = slots[filling % slots.count]
            let room = slot.buffer.count - slot.count
            if room == 0 {
                guard lastNewline(slot) != nil else {
                    // One line fills the chunk: the rest is read one line at a time.
                    var prefix = Array(slot.bytes)
                    prefix.append(
                        contentsOf: UnsafeRawBufferPointer(rebasing: readBuffer[offset..<count]))
                    slot.count = 0
                    slot.handOff = (prefix, source!)
                    source = nil
                    finish(slot)
                    return true
                }
                publish(ending: nil, idle: false)
                continue
            }
            let taken = Swift.min(room, count - offset)
            (slot.buffer.baseAddress! + slot.count).copyMemory(
                from: readBuffer.baseAddress! + offset, byteCount: taken)
            slot.count += taken
            offset += taken
        }
        return false
    }

    private func lastNewline(_ slot: Slot) -> Int? {
        slot.bytes.lastIndex(of: 0x0A)
    }

    /// Hands the chunk being filled over: up to its last line break, or all of it at the end of
    /// the input.
    ///
    /// Lines not yet complete when reading failed or was interrupted are dropped, as the
    /// one-line-at-a-time reader drops them.
    private func publish(ending: RecordEvent?, idle: Bool) {
        let slot = slots[filling % slots.count]
        if ending != .end {
            let complete = lastNewline(slot).map { $0 + 1 } ?? 0
            if ending == nil {
                carried = slot.count - complete
                if carried > 0 {
                    carry.baseAddress!.copyMemory(
                        from: slot.buffer.baseAddress! + complete, byteCount: carried)
                }
            }
            slot.count = complete
        }
        slot.inputIdle = idle
        slot.ending = ending
        if slot.count > 0 { startsInput = false }
        if ending != nil {
            finish(slot)
        } else {
            hand(slot)
            filling += 1
            acquire()
        }
    }

    private func finish(_ slot: Slot) {
        if slot.ending == nil && slot.handOff == nil { slot.ending = .end }
        condition.lock()
        lastSequence = filling
        condition.unlock()
        hand(slot)
    }

    private func hand(_ slot: Slot) {
        condition.lock()
        slot.state = .filled
        condition.broadcast()
        condition.unlock()
    }

    // MARK: The checking threads

    private func work() {
        var checker = JSONLinesChunkChecker(validator: validator, maximumLineLength: maximumLineLength)
        while true {
            condition.lock()
            var slot: Slot?
            while true {
                if let lastSequence, nextToWork > lastSequence { break }
                let next = slots[nextToWork % slots.count]
                if next.state == .filled {
                    slot = next
                    next.state = .working
                    nextToWork += 1
                    break
                }
                condition.wait()
            }
            condition.unlock()
            guard let slot else { return }
            let outcome = checker.check(
                slot.bytes, startsInput: slot.startsInput, file: file, reporting: reporting)
            condition.lock()
            slot.outcome = outcome
            slot.state = .done
            condition.broadcast()
            condition.unlock()
        }
    }
}
