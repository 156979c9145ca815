import PlayerFormSystem
import Testing

@Suite("CommandLineBytes")
struct CommandLineBytesTests {
    private let arguments: [[UInt8]] = [
        Array("playerform".utf8), Array("validate".utf8),
        Array("--config=c".utf8) + [0xFF] + Array(".json".utf8),
        Array("bad".utf8) + [0xFF] + Array(".jsonl".utf8), Array("bad".utf8) + [0xFE] + Array(".jsonl".utf8),
    ]

    @Test("a value whose bytes were replaced is found among the arguments by the bytes typed")
    func replacedBytes() {
        #expect(
            CommandLineBytes.bytes(of: "bad\u{FFFD}.jsonl", in: arguments)
                == Array("bad".utf8) + [0xFF] + Array(".jsonl".utf8))
        #expect(
            CommandLineBytes.bytes(of: "c\u{FFFD}.json", in: arguments) == Array("c".utf8) + [0xFF]
                + Array(".json".utf8),
            "the value of --config=VALUE")
    }

    @Test("a value found nowhere, or one that is UTF-8, is its own UTF-8")
    func ownBytes() {
        #expect(CommandLineBytes.bytes(of: "x\u{FFFD}", in: arguments) == Array("x\u{FFFD}".utf8))
        #expect(CommandLineBytes.bytes(of: "validate") == Array("validate".utf8))
    }
}
