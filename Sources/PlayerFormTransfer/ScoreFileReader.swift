import Foundation
import Glibc
import PlayerFormRules
import PlayerFormScores
import PlayerFormSystem

/// Reads a file of score records a line at a time, in O(1) memory: the JSON Lines score file of
/// earlier versions (records and tombstones), the JSON Lines or CSV that `playerform export`
/// writes (`id`, `name`, `points`, `uploadedAt`), and a roster as `playerform validate` reads it
/// (CSV with a header naming `name` and `points`, or JSON Lines of `name` and `points`).
///
/// - The format is the extension's (`.jsonl`, `.ndjson`, `.json`; `.csv`, `.tsv`), else that of
///   the first line that is a record or a CSV header: a damaged line before it costs that line.
/// - A CSV header is read with its titles in any case and with spaces around them; extra columns
///   are ignored; its fields are separated by `,`, `;` or a tab, whichever names `name` and
///   `points`.
/// - A record without an id is an upload at its `uploadedAt`, else at the time the file was last
///   changed (standard input and pipes: the time of reading). Its id is made from its player's
///   comparison key, points and time, so importing the same file again adds nothing.
/// - A line that is not UTF-8 is reported with the likely cause (a Windows-1252 export) and the
///   `iconv` that converts the file; a UTF-16 file is refused at once, saying the same.
///
/// ```swift
/// let reader = try ScoreFileReader(path: "scores.jsonl")
/// while let item = reader.next() { ... }
/// ```
public final class ScoreFileReader {
    /// One thing the file holds.
    public enum Item: Equatable, Sendable {
        /// A score record.
        case record(ScoreRecord)
        /// A tombstone of the earlier file format: the records with these ids were deleted.
        case deletion([UUID])
        /// A line that is not a record, with a message naming the file and line.
        case problem(String)
    }

    /// The file's path.
    public let path: String
    /// The file's size in bytes, when it is a regular file; for progress.
    public let size: Int64?
    /// How many bytes have been read so far; for progress.
    public private(set) var bytesRead: Int64 = 0
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// The line the last item ended on, counting from 1.
    public private(set) var lineNumber = 0
    /// Called before a read that would wait for more input (a pipe, a FIFO or a terminal with
    /// nothing to read yet), so that a consumer can pass on the items it holds; never for a
    /// regular file.
    public var beforeWaiting: (() -> Void)?
    private var csvColumns: CSVColumns?
    private var delimiter = UInt8(ascii: ",")
    private var format: Format?
    private let decoder = JSONDecoder()
    /// The time of a record that gives none: when the file was last changed.
    private let rosterTime: Date
    /// The first line that was not UTF-8, once one was reported.
    private var firstNonUTF8Line: Int?
    /// Lines read before the format was known that were neither a record nor a header.
    private var undetectedLines = 0

    private enum Format { case jsonl, csv }

    /// Where a CSV input's fields are, as its header says.
    private struct CSVColumns {
        var count: Int
        var name: Int
        var points: Int
        var id: Int?
        var uploadedAt: Int?
    }

    /// How many lines may come before the first record or header, each reported, before the file
    /// is taken for something other than a score file.
    static let linesBeforeFormat = 100

