import Foundation

/// Validates records on every core: one thread reads the input into chunks that end where a record
/// ends, two threads parse and check chunks at the same time, and the calling thread hands the
/// counts and findings on in input order.
///
/// At most `slotCount` chunks are held, so memory stays bounded. A record too long for a chunk
/// ends the run there, so that the one-record-at-a-time reader reads it (see
/// `BatchValidator.validateInParallel`).
final class ParallelRecords<Source: ByteSource>: @unchecked Sendable {
    // @unchecked: the slots' states and the work cursor are read and written only while
    // `condition` is locked; a slot's other contents belong to the one thread whose state (filling,
    // working) says so; the reading thread's own fields are touched only by it.
    private enum State { case free, filling, filled, working, done }

    private final class Slot {
        let buffer: UnsafeMutableRawBufferPointer
        var count = 0
        var state = State.free
        /// How many lines and bytes of the input come before the chunk.
        var linesBefore = 0
        var bytesBefore = 0
        var inputIdle = false
        var ending: RecordEvent?
        /// The start of a record longer than a chunk, and the source to read its rest and what
        /// follows from, when the one-record-at-a-time reader must take over.
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
    private let format: ChunkFormat
    private let maximumLineLength: Int
    private let file: String
    private let reporting: Bool
    private let splitting: Bool
    private let notingPlayers: Bool
    private let slots: [Slot]
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var nextToWork = 0
    private var lastSequence: Int?
    // The reading thread's own.
    private var source: Source?
    private let carry: UnsafeMutableRawBufferPointer
    private var carried = 0
    private var filling = 0
    /// Lines and bytes of the input before the chunk being filled.
    private var linesBefore: Int
    private var bytesBefore: Int
    private var ends: RecordEnds

    /// A pipeline over `source`, records in `format`; chunks hold `chunkSize` bytes at most.
    ///
    /// `linesBefore` and `bytesBefore` are how many lines and bytes of the input were read before
    /// `source` starts; no lines means `source` starts the input, where a byte order mark is not
    /// part of the first line. With `splitting`, each chunk's outcome says where its rejected
    /// records lie.
    init(
        source: Source, format: ChunkFormat, linesBefore: Int, bytesBefore: Int, idle: IdleRelay,
        validator: BatchValidator, file: String, reporting: Bool, splitting: Bool = false,
        notingPlayers: Bool = false, chunkSize: Int = 1 << 20, slotCount: Int = 6,
        maximumLineLength: Int = 8 << 20
    ) {
        let capacity = Swift.max(chunkSize, 16)
        self.source = source
        self.format = format
        self.linesBefore = linesBefore
        self.bytesBefore = bytesBefore
        self.splitting = splitting
        self.notingPlayers = notingPlayers
        self.ends = RecordEnds(format: format)
        self.validator = validator
        self.file = file
        self.reporting = reporting
        self.maximumLineLength = maximumLineLength
        self.slots = (0..<Swift.max(slotCount, 2)).map { _ in Slot(capacity: capacity) }
        self.carry = .allocate(byteCount: capacity, alignment: 64)
        idle.action = { [unowned self] in publish(ending: nil, idle: true) }
    }

    deinit {
        carry.deallocate()
    }

    /// How a run ended: with the input, or at a record longer than a chunk.
    enum Ending {
        /// The input ended, with this event.
        case input(RecordEvent)
        /// A record starts with `prefix`, too long for a chunk: the rest of the input is `prefix`
        /// then `source`, after `linesBefore` lines and `bytesRead` bytes.
        case longRecord(prefix: [UInt8], source: Source, linesBefore: Int, bytesRead: Int)
    }

    /// Reads, checks and hands on the input, to its end or to a record longer than a chunk.
    ///
    /// The bytes read told to `progress` count on from `bytesRead`, those taken before `source`
    /// starts. Each chunk's records are written to `split`, when given, before its slot is reused;
    /// with `unique`, the players its records name are told from those seen before, in order.
    func run(
        tally: inout ValidationTally, report: ((Finding) -> Void)?, flush: () -> Void,
        bytesRead: Int, progress: ((_ records: Int, _ bytesRead: Int) -> Void)?, split: RecordSplit? = nil,
        unique: UniqueNames? = nil
    ) -> Ending {
        let reader = Thread { self.produce() }
        reader.stackSize = 1 << 20
        reader.start()
        for _ in 0..<2 {
            let worker = Thread { self.work() }
            worker.stackSize = 4 << 20
            worker.start()
        }
        var sequence = 0
        var bytesRead = bytesRead
        while true {
            let slot = slots[sequence % slots.count]
            condition.lock()
            while slot.state != .done { condition.wait() }
            condition.unlock()
            unique?.resolve(
                &slot.outcome, file: file, reporting: report != nil, countingReasons: validator.countsReasons)
            tally.add(slot.outcome.tally)
            if let report {
                for finding in slot.outcome.findings { report(finding) }
            }
            split?.take(slot.bytes, at: slot.bytesBefore, rejecting: slot.outcome.rejected)
            bytesRead += slot.count
            let inputIdle = slot.inputIdle
            let ending = slot.ending
            let handOff = slot.handOff
            let linesBefore = slot.linesBefore
            slot.outcome = ChunkOutcome()
            slot.handOff = nil
            condition.lock()
            slot.state = .free
            condition.broadcast()
            condition.unlock()
            progress?(tally.records, bytesRead)
            if inputIdle { flush() }
            if let handOff {
                return .longRecord(
                    prefix: handOff.prefix, source: handOff.source, linesBefore: linesBefore,
                    bytesRead: bytesRead)
            }
            if let ending { return .input(ending) }
            sequence += 1
        }
    }

