import Foundation
import PlayerFormScores

/// Reads the common score line quickly: a flat JSON object whose values are strings and numbers,
/// with the keys `id`, `name`, `points`, `uploadedAt` and, optionally, `kind` ("score").
///
/// Anything else (a tombstone, an escape it does not know, a nested value, a repeated key) returns
/// nil, and the caller decodes the line with `JSONDecoder`, which also explains what is wrong. So
/// the fast path never accepts a line that the full decoder would read differently.
enum ScoreLineParser {
    static func record(_ line: UnsafeBufferPointer<UInt8>) -> ScoreRecord? {
        var index = 0
        let count = line.count
        func skipSpace() {
            while index < count, line[index] == 0x20 || line[index] == 0x09 || line[index] == 0x0D {
                index += 1
            }
        }
        skipSpace()
        guard index < count, line[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        var id: String?
        var name: String?
        var points: Double?
        var uploadedAt: String?
        var kind: String?
        while true {
            skipSpace()
            guard let key = string(line, &index) else { return nil }
            skipSpace()
            guard index < count, line[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            skipSpace()
            guard index < count else { return nil }
            switch key {
            case "id", "name", "uploadedAt", "kind":
                guard let value = string(line, &index) else { return nil }
                switch key {
                case "id":
                    guard id == nil else { return nil }
                    id = value
                case "name":
                    guard name == nil else { return nil }
                    name = value
                case "kind":
                    guard kind == nil else { return nil }
                    kind = value
                default:
                    guard uploadedAt == nil else { return nil }
                    uploadedAt = value
                }
            case "points":
                guard points == nil, let value = number(line, &index) else { return nil }
                points = value
            default:
                return nil
            }
            skipSpace()
            guard index < count else { return nil }
            if line[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard line[index] == UInt8(ascii: "}") else { return nil }
            index += 1
            skipSpace()
            guard index == count else { return nil }
            break
        }
        guard kind == nil || kind == "score", let id, let name, let points, points.isFinite,
            let uploadedAt, let uuid = uuid(id), let date = Timestamp.date(uploadedAt)
        else { return nil }
        return ScoreRecord(id: uuid, name: name, points: points, uploadedAt: date)
    }

    /// The UUID of `text` in its usual form (8-4-4-4-12 hexadecimal digits, either case), read
    /// without `sscanf`; other forms go to `UUID(uuidString:)`.
    static func uuid(_ text: String) -> UUID? {
        var text = text
        let quick = text.withUTF8 { bytes -> UUID? in
            guard bytes.count == 36 else { return nil }
            var value: [UInt8] = []
            value.reserveCapacity(16)
            var index = 0
            while index < 36 {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard bytes[index] == UInt8(ascii: "-") else { return nil }
                    index += 1
                    continue
                }
                guard let high = hexDigit(bytes[index]), let low = hexDigit(bytes[index + 1]) else {
                    return nil
                }
                value.append(high << 4 | low)
                index += 2
            }
            return UUID(
                uuid: (
                    value[0], value[1], value[2], value[3], value[4], value[5], value[6], value[7], value[8],
                    value[9], value[10], value[11], value[12], value[13], value[14], value[15]
                ))
        }
        return quick ?? UUID(uuidString: text)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// A JSON string at `index`, with the escapes JSON allows; nil for anything else.
    private static func string(_ line: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> String? {
        guard index < line.count, line[index] == UInt8(ascii: "\"") else { return nil }
        index += 1
        let start = index
        var plain = true
        while index < line.count {
            let byte = line[index]
            if byte == UInt8(ascii: "\"") {
                guard plain else { return nil }
                let text = String(
                    validating: UnsafeBufferPointer(rebasing: line[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            // Escapes and control characters: left to the full decoder.
            if byte == UInt8(ascii: "\\") || byte < 0x20 { plain = false }
            index += 1
        }
        return nil
    }

    /// A JSON number at `index`; nil when it is not one.
    private static func number(_ line: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Double? {
        let start = index
        if index < line.count, line[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        while index < line.count, (0x30...0x39).contains(line[index]) { index += 1 }
        let integerDigits = index - integerStart
        guard integerDigits > 0, integerDigits == 1 || line[integerStart] != 0x30 else { return nil }
        if index < line.count, line[index] == UInt8(ascii: ".") {
            index += 1
            let fraction = index
            while index < line.count, (0x30...0x39).contains(line[index]) { index += 1 }
            guard index > fraction else { return nil }
        }
        if index < line.count, line[index] == UInt8(ascii: "e") || line[index] == UInt8(ascii: "E") {
            index += 1
            if index < line.count, line[index] == UInt8(ascii: "+") || line[index] == UInt8(ascii: "-") {
                index += 1
            }
            let exponent = index
            while index < line.count, (0x30...0x39).contains(line[index]) { index += 1 }
            guard index > exponent else { return nil }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: line[start..<index]), as: UTF8.self)
        return Double(text)
    }
}
