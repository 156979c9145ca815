import Foundation

/// A list of forbidden names and the matching rule: case, surrounding whitespace and Unicode
/// compatibility forms are ignored, so "DARN", " darn " and full-width "ｄａｒｎ" all match "darn".
public struct ForbiddenNames: Sendable, Equatable {
    /// The names as configured.
    public let names: [String]
    private let normalized: Set<String>
    /// The normalized names that are plain ASCII, as bytes: the matching fast path.
    private let asciiNames: [[UInt8]]

    /// Creates a list; names are compared in their normalized form.
    public init(_ names: [String]) {
        self.names = names
        let normalized = names.map(Self.normalize)
        self.normalized = Set(normalized)
        self.asciiNames = normalized.filter { $0.utf8.allSatisfy { $0 < 0x80 } }.map { Array($0.utf8) }
    }

    /// `name` in compatibility-composed form (NFKC), without surrounding whitespace, lowercased.
    public static func normalize(_ name: String) -> String {
        let composed = name.precomposedStringWithCompatibilityMapping
        return trimmed(composed).lowercased()
    }

    /// Whether `name` is forbidden.
    ///
    /// ASCII names, the common case, are matched without allocating; others are normalized first.
    public func contains(_ name: String) -> Bool {
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            return containsASCII(name.utf8)
        }
        // Foundation's NFKC mapping costs microseconds. A lowercased name that NFKC case folding
        // leaves alone has no compatibility forms: its NFKC form is canonically equivalent to it,
        // and String equality is canonical equivalence, so the mapping can be skipped.
        let lowercased = name.lowercased()
        if lowercased.unicodeScalars.allSatisfy({ $0.isASCII || !$0.properties.changesWhenNFKCCaseFolded }) {
            return normalized.contains(String(Self.trimmed(lowercased)))
        }
        return normalized.contains(Self.normalize(name))
    }

    private static func trimmed(_ text: String) -> Substring {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return text[first...last]
    }

    private func containsASCII(_ utf8: String.UTF8View) -> Bool {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }),
            let last = utf8.lastIndex(where: { !isSpace($0) })
        else { return normalized.contains("") }
        let trimmed = utf8[first...last]
        let count = trimmed.count
        return asciiNames.contains { candidate in
            guard candidate.count == count else { return false }
            return zip(candidate, trimmed).allSatisfy { expected, byte in
                let lower = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
                return lower == expected
            }
        }
    }
}
