import PlayerFormSystem
import Testing

@Suite("CommandLineBytes")
struct CommandLineBytesTests {
    private let arguments: [[UInt8]] = [
        Array("playerform".utf8), Array("validate".utf8),
        Array("--config=c".utf8) + [0xFF] + Array(".json".utf8),
        Array("bad".utf8) + [0xFF] + Array(".jsonl".utf8), Array("bad".utf8) + [0xFE] + Array(".jsonl".utf8),
    ]

    @Test("a value whose bytes were replaced is found among the arguments by the bytes typed, each once")
    func replacedBytes() {
        var taken: Set<Int> = []
        #expect(
            CommandLineBytes.bytes(of: "c\u{FFFD}.json", in: arguments, skipping: &taken)
                == Array("c".utf8) + [0xFF] + Array(".json".utf8),
            "the value of --config=VALUE")
        // Two names that read the same: the first asking gets the first, the second the second.
        #expect(
            CommandLineBytes.bytes(of: "bad\u{FFFD}.jsonl", in: arguments, skipping: &taken)
                == Array("bad".utf8) + [0xFF] + Array(".jsonl".utf8))
        #expect(
            CommandLineBytes.bytes(of: "bad\u{FFFD}.jsonl", in: arguments, skipping: &taken)
                == Array("bad".utf8) + [0xFE] + Array(".jsonl".utf8))
    }

    @Test("a value found nowhere, or one that is UTF-8, is its own UTF-8")
    func ownBytes() {
        var taken: Set<Int> = []
        #expect(
            CommandLineBytes.bytes(of: "x\u{FFFD}", in: arguments, skipping: &taken)
                == Array("x\u{FFFD}".utf8))
        #expect(CommandLineBytes.bytes(of: "validate") == Array("validate".utf8))
    }
}
