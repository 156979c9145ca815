import PlayerFormRules
import Testing

@testable import PlayerFormRecords

/// The keys `--unique` works out once per name on each checking thread.
@Suite("--unique's keys of names met before")
struct NameKeyCacheTests {
    @Test(
        "the cache gives every name the key PlayerName gives it, for names met again and for names that replace others in its places"
    )
    func sameKeysAsPlayerName() {
        let cache = NameKeyCache()
        // More distinct names than the cache has places, each met three times in turns, so that
        // names are found, replaced, and met again after being replaced; with full-width forms,
        // combining marks and ignorable characters, whose keys differ from their bytes.
        let forms = ["Zoë %d", "ＺＯË %d", "Zoe\u{0308} %d", "ゾエ\u{200B}%d", "Ünal %d", "plain %d"]
        let names = (0..<9_000).map { index in
            forms[index % forms.count].replacingOccurrences(of: "%d", with: String(index / forms.count))
        }
        var wrong: [String] = []
        for _ in 0..<3 {
            for name in names {
                var bytes = Array(name.utf8)
                let key = bytes.withUnsafeMutableBufferPointer {
                    cache.key(utf8Name: UnsafeBufferPointer($0))
                }
                if key != PlayerName.comparisonKey(name) { wrong.append(name) }
            }
        }
        #expect(
            wrong.count == 0, "names with another key than their own, first \(wrong.prefix(3))")
        // Names that differ only beyond ASCII, as a cache keyed by too little would confuse.
        for name in ["ä", "ö", "ä", "Ä", "ö"] {
            var bytes = Array(name.utf8)
            let key = bytes.withUnsafeMutableBufferPointer { cache.key(utf8Name: UnsafeBufferPointer($0)) }
            #expect(key == PlayerName.comparisonKey(name), "\(name)")
        }
    }
}
