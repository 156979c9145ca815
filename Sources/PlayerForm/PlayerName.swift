import Foundation

/// The one rule that says when two names are the same name.
///
/// Two names are the same when their comparison keys are equal: the key ignores case, whitespace
/// at either end, Unicode compatibility forms (NFKC) and default-ignorable code points (zero-width
/// spaces and joiners, the word joiner, the soft hyphen, the byte-order mark, variation
/// selectors). Forbidden names are matched by it, and a store identifies a player by it, so
/// "Bob", "bob" and " Bob" are one player and "d\u{200B}arn" is forbidden.
public enum PlayerName {
    /// The form in which names are compared: default-ignorable code points removed, then
    /// compatibility-composed (NFKC), without whitespace at either end, lowercased.
    ///
    /// ```swift
    /// PlayerName.comparisonKey(" D\u{200B}ARN ")  // "darn"
    /// PlayerName.comparisonKey("ｄａｒｎ")           // "darn"
    /// ```
    public static func comparisonKey(_ name: String) -> String {
        // ASCII has no default-ignorable code points and no compatibility forms.
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return ForbiddenNames.normalize(name) }
        let key = ForbiddenNames.normalize(withoutIgnorables(name))
        // No compatibility mapping is known to yield a default-ignorable code point; should one
        // ever do so, the key still holds none.
        return key.unicodeScalars.contains(where: isDefaultIgnorable) ? withoutIgnorables(key) : key
    }

    /// Whether `name` and `other` name the same player.
    public static func same(_ name: String, _ other: String) -> Bool {
        comparisonKey(name) == comparisonKey(other)
    }

    /// Whether `scalar` is a default-ignorable code point (Unicode's
    /// `Default_Ignorable_Code_Point` property): it has no visible form of its own.
    public static func isDefaultIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isDefaultIgnorableCodePoint
    }

    /// `text` without its default-ignorable code points; `text` itself when it has none.
    private static func withoutIgnorables(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isDefaultIgnorable) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.filter { !isDefaultIgnorable($0) }))
    }
}
