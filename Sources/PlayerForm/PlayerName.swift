import Foundation

/// The one rule that says when two names are the same name.
///
/// Two names are the same when their comparison keys are equal: the key ignores case, whitespace
/// at either end, Unicode compatibility forms (NFKC) and default-ignorable code points (zero-width
/// spaces and joiners, the word joiner, the soft hyphen, the byte-order mark, variation
/// selectors). Forbidden names are matched by it, and a store identifies a player by it, so
/// "Bob", "bob" and " Bob" are one player and "d\u{200B}arn" is forbidden.
public enum PlayerName {
    /// The form in which names are compared.
    public static func comparisonKey(_ name: String) -> String {
        let visible = String(String.UnicodeScalarView(name.unicodeScalars.filter { !isDefaultIgnorable($0) }))
        return ForbiddenNames.normalize(visible)
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
}
