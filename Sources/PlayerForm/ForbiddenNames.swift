import Foundation

/// A list of forbidden names and the matching rule: case, surrounding whitespace and Unicode
/// compatibility forms are ignored, so "DARN", " darn " and full-width "ｄａｒｎ" all match "darn".
public struct ForbiddenNames: Sendable, Equatable {
    /// Shared and immutable, so copying the rules that hold it costs one retain.
    private final class Storage: Sendable {
        let names: [String]
        let normalized: Set<String>
        /// The normalized names that are plain ASCII, as bytes: the matching fast path.
        let asciiNames: [[UInt8]]

        init(_ names: [String]) {
            self.names = names
            let normalized = names.map(ForbiddenNames.normalize)
            self.normalized = Set(normalized)
            self.asciiNames = normalized.filter { $0.utf8.allSatisfy { $0 < 0x80 } }.map { Array($0.utf8) }
        }
    }

    private let storage: Storage

    /// The names as configured.
    public var names: [String] { storage.names }

    /// Creates a list; names are compared in their normalized form.
    public init(_ names: [String]) {
        storage = Storage(names)
    }

    public static func == (lhs: ForbiddenNames, rhs: ForbiddenNames) -> Bool {
        lhs.storage === rhs.storage || lhs.names == rhs.names
    }

    /// `name` in compatibility-composed form (NFKC), without surrounding whitespace, lowercased.
    public static func normalize(_ name: String) -> String {
        let composed = name.precomposedStringWithCompatibilityMapping
        let trimmed = composed.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
        return String(trimmed).lowercased()
    }

    /// Whether `name` is forbidden.
    ///
    /// ASCII names, the common case, are matched without allocating; others are normalized first.
    public func contains(_ name: String) -> Bool {
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            return containsASCII(name.utf8)
        }
        return storage.normalized.contains(Self.normalize(name))
    }

    private func containsASCII(_ utf8: String.UTF8View) -> Bool {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }),
            let last = utf8.lastIndex(where: { !isSpace($0) })
        else { return storage.normalized.contains("") }
        let trimmed = utf8[first...last]
        let count = trimmed.count
        return storage.asciiNames.contains { candidate in
            guard candidate.count == count else { return false }
            return zip(candidate, trimmed).allSatisfy { expected, byte in
                let lower = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
                return lower == expected
            }
        }
    }
}
