import Foundation
import PlayerFormSystem
import Testing

@Suite("The process's environment read from environ")
struct ProcessEnvironmentTests {
    /// `body` given a null-terminated list of C strings made from `entries`.
    func withEntries<Answer>(
        _ entries: [[UInt8]], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Answer
    ) -> Answer {
        let strings = entries.map { bytes -> UnsafeMutablePointer<CChar> in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
            copy[bytes.count] = 0
            return copy
        }
        defer { strings.forEach { $0.deallocate() } }
        let list: [UnsafeMutablePointer<CChar>?] = strings + [nil]
        return list.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    @Test("the variables are those Foundation reports")
    func sameAsFoundation() {
        #expect(ProcessEnvironment.current() == ProcessInfo.processInfo.environment)
        #expect(!ProcessEnvironment.current().isEmpty)
    }

    @Test("a value keeps every = after the first, and may be empty")
    func valuesWithEquals() {
        let variables = withEntries([Array("A=b=c".utf8), Array("EMPTY=".utf8), Array("=x".utf8)]) {
            ProcessEnvironment.variables(of: $0)
        }
        #expect(variables == ["A": "b=c", "EMPTY": "", "": "x"])
    }

    @Test(
        "an entry without = is skipped, and the first of two entries with one name wins, as getenv finds it")
    func oddEntries() {
        let variables = withEntries([Array("JUNK".utf8), Array("A=first".utf8), Array("A=second".utf8)]) {
            ProcessEnvironment.variables(of: $0)
        }
        #expect(variables == ["A": "first"])
    }

    @Test("bytes that are not UTF-8 are replaced, and a null list has no variables")
    func brokenBytesAndNoList() {
        let variables = withEntries([[0x4E, 0x3D, 0xFF, 0x61]]) { ProcessEnvironment.variables(of: $0) }
        #expect(variables == ["N": "\u{FFFD}a"])
        #expect(ProcessEnvironment.variables(of: nil).isEmpty)
    }
}
