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
        events.append(event)
        if case .record = event { continue }
        return events
    }
}

func readAll(_ text: String, format: RecordFormat?, chunkSize: Int = .max) -> [RecordEvent] {
    readAll(Array(text.utf8), format: format, chunkSize: chunkSize)
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