    // MARK: The reading thread

    private func produce() {
        acquire()
        while true {
            guard var source else { return }
            let slot = slots[filling % slots.count]
            if slot.count == slot.buffer.count {
                if handOverFull(slot, rest: UnsafeRawBufferPointer(start: nil, count: 0)) { return }
                continue
            }
            // Read straight into the chunk, so that nothing is copied on the way.
            let chunk = filling
            let space = UnsafeMutableRawBufferPointer(rebasing: slot.buffer[slot.count...])
            let result = source.read(into: space)
            self.source = source
            switch result {
            case .bytes(let count) where chunk == filling:
                slot.count += count
            case .bytes(let count):
                // The input ran dry while reading and the chunk was handed over: what was read
                // belongs to the next one. It is copied out first, as filling the next chunks
                // may come round to this one.
                let read = Array(UnsafeRawBufferPointer(rebasing: space[..<count]))
                if read.withUnsafeBytes({ append($0) }) { return }
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

    /// Waits for the slot to fill next and starts it with the carried start of a record.
    private func acquire() {
        let slot = slots[filling % slots.count]
        condition.lock()
        while slot.state != .free { condition.wait() }
        slot.state = .filling
        condition.unlock()
        if carried > 0 { slot.buffer.baseAddress!.copyMemory(from: carry.baseAddress!, byteCount: carried) }
        slot.count = carried
        carried = 0
    }

    /// Adds `bytes` to the chunk being filled, handing full chunks over.
    ///
    /// Returns true when the rest of the input has been handed to the one-record-at-a-time reader.
    private func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let slot = slots[filling % slots.count]
            let room = slot.buffer.count - slot.count
            if room == 0 {
                if handOverFull(slot, rest: UnsafeRawBufferPointer(rebasing: bytes[offset...])) {
                    return true
                }
                continue
            }
            let taken = Swift.min(room, bytes.count - offset)
            (slot.buffer.baseAddress! + slot.count).copyMemory(
                from: bytes.baseAddress! + offset, byteCount: taken)
            slot.count += taken
            offset += taken
        }
        return false
    }

    /// Hands over the full chunk `slot`, up to the end of its last complete record; when one
    /// record fills it, hands it with `rest`, the bytes read after it, and the rest of the input
    /// to the one-record-at-a-time reader, and returns true.
    private func handOverFull(_ slot: Slot, rest: UnsafeRawBufferPointer) -> Bool {
        guard ends.complete(in: slot.bytes) > 0 else {
            var prefix = Array(slot.bytes)
            prefix.append(contentsOf: rest)
            slot.count = 0
            slot.linesBefore = linesBefore
            slot.bytesBefore = bytesBefore
            slot.handOff = (prefix, source!)
            source = nil
            finish(slot)
            return true
        }
        publish(ending: nil, idle: false)
        return false
    }

    /// Hands the chunk being filled over: up to the end of its last complete record, or all of it
    /// at the end of the input.
    ///
    /// Records not yet complete when reading failed or was interrupted are dropped, as the
    /// one-record-at-a-time reader drops them.
    private func publish(ending: RecordEvent?, idle: Bool) {
        let slot = slots[filling % slots.count]
        if ending != .end {
            let complete = ends.complete(in: slot.bytes)
            ends.drop(complete)
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
        slot.linesBefore = linesBefore
        slot.bytesBefore = bytesBefore
        linesBefore += ChunkLines.lineBreaks(in: slot.bytes)
        bytesBefore += slot.count
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
        var checker = ChunkChecker(validator: validator, format: format, maximumLineLength: maximumLineLength)
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
                slot.bytes, linesBefore: slot.linesBefore, bytesBefore: slot.bytesBefore, file: file,
                reporting: reporting, splitting: splitting, notingPlayers: notingPlayers)
            condition.lock()
            slot.outcome = outcome
            slot.state = .done
            condition.broadcast()
            condition.unlock()
        }
    }
}
