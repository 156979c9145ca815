import Glibc
import PlayerFormText

/// What asking a ``RecordReader`` for a record produced.
public enum RecordEvent: Equatable, Sendable {
    /// The next record, readable or malformed.
    case record(NumberedRecord)
    /// The input has no more records.
    case end
    /// The whole input cannot be used (a CSV without the required header, or a format that
    /// cannot be told); the message says why.
    case unusable(String)
    /// Reading failed with this `errno`.
    case failed(Int32)
    /// Reading stopped because an interrupt was requested.
    case interrupted
}

/// Reads the player records of one input, JSON Lines or CSV, streaming through a ``LineReader``.
///
/// Blank lines are skipped in both formats. When no format is given it is told from the first
/// non-blank line: a line starting with `{` is JSON Lines, a CSV header naming `name` and `points`
/// is CSV, anything else makes the input unusable.
public final class RecordReader<Source: ByteSource> {
    /// The input's format, once known.
    public private(set) var format: RecordFormat?
    private var lines: LineReader<Source>
    private var records = RecordSteps()
    private var columns: CSVColumns?
    private var finished: RecordEvent?
    /// Whether the input's first bytes were looked at for another encoding than UTF-8.
    private var encodingChecked = false
    /// The delimiter of a CSV input, or nil to tell it from the header row.
    private let delimiter: CSVDelimiter?

    /// A reader of `source` in `format`, or in the format its first line shows when nil.
    ///
    /// A CSV input's fields are separated by `delimiter`; when nil, by the first of comma,
    /// semicolon and tab that splits the header row into titles naming `name` and `points`.
    /// `startsInput` is false when `source` starts at a line inside an input, whose byte order
    /// mark, if any, is part of the line.
    public init(
        source: Source, format: RecordFormat?, delimiter: CSVDelimiter? = nil, bufferSize: Int = 1 << 18,
        maximumLineLength: Int = 8 << 20, startsInput: Bool = true
    ) {
        self.format = format
        self.delimiter = delimiter
        self.lines = LineReader(
            source: source, bufferSize: bufferSize, maximumLineLength: maximumLineLength,
            startsInput: startsInput)
    }

    /// A reader of the rest of an input, `source`, after its first `linesBefore` lines and
    /// `bytesBefore` bytes; when `columns` is given, the input is CSV whose header was among those
    /// lines.
    init(
        source: Source, format: RecordFormat, columns: CSVColumns?, maximumLineLength: Int, linesBefore: Int,
        bytesBefore: Int
    ) {
        self.format = columns == nil ? format : .csv
        self.columns = columns
        self.delimiter = columns.flatMap { CSVDelimiter(rawValue: $0.delimiter) }
        self.lines = LineReader(
            source: source, maximumLineLength: maximumLineLength, linesBefore: linesBefore,
            bytesBefore: bytesBefore)
        records.csv.delimiter = columns?.delimiter ?? CSVDelimiter.comma.rawValue
    }

    /// Given every byte the reader reads, and its CSV header row; the validator reading the
    /// records decides the rest.
    public var split: RecordSplit? {
        get { lines.split }
        set { lines.split = newValue }
    }

    /// Where the next record starts in the input, in bytes: after the line break of the record
    /// given last.
    public var position: Int { lines.position }

    /// The next record, or why there is none.
    public func next() -> RecordEvent {
        if let event = readToRecords() { return event }
        let event =
            if let columns {
                records.nextCSV(from: &lines, columns: columns)
            } else {
                records.nextJSON(from: &lines)
            }
        if case .record = event { return event }
        return finish(event)
    }

