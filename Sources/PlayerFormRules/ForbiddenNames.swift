import Foundation

/// A list of forbidden names, matched by the one name rule, ``PlayerName/comparisonKey(_:)``:
/// case, surrounding whitespace, Unicode compatibility forms and default-ignorable code points are
/// ignored, so "DARN", " darn ", full-width "ｄａｒｎ" and "d\u{200B}arn" all match "darn".
public struct ForbiddenNames: Sendable, Equatable {
    /// Shared and immutable, so copying the rules that hold it costs one retain.
    private final class Storage: Sendable {
        let names: [String]
        let normalized: Set<String>
        /// The normalized names that are plain ASCII, as bytes: the matching fast path.
        let asciiNames: [[UInt8]]
        /// Whether every normalized name is plain ASCII.
        let allASCII: Bool
        /// Bit n is set when an ASCII name of n bytes, n below 64, is on the list.
        let asciiLengths: UInt64
        /// Whether an ASCII name of 64 bytes or more is on the list.
        let longASCIIName: Bool
        /// The ASCII names of 1 to 16 bytes, as words.
        let shortASCIINames: ShortASCIIKeys

        init(_ names: [String]) {
            self.names = names
            let normalized = names.map(PlayerName.comparisonKey)
            self.normalized = Set(normalized)
            self.asciiNames = normalized.filter { $0.utf8.allSatisfy { $0 < 0x80 } }.map { Array($0.utf8) }
            self.allASCII = asciiNames.count == normalized.count
            self.asciiLengths = asciiNames.reduce(0) { $1.count < 64 ? $0 | 1 << UInt64($1.count) : $0 }
            self.longASCIIName = asciiNames.contains { $0.count >= 64 }
            self.shortASCIINames = ShortASCIIKeys(asciiNames)
        }
    }

    private let storage: Storage

    /// The names as configured.
    public var names: [String] { storage.names }
    private var normalized: Set<String> { storage.normalized }
    private var asciiNames: [[UInt8]] { storage.asciiNames }

    /// Creates a list; names are compared in their normalized form.
    public init(_ names: [String]) {
        storage = Storage(names)
    }

    /// Whether both lists forbid the same names.
    public static func == (lhs: ForbiddenNames, rhs: ForbiddenNames) -> Bool {
        lhs.storage === rhs.storage || lhs.names == rhs.names
    }

    /// `name` in compatibility-composed form (NFKC), without surrounding whitespace, lowercased.
    ///
    /// Default-ignorable code points are kept: names are compared by
    /// ``PlayerName/comparisonKey(_:)``, which removes them first and then normalizes.
    public static func normalize(_ name: String) -> String {
        let composed = name.precomposedStringWithCompatibilityMapping
        return trimmed(composed).lowercased()
    }

