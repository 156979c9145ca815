import Foundation
import PlayerFormRecords

/// libFuzzer entry point for the record readers.
///
/// The first byte chooses the format (JSON Lines, CSV or detection) and how many bytes each read
/// hands over, so line and field boundaries fall across reads; the rest is the input. Tiny buffers
/// and line limits reach the growing and too-long paths with small inputs.
///
/// Checks, beyond not crashing or hanging: a record count no larger than the number of lines, and
/// for JSON Lines, every record the parser accepts is accepted by Foundation's JSONSerialization
/// with the same name and the same points up to rounding (the strict parser never guesses), and
/// with the format given, records start on the same lines whatever the line limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecords(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let control = data[0]
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let format: RecordFormat? = [nil, .jsonl, .csv][Int(control >> 4) % 3]
    let chunkSize = control & 0x0F == 0x0F ? Int.max : Int(control & 0x0F) + 1
    let reader = RecordReader(
        source: MemorySource(body, chunkSize: chunkSize), format: format, bufferSize: 16,
        maximumLineLength: 512)
    let lineCount = body.count { $0 == 0x0A } + 1
    var records = 0
    reading: while true {
        switch reader.next() {
        case .record(let record):
            records += 1
            precondition(records <= lineCount, "more records than lines")
            precondition(record.line >= 1 && record.line <= lineCount, "a line number outside the input")
            if reader.format == .jsonl, case .record(let name, let points) = record.content {
                checkAgainstFoundation(line: lineBytes(body, record.line), name: name, points: points)
            }
        case .end, .unusable, .failed, .interrupted:
            break reading
        }
    }
    if let format { checkBoundaries(body, format: format, chunkSize: chunkSize) }
    return 0
}

/// Where records start does not depend on the line limit: a reader with a small limit finds the
/// same records, on the same lines, as one whose limit no line reaches (an over-long record is
/// passed over to its end, never read from its inside).
private func checkBoundaries(_ body: [UInt8], format: RecordFormat, chunkSize: Int) {
    func lines(maximumLineLength: Int, chunkSize: Int) -> (lines: [Int], ending: RecordEvent) {
        let reader = RecordReader(
            source: MemorySource(body, chunkSize: chunkSize), format: format, bufferSize: 16,
            maximumLineLength: maximumLineLength)
        var found: [Int] = []
        while true {
            switch reader.next() {
            case .record(let record): found.append(record.line)
            case let ending: return (found, ending)
            }
        }
    }
    let small = lines(maximumLineLength: 24, chunkSize: chunkSize)
    // A CSV header longer than the small limit cannot be read: the input is unusable there.
    if case .unusable = small.ending { return }
    let unlimited = lines(maximumLineLength: body.count + 16, chunkSize: .max)
    precondition(
        small.lines == unlimited.lines,
        "records start on \(small.lines) with a small limit, on \(unlimited.lines) without")
}

private func lineBytes(_ body: [UInt8], _ number: Int) -> [UInt8] {
    var line = Array(body.split(separator: 0x0A, omittingEmptySubsequences: false)[number - 1])
    if number == 1 && line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
    if line.last == 0x0D { line.removeLast() }
    return line
}

/// Foundation is the oracle for names and for points up to rounding: its NSDecimalNumber path
/// rounds long numbers less exactly than strtod, it rejects numbers beyond the range of a Double
/// in any key (valid JSON, which the parser reads as infinite points, or skips in an ignored key),
/// and it drops a U+FEFF at the start or the end of a string.
private func checkAgainstFoundation(line: [UInt8], name: String, points: Double) {
    guard let object = try? JSONSerialization.jsonObject(with: Data(line), options: []) as? [String: Any]
    else {
        precondition(
            points.isInfinite || hasNumberBeyondDouble(line),
            "accepted a line that JSONSerialization rejects: \(String(decoding: line, as: UTF8.self))")
        return
    }
    func withoutFEFF(_ text: String) -> [Unicode.Scalar] { text.unicodeScalars.filter { $0 != "\u{FEFF}" } }
    precondition(
        (object["name"] as? String).map(withoutFEFF) == withoutFEFF(name),
        "a different name than JSONSerialization")
    guard let number = (object["points"] as? NSNumber)?.doubleValue else {
        preconditionFailure("JSONSerialization has no number for points")
    }
    let tolerance = Swift.max(abs(number), abs(points)) * 1e-14
    precondition(
        number == points || abs(number - points) <= tolerance, "different points than JSONSerialization")
}

/// Whether a number outside the strings of `line` (which the parser accepted, so it is valid
/// JSON) is too large for a Double.
private func hasNumberBeyondDouble(_ line: [UInt8]) -> Bool {
    var index = 0
    while index < line.count {
        let byte = line[index]
        if byte == UInt8(ascii: "\"") {
            index += 1
            while index < line.count && line[index] != UInt8(ascii: "\"") {
                index += line[index] == UInt8(ascii: "\\") ? 2 : 1
            }
            index += 1
        } else if byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            let start = index
            while index < line.count, "+-.eE0123456789".utf8.contains(line[index]) { index += 1 }
            if let value = Double(String(decoding: line[start..<index], as: UTF8.self)), value.isInfinite {
                return true
            }
        } else {
            index += 1
        }
    }
    return false
}