    /// Reads what comes before the records: blank lines, the line the format is told from, and
    /// the CSV header.
    ///
    /// Returns nil once the next line read is a record's, in a known format (and, for CSV, with
    /// ``columns`` read); else the event to give first: a record read while telling the format,
    /// or the event that ends the input.
    func readToRecords() -> RecordEvent? {
        if !encodingChecked {
            encodingChecked = true
            if let wrong = EncodingHints.wrongEncoding(head: lines.head(4)) {
                return finish(.unusable(wrong))
            }
        }
        while true {
            if let finished { return finished }
            if format == .jsonl || columns != nil { return nil }
            let line: Line
            // An over-long CSV header is followed as it is read, so that its end is found without
            // holding it.
            let followsCSV = format == .csv
            records.csv.begin(limit: lines.maximumLineLength)
            var overlongIsBlank = true
            let read = lines.nextLine(passingOverlongPieces: { piece in
                overlongIsBlank = overlongIsBlank && RecordSteps.isBlank(piece)
                if followsCSV { records.csv.scan(piece) }
            })
            switch read {
            case .line(let next): line = next
            case .end: return finish(.end)
            case .failed(let code): return finish(.failed(code))
            case .interrupted: return finish(.interrupted)
            }
            // Blank lines are skipped however long they are.
            if line.isTooLong ? overlongIsBlank : RecordSteps.isBlank(line.bytes) { continue }
            if line.isTooLong && !followsCSV {
                return .record(
                    NumberedRecord(place: line.place, content: .malformed(RecordSteps.tooLong(lines))))
            }
            if format == nil {
                if line.bytes.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{") {
                    format = .jsonl
                    return .record(NumberedRecord(place: line.place, content: records.json.parse(line.bytes)))
                }
                format = .csv
                // A header naming name and points, but not with the delimiter given, is CSV: its
                // own message says which delimiter to give.
                let namesColumns = CSVDelimiter.told(byHeader: line.bytes) != nil
                if let problem = readHeader(line) {
                    if case .unusable = problem, !namesColumns {
                        return finish(
                            .unusable(
                                "cannot tell the format from the first line: it is neither a JSON object nor a CSV "
                                    + "header naming name and points; use --input-format jsonl or csv"))
                    }
                    return finish(problem)
                }
            } else if let problem = readHeader(line) {
                return finish(problem)
            }
        }
    }

    /// The columns of a CSV input, once its header is read.
    var csvColumns: CSVColumns? { columns }

    /// How many bytes the reader has read from its source so far.
    var bytesRead: Int { lines.bytesRead }

    /// What is left of the input for another reader, once ``readToRecords()`` returned nil.
    ///
    /// That is the bytes read but not yet taken, the source (nil when it has ended), and how many
    /// lines and bytes were taken. This reader must not be used afterwards.
    func handOver() -> (rest: [UInt8], source: Source?, lines: Int, bytesTaken: Int) {
        lines.handOver()
    }

    /// How many bytes the reader holds for the input, in its line buffer and the fields of the
    /// current CSV record: bounded by about twice the longest line, whatever the input.
    public var bufferCapacity: Int { lines.bufferCapacity + records.csv.capacity }

    private func finish(_ event: RecordEvent) -> RecordEvent {
        finished = event
        return event
    }

    /// Reads the CSV header; returns the event that ends the input when it is not usable.
    private func readHeader(_ line: Line) -> RecordEvent? {
        let told = CSVDelimiter.told(byHeader: line.bytes)
        records.csv.delimiter = (delimiter ?? told ?? .comma).rawValue
        switch records.csv.read(first: line, from: &lines) {
        case .stopped(let result):
            if case .failed(let code) = result { return .failed(code) }
            return .interrupted
        case .malformed(let message):
            return .unusable("the CSV header row cannot be read: \(message)")
        case .fields:
            var name: Int?
            var points: Int?
            var found: [String] = []
            for index in 0..<records.csv.count {
                // Titles in any case: spreadsheets write Name and Points.
                let title = records.csv.field(index) {
                    String(decoding: RecordSteps.trimmed($0), as: UTF8.self)
                }.lowercased()
                found.append(records.csv.field(index) { TerminalText.quoted(bytes: RecordSteps.trimmed($0)) })
                if title == "name" || title == "points" {
                    guard (title == "name" ? name : points) == nil else {
                        return .unusable("the CSV header names the column \(title) twice")
                    }
                    if title == "name" { name = index } else { points = index }
                }
            }
            guard let name, let points else {
                let separated =
                    switch delimiter {
                    case nil: "separated by commas, semicolons or tabs"
                    case let given?: "separated by \(given.plural) as --delimiter says"
                    }
                // A delimiter given that is not the file's: the header says which it is.
                let hint =
                    told.map {
                        "; the header is separated by \($0.plural): give --delimiter \($0.shown) or leave it out"
                    } ?? ""
                return .unusable(
                    "the CSV header row must name the columns name and points, \(separated); found: "
                        + found.joined(separator: ", ") + hint)
            }
            columns = CSVColumns(
                count: records.csv.count, name: name, points: points, delimiter: records.csv.delimiter)
            lines.split?.header(line.offset..<lines.position)
            return nil
        }
    }
}

/// Where the fields a record needs are in a CSV input, as its header row says, and what
/// separates them.
struct CSVColumns: Equatable {
    /// How many fields each record must have.
    var count: Int
    /// The index of the `name` field.
    var name: Int
    /// The index of the `points` field.
    var points: Int
    /// The byte between fields: a comma, a semicolon or a tab.
    var delimiter: UInt8 = UInt8(ascii: ",")

