import PlayerFormRules

/// Checks every record of an input with `PlayerRules.validate(name:points:)`, the rules the form
/// uses; it applies no rule of its own.
public struct BatchValidator {
    /// The rules records are checked against.
    public let rules: PlayerRules
    /// Whether the reasons of invalid records are counted into the tally when no findings are
    /// made (`--report-only`); with findings they always are.
    public let countsReasons: Bool
    /// Where a chunk checker notes each readable record's player, for `--unique` to tell on the
    /// calling thread; nil elsewhere.
    var keyNotes: KeyNotes?

    /// This validator, noting the player of each readable record into `notes`.
    func noting(into notes: KeyNotes?) -> BatchValidator {
        var noting = self
        noting.keyNotes = notes
        return noting
    }

    /// A validator applying `rules`, counting the reasons of invalid records without findings when
    /// `countingReasons` is set.
    public init(rules: PlayerRules, countingReasons: Bool = false) {
        self.rules = rules
        self.countsReasons = countingReasons
    }

    /// Reads `reader` to its end, counting into `tally` and calling `report`, when given, for each
    /// invalid or malformed record: the general path, which the fast ones are checked against.
    ///
    /// `idle`, when given, must be the relay the reader's source calls when the input runs dry:
    /// `flush` is then called, every record read so far being checked already. `progress`, when
    /// given, is told the records checked and the bytes the reader has read from its source, every
    /// 4,096 records and at the end. With `stopAfterInvalid`, reading stops once `tally.invalid`
    /// reaches it (`--max-errors`); with `lookingAhead` (an input that never makes a read wait,
    /// such as a regular file) one more record is read to tell whether any was left unchecked,
    /// else none is waited for. When the reader has a ``RecordReader/split``, each record is
    /// written to its output as it is checked. With `unique` (`--unique`), a record naming a
    /// player already seen in the input (the same comparison key) is invalid, its finding naming
    /// the first line.
    /// - Returns: the event that ended the input: `.end`, `.unusable`, `.failed` or `.interrupted`;
    ///   or, when `stopAfterInvalid` stopped it, a record: the first left unchecked, or, without
    ///   `lookingAhead`, the one that reached the limit.
    public func validate<Source>(
        _ reader: RecordReader<Source>, idle: IdleRelay? = nil, file: String, tally: inout ValidationTally,
        report: ((Finding) -> Void)?, flush: () -> Void = {},
        progress: ((_ records: Int, _ bytesRead: Int) -> Void)? = nil, stopAfterInvalid limit: Int? = nil,
        lookingAhead: Bool = true, unique: UniqueNames? = nil
    ) -> RecordEvent {
        withoutActuallyEscaping(flush) { flush in
            idle?.action = flush
            defer { idle?.action = {} }
            var sinceProgress = 0
            while true {
                switch reader.next() {
                case .record(let record):
                    check(record, file: file, tally: &tally, report: report, split: reader, unique: unique)
                    if let limit, tally.invalid >= limit {
                        // One more read tells whether records are left unchecked; a pipe might
                        // make it wait for the writer, so there the run stops at once.
                        let next = lookingAhead ? reader.next() : .record(record)
                        progress?(tally.records, reader.bytesRead)
                        return next
                    }
                    guard let progress else { continue }
                    sinceProgress += 1
                    if sinceProgress == 4096 {
                        sinceProgress = 0
                        progress(tally.records, reader.bytesRead)
                    }
                case let stop:
                    progress?(tally.records, reader.bytesRead)
                    return stop
                }
            }
        }
    }

