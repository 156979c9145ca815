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
    /// How many bytes of the input come before the chunk.
    let bytesBefore: Int

    /// The lines of `chunk`, whose last line may lack its line break, numbered on from
    /// `linesBefore`, the lines of the input before the chunk (none: the chunk starts the input),
    /// and placed after `bytesBefore`, the bytes before it.
    init(_ chunk: UnsafeBufferPointer<UInt8>, maximumLineLength: Int, linesBefore: Int, bytesBefore: Int) {
        self.base = chunk.baseAddress
        self.count = chunk.count
        self.maximumLineLength = Swift.max(1, maximumLineLength)
        self.lineNumber = linesBefore
        self.bytesBefore = bytesBefore
        self.startsInput = linesBefore == 0
    }

    var position: Int { bytesBefore + Swift.min(start, count) }

    mutating func nextLine(passingOverlongPieces overlong: (UnsafeBufferPointer<UInt8>) -> Void) -> LineResult
    {
        guard let next = bounds() else { return .end }
        let offset = position
        start = next.after
        lineNumber += 1
        let line = UnsafeBufferPointer(start: base! + next.first, count: next.last - next.first)
        guard line.count <= maximumLineLength else {
            overlong(line)
            return .line(
                Line(
                    bytes: UnsafeBufferPointer(start: nil, count: 0), number: lineNumber, isTooLong: true,
                    offset: offset))
        }
        return .line(Line(bytes: line, number: lineNumber, isTooLong: false, offset: offset))
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
    /// (or which ends the chunk there), and returns its number and where it starts in the input.
    mutating func takeLine(length: Int) -> RecordPlace {
        let offset = position
        start += length + 1
        lineNumber += 1
        return RecordPlace(line: lineNumber, offset: offset)
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

    /// The format a ``RecordReader`` of the same records reads.
    var recordFormat: RecordFormat {
        switch self {
        case .jsonLines: .jsonl
        case .csv: .csv
        }
    }

    /// The columns of CSV records; nil for JSON Lines.
    var columns: CSVColumns? {
        switch self {
        case .jsonLines: nil
        case .csv(let columns): columns
        }
    }
}

/// What checking one chunk found.
struct ChunkOutcome {
    var tally = ValidationTally()
    /// Findings in input order.
    var findings: [Finding] = []
    /// Where the invalid and malformed records lie in the input, in order, each from its first
    /// byte to the end of its line break; kept only when the records are split.
    var rejected: [Range<Int>] = []
    /// Whether the records are split (``rejected`` is kept).
    var splitting = false
    /// The players of the readable records, in order, noted for `--unique`.
    var players: [KeyNotes.Entry] = []
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
    /// The keys of names this checker met, for `--unique`; a checker is one thread's.
    private let nameKeys = NameKeyCache()
    private var jsonLines = JSONFastLine()
    private var csvLines: CSVFastLine

    init(validator: BatchValidator, format: ChunkFormat, maximumLineLength: Int) {
        self.validator = validator
        self.format = format
        self.maximumLineLength = maximumLineLength
        switch format {
        case .jsonLines:
            csvLines = CSVFastLine(nameFirst: true)
        case .csv(let columns):
            csvLines = CSVFastLine(nameFirst: columns.name == 0, delimiter: columns.delimiter)
            steps.csv.delimiter = columns.delimiter
        }
    }

    /// Checks every record of `chunk`, which ends where a record ends or at the end of the input;
    /// `linesBefore` and `bytesBefore` are how many lines and bytes of the input come before it, so
    /// that line numbers and offsets count over the whole input, in findings and in messages alike.
    ///
    /// With `splitting`, the outcome also holds where each invalid or malformed record lies
    /// (``ChunkOutcome/rejected``); with `notingPlayers`, the player of each readable record
    /// (``ChunkOutcome/players``).
    mutating func check(
        _ chunk: UnsafeBufferPointer<UInt8>, linesBefore: Int, bytesBefore: Int, file: String,
        reporting: Bool,
        splitting: Bool = false, notingPlayers: Bool = false
    ) -> ChunkOutcome {
        var lines = ChunkLines(
            chunk, maximumLineLength: maximumLineLength, linesBefore: linesBefore, bytesBefore: bytesBefore)
        var tally = ValidationTally()
        var findings: [Finding] = []
        var rejected: [Range<Int>] = []
        // The closures below capture this copy, not `self`: capturing `self` while `steps` is read
        // made the compiler copy all of `steps`, scratch buffers and all, for every CSV record.
        let notes = notingPlayers ? KeyNotes(keepingNames: reporting, keys: nameKeys) : nil
        let validator = validator.noting(into: notes)
        reading: while true {
            let invalidBefore = tally.invalid
            let place: RecordPlace
            switch format {
            case .jsonLines:
                // A record is checked on its name's bytes: a String is made only for a finding.
                // A line of the common shape is read where it lies; any other the general way.
                if plainJSONLines, let rest = lines.rest(),
                    let record = jsonLines.record(startOf: rest, limit: lines.maximumLineLength)
                {
                    place = lines.takeLine(length: record.length)
                    Self.check(
                        validator, name: record.name, points: record.points, at: place, file: file,
                        tally: &tally, findings: &findings, reporting: reporting)
                } else {
                    switch steps.nextJSONLine(from: &lines) {
                    case .line(let line):
                        place = line.place
                        let finding = validator.check(
                            jsonLine: line.bytes, at: place, parser: &steps.json, file: file,
                            tally: &tally, reporting: reporting)
                        if let finding { findings.append(finding) }
                    case .event(let event):
                        guard case .record(let record) = event else { break reading }
                        place = record.place
                        if let finding = validator.check(
                            record, file: file, tally: &tally, reporting: reporting)
                        {
                            findings.append(finding)
                        }
                    }
                }
            case .csv(let columns):
                // So is a CSV record. A line without quotes (or whose quotes only wrap whole
                // fields) that has the header's number of fields, as most have, is split where it
                // lies; any other is read the general way.
                let rest = plainCSVLines ? lines.rest() : nil
                // The commonest lines, two fields ending within a few bytes, in one look.
                if let rest, columns.count == 2,
                    let record = csvLines.record(startOf: rest, limit: maximumLineLength)
                {
                    place = lines.takeLine(length: record.length)
                    Self.check(
                        validator, name: record.name, points: record.points, at: place, file: file,
                        tally: &tally, findings: &findings, reporting: reporting)
                } else if let rest,
                    let fields = CSVFields.plainFields(
                        startOf: rest, columns: columns, limit: maximumLineLength)
                {
                    let at = lines.takeLine(length: fields.length)
                    place = at
                    let finding = RecordSteps.csvRecord(
                        name: fields.name, points: fields.points, decimalComma: columns.decimalComma,
                        record: { name, points in
                            validator.check(
                                utf8Name: name, points: points, at: at, file: file, tally: &tally,
                                reporting: reporting)
                        },
                        malformed: { reason in
                            validator.check(
                                NumberedRecord(place: at, content: .malformed(reason)), file: file,
                                tally: &tally, reporting: reporting)
                        })
                    if let finding { findings.append(finding) }
                } else {
                    // The same closures as above, written twice: one nested function for both
                    // made this loop 15% slower (0.78 against 0.92 s of CPU over 10M records).
                    switch steps.nextCSVFields(from: &lines) {
                    case .fields(let at):
                        place = at
                        let finding = steps.csvRecord(
                            columns,
                            record: { name, points in
                                validator.check(
                                    utf8Name: name, points: points, at: at, file: file, tally: &tally,
                                    reporting: reporting)
                            },
                            malformed: { reason in
                                validator.check(
                                    NumberedRecord(place: at, content: .malformed(reason)), file: file,
                                    tally: &tally, reporting: reporting)
                            })
                        if let finding { findings.append(finding) }
                    case .event(let event):
                        guard case .record(let record) = event else { break reading }
                        place = record.place
                        if let finding = validator.check(
                            record, file: file, tally: &tally, reporting: reporting)
                        {
                            findings.append(finding)
                        }
                    }
                }
            }
            if splitting && tally.invalid != invalidBefore { rejected.append(place.offset..<lines.position) }
            notes?.ended(at: place, end: lines.position)
        }
        return ChunkOutcome(
            tally: tally, findings: findings, rejected: rejected, splitting: splitting,
            players: notes?.take() ?? [])
    }

    /// Reads the rest of `source` after `read`, the bytes read before, and checks them all as
    /// one chunk starting after `linesBefore` lines and `bytesBefore` bytes of the input; returns
    /// the event that ended the input.
    ///
    /// What ``ParallelRecords`` does with its last chunk: at the end of the input every byte is
    /// checked; when reading failed or was interrupted, the records not yet complete are dropped.
    /// Returns nil when more than `chunkSize` bytes came: `read` then holds every byte read and
    /// `source` what is left.
    mutating func checkWhole<Source: ByteSource>(
        after read: inout [UInt8], of source: inout Source?, linesBefore: Int, bytesBefore: Int,
        chunkSize: Int,
        file: String, tally: inout ValidationTally, report: ((Finding) -> Void)?, split: RecordSplit?,
        unique: UniqueNames? = nil
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
            let chunk = UnsafeBufferPointer(rebasing: $0[..<complete])
            var outcome = check(
                chunk, linesBefore: linesBefore, bytesBefore: bytesBefore, file: file,
                reporting: report != nil,
                splitting: split != nil, notingPlayers: unique != nil)
            unique?.resolve(
                &outcome, file: file, reporting: report != nil, countingReasons: validator.countsReasons)
            split?.take(chunk, at: bytesBefore, rejecting: outcome.rejected)
            return outcome
        }
        tally.add(outcome.tally)
        if let report {
            for finding in outcome.findings { report(finding) }
        }
        read.removeSubrange(complete...)
        return ending
    }

    /// Checks the record read where it lies, at `place`, whose name's UTF-8 bytes are
    /// `name`, counting it into `tally` and adding its finding to `findings`.
    @inline(__always)
    private static func check(
        _ validator: BatchValidator, name: UnsafeBufferPointer<UInt8>, points: Double, at place: RecordPlace,
        file: String,
        tally: inout ValidationTally, findings: inout [Finding], reporting: Bool
    ) {
        let finding = validator.check(
            utf8Name: name, points: points, at: place, file: file, tally: &tally, reporting: reporting)
        if let finding { findings.append(finding) }
    }
}