    /// Whether points may be written with a decimal comma (`3,5`), as spreadsheets that separate
    /// fields with semicolons or tabs write them.
    var decimalComma: Bool { delimiter != UInt8(ascii: ",") }
}

/// Reads records from lines once the format (and for CSV the columns) is known: the one step that
/// ``RecordReader`` takes for each record and that the chunks checked at the same time take, so
/// both give the same records, line numbers and messages.
struct RecordSteps {
    var json = JSONRecordParser()
    var csv = CSVFields()

    /// The next JSON Lines record from `lines`, or `.end`, `.failed` or `.interrupted`.
    mutating func nextJSON<Lines: LineSupply>(from lines: inout Lines) -> RecordEvent {
        switch nextJSONLine(from: &lines) {
        case .line(let line): .record(NumberedRecord(place: line.place, content: json.parse(line.bytes)))
        case .event(let event): event
        }
    }

    /// What ``nextJSONLine(from:)`` found: a line holding a record, still to be parsed, or the
    /// event that comes instead.
    enum JSONLineStep {
        case line(Line)
        case event(RecordEvent)
    }

    /// The next line of JSON Lines from `lines` that holds a record, blank lines skipped; an
    /// over-long line comes as its malformed record, and the end of `lines` as its event.
    mutating func nextJSONLine<Lines: LineSupply>(from lines: inout Lines) -> JSONLineStep {
        while true {
            var overlongIsBlank = true
            let line: Line
            switch lines.nextLine(passingOverlongPieces: {
                overlongIsBlank = overlongIsBlank && Self.isBlank($0)
            }) {
            case .line(let next): line = next
            case .end: return .event(.end)
            case .failed(let code): return .event(.failed(code))
            case .interrupted: return .event(.interrupted)
            }
            // Blank lines are skipped however long they are.
            if line.isTooLong {
                if overlongIsBlank { continue }
                let content = ParsedRecord.malformed(Self.tooLong(lines))
                return .event(.record(NumberedRecord(place: line.place, content: content)))
            }
            if Self.isBlank(line.bytes) { continue }
            return .line(line)
        }
    }

    /// The next CSV record from `lines`, read over as many lines as it takes, or `.end`,
    /// `.failed` or `.interrupted`.
    mutating func nextCSV<Lines: LineSupply>(from lines: inout Lines, columns: CSVColumns) -> RecordEvent {
        switch nextCSVFields(from: &lines) {
        case .fields(let place): .record(NumberedRecord(place: place, content: csvContent(columns)))
        case .event(let event): event
        }
    }

    /// What ``nextCSVFields(from:)`` found: the fields of a record that starts at the place given,
    /// read into ``csv`` and still to be made into a record, or the event that comes instead.
    enum CSVStep {
        case fields(RecordPlace)
        case event(RecordEvent)
    }

    /// Reads the next CSV record's fields from `lines` into ``csv``, over as many lines as it
    /// takes; a record that cannot be split into fields comes as its malformed record, and the
    /// end of `lines` as its event.
    mutating func nextCSVFields<Lines: LineSupply>(from lines: inout Lines) -> CSVStep {
        while true {
            // A record may go on past an over-long first line: its pieces are followed as they are
            // read, so that the record's end is found without holding it.
            csv.begin(limit: lines.maximumLineLength)
            var overlongIsBlank = true
            let line: Line
            switch lines.nextLine(passingOverlongPieces: { piece in
                overlongIsBlank = overlongIsBlank && Self.isBlank(piece)
                csv.scan(piece)
            }) {
            case .line(let next): line = next
            case .end: return .event(.end)
            case .failed(let code): return .event(.failed(code))
            case .interrupted: return .event(.interrupted)
            }
            // Blank lines are skipped however long they are.
            if line.isTooLong ? overlongIsBlank : Self.isBlank(line.bytes) { continue }
            switch csv.read(first: line, from: &lines) {
            case .stopped(.failed(let code)): return .event(.failed(code))
            case .stopped: return .event(.interrupted)
            case .malformed(let message):
                return .event(.record(NumberedRecord(place: line.place, content: .malformed(message))))
            case .fields: return .fields(line.place)
            }
        }
    }

    private func csvContent(_ columns: CSVColumns) -> ParsedRecord {
        csvRecord(
            columns,
            record: { name, points in .record(name: String(decoding: name, as: UTF8.self), points: points) },
            malformed: { .malformed($0) })
    }

