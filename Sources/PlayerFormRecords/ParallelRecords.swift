import Foundation

/// The lines of a chunk held in memory, given as ``LineReader`` gives the same bytes: without
/// their line breaks (and a carriage return before one), without a byte order mark at the start of
/// the input, and over-long lines as too long, their content given in one piece.
struct ChunkLines: LineSupply {
    let maximumLineLength: Int
    private let base: UnsafePointer<UInt8>?
    private let count: Int
    /// Whether the chunk starts the input: its first line's byte order mark is not part of it.
    private let startsInput: Bool
    private var start = 0
    /// The number of the line given last, counted over the whole input.
    private var lineNumber: Int

    /// The lines of `chunk`, whose last line may lack its line break, numbered on from
    /// `linesBefore`, the lines of the input before the chunk (none: the chunk starts the input).
    init(_ chunk: UnsafeBufferPointer<UInt8>, maximumLineLength: Int, linesBefore: Int) {
        self.base = chunk.baseAddress
        self.count = chunk.count
        self.maximumLineLength = Swift.max(1, maximumLineLength)
        self.lineNumber = linesBefore
        self.startsInput = linesBefore == 0
    }

    mutating func nextLine(passingOverlongPieces overlong: (UnsafeBufferPointer<UInt8>) -> Void) -> LineResult
    {
        guard let next = bounds() else { return .end }
        start = next.after
        lineNumber += 1
        let line = UnsafeBufferPointer(start: base! + next.first, count: next.last - next.first)
        guard line.count <= maximumLineLength else {
            overlong(line)
            return .line(
                Line(bytes: UnsafeBufferPointer(start: nil, count: 0), number: lineNumber, isTooLong: true))
        }
        return .line(Line(bytes: line, number: lineNumber, isTooLong: false))
    }

    /// The bytes from the next line's start to the end of the chunk, for a reader that finds where
    /// the line ends itself and then calls ``takeLine(length:)``; nil at the end of the chunk, and
    /// before the input's first line, whose byte order mark only ``nextLine(passingOverlongPieces:)``
    /// drops.
    func rest() -> UnsafeBufferPointer<UInt8>? {
        guard start < count, let base, !(startsInput && lineNumber == 0) else { return nil }
        return UnsafeBufferPointer(start: base + start, count: count - start)
    }

    /// Takes the next line, whose line break comes `length` bytes after the start of ``rest()``
    /// (or which ends the chunk there), and returns its number.
    mutating func takeLine(length: Int) -> Int {
        start += length + 1
        lineNumber += 1
        return lineNumber
    }

    /// Where the next line's content starts and ends (without a byte order mark at the start of
    /// the input, its line break, or a carriage return before that) and where the line after it
    /// starts; nil at the end of the chunk.
    private func bounds() -> (first: Int, last: Int, after: Int)? {
        guard start < count, let base else { return nil }
        let stop = Self.firstLineBreak(base, from: start, count: count)
        var first = start
        var last = stop
        if startsInput && lineNumber == 0 && last - first >= 3 && base[first] == 0xEF
            && base[first + 1] == 0xBB
            && base[first + 2] == 0xBF
        {
            first += 3
        }
        if last > first && base[last - 1] == 0x0D { last -= 1 }
        return (first, last, stop + 1)
    }

