import Foundation
import PlayerFormJSON
import PlayerFormText

extension PlayerRules {
    /// The keys a rules file may have, in the order ``configuration`` writes them.
    public static let configurationKeys = [
        "name", "points", "step", "min", "max", "maxPointUpdates", "maxUploads", "forbiddenNames",
    ]

    /// The largest rules file read, in bytes (1 MiB); reading stops past it.
    public static let maximumConfigurationSize = 1 << 20

    /// The largest `maxPointUpdates` and `maxUploads` a rules file may set.
    public static let maximumConfiguredLimit = 1_000_000_000

    /// Reads rules from the text of a rules file: one JSON object whose keys are all optional,
    /// ``configurationKeys``; missing keys keep the defaults.
    ///
    /// The text is read by the strict JSON reader the record files are read with, and more
    /// strictly still: duplicate keys, unknown keys, trailing commas and numbers out of range are
    /// errors. A UTF-8 byte order mark at the start is skipped.
    ///
    /// ```json
    /// {"max": 500, "forbiddenNames": ["darn", "heck"]}
    /// ```
    /// - Parameters:
    ///   - bytes: the text of the rules file, UTF-8.
    ///   - path: names the text in errors.
    /// - Throws: ``RulesFileError`` (`.rejected`) with the line and column of the problem, what
    ///   was found and what is accepted.
    public init(configuration bytes: some Collection<UInt8>, path: String = "<rules>") throws(RulesFileError)
    {
        var contiguous = Array(bytes)
        if contiguous.starts(with: [0xEF, 0xBB, 0xBF]) { contiguous.removeFirst(3) }
        let result = contiguous.withUnsafeBufferPointer { buffer in
            Result { () throws(RulesFileError) -> PlayerRules in
                var reader = RulesFileReader(buffer, path: path)
                return try reader.read()
            }
        }
        self = try result.get()
    }

    /// Reads rules from the rules file at `path`: a regular file, a pipe, `/dev/stdin`, a FIFO
    /// or a process substitution such as `<(echo '{"max": 500}')`.
    ///
    /// At most ``maximumConfigurationSize`` bytes are read; a larger input is refused without
    /// reading the rest.
    /// - Throws: ``RulesFileError``: `.unreadable` when the file cannot be opened or read (missing,
    ///   a directory, no permission), `.rejected` when it is empty, too large, or its content is
    ///   not accepted (see ``init(configuration:path:)``).
    ///
    /// `bytes`, when given, are the path's own bytes, opened instead of `path`'s UTF-8: a path
    /// that is not UTF-8 cannot be a String, which messages still name the file by.
    public init(configurationFile path: String, bytes: [UInt8]? = nil) throws(RulesFileError) {
        let content = try Self.readConfiguration(path, bytes: bytes ?? Array(path.utf8))
        try self.init(configuration: content, path: path)
    }

    /// These rules as a rules file: every key, on one line.
    ///
    /// Reading it back gives equal rules.
    ///
    /// ```swift
    /// PlayerRules.defaults.configuration
    /// // {"name": "Colin", "points": 100, "step": 1, "min": 0, "max": 10000, "maxPointUpdates": 10, ...}
    /// ```
    public var configuration: String {
        func number(_ value: Double) -> String {
            // The shortest text that reads back as the same Double; whole numbers without ".0".
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        }
        let names = forbiddenNames.names.map(JSONText.quoted).joined(separator: ", ")
        return "{\"name\": \(JSONText.quoted(name)), \"points\": \(number(points)), "
            + "\"step\": \(number(step)), \"min\": \(number(min)), \"max\": \(number(max)), "
            + "\"maxPointUpdates\": \(maxPointUpdates), \"maxUploads\": \(maxUploads), "
            + "\"forbiddenNames\": [\(names)]}"
    }

    /// The bytes of the file at `path`, read with a bound whatever kind of file it is.
    private static func readConfiguration(_ path: String, bytes pathBytes: [UInt8]) throws(RulesFileError)
        -> [UInt8]
    {
        func unreadable(_ code: Int32) -> RulesFileError {
            // strerror, not PlayerFormSystem: the fuzz targets build this module with swiftc alone.
            RulesFileError(
                .unreadable, path: path, message: RulesFileMessage(words: String(cString: strerror(code))))
        }
        guard !path.isEmpty else {
            throw RulesFileError(.unreadable, path: path, message: "the path is empty; name a JSON file")
        }
        let descriptor = (pathBytes + [0]).withUnsafeBufferPointer { name in
            name.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard descriptor >= 0 else { throw unreadable(errno) }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw RulesFileError(.unreadable, path: path, message: "it is a directory; name a JSON file")
        }
        let limit = maximumConfigurationSize
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count <= limit {
            let read = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + count, Swift.min(1 << 16, limit + 1 - count))
            }
            if read == 0 { break }
            if read < 0 {
                if errno == EINTR { continue }
                throw unreadable(errno)
            }
            count += read
        }
        if count > limit {
            throw RulesFileError(
                .rejected, path: path,
                message:
                    "the file is larger than 1 MiB (\(limit) bytes); a rules file is a small JSON object "
                    + "such as {\"max\": 500}")
        }
        bytes.removeSubrange(count...)
        return bytes
    }
}

