import PlayerFormRules

/// Players found by the start of their name, as `find` and completion look them up: by
/// `PlayerName.comparisonKey(_:)`, so that case, width and invisible characters do not matter.
///
/// A store answers from an index of the keys with a range: every key that starts with a prefix
/// lies between the prefix itself and ``upperBound(of:)``, in the byte order of UTF-8 (SQLite's
/// `BINARY` collation, PostgreSQL's `"C"`), which is the order of code points.
public enum NamePrefix {
    /// The least text after every text that starts with `prefix`: `prefix` with its last code
    /// point replaced by the next one (code points of U+10FFFF dropped first, surrogates skipped);
    /// nil when there is none (an empty prefix, or one of U+10FFFF only), and every text from
    /// `prefix` on starts with it.
    public static func upperBound(of prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            guard last.value < 0x10FFFF else { continue }
            let next = last.value == 0xD7FF ? 0xE000 : last.value + 1
            scalars.append(Unicode.Scalar(next)!)
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            return text
        }
        return nil
    }

    /// The players of `roster` (in roster order) whose key starts with that of `text`, at most
    /// `limit`, in the order of their keys, with their places: the answer of a store that has no
    /// index, in O(players).
    public static func matches(_ text: String, in roster: [Player], limit: Int) -> [(
        index: Int, player: Player
    )] {
        let prefix = Array(PlayerName.comparisonKey(text).utf8)
        let found = roster.enumerated().filter { $0.element.key.utf8.starts(with: prefix) }
        let ordered = found.sorted { $0.element.key.utf8.lexicographicallyPrecedes($1.element.key.utf8) }
        return ordered.prefix(max(0, limit)).map { (index: $0.offset, player: $0.element) }
    }
}