    /// The offset of the first line break in `base[from..<count]`, or `count` when there is none,
    /// looked for 16 bytes at a time: lines are short, and a call to memchr costs more than the
    /// search.
    static func firstLineBreak(_ base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int {
        var index = from
        let newline = SIMD16<UInt8>(repeating: 0x0A)
        while count - index >= 16 {
            let block = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
            // Each byte of the comparison is all ones where a line break is; in each half, the
            // lowest set bit is in the first such byte.
            let halves = unsafeBitCast(block .== newline, to: SIMD2<UInt64>.self)
            let low = UInt64(littleEndian: halves[0])
            if low != 0 { return index + low.trailingZeroBitCount / 8 }
            let high = UInt64(littleEndian: halves[1])
            if high != 0 { return index + 8 + high.trailingZeroBitCount / 8 }
            index += 16
        }
        while index < count {
            if base[index] == 0x0A { return index }
            index += 1
        }
        return count
    }

    /// How many line breaks `bytes` holds, counted 32 bytes at a time in vector lanes.
    static func lineBreaks(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let newline = SIMD32<UInt8>(repeating: 0x0A)
        var count = 0
        var index = 0
        while bytes.count - index >= 32 {
            // Each lane counts the line breaks at its place; 255 rounds cannot overflow a byte.
            var lanes = SIMD32<UInt8>()
            let rounds = Swift.min((bytes.count - index) / 32, 255)
            for _ in 0..<rounds {
                let block = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD32<UInt8>.self)
                // A lane of the comparison is all ones (-1 as a byte) where a line break is.
                lanes &-= unsafeBitCast(block .== newline, to: SIMD32<UInt8>.self)
                index += 32
            }
            count += Int(SIMD32<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
        }
        while index < bytes.count {
            if base[index] == 0x0A { count += 1 }
            index += 1
        }
        return count
    }
}

/// The format of the chunks of an input: JSON Lines, or CSV records with the columns its header,
/// read before the first chunk, names.
enum ChunkFormat {
    case jsonLines
    case csv(CSVColumns)
}

/// What checking one chunk found.
struct ChunkOutcome {
    var tally = ValidationTally()
    /// Findings in input order.
    var findings: [Finding] = []
}

/// Checks the records of a chunk as ``RecordReader`` and ``BatchValidator`` check them one by one:
/// the same lines, blank lines skipped, the same records, messages and findings.
struct ChunkChecker {
    let validator: BatchValidator
    let format: ChunkFormat
    let maximumLineLength: Int
    /// Whether CSV lines without quotes, or whose quotes only wrap whole fields, are split where
    /// they lie in the chunk; off only in specs, to compare with the general way.
    var plainCSVLines = true
    /// Whether JSON Lines records of the common shape are read where they lie
    /// (``JSONFastLine``); off only in specs, to compare with the general way.
    var plainJSONLines = true
    private var steps = RecordSteps()
    private var jsonLines = JSONFastLine()
    private var csvLines: CSVFastLine

    init(validator: BatchValidator, format: ChunkFormat, maximumLineLength: Int) {
        self.validator = validator
        self.format = format
        self.maximumLineLength = maximumLineLength
        let nameFirst =
            switch format {
            case .jsonLines: true
            case .csv(let columns): columns.name == 0
            }
        csvLines = CSVFastLine(nameFirst: nameFirst)
    }

    /// Checks every record of `chunk`, which ends where a record ends or at the end of the input;
    /// `linesBefore` is how many lines of the input come before it, so that line numbers count
    /// over the whole input, in findings and in messages alike.
    mutating func check(
        _ chunk: UnsafeBufferPointer<UInt8>, linesBefore: Int, file: String, reporting: Bool
    ) -> ChunkOutcome {
        var lines = ChunkLines(chunk, maximumLineLength: maximumLineLength, linesBefore: linesBefore)
        var tally = ValidationTally()
        var findings: [Finding] = []
        // The closures below capture this copy, not `self`: capturing `self` while `steps` is read
        // made the compiler copy all of `steps`, scratch buffers and all, for every CSV record.
        let validator = validator
        while true {
            let event: RecordEvent
            switch format {
            case .jsonLines:
                // A record is checked on its name's bytes: a String is made only for a finding.
                // A line of the common shape is read where it lies; any other the general way.
                if plainJSONLines, let rest = lines.rest(),
                    let record = jsonLines.record(startOf: rest, limit: lines.maximumLineLength)
                {
                    let number = lines.takeLine(length: record.length)
                    Self.check(
                        validator, name: record.name, points: record.points, number: number, file: file,
                        tally: &tally, findings: &findings, reporting: reporting)
                    continue
                }
                switch steps.nextJSONLine(from: &lines) {
                case .line(let line):
                    let finding = validator.check(
                        jsonLine: line.bytes, number: line.number, parser: &steps.json, file: file,
                        tally: &tally, reporting: reporting)
                    if let finding { findings.append(finding) }
                    continue
                case .event(let next): event = next
                }
            case .csv(let columns):
                // So is a CSV record. A line without quotes (or whose quotes only wrap whole
                // fields) that has the header's number of fields, as most have, is split where it
                // lies; any other is read the general way.
                if plainCSVLines, let rest = lines.rest() {
                    // The commonest lines, two fields ending within a few bytes, in one look.
                    if columns.count == 2,
                        let record = csvLines.record(startOf: rest, limit: maximumLineLength)
                    {
                        let number = lines.takeLine(length: record.length)
                        Self.check(
                            validator, name: record.name, points: record.points, number: number, file: file,
                            tally: &tally, findings: &findings, reporting: reporting)
                        continue
                    }
                    if let fields = CSVFields.plainFields(
                        startOf: rest, columns: columns, limit: maximumLineLength)
                    {
                        let number = lines.takeLine(length: fields.length)
                        let finding = RecordSteps.csvRecord(
                            name: fields.name, points: fields.points,
                            record: { name, points in
                                validator.check(
                                    utf8Name: name, points: points, number: number, file: file, tally: &tally,
                                    reporting: reporting)
                            },
                            malformed: { reason in
                                validator.check(
                                    NumberedRecord(line: number, content: .malformed(reason)), file: file,
                                    tally: &tally, reporting: reporting)
                            })
                        if let finding { findings.append(finding) }
                        continue
                    }
                }
                // The same closures as above, written twice: one nested function for both made
                // this loop 15% slower (0.78 against 0.92 s of CPU over 10M records).
                switch steps.nextCSVFields(from: &lines) {
                case .fields(let number):
                    let finding = steps.csvRecord(
                        columns,
                        record: { name, points in
                            validator.check(
                                utf8Name: name, points: points, number: number, file: file, tally: &tally,
                                reporting: reporting)
                        },
                        malformed: { reason in
                            validator.check(
                                NumberedRecord(line: number, content: .malformed(reason)), file: file,
                                tally: &tally, reporting: reporting)
                        })
                    if let finding { findings.append(finding) }
                    continue
                case .event(let next): event = next
                }
            }
            guard case .record(let record) = event else { break }
            if let finding = validator.check(record, file: file, tally: &tally, reporting: reporting) {
                findings.append(finding)
            }
        }
        return ChunkOutcome(tally: tally, findings: findings)
    }