/// Reads the one JSON object of a rules file with `JSONCursor` and checks every value.
private struct RulesFileReader {
    private var cursor: JSONCursor
    private let path: String
    private var scratch: [UInt8] = []
    private var nesting: [UInt8] = []

    /// Where each key's value starts, to place errors found once all values are known.
    private var places: [String: Int] = [:]
    private var name: String?
    private var numbers: [String: Double] = [:]
    private var limits: [String: Int] = [:]
    private var forbiddenNames: [String]?
    /// Where each forbidden name starts.
    private var namePlaces: [Int] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>, path: String) {
        cursor = JSONCursor(bytes)
        self.path = path
    }

    private static let example = "a JSON object such as {\"max\": 500}"

    mutating func read() throws(RulesFileError) -> PlayerRules {
        do {
            try readObject()
        } catch let error as RulesFileError {
            throw error
        } catch let error as JSONSyntaxError {
            var message = error.detail(input: "file")
            if error.problem == .invalidUTF8 { message += "; a rules file must be UTF-8" }
            throw rejected(at: error.offset, RulesFileMessage(words: message))
        } catch {
            throw rejected(at: cursor.index, RulesFileMessage(words: "\(error)"))
        }
        return try rules()
    }

    private mutating func readObject() throws {
        cursor.skipWhitespace()
        if cursor.isAtEnd {
            throw RulesFileError(
                .rejected, path: path,
                message: cursor.bytes.isEmpty
                    ? "the file is empty; expected \(Self.example)"
                    : "the file holds only whitespace; expected \(Self.example)")
        }
        guard cursor.peek == UInt8(ascii: "{") else {
            if let kind = kindOfValue() {
                throw rejected(at: cursor.index, "found \(kind), expected \(Self.example)")
            }
            throw cursor.unexpected(Self.example)
        }
        cursor.advance()
        cursor.skipWhitespace()
        if cursor.peek == UInt8(ascii: "}") {
            cursor.advance()
        } else {
            var afterComma: Int?
            while true {
                guard cursor.peek == UInt8(ascii: "\"") else {
                    if let comma = afterComma, cursor.peek == UInt8(ascii: "}") {
                        throw rejected(
                            at: comma,
                            "found ',' before '}', a trailing comma; expected another key after ','")
                    }
                    throw cursor.unexpected("a key in double quotes")
                }
                try readMember()
                afterComma = try cursor.endOfMember()
                if afterComma == nil { break }
            }
        }
        cursor.skipWhitespace()
        guard cursor.isAtEnd else { throw cursor.unexpected("the end of the file after the object") }
    }

    /// Reads `"key": value` and checks the value for the key.
    private mutating func readMember() throws {
        let keyStart = cursor.index
        let key = try readString()
        guard PlayerRules.configurationKeys.contains(key) else {
            throw rejected(
                at: keyStart,
                "unknown key \(found: key); accepted keys: "
                    + PlayerRules.configurationKeys.joined(separator: ", "))
        }
        guard places[key] == nil else {
            throw rejected(at: keyStart, "duplicate key \(found: key); each key may appear once")
        }
        cursor.skipWhitespace()
        guard cursor.peek == UInt8(ascii: ":") else { throw cursor.unexpected("':' after a key") }
        cursor.advance()
        cursor.skipWhitespace()
        places[key] = cursor.index
        switch key {
        case "name":
            try expect(key, UInt8(ascii: "\""), "a string")
            name = try readString()
        case "maxPointUpdates", "maxUploads":
            limits[key] = try readLimit(key)
        case "forbiddenNames":
            forbiddenNames = try readNames()
        default:
            numbers[key] = try readNumber(key)
        }
    }

    /// Throws unless the value at the cursor starts with `first`, naming what it is instead.
    private mutating func expect(_ key: String, _ first: UInt8, _ expected: String) throws {
        if cursor.peek == first { return }
        guard let kind = kindOfValue() else { throw cursor.unexpected("a value for \"\(key)\"") }
        throw rejected(at: cursor.index, "\"\(key)\" must be \(expected), found \(kind)")
    }

    /// What kind of JSON value starts at the cursor, or nil when none does.
    private func kindOfValue() -> String? {
        switch cursor.peek {
        case UInt8(ascii: "\""): "a string"
        case UInt8(ascii: "{"): "an object"
        case UInt8(ascii: "["): "an array"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
        case UInt8(ascii: "n"): "null"
        default: cursor.isAtNumber ? "a number" : nil
        }
    }

    private mutating func readString() throws -> String {
        let start = cursor.index + 1
        if try cursor.scanString(into: &scratch) {
            return String(
                decoding: UnsafeBufferPointer(rebasing: cursor.bytes[start..<(cursor.index - 1)]),
                as: UTF8.self)
        }
        return String(decoding: scratch, as: UTF8.self)
    }

    /// The number at the cursor as it is written, and its value.
    private mutating func readNumberText(_ key: String, _ expected: String) throws -> (String, Double) {
        guard cursor.isAtNumber else {
            guard let kind = kindOfValue() else { throw cursor.unexpected("a value for \"\(key)\"") }
            throw rejected(at: cursor.index, "\"\(key)\" must be \(expected), found \(kind)")
        }
        let start = cursor.index
        try cursor.scanNumber()
        let text = String(
            decoding: UnsafeBufferPointer(rebasing: cursor.bytes[start..<cursor.index]), as: UTF8.self)
        // The grammar is checked, so the conversion cannot fail; a value beyond a Double is infinite.
        return (text, Double(text) ?? .infinity)
    }

    private mutating func readNumber(_ key: String) throws -> Double {
        let start = cursor.index
        let (text, value) = try readNumberText(key, "a number")
        guard value.isFinite else {
            throw rejected(
                at: start,
                "\"\(key)\" is \(Self.shown(number: text)), out of range; accepted: a number from "
                    + "\(-Double.greatestFiniteMagnitude) to \(Double.greatestFiniteMagnitude)")
        }
        return value
    }

    private mutating func readLimit(_ key: String) throws -> Int {
        let start = cursor.index
        let maximum = PlayerRules.maximumConfiguredLimit
        let accepted = "a whole number from 0 to \(maximum)"
        let (text, value) = try readNumberText(key, accepted)
        guard value == value.rounded(.towardZero), value >= 0, value <= Double(maximum) else {
            let why =
                !value.isFinite || value == value.rounded(.towardZero) ? "out of range" : "not a whole number"
            throw rejected(
                at: start, "\"\(key)\" is \(Self.shown(number: text)), \(why); accepted: \(accepted)")
        }
        return Int(value)
    }

    private mutating func readNames() throws -> [String] {
        let key = "forbiddenNames"
        try expect(key, UInt8(ascii: "["), "an array of strings")
        cursor.advance()
        cursor.skipWhitespace()
        var names: [String] = []
        if cursor.peek == UInt8(ascii: "]") {
            cursor.advance()
            return names
        }
        while true {
            guard cursor.peek == UInt8(ascii: "\"") else {
                if cursor.peek == UInt8(ascii: "]"), !names.isEmpty {
                    throw rejected(
                        at: cursor.index,
                        "found ']' after ',', a trailing comma; expected another name after ','")
                }
                guard let kind = kindOfValue() else { throw cursor.unexpected("a name in double quotes") }
                throw rejected(
                    at: cursor.index, "\"\(key)\" entry \(names.count + 1) must be a string, found \(kind)")
            }
            namePlaces.append(cursor.index)
            names.append(try readString())
            cursor.skipWhitespace()
            if cursor.peek == UInt8(ascii: ",") {
                cursor.advance()
                cursor.skipWhitespace()
                continue
            }
            guard cursor.peek == UInt8(ascii: "]") else { throw cursor.unexpected("',' or ']' after a name") }
            cursor.advance()
            return names
        }
    }

    /// The rules the values make, checked; a value that breaks a rule is placed where it is written.
    private func rules() throws(RulesFileError) -> PlayerRules {
        let defaults = PlayerRules.defaults
        do {
            return try PlayerRules(
                name: name ?? defaults.name,
                points: numbers["points"] ?? defaults.points,
                step: numbers["step"] ?? defaults.step,
                min: numbers["min"] ?? defaults.min,
                max: numbers["max"] ?? defaults.max,
                maxPointUpdates: limits["maxPointUpdates"] ?? defaults.maxPointUpdates,
                maxUploads: limits["maxUploads"] ?? defaults.maxUploads,
                forbiddenNames: forbiddenNames ?? defaults.forbiddenNames.names)
        } catch {
            let place: Int?
            switch error {
            case .stepNotPositive: place = places["step"]
            case .minAboveMax: place = [places["min"], places["max"]].compactMap { $0 }.max()
            case .blankForbiddenName(let index): place = index < namePlaces.count ? namePlaces[index] : nil
            case .notFinite(let key), .negativeLimit(let key, _): place = places[key]
            }
            let message = RulesFileMessage(words: error.description)
            guard let place else { throw RulesFileError(.rejected, path: path, message: message) }
            throw rejected(at: place, message)
        }
    }

    /// An error at byte `offset`, with its line and column.
    private func rejected(at offset: Int, _ message: RulesFileMessage) -> RulesFileError {
        var line = 1
        var column = 1
        for byte in cursor.bytes[..<Swift.min(offset, cursor.bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return RulesFileError(.rejected, path: path, line: line, column: column, message: message)
    }

    /// A number from the file (already checked against the grammar, so plain ASCII), cut short
    /// when it is long.
    private static func shown(number text: String) -> String {
        text.utf8.count > 40 ? String(text.prefix(40)) + "..." : text
    }
}