    /// Whether `name` is forbidden: whether its ``PlayerName/comparisonKey(_:)`` is the key of a
    /// name on the list.
    ///
    /// ASCII names, the common case, are matched without allocating (ASCII has no default-ignorable
    /// code points); others are normalized first.
    public func contains(_ name: String) -> Bool {
        var name = name
        name.makeContiguousUTF8()
        let asciiAnswer = name.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 < 0x80 } ? containsASCII(bytes) : nil
        }
        if let asciiAnswer = asciiAnswer ?? nil { return asciiAnswer }
        // Foundation's NFKC mapping costs microseconds. When NFKC case folding and lowercasing leave
        // every non-ASCII scalar alone, the name has no compatibility forms, no default-ignorable
        // code points (NFKC case folding removes them) and its only case is ASCII: with ASCII
        // letters lowercased it is canonically equivalent to its key, and String equality is
        // canonical equivalence, so the mapping can be skipped.
        if name.unicodeScalars.allSatisfy(Self.isStableBeyondASCII) {
            return containsNormalized(Self.trimmed(Self.lowercasingASCII(name)))
        }
        // The same holds for a name with non-ASCII case once it is lowercased.
        let lowercased = name.lowercased()
        if lowercased.unicodeScalars.allSatisfy(Self.isStableBeyondASCII) {
            return containsNormalized(Self.trimmed(lowercased))
        }
        return normalized.contains(PlayerName.comparisonKey(name))
    }

    /// Whether `candidate` is canonically equivalent to a normalized name.
    ///
    /// A short list is compared one by one: String comparison stops at the first difference, where
    /// hashing for the set would normalize the whole candidate.
    private func containsNormalized(_ candidate: Substring) -> Bool {
        if normalized.count <= 8 { return normalized.contains { $0 == candidate } }
        return normalized.contains(String(candidate))
    }

    private static func isStableBeyondASCII(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII || ScalarFacts.isStable(scalar)
    }

    private static func lowercasingASCII(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return text }
        return String(unsafeUninitializedCapacity: utf8.count) { buffer in
            _ = buffer.initialize(from: utf8)
            for index in 0..<utf8.count where buffer[index] >= 0x41 && buffer[index] <= 0x5A {
                buffer[index] |= 0x20
            }
            return utf8.count
        }
    }

    /// `text` without whitespace characters at either end.
    ///
    /// A character is whitespace when its first scalar is, so a first scalar that is not whitespace
    /// keeps the start; a last byte that is ASCII and not whitespace ends a character that is not
    /// whitespace, which keeps the end.
    private static func trimmed(_ text: String) -> Substring {
        let solidStart = text.unicodeScalars.first.map { !ScalarFacts.isWhitespace($0) } ?? false
        let solidEnd = text.utf8.last.map { $0 > 0x20 && $0 < 0x80 } ?? false
        if solidStart && solidEnd { return text[...] }
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return text[first...last]
    }

    /// Whether the name whose bytes are `bytes`, all of them ASCII, is forbidden: ``contains(_:)``
    /// without making a String.
    func contains(asciiName bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        containsASCII(bytes)
    }

    /// Whether the ASCII name of `count` bytes, 1 to 16, with no control character and no space at
    /// either end, is forbidden, given its bytes with ASCII letters lowercased as the words
    /// `ShortASCIIKeys` holds: ``contains(asciiName:)`` compared word by word.
    @inline(__always)
    func contains(shortASCIIFirst first: UInt64, last: UInt64, count: Int) -> Bool {
        storage.shortASCIINames.contains(first: first, last: last, count: count)
    }

    /// ``contains(_:)`` for a name beyond ASCII given as valid UTF-8, answered on its bytes for two
    /// kinds of names; nil for any other.
    ///
    /// - A name whose only scalars beyond ASCII are full-width forms of ASCII (U+FF01...U+FF5E):
    ///   NFKC maps each to its ASCII letter (U+0021...U+007E), so the key is the ASCII key of the
    ///   mapped name.
    /// - When every forbidden name's key is ASCII, a name holding a scalar beyond ASCII that stays
    ///   in its key, so that the key cannot be an ASCII one: a scalar that NFKC case folding and
    ///   lowercasing leave alone, that is not whitespace, and that comes first or after an ASCII
    ///   scalar that is not whitespace (its character then starts with something trimming keeps;
    ///   composition with its neighbours never yields ASCII).
    ///
    /// Either kind has a non-empty key, so it is never blank. The second is answered at its first
    /// scalar that stays in its key, without reading on: bytes after it that are not UTF-8 would
    /// decode to replacement characters, which change nothing.
    func contains(utf8Name bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        var index = 0
        var fullWidthOnly = true
        var keepsScalar = false
        var afterSolidASCII = true
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 {
                afterSolidASCII = !(lead == 0x20 || (0x09...0x0D).contains(lead))
                index += 1
                continue
            }
            guard let (scalar, length) = Self.scalar(in: bytes, at: index) else { return nil }
            if !(0xFF01...0xFF5E).contains(scalar.value) { fullWidthOnly = false }
            if afterSolidASCII && ScalarFacts.isStable(scalar) && !ScalarFacts.isWhitespace(scalar) {
                // Nothing after such a scalar changes the answer.
                if storage.allASCII { return false }
                keepsScalar = true
            }
            afterSolidASCII = false
            index += length
        }
        if fullWidthOnly {
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { mapped in
                var count = 0
                var index = 0
                while index < bytes.count {
                    if bytes[index] < 0x80 {
                        mapped[count] = bytes[index]
                        index += 1
                    } else if let (scalar, length) = Self.scalar(in: bytes, at: index) {
                        // U+FF01...U+FF5E lie U+FEE0 above their ASCII letters.
                        mapped[count] = UInt8(truncatingIfNeeded: scalar.value - 0xFEE0)
                        index += length
                    }
                    count += 1
                }
                return containsASCII(UnsafeBufferPointer(rebasing: mapped[..<count]))
            }
        }
        if keepsScalar && storage.allASCII { return false }
        return nil
    }

    /// The scalar whose UTF-8 encoding starts at `index`, with its length; nil when the bytes
    /// there are not a whole, valid encoding.
    static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        // C0 and C1 lead only overlong forms, F5 and above only values past U+10FFFF.
        guard lead >= 0xC2 && lead <= 0xF4 else { return nil }
        let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard bytes.count - index >= length else { return nil }
        var value = UInt32(lead) & (0x7F >> UInt32(length))
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        // The shortest form only; surrogates and values past U+10FFFF are no scalars.
        let least: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x1_0000
        guard value >= least, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    private func containsASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        var first = 0
        var end = bytes.count
        while first < end && isSpace(bytes[first]) { first += 1 }
        while end > first && isSpace(bytes[end - 1]) { end -= 1 }
        guard first < end else { return normalized.contains("") }
        let count = end - first
        // Most names have a length no forbidden name has.
        let possible = count < 64 ? storage.asciiLengths & 1 << UInt64(count) != 0 : storage.longASCIIName
        guard possible else { return false }
        return asciiNames.contains { candidate in
            guard candidate.count == count else { return false }
            for offset in 0..<count {
                let byte = bytes[first + offset]
                let lower = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
                if lower != candidate[offset] { return false }
            }
            return true
        }
    }
}