    /// Reads the rest of `source` after `read`, the bytes read before, and checks them all as
    /// one chunk starting after `linesBefore` lines of the input; returns the event that ended the
    /// input.
    ///
    /// What ``ParallelRecords`` does with its last chunk: at the end of the input every byte is
    /// checked; when reading failed or was interrupted, the records not yet complete are dropped.
    /// Returns nil when more than `chunkSize` bytes came: `read` then holds every byte read and
    /// `source` what is left.
    mutating func checkWhole<Source: ByteSource>(
        after read: inout [UInt8], of source: inout Source?, linesBefore: Int, chunkSize: Int, file: String,
        tally: inout ValidationTally, report: ((Finding) -> Void)?
    ) -> RecordEvent? {
        var ending = RecordEvent.end
        if var rest = source {
            var room = [UInt8](repeating: 0, count: Swift.min(chunkSize + 1, 1 << 16))
            reading: while true {
                switch room.withUnsafeMutableBytes({ rest.read(into: $0) }) {
                case .bytes(let count):
                    read.append(contentsOf: room[..<count])
                    if read.count > chunkSize {
                        source = rest
                        return nil
                    }
                case .end: break reading
                case .failed(let code):
                    ending = .failed(code)
                    break reading
                case .interrupted:
                    ending = .interrupted
                    break reading
                }
            }
            source = nil
        }
        var complete = read.count
        if ending != .end {
            var ends = RecordEnds(format: format)
            complete = read.withUnsafeBufferPointer { ends.complete(in: $0) }
        }
        let outcome = read.withUnsafeBufferPointer {
            check(
                UnsafeBufferPointer(rebasing: $0[..<complete]), linesBefore: linesBefore, file: file,
                reporting: report != nil)
        }
        tally.records += outcome.tally.records
        tally.invalid += outcome.tally.invalid
        if let report {
            for finding in outcome.findings { report(finding) }
        }
        read.removeSubrange(complete...)
        return ending
    }