    /// Like ``validate(_:idle:file:tally:report:flush:progress:stopAfterInvalid:lookingAhead:unique:)``, on every core: what comes
    /// before the records (blank lines, the line the format is told from when `format` is nil,
    /// the CSV header) is read on this thread; then one thread reads the rest of `source` in chunks
    /// of `chunkSize` bytes that end where a record ends, two threads parse and check chunks at the
    /// same time, and this one hands the counts and findings on in input order.
    ///
    /// The lines, records, findings and ending are those of a ``RecordReader`` in `format` with
    /// the same `maximumLineLength`: in CSV a chunk ends only at a line break outside a quoted
    /// field, and a record longer than a chunk is read by such a reader on this thread (the general
    /// path), which then hands the rest of the input back to the chunks.
    /// `progress`, when given, is told the records checked and the bytes of `source` read after
    /// each chunk.
    ///
    /// `size` is the whole input's size in bytes when it is known (a regular file). An input whose
    /// rest fits in one chunk is then read and checked on this thread, as the last chunk would be:
    /// starting the threads would take longer than checking it. If it turns out longer (it grew),
    /// what was read goes to the threads.
    ///
    /// With `split`, each record is written to its output, in input order, as its chunk is handed
    /// on. With `unique`, the players are told from those seen before as each chunk is handed on,
    /// so the first of a player is the first in input order, as on the general path.
    public func validateInParallel<Source: ByteSource>(
        _ source: Source, format: RecordFormat?, delimiter: CSVDelimiter? = nil, size: Int? = nil,
        idle: IdleRelay, file: String,
        tally: inout ValidationTally, report: ((Finding) -> Void)?, flush: () -> Void,
        chunkSize: Int = 1 << 20, maximumLineLength: Int = 8 << 20,
        progress: ((_ records: Int, _ bytesRead: Int) -> Void)? = nil, split: RecordSplit? = nil,
        unique: UniqueNames? = nil
    ) -> RecordEvent {
        let reader = RecordReader(
            source: source, format: format, delimiter: delimiter, maximumLineLength: maximumLineLength)
        reader.split = split
        while let event = reader.readToRecords() {
            guard case .record(let record) = event else { return event }
            check(record, file: file, tally: &tally, report: report, split: reader, unique: unique)
        }
        let taken = reader.handOver()
        let chunkFormat = reader.csvColumns.map(ChunkFormat.csv) ?? .jsonLines
        var rest = taken.rest
        var source = taken.source
        if let size, size - taken.bytesTaken <= chunkSize {
            var checker = ChunkChecker(
                validator: self, format: chunkFormat, maximumLineLength: maximumLineLength)
            if let ending = checker.checkWhole(
                after: &rest, of: &source, linesBefore: taken.lines, bytesBefore: taken.bytesTaken,
                chunkSize: chunkSize, file: file, tally: &tally, report: report, split: split, unique: unique)
            {
                progress?(tally.records, taken.bytesTaken + rest.count)
                return ending
            }
        }
        var lines = taken.lines
        var bytesRead = taken.bytesTaken
        while true {
            let pipeline = ParallelRecords(
                source: PrefixedSource(prefix: rest, source: source), format: chunkFormat,
                linesBefore: lines, bytesBefore: bytesRead, idle: idle, validator: self, file: file,
                reporting: report != nil, splitting: split != nil, notingPlayers: unique != nil,
                chunkSize: chunkSize,
                // A chunk checked for --unique also holds a note of every record's player, as
                // much again as the chunk: fewer slots hold memory under 50 MB, and the
                // checking threads still keep ahead of the calling thread (the same time on 2
                // cores with 4 slots as with 6).
                slotCount: unique == nil ? 6 : 4, maximumLineLength: maximumLineLength)
            let ending = pipeline.run(
                tally: &tally, report: report, flush: flush, bytesRead: bytesRead, progress: progress,
                split: split, unique: unique)
            guard case .longRecord(let prefix, let handed, let linesBefore, let bytesBefore) = ending else {
                if case .input(let event) = ending { return event }
                return .end
            }
            // The general reader reads the record too long for a chunk, then hands the rest back
            // to the chunks: one long record costs its own length, not the rest of the input's.
            let (unread, inner) = handed.split()
            let reader = RecordReader(
                source: PrefixedSource(prefix: prefix + unread, source: inner),
                format: chunkFormat.recordFormat, columns: chunkFormat.columns,
                maximumLineLength: maximumLineLength, linesBefore: linesBefore, bytesBefore: bytesBefore)
            reader.split = split
            let event = withoutActuallyEscaping(flush) { flush in
                idle.action = flush
                defer { idle.action = {} }
                return reader.next()
            }
            guard case .record(let record) = event else { return event }
            check(record, file: file, tally: &tally, report: report, split: reader, unique: unique)
            let after = reader.handOver()
            bytesRead = bytesBefore + after.bytesTaken
            progress?(tally.records, bytesRead)
            lines = after.lines
            let split = after.source.map { $0.split() } ?? (rest: [], source: nil)
            rest = after.rest + split.rest
            source = split.source
        }
    }

    /// Checks `record`, just read by `reader`, reports its finding and, when the reader has a
    /// split, writes the record to its output; with `unique`, a player already seen is invalid.
    private func check<Source>(
        _ record: NumberedRecord, file: String, tally: inout ValidationTally, report: ((Finding) -> Void)?,
        split reader: RecordReader<Source>, unique: UniqueNames? = nil
    ) {
        let invalidBefore = tally.invalid
        var finding = check(record, file: file, tally: &tally, reporting: report != nil)
        if let unique, case .record(let name, _) = record.content,
            let first = unique.firstLine(of: name, line: record.line)
        {
            if tally.invalid == invalidBefore { tally.invalid += 1 }
            if report != nil || countsReasons { tally.reasons.add(.duplicateName, line: record.line) }
            if report != nil {
                finding = Finding(
                    file: file, place: record.place, name: name,
                    problems: (finding?.problems ?? []) + [.duplicate(firstLine: first)])
            }
        }
        if let finding { report?(finding) }
        guard let split = reader.split else { return }
        if tally.invalid != invalidBefore {
            split.reject(record.place.offset..<reader.position)
        } else {
            split.accept(upTo: reader.position)
        }
    }

