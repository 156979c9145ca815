/// Words that help a user whose file is not UTF-8: what its first bytes say it is, or what the
/// first byte that is not UTF-8 would be in Windows-1252, the encoding spreadsheets on Windows
/// save CSV in.
enum EncodingHints {
    /// Why an input that starts with `head` cannot be read as UTF-8 records, and how to convert
    /// it; nil when it may be UTF-8.
    ///
    /// A byte order mark of UTF-16 or UTF-32 tells; so does UTF-16 text without one, whose ASCII
    /// characters alternate with zero bytes.
    static func wrongEncoding(head: [UInt8]) -> String? {
        let name: String
        switch head.count >= 4 ? Array(head.prefix(4)) : head + [UInt8](repeating: 1, count: 4 - head.count) {
        case let bytes where bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]):
            name = "UTF-32 (little-endian, by its byte order mark)"
        case let bytes where bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]):
            name = "UTF-32 (big-endian, by its byte order mark)"
        case let bytes where bytes.starts(with: [0xFF, 0xFE]):
            name = "UTF-16 (little-endian, by its byte order mark)"
        case let bytes where bytes.starts(with: [0xFE, 0xFF]):
            name = "UTF-16 (big-endian, by its byte order mark)"
        case let bytes where bytes[0] != 0 && bytes[1] == 0 && bytes[2] != 0 && bytes[3] == 0:
            name = "UTF-16 (little-endian: every other byte is zero)"
        case let bytes where bytes[0] == 0 && bytes[1] != 0 && bytes[2] == 0 && bytes[3] != 0:
            name = "UTF-16 (big-endian: every other byte is zero)"
        default:
            return nil
        }
        let family = name.hasPrefix("UTF-32") ? "UTF-32" : "UTF-16"
        return "the input is \(name), not UTF-8; records must be UTF-8: convert it, for example with "
            + "iconv -f \(family) -t UTF-8 FILE > FILE-utf8"
    }

    /// `(byte 0xEB, ë in Windows-1252)` for `byte`, the first that is not UTF-8; `(byte 0x81)`
    /// for a byte Windows-1252 gives no character.
    static func byteNote(_ byte: UInt8) -> String {
        let hex = "0x" + String(byte, radix: 16, uppercase: true)
        guard let character = windows1252(byte) else { return "(byte \(hex))" }
        return "(byte \(hex), \(character) in Windows-1252)"
    }

    /// What to do about a record that is not UTF-8.
    static let convert =
        "records must be UTF-8: convert the file, for example with iconv -f WINDOWS-1252 -t UTF-8"

    /// The first byte of `bytes` that is not part of valid UTF-8; nil when they are valid.
    static func firstInvalidByte(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt8? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .error: return bytes[offset]
            case .emptyInput: return nil
            }
        }
    }

    /// The character Windows-1252 gives `byte`, a byte from 0x80; nil for the five it leaves
    /// undefined and the control characters it shares with Latin-1.
    private static func windows1252(_ byte: UInt8) -> Character? {
        if byte >= 0xA0 { return Character(Unicode.Scalar(byte)) }
        let table: [UInt8: UInt32] = [
            0x80: 0x20AC, 0x82: 0x201A, 0x83: 0x0192, 0x84: 0x201E, 0x85: 0x2026, 0x86: 0x2020,
            0x87: 0x2021, 0x88: 0x02C6, 0x89: 0x2030, 0x8A: 0x0160, 0x8B: 0x2039, 0x8C: 0x0152,
            0x8E: 0x017D, 0x91: 0x2018, 0x92: 0x2019, 0x93: 0x201C, 0x94: 0x201D, 0x95: 0x2022,
            0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02DC, 0x99: 0x2122, 0x9A: 0x0161, 0x9B: 0x203A,
            0x9C: 0x0153, 0x9E: 0x017E, 0x9F: 0x0178,
        ]
        return table[byte].flatMap(Unicode.Scalar.init).map(Character.init)
    }
}
