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
        if let key = asciiKey(name) { return key }
        let key = ForbiddenNames.normalize(withoutIgnorables(name))
        // No compatibility mapping is known to yield a default-ignorable code point; should one
        // ever do so, the key still holds none.
        return key.unicodeScalars.contains(where: isDefaultIgnorable)
            ? ForbiddenNames.normalize(withoutIgnorables(key)) : key
    }

    /// ``comparisonKey(_:)`` of the name whose UTF-8 bytes are `name`: for an ASCII name, made
    /// from its bytes without making the name a String first.
    public static func comparisonKey(utf8Name name: UnsafeBufferPointer<UInt8>) -> String {
        asciiKey(name) ?? comparisonKey(String(decoding: name, as: UTF8.self))
    }

    /// The key of an ASCII name, nil for any other.
    ///
    /// ASCII has no default-ignorable code points and no compatibility forms, and its whitespace is
    /// space and U+0009...U+000D, so the key is the name without those at either end, with A-Z
    /// lowercased: no Unicode tables are needed.
    private static func asciiKey(_ name: String) -> String? {
        var name = name
        // nil: not ASCII; the name itself: already a key.
        let key = name.withUTF8 { bytes -> String?? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return .some(nil) }
            if isKey(bytes) { return nil }
            return asciiKey(bytes)
        }
        return key ?? name
    }

    /// Whether the ASCII name `bytes` is its own key: no whitespace at either end, no capital.
    private static func isKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return true }
        return !isSpace(first) && !isSpace(last) && !bytes.contains { (0x41...0x5A).contains($0) }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// The key of the name whose bytes are `bytes` when they are all ASCII, else nil.
    private static func asciiKey(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var first = 0
        var end = bytes.count
        while first < end && isSpace(bytes[first]) { first += 1 }
        while end > first && isSpace(bytes[end - 1]) { end -= 1 }
        return String(unsafeUninitializedCapacity: end - first) { buffer in
            for offset in 0..<(end - first) {
                let byte = bytes[first + offset]
                buffer[offset] = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            }
            return end - first
        }
    }

    /// Whether `name` and `other` name the same player.
    public static func same(_ name: String, _ other: String) -> Bool {
        comparisonKey(name) == comparisonKey(other)
    }

    /// Whether `scalar` is a default-ignorable code point (Unicode's
    /// `Default_Ignorable_Code_Point` property): it has no visible form of its own.
    public static func isDefaultIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        ScalarFacts.isDefaultIgnorable(scalar)
    }

    /// `text` without its default-ignorable code points; `text` itself when it has none.
    private static func withoutIgnorables(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isDefaultIgnorable) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.filter { !isDefaultIgnorable($0) }))
    }
}