    /// Opens the file at `path` (`-` is standard input).
    /// - Throws: ``ScoreFileError`` naming the file when it cannot be opened.
    public init(path: String) throws(ScoreFileError) {
        self.path = path
        format = Self.format(ofName: path)
        var changed = Date()
        if path == "-" {
            descriptor = STDIN_FILENO
            size = nil
        } else {
            var status = stat()
            if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                throw .unreadable(path: path, reason: "Is a directory")
            }
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                let code = errno
                if code == EACCES { throw .permissionDenied(path: path) }
                throw .unreadable(path: path, reason: SystemError.text(code))
            }
            let regular = fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
            size = regular ? Int64(status.st_size) : nil
            if regular {
                changed = Date(
                    timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(
                        status.st_mtim.tv_nsec / 1_000_000)
                        / 1000)
            }
        }
        rosterTime = Timestamp.rounded(changed)
    }

    /// The format a file's name says: JSON Lines for `.jsonl`, `.ndjson` and `.json`, CSV for
    /// `.csv` and `.tsv`; nil for any other name, and for `-`.
    private static func format(ofName path: String) -> Format? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "jsonl", "ndjson", "json": return .jsonl
        case "csv", "tsv": return .csv
        default: return nil
        }
    }

    deinit {
        if descriptor != STDIN_FILENO { close(descriptor) }
    }

    /// The ids that the tombstones of the file at `path` delete, read in one quick pass that
    /// decodes only the lines naming a deletion; empty for standard input and anything else that
    /// is not a regular file (a pipe such as `/dev/stdin` or `<(...)`, a FIFO, a device), which
    /// cannot be read twice.
    ///
    /// An import skips these records instead of adding and then removing them.
    public static func deletedIDs(in path: String) throws(ScoreFileError) -> Set<UUID> {
        try deletedIDs(in: path, shouldStop: { false }) ?? []
    }

    /// ``deletedIDs(in:)``, asking `shouldStop` before each line and each MiB scanned; nil once it
    /// says yes.
    public static func deletedIDs(in path: String, shouldStop: () -> Bool) throws(ScoreFileError) -> Set<
        UUID
    >? {
        guard canBeReadAgain(path) else { return [] }
        guard let mentions = try mentionsDeletion(path, shouldStop: shouldStop) else { return nil }
        guard mentions else { return [] }
        let reader = try ScoreFileReader(path: path)
        reader.deletionsOnly = true
        return try withoutActuallyEscaping(shouldStop) { shouldStop throws(ScoreFileError) in
            var stopped = false
            reader.stopsDeletionPass = {
                stopped = shouldStop()
                return stopped
            }
            defer { reader.stopsDeletionPass = { false } }
            var ids = Set<UUID>()
            while let item = try reader.next() {
                if case .deletion(let deleted) = item { ids.formUnion(deleted) }
            }
            return stopped ? nil : ids
        }
    }

    /// Whether the first line of the file at `path` that is not blank is neither a JSON object
    /// nor empty: damaged, as a crash can leave the file of earlier versions.
    public static func firstLineIsDamaged(_ path: String) -> Bool {
        guard let reader = try? ScoreFileReader(path: path) else { return false }
        while let line = try? reader.nextLine() {
            if let first = line.firstIndex(where: { !isBlank($0) }) {
                return line[first] != UInt8(ascii: "{")
            }
        }
        return false
    }

    /// Whether `path` names a regular file, which can be read more than once; not `-`, a pipe, a
    /// FIFO or a terminal.
    public static func canBeReadAgain(_ path: String) -> Bool {
        var status = stat()
        return path != "-" && stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// Whether the file at `path` holds the mark of a tombstone anywhere: a scan of its bytes
    /// (`memchr`), with no line split or decoded, so a file without tombstones (an export, most
    /// files of earlier versions) costs one fast read before its import.
    ///
    /// Nil once `shouldStop`, asked before each MiB, says yes.
    private static func mentionsDeletion(_ path: String, shouldStop: () -> Bool) throws(ScoreFileError)
        -> Bool?
    {
        let reader = try ScoreFileReader(path: path)
        let mark = deletionMark
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        // The bytes kept from the end of the previous chunk, so a mark split across two reads is found.
        var kept = 0
        while true {
            if shouldStop() { return nil }
            let got = chunk.withUnsafeMutableBytes { raw in
                Glibc.read(reader.descriptor, raw.baseAddress! + kept, raw.count - kept)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if got == 0 { return false }
            let filled = kept + got
            let found = chunk.withUnsafeBytes {
                contains(UnsafeRawBufferPointer(rebasing: $0[..<filled]), mark)
            }
            if found { return true }
            kept = min(mark.count - 1, filled)
            chunk.withUnsafeMutableBytes { raw in
                let base = raw.baseAddress!
                memmove(base, base + filled - kept, kept)
            }
        }
    }

    /// Whether `bytes` contain `mark`: `memchr` finds each candidate for the mark's second byte.
    private static func contains(_ bytes: UnsafeRawBufferPointer, _ mark: [UInt8]) -> Bool {
        guard let base = bytes.baseAddress, bytes.count >= mark.count else { return false }
        var offset = 1
        let last = bytes.count - mark.count + 1
        while offset <= last {
            guard let hit = memchr(base + offset, Int32(mark[1]), last - offset + 1) else { return false }
            let at = base.distance(to: hit)
            if memcmp(base + at - 1, mark, mark.count) == 0 { return true }
            offset = at + 1
        }
        return false
    }

    private var deletionsOnly = false
    /// Asked for each line the pass for tombstones skips; yes ends it.
    private var stopsDeletionPass: () -> Bool = { false }
    private static let deletionMark = Array(#""delete""#.utf8)

    /// The fraction of the file read so far, when its size is known.
    public var fractionRead: Double? {
        size.map { $0 > 0 ? Double(bytesRead) / Double($0) : 1 }
    }

    /// The next item, or nil at the end of the file.
    /// - Throws: ``ScoreFileError`` when reading fails.
    public func next() throws(ScoreFileError) -> Item? {
        while var line = try nextLine() {
            if let first = overlongRecord {
                overlongRecord = nil
                return .problem(
                    "\(path):\(first): not a score record (longer than \(Self.maximumRecordBytes >> 20) MiB; not read)"
                )
            }
            let number = lineNumber
            // A byte order mark, as some editors and spreadsheets write, is not part of the line.
            if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
            if number == 1,
                line.starts(with: [0xFF, 0xFE]) || line.starts(with: [0xFE, 0xFF])
                    || line.starts(with: [0, 0, 0xFE, 0xFF])
            {
                let wide = line.starts(with: [0xFF, 0xFE, 0, 0]) || line.starts(with: [0, 0, 0xFE, 0xFF])
                let encoding = wide ? "UTF-32" : "UTF-16"
                atEnd = true
                start = buffer.count
                return .problem(
                    "\(path): is \(encoding) text, not UTF-8; nothing was read. Convert it first: "
                        + "iconv -f \(encoding) -t UTF-8 \(Self.shellQuoted(path)) > converted\(Self.extensionOf(path))"
                )
            }
            if deletionsOnly && !Self.contains(line, Self.deletionMark) {
                if stopsDeletionPass() { return nil }
                continue
            }
            guard let first = line.firstIndex(where: { !Self.isBlank($0) }) else { continue }
            if !Self.isUTF8(line) { return notUTF8(number) }
            if format == nil {
                if line[first] == UInt8(ascii: "{") {
                    format = .jsonl
                } else if readHeader(line) {
                    format = .csv
                    continue
                } else if line.contains(where: {
                    $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") || $0 == 0x09
                }) {
                    // Fields, but not the header a roster needs: CSV with a wrong header, said once.
                    format = .csv
                    if let item = csvItem(line, number: number) { return item }
                    continue
                } else {
                    undetectedLines += 1
                    if undetectedLines == Self.linesBeforeFormat {
                        atEnd = true
                        start = buffer.count
                        return .problem(
                            "\(path):\(number): not a score file: none of its first \(Self.linesBeforeFormat) lines is "
                                + "a JSON object or a CSV header naming name and points; the rest was not read"
                        )
                    }
                    return .problem(
                        "\(path):\(number): not a score record (neither a JSON object nor a CSV header naming "
                            + "name and points)")
                }
            }
            switch format {
            case .csv:
                if let item = csvItem(line, number: number) { return item }
            default:
                return jsonItem(line, number: number)
            }
        }
        return nil
    }

    /// `.tsv` or `.csv` after the name of a converted file, as `path` has.
    private static func extensionOf(_ path: String) -> String {
        switch format(ofName: path) {
        case .csv: path.lowercased().hasSuffix(".tsv") ? ".tsv" : ".csv"
        case .jsonl: ".jsonl"
        case nil: ".txt"
        }
    }

    /// The problem of line `number`, which is not UTF-8: the first such line says the likely
    /// cause and the fix.
    private func notUTF8(_ number: Int) -> Item {
        guard let first = firstNonUTF8Line else {
            firstNonUTF8Line = number
            return .problem(
                "\(path):\(number): not a score record (not UTF-8 text; a spreadsheet that saves as "
                    + "Windows-1252 writes such bytes: convert the file with "
                    + "iconv -f cp1252 -t utf-8 \(Self.shellQuoted(path)) > converted\(Self.extensionOf(path)) and import "
                    + "that)"
            )
        }
        return .problem("\(path):\(number): not a score record (not UTF-8 text, as line \(first))")
    }

    /// `path` as a shell reads it back in a command to paste: in single quotes unless it is
    /// made of letters, digits and `/._-` only.
    static func shellQuoted(_ path: String) -> String {
        let plain = path.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (0x30...0x39).contains(byte)
                || "/._-".utf8.contains(byte)
        }
        return plain && !path.isEmpty ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Whether `line` is UTF-8: at once when it is ASCII.
    static func isUTF8(_ line: ArraySlice<UInt8>) -> Bool {
        line.withUnsafeBufferPointer { bytes in
            var ascii = true
            for byte in bytes where byte >= 0x80 {
                ascii = false
                break
            }
            return ascii || String(validating: bytes, as: UTF8.self) != nil
        }
    }

    // MARK: Records without an id

    /// A record without an id: an upload at `uploadedAt`, else at the time the file was last
    /// changed, with an id made from the player's comparison key, the points and the time.
    private func upload(name: String, points: Double, uploadedAt: Date?, line number: Int) -> Item {
        if name.allSatisfy(\.isWhitespace) {
            return .problem("\(path):\(number): not a score record (a record without an id needs a name)")
        }
        let time = uploadedAt ?? rosterTime
        return .record(
            ScoreRecord(
                id: UploadID.make(name: name, points: points, uploadedAt: time), name: name, points: points,
                uploadedAt: time))
    }

    // MARK: JSON Lines

    private func jsonItem(_ line: ArraySlice<UInt8>, number: Int) -> Item {
        if let record = line.withUnsafeBufferPointer(ScoreLineParser.record) { return .record(record) }
        do {
            let stored = try decoder.decode(StoredLine.self, from: Data(line))
            switch try stored.content() {
            case .record(let record): return .record(record)
            case .deletion(let ids): return .deletion(ids)
            case .upload(let name, let points, let time):
                return upload(name: name, points: points, uploadedAt: time, line: number)
            }
        } catch let error as StoredLine.LineError {
            return .problem("\(path):\(number): not a score record (\(error.description))")
        } catch let error as DecodingError {
            return .problem("\(path):\(number): not a score record (\(StoredLine.reason(error)))")
        } catch {
            return .problem("\(path):\(number): not a score record (not valid JSON)")
        }
    }

    // MARK: CSV

    /// Reads `line` as the CSV header, trying `,`, `;` and a tab; false when none names the
    /// columns `name` and `points`.
    private func readHeader(_ line: ArraySlice<UInt8>) -> Bool {
        for candidate in [",", ";", "\t"].map({ UInt8(ascii: $0) }) {
            guard let fields = Self.csvFields(line, delimiter: candidate) else { continue }
            var columns: [String: Int] = [:]
            for (index, title) in fields.enumerated() {
                let key = title.trimmingCharacters(in: .whitespaces).lowercased()
                if columns[key] == nil { columns[key] = index }
            }
            guard let name = columns["name"], let points = columns["points"] else { continue }
            delimiter = candidate
            csvColumns = CSVColumns(
                count: fields.count, name: name, points: points, id: columns["id"],
                uploadedAt: columns["uploadedat"])
            return true
        }
        return false
    }

    private func csvItem(_ line: ArraySlice<UInt8>, number: Int) -> Item? {
        guard let columns = csvColumns else {
            if readHeader(line) { return nil }
            atEnd = true
            start = buffer.count
            let found =
                Self.csvFields(line, delimiter: delimiter)?.map { "\"\($0)\"" }.joined(separator: ", ") ?? ""
            return .problem(
                "\(path):\(number): the CSV header must name the columns name and points (and may name id "
                    + "and uploadedAt, as playerform export writes them), separated by commas, semicolons or "
                    + "tabs; found: \(found). Nothing after it was read")
        }
        guard let fields = Self.csvFields(line, delimiter: delimiter) else {
            return .problem("\(path):\(number): not a score record (a quoted field is not closed)")
        }
        guard fields.count == columns.count else {
            return .problem(
                "\(path):\(number): not a score record (expected \(columns.count) fields, found \(fields.count))"
            )
        }
        func field(_ index: Int?) -> String? {
            index.flatMap { fields[$0].trimmingCharacters(in: .whitespaces).isEmpty ? nil : fields[$0] }
        }
        var id: UUID?
        if let idText = field(columns.id) {
            guard let valid = UUID(uuidString: idText.trimmingCharacters(in: .whitespaces)) else {
                return .problem("\(path):\(number): not a score record (invalid id)")
            }
            id = valid
        }
        var pointsText = fields[columns.points].trimmingCharacters(in: .whitespaces)
        // A decimal comma, as spreadsheets that separate fields with semicolons write it.
        if delimiter != UInt8(ascii: ","), !pointsText.contains("."),
            pointsText.utf8.count(where: { $0 == UInt8(ascii: ",") }) == 1
        {
            pointsText = pointsText.replacingOccurrences(of: ",", with: ".")
        }
        guard DecimalText.isLiteral(pointsText), let points = Double(pointsText), points.isFinite else {
            return .problem(
                "\(path):\(number): not a score record (invalid points: expected a finite number)")
        }
        var time: Date?
        if let text = field(columns.uploadedAt) {
            guard let date = Timestamp.date(text.trimmingCharacters(in: .whitespaces)) else {
                return .problem(
                    "\(path):\(number): not a score record (\(StoredLine.expectation("uploadedAt")))")
            }
            time = date
        }
        let name = fields[columns.name]
        guard let id else { return upload(name: name, points: points, uploadedAt: time, line: number) }
        guard let time else {
            return .problem(
                "\(path):\(number): not a score record (a record with an id needs its uploadedAt)")
        }
        return .record(ScoreRecord(id: id, name: name, points: points, uploadedAt: time))
    }

    /// The fields of a CSV record, or nil when a quoted field is not closed.
    static func csvFields(_ line: ArraySlice<UInt8>, delimiter: UInt8 = UInt8(ascii: ",")) -> [String]? {
        var fields: [String] = []
        var field: [UInt8] = []
        var index = line.startIndex
        var quoted = false
        var wasQuoted = false
        while index < line.endIndex {
            let byte = line[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < line.endIndex && line[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: "\"") && field.isEmpty && !wasQuoted {
                quoted = true
                wasQuoted = true
            } else if byte == delimiter {
                fields.append(String(decoding: field, as: UTF8.self))
                field = []
                wasQuoted = false
            } else if byte == 0x0D && index + 1 == line.endIndex {
                // The CR of a CRLF line end.
            } else {
                field.append(byte)
            }
            index += 1
        }
        guard !quoted else { return nil }
        fields.append(String(decoding: field, as: UTF8.self))
        return fields
    }

    // MARK: Lines

    /// The next line without its line break; a CSV line whose quoted field goes on past a line
    /// break takes the next line too.
    private func nextLine() throws(ScoreFileError) -> ArraySlice<UInt8>? {
        var searchFrom = start
        var quotes = 0
        while true {
            if let end = buffer[searchFrom...].firstIndex(of: 0x0A) {
                if format == .csv {
                    quotes += buffer[searchFrom..<end].reduce(0) { $0 + ($1 == UInt8(ascii: "\"") ? 1 : 0) }
                    if quotes % 2 == 1 {
                        searchFrom = end + 1
                        continue
                    }
                }
                let line = buffer[start..<end]
                lineNumber += 1 + line.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                start = end + 1
                return line
            }
            if format == .csv {
                quotes += buffer[searchFrom...].reduce(0) { $0 + ($1 == UInt8(ascii: "\"") ? 1 : 0) }
            }
            searchFrom = buffer.count
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                lineNumber += 1
                start = buffer.count
                return line
            }
            if buffer.count - start > Self.maximumRecordBytes {
                try passOverLongRecord()
                return buffer[0..<0]
            }
            // Keep the unread part and read more.
            if start > 0 {
                let shift = start
                buffer.removeSubrange(0..<start)
                searchFrom -= shift
                start = 0
            }
            if let beforeWaiting {
                var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                if poll(&ready, 1, 0) == 0 { beforeWaiting() }
            }
            let old = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: 1 << 18))
            let got = buffer.withUnsafeMutableBytes { raw in
                Glibc.read(descriptor, raw.baseAddress! + old, raw.count - old)
            }
            if got < 0 {
                buffer.removeSubrange(old...)
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: SystemError.text(errno))
            }
            buffer.removeSubrange((old + got)...)
            bytesRead += Int64(got)
            if got == 0 { atEnd = true }
        }
    }

    /// The longest record read, in bytes: a score record is a few hundred bytes, and a longer
    /// one would be held whole in memory.
    static let maximumRecordBytes = 8 << 20

    /// The first line of a record passed over for its length, for ``next()`` to report.
    private var overlongRecord: Int?

    /// Passes over the record being read, longer than ``maximumRecordBytes``, to its end without
    /// keeping it: the next line break, or in CSV the next one outside quotes.
    private func passOverLongRecord() throws(ScoreFileError) {
        overlongRecord = lineNumber + 1
        // In CSV a line break inside a quoted field does not end the record: quotes are counted
        // from the record's start, and the record ends at a line break after an even number.
        var quotes = 0
        func end(in bytes: ArraySlice<UInt8>) -> Int? {
            for index in bytes.indices {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") && format == .csv {
                    quotes += 1
                } else if byte == 0x0A {
                    lineNumber += 1
                    if quotes % 2 == 0 { return index }
                }
            }
            return nil
        }
        if let newline = end(in: buffer[start...]) {
            start = newline + 1
            return
        }
        buffer.removeAll(keepingCapacity: true)
        start = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 18)
        while true {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: SystemError.text(errno))
            }
            bytesRead += Int64(got)
            if got == 0 {
                atEnd = true
                lineNumber += 1
                return
            }
            if let newline = end(in: chunk[..<got]) {
                buffer.append(contentsOf: chunk[(newline + 1)..<got])
                return
            }
        }
    }

    /// Whether `line` contains `mark`.
    private static func contains(_ line: ArraySlice<UInt8>, _ mark: [UInt8]) -> Bool {
        line.withUnsafeBufferPointer { bytes in
            guard bytes.count >= mark.count else { return false }
            var index = 0
            let last = bytes.count - mark.count
            while index <= last {
                if bytes[index] == mark[0] {
                    var matched = 1
                    while matched < mark.count && bytes[index + matched] == mark[matched] { matched += 1 }
                    if matched == mark.count { return true }
                }
                index += 1
            }
            return false
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D
    }
}
