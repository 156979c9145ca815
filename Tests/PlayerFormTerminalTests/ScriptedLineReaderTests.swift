import Foundation
import Testing

@testable import PlayerFormTerminal

@Suite("ScriptedLineReader")
struct ScriptedLineReaderTests {
    func lines(_ reader: ScriptedLineReader) -> [LineInput] {
        var all: [LineInput] = []
        while true {
            let next = reader.nextLine()
            all.append(next)
            if next == .end { return all }
        }
    }

    @Test("lines end at \\n, a \\r before it is dropped, and the last line needs no newline")
    func lineEndings() {
        let reader = ScriptedLineReader(text: "a\r\n\nb")
        #expect(lines(reader) == [.line(Array("a".utf8)), .line([]), .line(Array("b".utf8)), .end])
    }

    @Test("NUL bytes and invalid UTF-8 reach the session as they are")
    func rawBytes() {
        let reader = ScriptedLineReader(bytes: [0x61, 0x00, 0xFF, 0x0A])
        #expect(lines(reader) == [.line([0x61, 0x00, 0xFF]), .end])
    }

    @Test("a line longer than the limit is reported with its length, and the next line still read")
    func tooLong() {
        let reader = ScriptedLineReader(bytes: Array(repeating: 0x78, count: 10) + [0x0A, 0x79], maxBytes: 4)
        #expect(lines(reader) == [.tooLong(byteCount: 10), .line([0x79]), .end])
    }

    @Test("the carriage return of a CRLF does not count toward the limit, a byte more does")
    func crlfAtTheLimit() {
        let four = [UInt8](repeating: 0x78, count: 4)
        let reader = ScriptedLineReader(
            bytes: four + [0x0D, 0x0A] + four + [0x78, 0x0A] + four + [0x78, 0x0D, 0x0A], maxBytes: 4)
        #expect(lines(reader) == [.line(four), .tooLong(byteCount: 5), .tooLong(byteCount: 5), .end])
    }

    @Test("reads from a file descriptor across many reads")
    func fileDescriptor() throws {
        let pipe = Pipe()
        let text = String(repeating: "show\n", count: 30_000)
        let writer = Thread {
            pipe.fileHandleForWriting.write(Data(text.utf8))
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        let reader = ScriptedLineReader(fileDescriptor: pipe.fileHandleForReading.fileDescriptor)
        let all = lines(reader)
        #expect(all.count == 30_001)
        #expect(all.dropLast().allSatisfy { $0 == .line(Array("show".utf8)) })
    }
}