    /// Checks the record read where it lies, numbered `number`, whose name's UTF-8 bytes are
    /// `name`, counting it into `tally` and adding its finding to `findings`.
    @inline(__always)
    private static func check(
        _ validator: BatchValidator, name: UnsafeBufferPointer<UInt8>, points: Double, number: Int,
        file: String,
        tally: inout ValidationTally, findings: inout [Finding], reporting: Bool
    ) {
        let finding = validator.check(
            utf8Name: name, points: points, number: number, file: file, tally: &tally, reporting: reporting)
        if let finding { findings.append(finding) }
    }
}

/// Finds where the last complete record ends in the bytes gathered for a chunk, looking at each
/// byte once however often it is asked, so that a chunk never ends inside a record.
///
/// In JSON Lines every line break ends a record. In CSV a line break ends a record unless a quoted
/// field is open, as ``CSVFields`` reads it: a quote opens a field only at the start of a field (at
/// the start of a line or after a comma); inside a quoted field, two quotes are one and a single
/// quote closes it; a quote anywhere else, or text after a closing quote, is a mistake that ends
/// the record with its line. Gathered bytes always start where a record starts.
struct RecordEnds {
    private enum Place {
        /// Outside quotes: in an unquoted field or between fields.
        case outside
        /// Inside a quoted field.
        case quoted
        /// Just after a quote inside a quoted field: it closes the field or is doubled.
        case afterQuote
        /// After a mistake: the record ends with this line.
        case restOfLine
    }

    private let isCSV: Bool
    private var place = Place.outside
    /// How many of the gathered bytes were looked at.
    private var scanned = 0
    /// Where the last complete record found ends, or 0 when none is.
    private var end = 0

    /// Ends of records in `format`.
    init(format: ChunkFormat) {
        if case .csv = format { isCSV = true } else { isCSV = false }
    }

    /// The length of the complete records at the start of `gathered` (0 when there is none): the
    /// bytes gathered so far, the earlier ones the same as at the last call.
    mutating func complete(in gathered: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = gathered.baseAddress, scanned < gathered.count else { return end }
        let count = gathered.count
        defer { scanned = count }
        guard isCSV else {
            if let newline = Self.last(0x0A, base, scanned, count) { end = newline + 1 }
            return end
        }
        var index = scanned
        while index < count {
            switch place {
            case .outside:
                guard let quote = firstQuote(base, from: index, count: count, noteBreaks: true) else {
                    return end
                }
                let before = quote == 0 ? 0x0A : base[quote - 1]
                place = before == 0x0A || before == UInt8(ascii: ",") ? .quoted : .restOfLine
                index = quote + 1
            case .quoted:
                guard let quote = firstQuote(base, from: index, count: count, noteBreaks: false) else {
                    return end
                }
                place = .afterQuote
                index = quote + 1
            case .afterQuote:
                switch base[index] {
                case UInt8(ascii: "\""):
                    place = .quoted
                    index += 1
                case UInt8(ascii: ","), 0x0A: place = .outside
                default: place = .restOfLine
                }
            case .restOfLine:
                guard let newline = Self.firstLineBreak(base, from: index, count: count) else { return end }
                end = newline + 1
                place = .outside
                index = newline + 1
            }
        }
        return end
    }

    /// The offset of the first quote in `base[from..<count]`, or nil when there is none.
    ///
    /// With `noteBreaks`, the line breaks before it end records. Looked for 32 bytes at a time:
    /// quotes are few, and a call to memchr for each cost more than the search.
    private mutating func firstQuote(_ base: UnsafePointer<UInt8>, from: Int, count: Int, noteBreaks: Bool)
        -> Int?
    {
        var index = from
        while count - index >= 32 {
            let classes = ByteClasses(base + index)
            let quotes = classes.quotes
            if noteBreaks {
                // The line breaks before the first quote: the bits below its bit.
                let breaks = classes.lineBreaks & (quotes & (0 &- quotes) &- 1)
                if breaks != 0 { end = index + 32 - breaks.leadingZeroBitCount }
            }
            if quotes != 0 { return index + quotes.trailingZeroBitCount }
            index += 32
        }
        while index < count {
            if base[index] == UInt8(ascii: "\"") { return index }
            if noteBreaks && base[index] == 0x0A { end = index + 1 }
            index += 1
        }
        return nil
    }