    /// The record of the fields in ``csv``, as the columns say, without making the name a String:
    /// a record is handed to `record` with its name's bytes (valid UTF-8), which live only during
    /// the call; fields that are not a player record hand `malformed` the reason.
    func csvRecord<Answer>(
        _ columns: CSVColumns, record: (UnsafeBufferPointer<UInt8>, Double) -> Answer,
        malformed: (String) -> Answer
    ) -> Answer {
        guard csv.count == columns.count else {
            return malformed("expected \(columns.count) fields as in the header row, found \(csv.count)")
        }
        return csv.field(columns.name) { name in
            csv.field(columns.points) { points in
                Self.csvRecord(
                    name: name, points: points, decimalComma: columns.decimalComma, record: record,
                    malformed: malformed)
            }
        }
    }

    /// The record whose `name` and `points` fields are these bytes, handed to `record` with the
    /// name's bytes and the points' value, or the reason it is not a player record handed to
    /// `malformed`.
    ///
    /// With `decimalComma` (a file separated by semicolons or tabs), points with one comma and no
    /// point read the comma as the decimal point: `3,5` is 3.5, as `import` reads it.
    static func csvRecord<Answer>(
        name: UnsafeBufferPointer<UInt8>, points text: UnsafeBufferPointer<UInt8>, decimalComma: Bool,
        record: (UnsafeBufferPointer<UInt8>, Double) -> Answer, malformed: (String) -> Answer
    ) -> Answer {
        guard UTF8Text.isValid(name) else {
            let note = EncodingHints.firstInvalidByte(name).map { " " + EncodingHints.byteNote($0) } ?? ""
            return malformed("the name is not valid UTF-8\(note); " + EncodingHints.convert)
        }
        var number = CSVNumber.parse(Self.trimmed(text))
        if number == .invalid && decimalComma {
            number = CSVNumber.parse(decimalCommaRead: Self.trimmed(text))
        }
        switch number {
        case .value(let points): return record(name, points)
        case .empty: return malformed("\"points\" is empty; expected a number such as 12, -3.5 or 1e3")
        case .invalid:
            return malformed(
                "\"points\" must be a number such as 12, -3.5 or 1e3, not "
                    + TerminalText.quoted(bytes: text.prefix(40)) + (text.count > 40 ? "..." : ""))
        }
    }

    /// The message for a line longer than the limit of `lines`.
    static func tooLong(_ lines: some LineSupply) -> String {
        "the line is longer than \(lines.maximumLineLength) bytes; not read"
    }

    /// Whether a line holds only spaces, tabs and carriage returns.
    static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte != 0x20 && byte != 0x09 && byte != 0x0D { return false }
        return true
    }

    /// `bytes` without spaces and tabs at either end.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var first = 0
        var last = bytes.count
        while first < last && (bytes[first] == 0x20 || bytes[first] == 0x09) { first += 1 }
        while last > first && (bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09) { last -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[first..<last])
    }
}

/// Checking that bytes are text.
enum UTF8Text {
    /// How many code points `bytes` hold, as columns count them: the bytes that do not continue
    /// one.
    static func codePoints(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
        return count
    }

    /// Whether `bytes` are valid UTF-8, the same answer as `String(validating:as:)` gives, without
    /// making a String.
    ///
    /// Names are short: one pass over their bytes, by the table of well-formed byte sequences of
    /// the Unicode standard (no overlong form, no surrogate, nothing past U+10FFFF), costs less
    /// than the standard library's validation, which is built for long text.
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        while index < count {
            let lead = base[index]
            if lead < 0x80 {
                index &+= 1
                continue
            }
            if lead < 0xE0 {
                // C0 and C1 lead only overlong forms.
                guard lead >= 0xC2, count &- index >= 2, base[index &+ 1] & 0xC0 == 0x80 else { return false }
                index &+= 2
            } else if lead < 0xF0 {
                // After E0 only A0...BF (no overlong form), after ED only 80...9F (no surrogate).
                guard count &- index >= 3 else { return false }
                let second = base[index &+ 1]
                let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
                let high: UInt8 = lead == 0xED ? 0x9F : 0xBF
                guard second >= low, second <= high, base[index &+ 2] & 0xC0 == 0x80 else { return false }
                index &+= 3
            } else {
                // After F0 only 90...BF (no overlong form), after F4 only 80...8F (nothing past
                // U+10FFFF); F5 and above lead nothing.
                guard lead <= 0xF4, count &- index >= 4 else { return false }
                let second = base[index &+ 1]
                let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80
                let high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
                guard second >= low, second <= high, base[index &+ 2] & 0xC0 == 0x80,
                    base[index &+ 3] & 0xC0 == 0x80
                else { return false }
                index &+= 4
            }
        }
        return true
    }
}
