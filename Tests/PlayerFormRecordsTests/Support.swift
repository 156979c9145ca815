import PlayerFormRecords

/// Parses one JSON Lines line.
func parseJSON(_ line: String) -> ParsedRecord {
    parseJSON(Array(line.utf8))
}

func parseJSON(_ bytes: [UInt8]) -> ParsedRecord {
    var parser = JSONRecordParser()
    return bytes.withUnsafeBufferPointer { parser.parse($0) }
}

/// Every event a reader gives for `bytes`, up to and including the first that is not a record.
func readAll(
    _ bytes: [UInt8], format: RecordFormat?, chunkSize: Int = .max, maximumLineLength: Int = 8 << 20
) -> [RecordEvent] {
    let reader = RecordReader(
        source: MemorySource(bytes, chunkSize: chunkSize), format: format, bufferSize: 16,
        maximumLineLength: maximumLineLength)
    var events: [RecordEvent] = []
    while true {
        let event = reader.next()
        events.append(event.atLineOnly)
        if case .record = event { continue }
        return events
    }
}

func readAll(_ text: String, format: RecordFormat?, chunkSize: Int = .max) -> [RecordEvent] {
    readAll(Array(text.utf8), format: format, chunkSize: chunkSize)
}

extension NumberedRecord {
    /// A record on `line`, its offset left at 0: for specs about lines, which compare
    /// ``RecordEvent/atLineOnly`` events.
    init(line: Int, content: ParsedRecord) {
        self.init(place: RecordPlace(line: line, offset: 0), content: content)
    }
}

extension RecordEvent {
    /// The event with a record's offset set to 0, for specs about lines and content; the specs
    /// of offsets compare them.
    var atLineOnly: RecordEvent {
        guard case .record(let record) = self else { return self }
        return .record(NumberedRecord(line: record.line, content: record.content))
    }
}

/// Where line `line` (counting from 1) starts in `text`, in bytes.
func offset(ofLine line: Int, in text: String) -> Int {
    var seen = 1
    for (index, byte) in text.utf8.enumerated() where seen < line && byte == 0x0A {
        seen += 1
        if seen == line { return index + 1 }
    }
    return 0
}

/// A record event, for comparing with what a reader gives.
func record(_ line: Int, _ name: String, _ points: Double) -> RecordEvent {
    .record(NumberedRecord(line: line, content: .record(name: name, points: points)))
}

/// The malformed message of `event`, or nil.
func malformedMessage(_ event: RecordEvent) -> String? {
    if case .record(let record) = event, case .malformed(let message) = record.content { return message }
    return nil
}

func malformedMessage(_ record: ParsedRecord) -> String? {
    if case .malformed(let message) = record { return message }
    return nil
}