    /// The offset of the first line break in `base[from..<count]`, or nil when there is none.
    private static func firstLineBreak(_ base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int? {
        var index = from
        while count - index >= 32 {
            let breaks = ByteClasses(base + index).lineBreaks
            if breaks != 0 { return index + breaks.trailingZeroBitCount }
            index += 32
        }
        while index < count {
            if base[index] == 0x0A { return index }
            index += 1
        }
        return nil
    }

    /// The first `complete` bytes were handed over; the rest start the next chunk.
    mutating func drop(_ complete: Int) {
        scanned -= complete
        end = 0
    }

    private static func last(_ byte: UInt8, _ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> Int? {
        var index = to
        while index > from {
            index -= 1
            if base[index] == byte { return index }
        }
        return nil
    }
}

/// A source that gives `prefix` first and then the rest of `source`, or nothing more when
/// `source` is nil (it has ended).
struct PrefixedSource<Source: ByteSource>: ByteSource {
    private var prefix: [UInt8]
    private var offset = 0
    private var source: Source?

    init(prefix: [UInt8], source: Source?) {
        self.prefix = prefix
        self.source = source
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        guard offset < prefix.count else {
            if !prefix.isEmpty {
                prefix = []
                offset = 0
            }
            return source?.read(into: buffer) ?? .end
        }
        let count = Swift.min(buffer.count, prefix.count - offset)
        prefix.withUnsafeBytes { all in
            buffer.baseAddress!.copyMemory(from: all.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return .bytes(count)
    }
}

/// Validates records on every core: one thread reads the input into chunks that end where a record
/// ends, two threads parse and check chunks at the same time, and the calling thread hands the
/// counts and findings on in input order.
///
/// At most `slotCount` chunks are held, so memory stays bounded. A record too long for a chunk
/// hands the rest of the input to the one-record-at-a-time reader, which gives the same answers.
final class ParallelRecords<Source: ByteSource>: @unchecked Sendable {
    // @unchecked: the slots' states and the work cursor are read and written only while
    // `condition` is locked; a slot's other contents belong to the one thread whose state (filling,
    // working) says so; the reading thread's own fields are touched only by it.
    private enum State { case free, filling, filled, working, done }

    private final class Slot {
        let buffer: UnsafeMutableRawBufferPointer
        var count = 0
        var state = State.free
        /// How many lines of the input come before the chunk.
        var linesBefore = 0
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
    /// Lines of the input before the chunk being filled.
    private var linesBefore: Int
    private var ends: RecordEnds

    /// A pipeline over `source`, records in `format`; chunks hold `chunkSize` bytes at most.
    ///
    /// `linesBefore` is how many lines of the input were read before `source` starts; none means
    /// `source` starts the input, where a byte order mark is not part of the first line.
    init(
        source: Source, format: ChunkFormat, linesBefore: Int, idle: IdleRelay, validator: BatchValidator,
        file: String, reporting: Bool, chunkSize: Int = 1 << 20, slotCount: Int = 6,
        maximumLineLength: Int = 8 << 20
    ) {
        let capacity = Swift.max(chunkSize, 16)
        self.source = source
        self.format = format
        self.linesBefore = linesBefore
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

    /// Reads, checks and hands on the whole input; returns the event that ended it.
    ///
    /// The bytes read told to `progress` count on from `bytesRead`, those taken before `source`
    /// starts.
    func run(
        tally: inout ValidationTally, report: ((Finding) -> Void)?, flush: () -> Void, idle: IdleRelay,
        bytesRead: Int, progress: ((_ records: Int, _ bytesRead: Int) -> Void)?
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
        var bytesRead = bytesRead
        while true {
            let slot = slots[sequence % slots.count]
            condition.lock()
            while slot.state != .done { condition.wait() }
            condition.unlock()
            tally.records += slot.outcome.tally.records
            tally.invalid += slot.outcome.tally.invalid
            if let report {
                for finding in slot.outcome.findings { report(finding) }
            }
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
                let columns: CSVColumns? =
                    switch format {
                    case .jsonLines: nil
                    case .csv(let columns): columns
                    }
                let rest = RecordReader(
                    source: PrefixedSource(prefix: handOff.prefix, source: handOff.source),
                    format: columns == nil ? .jsonl : .csv, columns: columns,
                    maximumLineLength: maximumLineLength,
                    linesBefore: linesBefore)
                return validator.validateConcurrently(
                    rest, idle: idle, file: file, tally: &tally, report: report, flush: flush,
                    // That reader counts what it reads, the record's start given to it included,
                    // on from the bytes the chunks took.
                    progress: progress.map { progress in { progress($0, bytesRead + $1) } })
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
        linesBefore += ChunkLines.lineBreaks(in: slot.bytes)
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
                slot.bytes, linesBefore: slot.linesBefore, file: file, reporting: reporting)
            condition.lock()
            slot.outcome = outcome
            slot.state = .done
            condition.broadcast()
            condition.unlock()
        }
    }
}
