import PlayerFormScores
import Testing

@Suite("Players found by the start of their name")
struct NamePrefixTests {
    @Test("the upper bound of a prefix is the prefix with its last code point the next one")
    func upperBound() {
        #expect(NamePrefix.upperBound(of: "ann") == "ano")
        #expect(NamePrefix.upperBound(of: "a\u{D7FF}") == "a\u{E000}")
        #expect(NamePrefix.upperBound(of: "ab\u{10FFFF}\u{10FFFF}") == "ac")
        #expect(NamePrefix.upperBound(of: "\u{10FFFF}") == nil)
        #expect(NamePrefix.upperBound(of: "") == nil)
    }

    @Test("every text that starts with a prefix, and no other, lies between it and its upper bound")
    func boundsHoldExactlyThePrefixed() {
        let texts = [
            "an", "ann", "anna", "ano", "am\u{10FFFF}", "an\u{10FFFF}x", "b", "a", "", "an\u{E000}",
            "\u{10FFFF}", "\u{10FFFF}a",
        ]
        for prefix in ["an", "a", "\u{10FFFF}", "an\u{10FFFF}"] {
            let upper = NamePrefix.upperBound(of: prefix)
            for text in texts {
                let inRange =
                    !text.utf8.lexicographicallyPrecedes(prefix.utf8)
                    && upper.map { text.utf8.lexicographicallyPrecedes($0.utf8) } ?? true
                #expect(inRange == text.utf8.starts(with: prefix.utf8), "\(prefix) \(text)")
            }
        }
    }
}
