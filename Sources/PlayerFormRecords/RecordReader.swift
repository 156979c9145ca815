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
    private let lines: LineReader<Source>
    private var json = JSONRecordParser()
    private var csv = CSVFields()
    private var columns: (count: Int, name: Int, points: Int)?
    private var finished: RecordEvent?

    /// A reader of `source` in `format`, or in the format its first line shows when nil.
    ///
    /// `startsInput` is false when `source` starts at a line inside an input, whose byte order
    /// mark, if any, is part of the line.
    public init(
        source: Source, format: RecordFormat?, bufferSize: Int = 1 << 18, maximumLineLength: Int = 8 << 20,
        startsInput: Bool = true
    ) {
        self.format = format
        self.lines = LineReader(
            source: source, bufferSize: bufferSize, maximumLineLength: maximumLineLength,
            startsInput: startsInput)
    }

    /// The next record, or why there is none.
    public func next() -> RecordEvent {
        if let finished { return finished }
        while true {
            let line: Line
            // A CSV record may go on past an over-long first line: its pieces are followed as they
            // are read, so that the record's end is found without holding it.
            let followsCSV = format == .csv
            csv.begin(limit: lines.maximumLineLength)
            var overlongIsBlank = true
            let read = lines.nextLine(passingOverlongPieces: { piece in
                overlongIsBlank = overlongIsBlank && Self.isBlank(piece)
                if followsCSV { csv.scan(piece) }
            })
            switch read {
            case .line(let next): line = next
            case .end: return finish(.end)
            case .failed(let code): return finish(.failed(code))
            case .interrupted: return finish(.interrupted)
            }
            // Blank lines are skipped however long they are.
            if line.isTooLong ? overlongIsBlank : Self.isBlank(line.bytes) { continue }
            if line.isTooLong && !followsCSV {
                return .record(NumberedRecord(line: line.number, content: .malformed(tooLong)))
            }
            switch format {
            case .jsonl:
                return .record(NumberedRecord(line: line.number, content: json.parse(line.bytes)))
            case .csv:
                if columns == nil {
                    if let problem = readHeader(line) { return finish(problem) }
                    continue
                }
                return csvRecord(line)
            case nil:
                if line.bytes.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{") {
                    format = .jsonl
                    return .record(NumberedRecord(line: line.number, content: json.parse(line.bytes)))
                }
                format = .csv
                if let problem = readHeader(line) {
                    if case .unusable = problem {
                        return finish(
                            .unusable(
                                "cannot tell the format from the first line: it is neither a JSON object nor a CSV "
                                    + "header naming name and points; use --input-format jsonl or csv"))
                    }
                    return finish(problem)
                }
            }
        }
    }

    /// How many bytes the reader holds for the input, in its line buffer and the fields of the
    /// current CSV record: bounded by about twice the longest line, whatever the input.
    public var bufferCapacity: Int { lines.bufferCapacity + csv.capacity }

    private var tooLong: String {
        "the line is longer than \(lines.maximumLineLength) bytes; not read"
    }

    private func finish(_ event: RecordEvent) -> RecordEvent {
        finished = event
        return event
    }

    private static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// Reads the CSV header; returns the event that ends the input when it is not usable.
    private func readHeader(_ line: Line) -> RecordEvent? {
        switch csv.read(first: line, from: lines) {
        case .stopped(let result):
            if case .failed(let code) = result { return .failed(code) }
            return .interrupted
        case .malformed(let message):
            return .unusable("the CSV header row cannot be read: \(message)")
        case .fields:
            var name: Int?
            var points: Int?
            var found: [String] = []
            for index in 0..<csv.count {
                let title = csv.field(index) { String(decoding: Self.trimmed($0), as: UTF8.self) }
                found.append(title)
                if title == "name" || title == "points" {
                    guard (title == "name" ? name : points) == nil else {
                        return .unusable("the CSV header names the column \(title) twice")
                    }
                    if title == "name" { name = index } else { points = index }
                }
            }
            guard let name, let points else {
                return .unusable(
                    "the CSV header row must name the columns name and points; found: "
                        + found.map { "\"\($0)\"" }.joined(separator: ", "))
            }
            columns = (csv.count, name, points)
            return nil
        }
    }

    private func csvRecord(_ line: Line) -> RecordEvent {
        let content: ParsedRecord
        switch csv.read(first: line, from: lines) {
        case .stopped(let result):
            if case .failed(let code) = result { return finish(.failed(code)) }
            return finish(.interrupted)
        case .malformed(let message):
            content = .malformed(message)
        case .fields:
            content = csvContent()
        }
        return .record(NumberedRecord(line: line.number, content: content))
    }

    private func csvContent() -> ParsedRecord {
        guard let columns else { return .malformed("no header") }
        guard csv.count == columns.count else {
            return .malformed("expected \(columns.count) fields as in the header row, found \(csv.count)")
        }
        guard let name = csv.field(columns.name, UTF8Text.validated) else {
            return .malformed("the name is not valid UTF-8; records must be UTF-8")
        }
        return csv.field(columns.points) { text -> ParsedRecord in
            switch CSVNumber.parse(Self.trimmed(text)) {
            case .value(let points): .record(name: name, points: points)
            case .empty: .malformed("\"points\" is empty; expected a number such as 12, -3.5 or 1e3")
            case .invalid:
                .malformed(
                    "\"points\" must be a number such as 12, -3.5 or 1e3, not \""
                        + String(decoding: text.prefix(40), as: UTF8.self)
                        + (text.count > 40 ? "...\"" : "\""))
            }
        }
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var first = 0
        var last = bytes.count
        while first < last && (bytes[first] == 0x20 || bytes[first] == 0x09) { first += 1 }
        while last > first && (bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09) { last -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[first..<last])
    }
}

/// Turning bytes into text.
enum UTF8Text {
    /// `bytes` as a String when they are valid UTF-8, else nil: the same answer as
    /// `String(validating:as:)`, without its generic path.
    ///
    /// Decoding replaces each invalid sequence, so the bytes are valid exactly when the decoded
    /// text holds the same bytes.
    static func validated(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        var isASCII = true
        for byte in bytes where byte >= 0x80 {
            isASCII = false
            break
        }
        if isASCII { return text }
        return text.utf8.elementsEqual(bytes) ? text : nil
    }
}
