/// The fields of one CSV record (RFC 4180), read from one or more lines: fields are separated by
/// commas; a field in double quotes may hold commas, line breaks (read as "\n") and doubled
/// quotes. A quote inside an unquoted field, or text after a closing quote, is malformed.
struct CSVFields {
    enum Outcome {
        case fields
        case malformed(String)
        case stopped(LineResult)
    }

    private var bytes: [UInt8] = []
    private var ends: [Int] = []

    /// How many fields the last record read has.
    var count: Int { ends.count }

    /// Calls `body` with the bytes of field `index`.
    func field<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let start = index == 0 ? 0 : ends[index - 1]
        return bytes.withUnsafeBufferPointer { all in
            body(UnsafeBufferPointer(rebasing: all[start..<ends[index]]))
        }
    }

    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted }

    /// Reads the record that starts on `first`, taking more lines from `lines` while a quoted
    /// field is open.
    mutating func read<Source>(first: Line, from lines: LineReader<Source>) -> Outcome {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        var line = first.bytes
        var state = State.fieldStart
        while true {
            for (column, byte) in line.enumerated() {
                switch state {
                case .fieldStart:
                    if byte == UInt8(ascii: "\"") {
                        state = .quoted
                    } else if byte == UInt8(ascii: ",") {
                        ends.append(bytes.count)
                    } else {
                        bytes.append(byte)
                        state = .unquoted
                    }
                case .unquoted:
                    if byte == UInt8(ascii: ",") {
                        ends.append(bytes.count)
                        state = .fieldStart
                    } else if byte == UInt8(ascii: "\"") {
                        return .malformed(
                            "a double quote inside an unquoted field (column \(column + 1)); "
                                + "put the field in double quotes and double the quote")
                    } else {
                        bytes.append(byte)
                    }
                case .quoted:
                    if byte == UInt8(ascii: "\"") { state = .quoteInQuoted } else { bytes.append(byte) }
                case .quoteInQuoted:
                    if byte == UInt8(ascii: "\"") {
                        bytes.append(byte)
                        state = .quoted
                    } else if byte == UInt8(ascii: ",") {
                        ends.append(bytes.count)
                        state = .fieldStart
                    } else {
                        return .malformed(
                            "text after the closing quote of a field (column \(column + 1)); "
                                + "a quote inside a quoted field is written twice")
                    }
                }
            }
            guard state == .quoted else { break }
            bytes.append(0x0A)
            guard bytes.count <= lines.maximumLineLength else {
                return .malformed(
                    "a quoted field runs past \(lines.maximumLineLength) bytes; is its closing quote missing?"
                )
            }
            switch lines.nextLine() {
            case .line(let next):
                guard !next.isTooLong else {
                    return .malformed("a line is longer than \(lines.maximumLineLength) bytes; not read")
                }
                line = next.bytes
            case .end:
                return .malformed("a quoted field is not closed before the end of the input")
            case let stop:
                return .stopped(stop)
            }
        }
        ends.append(bytes.count)
        return .fields
    }
}

/// A points field of a CSV record.
enum CSVNumber: Equatable {
    case value(Double)
    case empty
    case invalid

    /// Reads `[+-]digits[.digits][(e|E)[+-]digits]` (also `.5` and `5.`), or NaN, inf and
    /// infinity in any case with an optional sign, which read as non-finite points.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> CSVNumber {
        guard !text.isEmpty else { return .empty }
        var index = 0
        var negative = false
        if text[0] == UInt8(ascii: "+") || text[0] == UInt8(ascii: "-") {
            negative = text[0] == UInt8(ascii: "-")
            index = 1
        }
        if text.count - index <= 8 {
            switch String(decoding: UnsafeBufferPointer(rebasing: text[index...]), as: UTF8.self).lowercased()
            {
            case "nan": return .value(.nan)
            case "inf", "infinity": return .value(negative ? -.infinity : .infinity)
            default: break
            }
        }
        func isDigit(_ at: Int) -> Bool {
            at < text.count && text[at] >= UInt8(ascii: "0") && text[at] <= UInt8(ascii: "9")
        }
        var digits = 0
        while isDigit(index) {
            index += 1
            digits += 1
        }
        if index < text.count && text[index] == UInt8(ascii: ".") {
            index += 1
            while isDigit(index) {
                index += 1
                digits += 1
            }
        }
        guard digits > 0 else { return .invalid }
        if index < text.count && (text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E")) {
            index += 1
            if index < text.count && (text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard isDigit(index) else { return .invalid }
            while isDigit(index) { index += 1 }
        }
        guard index == text.count else { return .invalid }
        return .value(NumberText.value(of: text))
    }
}