    /// Checks the JSON Lines record on `line`, which starts at `place`, as
    /// ``check(_:file:tally:reporting:)`` checks `parser.parse(line)`: the same counts and
    /// findings, but a name becomes a String only for a finding.
    func check(
        jsonLine line: UnsafeBufferPointer<UInt8>, at place: RecordPlace, parser: inout JSONRecordParser,
        file: String,
        tally: inout ValidationTally, reporting: Bool
    ) -> Finding? {
        parser.parse(
            line,
            record: { name, points in
                check(
                    utf8Name: name, points: points, at: place, file: file, tally: &tally,
                    reporting: reporting)
            },
            malformed: { reason in
                check(
                    NumberedRecord(place: place, content: .malformed(reason)), file: file, tally: &tally,
                    reporting: reporting)
            })
    }

    /// Checks the record at `place` whose name's UTF-8 bytes are `name`, as
    /// ``check(_:file:tally:reporting:)`` checks it with the name as a String: the name becomes a
    /// String only for a finding (`PlayerRules.isValid(utf8Name:points:)` answers the rest).
    func check(
        utf8Name name: UnsafeBufferPointer<UInt8>, points: Double, at place: RecordPlace, file: String,
        tally: inout ValidationTally, reporting: Bool
    ) -> Finding? {
        let valid = rules.isValid(utf8Name: name, points: points)
        guard reporting && !valid else {
            keyNotes?.note(utf8Name: name, at: place, invalid: !valid)
            tally.records += 1
            if !valid {
                tally.invalid += 1
                if countsReasons {
                    let codes = rules.issueCodes(utf8Name: name, points: points)
                    if let code = codes.name { tally.reasons.add(FindingReason(code), line: place.line) }
                    if let code = codes.points { tally.reasons.add(FindingReason(code), line: place.line) }
                }
            }
            return nil
        }
        let record = ParsedRecord.record(name: String(decoding: name, as: UTF8.self), points: points)
        return check(
            NumberedRecord(place: place, content: record), file: file, tally: &tally, reporting: reporting)
    }

    /// Counts `record` into `tally` and returns its finding when it is invalid or malformed and
    /// `reporting` is set.
    func check(
        _ record: NumberedRecord, file: String, tally: inout ValidationTally, reporting: Bool
    ) -> Finding? {
        tally.records += 1
        switch record.content {
        case .record(let name, let points):
            guard reporting else {
                guard !rules.isValid(name: name, points: points) else {
                    keyNotes?.note(name: name, at: record.place, invalid: false)
                    return nil
                }
                keyNotes?.note(name: name, at: record.place, invalid: true)
                tally.invalid += 1
                if countsReasons {
                    for issue in rules.validate(name: name, points: points) {
                        tally.reasons.add(FindingReason(issue.code), line: record.line)
                    }
                }
                return nil
            }
            let issues = rules.validate(name: name, points: points)
            keyNotes?.note(name: name, at: record.place, invalid: !issues.isEmpty)
            guard !issues.isEmpty else { return nil }
            tally.invalid += 1
            for issue in issues { tally.reasons.add(FindingReason(issue.code), line: record.line) }
            return Finding(
                file: file, place: record.place, name: name, problems: issues.map(Finding.Problem.issue))
        case .malformed(let reason):
            tally.invalid += 1
            guard reporting else {
                if countsReasons { tally.reasons.add(.malformed, line: record.line) }
                return nil
            }
            tally.reasons.add(.malformed, line: record.line)
            return Finding(file: file, place: record.place, name: nil, problems: [.malformed(reason)])
        }
    }
}

/// Calls its action when an input has nothing more to give for now, so that the findings of the
/// records read so far are written out: a ``FileDescriptorSource`` calls it on the thread that
/// reads, and the validator that owns the relay sets the action.
public final class IdleRelay: @unchecked Sendable {
    // @unchecked: `action` is set by the validator that owns the relay before reading starts
    // (and, when a long record hands the rest of the input to the general path, again on the
    // thread that then reads); it is only read on the thread that reads.
    var action: () -> Void = {}

    /// A relay with nothing to do yet.
    public init() {}

    /// Runs the action; called by a ``FileDescriptorSource`` on the reading thread.
    public func callAsFunction() { action() }
}
