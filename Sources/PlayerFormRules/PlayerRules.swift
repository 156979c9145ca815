/// The rules of the player form: the starting values, the stepper's configuration, the limits and
/// the forbidden names.
///
/// A value of this type is always consistent; the initializer checks it.
public struct PlayerRules: Sendable, Equatable {
    /// The name the form starts with and resets to.
    public let name: String
    /// The points the form starts with and resets to.
    public let points: Double
    /// How far one press of the stepper moves the points.
    public let step: Double
    /// The lowest valid number of points.
    public let min: Double
    /// The highest valid number of points.
    public let max: Double
    /// How many point updates the form accepts.
    public let maxPointUpdates: Int
    /// How many uploads the form accepts before it locks.
    public let maxUploads: Int
    /// The names nobody may use.
    public let forbiddenNames: ForbiddenNames

    /// The sample's defaults: "Colin", 100 points, step 1 in 0...10000, 10 point updates,
    /// 5 uploads, and the names "dag nabbit", "darn" and "poop" forbidden.
    public static let defaults = try! PlayerRules()

    /// Creates rules, checking that they are consistent.
    /// - Throws: ``RulesError`` naming the first value that is not accepted.
    public init(
        name: String = "Colin",
        points: Double = 100,
        step: Double = 1,
        min: Double = 0,
        max: Double = 10000,
        maxPointUpdates: Int = 10,
        maxUploads: Int = 5,
        forbiddenNames: [String] = ["dag nabbit", "darn", "poop"]
    ) throws(RulesError) {
        for (key, value) in [("points", points), ("step", step), ("min", min), ("max", max)]
        where !value.isFinite {
            throw .notFinite(key: key)
        }
        guard step > 0 else { throw .stepNotPositive(step) }
        guard min <= max else { throw .minAboveMax(min: min, max: max) }
        guard maxPointUpdates >= 0 else {
            throw .negativeLimit(key: "maxPointUpdates", value: maxPointUpdates)
        }
        guard maxUploads >= 0 else { throw .negativeLimit(key: "maxUploads", value: maxUploads) }
        if let blank = forbiddenNames.firstIndex(where: { PlayerName.comparisonKey($0).isEmpty }) {
            throw .blankForbiddenName(index: blank)
        }
        self.name = name
        self.points = points
        self.step = step
        self.min = min
        self.max = max
        self.maxPointUpdates = maxPointUpdates
        self.maxUploads = maxUploads
        self.forbiddenNames = ForbiddenNames(forbiddenNames)
    }

    /// These rules with some values replaced, checked again.
    public func with(
        step: Double? = nil, min: Double? = nil, max: Double? = nil, forbiddenNames: [String]? = nil
    ) throws(RulesError) -> PlayerRules {
        guard let forbiddenNames else {
            // The forbidden names stay as they are and were checked already: keep them instead of
            // normalizing every name again on each change of the stepper.
            let checked = try PlayerRules(
                name: name, points: points, step: step ?? self.step, min: min ?? self.min,
                max: max ?? self.max, maxPointUpdates: maxPointUpdates, maxUploads: maxUploads,
                forbiddenNames: [])
            return PlayerRules(checked, forbiddenNames: self.forbiddenNames)
        }
        return try PlayerRules(
            name: name, points: points, step: step ?? self.step, min: min ?? self.min,
            max: max ?? self.max, maxPointUpdates: maxPointUpdates, maxUploads: maxUploads,
            forbiddenNames: forbiddenNames)
    }

    /// `checked` with `forbiddenNames`, which were checked when they were first accepted.
    private init(_ checked: PlayerRules, forbiddenNames: ForbiddenNames) {
        name = checked.name
        points = checked.points
        step = checked.step
        min = checked.min
        max = checked.max
        maxPointUpdates = checked.maxPointUpdates
        maxUploads = checked.maxUploads
        self.forbiddenNames = forbiddenNames
    }

    /// Every reason why `name` and `points` are not valid under these rules; empty when valid.
    ///
    /// ```swift
    /// PlayerRules.defaults.validate(name: " DARN ", points: -1)
    /// // [.forbiddenName(" DARN "), .belowMin(points: -1, min: 0)]
    /// ```
    public func validate(name: String, points: Double) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        if let issue = nameIssue(name) { issues.append(issue) }
        if let issue = pointsIssue(points) { issues.append(issue) }
        return issues
    }

    /// Whether `name` and `points` are valid under these rules: `validate(name:points:).isEmpty`,
    /// without building the list, and without looking at the name when the points already fail.
    public func isValid(name: String, points: Double) -> Bool {
        pointsIssue(points) == nil && nameIssue(name) == nil
    }

    /// Whether the name whose UTF-8 bytes are `name` and `points` are valid under these rules:
    /// `isValid(name: String(decoding: name, as: UTF8.self), points: points)`.
    ///
    /// An ASCII name, the common case, is answered on its bytes in one pass, without making a
    /// String: it is blank when every byte is whitespace, holds a control character when a byte is
    /// below 0x20 or is 0x7F, and is matched with the forbidden names. A name of up to 16 bytes is
    /// looked at as two 64-bit words, a longer one eight bytes at a time.
    public func isValid(utf8Name name: UnsafeBufferPointer<UInt8>, points: Double) -> Bool {
        // `min` and `max` are finite, so this also refuses NaN (every comparison with it is false)
        // and both infinities, as `pointsIssue` does, in two comparisons.
        guard points >= min && points <= max else { return false }
        // The empty name is blank.
        guard name.count > 0, let base = name.baseAddress else { return false }
        if name.count <= 16 {
            return isValid(shortName: base, count: name.count) ?? isValid(beyondASCII: name)
        }
        // Longer names eight bytes at a time, the last word ending with the name: bytes beyond
        // ASCII, control characters, and whether any byte is not a space, as in
        // `isValid(shortName:count:)`.
        var highs: UInt64 = 0
        var controls: UInt64 = 0
        var solid: UInt64 = 0
        var offset = 0
        while offset < name.count {
            let word = Self.word(base + Swift.min(offset, name.count &- 8))
            highs |= word
            controls |= (word &- 0x2020_2020_2020_2020) & ~word
            controls |= Self.zeroBytes(word ^ 0x7F7F_7F7F_7F7F_7F7F)
            solid |= word ^ 0x2020_2020_2020_2020
            offset &+= 8
        }
        if highs & 0x8080_8080_8080_8080 != 0 { return isValid(beyondASCII: name) }
        // Whitespace other than the space is a control character.
        guard controls & 0x8080_8080_8080_8080 == 0, solid != 0 else { return false }
        return !forbiddenNames.contains(asciiName: name)
    }

    /// The codes of ``validate(name:points:)`` for the name whose UTF-8 bytes are `name`.
    ///
    /// Without the messages: the name's code (nil when it breaks no rule) and the points'. A
    /// String is made only of a name that breaks a rule; a report counting reasons needs no more.
    public func issueCodes(
        utf8Name name: UnsafeBufferPointer<UInt8>, points: Double
    ) -> (name: ValidationIssue.Code?, points: ValidationIssue.Code?) {
        (asciiNameCode(name) ?? utf8NameCode(name), pointsIssue(points)?.code)
    }

    /// The code of `nameIssue` for an ASCII name, on its bytes, in the rule's order: blank, then
    /// forbidden, then control characters; `.some(nil)` when it breaks no rule, nil when a byte
    /// is beyond ASCII.
    private func asciiNameCode(_ name: UnsafeBufferPointer<UInt8>) -> ValidationIssue.Code?? {
        var blank = true
        var control = false
        for byte in name {
            if byte >= 0x80 { return nil }
            // Whitespace in ASCII is the space and 0x09...0x0D, which are also control characters.
            if byte != 0x20 && !(0x09...0x0D).contains(byte) { blank = false }
            if byte < 0x20 || byte == 0x7F { control = true }
        }
        if blank { return .some(.emptyName) }
        if forbiddenNames.contains(asciiName: name) { return .some(.forbiddenName) }
        return .some(control ? .controlCharacters : nil)
    }

    /// The code of `nameIssue` for a name beyond ASCII: on its bytes when it breaks no rule, else
    /// from the String.
    private func utf8NameCode(_ name: UnsafeBufferPointer<UInt8>) -> ValidationIssue.Code? {
        // A name the byte rules find forbidden is never blank, and forbidden comes before control
        // characters.
        if forbiddenNames.contains(utf8Name: name) == true { return .forbiddenName }
        // `min` is finite and, with `min <= max`, within the limits: only the name can fail here.
        if min <= max && isValid(utf8Name: name, points: min) { return nil }
        return nameIssue(String(decoding: name, as: UTF8.self))?.code
    }

    /// The bytes of `word` that are zero, as their high bits; a byte above a zero byte may be
    /// marked too, but the lowest mark is always a zero byte.
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    /// Whether the ASCII name of `count` bytes at `base`, 1 to 16 of them, is valid; nil when a
    /// byte is beyond ASCII.
    ///
    /// The bytes are read as two words, the first eight and the last eight (the same word, with
    /// zeros past the name, when there are at most eight), and each test is done on all eight
    /// bytes of a word at once. Whitespace other than the space is a control character, so a name
    /// without control characters is blank exactly when it is all spaces, and trimming it drops
    /// only spaces.
    @inline(__always)
    private func isValid(shortName base: UnsafePointer<UInt8>, count: Int) -> Bool? {
        let first: UInt64
        let last: UInt64
        let kept: UInt64
        if count >= 8 {
            first = Self.word(base)
            last = Self.word(base + (count &- 8))
            kept = UInt64.max
        } else {
            first = Self.word(base, count: count)
            last = first
            kept = UInt64.max &>> UInt64(64 &- 8 &* count)
        }
        let highs = 0x8080_8080_8080_8080 & kept
        guard (first | last) & highs == 0 else { return nil }
        // Below 0x20: subtracting 0x20 borrows, in a byte that had no high bit (every byte here).
        // A borrow may mark the byte above a marked one, never one below it, so the first mark is
        // always a real one.
        let below = 0x2020_2020_2020_2020 as UInt64
        let delete = 0x7F7F_7F7F_7F7F_7F7F as UInt64
        let controls = ((first &- below) & ~first) | ((last &- below) & ~last)
        let deletes = Self.zeroBytes(first ^ delete) | Self.zeroBytes(last ^ delete)
        guard (controls | deletes) & highs == 0 else { return false }
        // All spaces, or empty.
        guard (first ^ below) & kept != 0 || (last ^ below) & kept != 0 else { return false }
        // A space at either end is trimmed the long way; the name's key is otherwise the name with
        // its letters lowercased.
        let lastByte = (last &>> UInt64(8 &* (count >= 8 ? 7 : count &- 1))) & 0xFF
        guard first & 0xFF != 0x20 && lastByte != 0x20 else {
            return !forbiddenNames.contains(asciiName: UnsafeBufferPointer(start: base, count: count))
        }
        return !forbiddenNames.contains(
            shortASCIIFirst: Self.lowercased(first), last: Self.lowercased(last), count: count)
    }

    /// The ASCII bytes of `word` with the letters A to Z lowercased, all at once: adding 0x3F sets
    /// the high bit of a byte from A up, adding 0x25 that of a byte past Z, and neither carries
    /// into the next byte.
    @inline(__always)
    static func lowercased(_ word: UInt64) -> UInt64 {
        let upper = (word &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(word &+ 0x2525_2525_2525_2525) & 0x8080_8080_8080_8080
        return word | upper &>> 2
    }

    /// The eight bytes at `base`, the first in the lowest byte.
    @inline(__always)
    private static func word(_ base: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self))
    }

    /// The `count` bytes at `base`, 1 to 8 of them, the first in the lowest byte and zeros above
    /// the last: read as two loads that may overlap, never past the last byte.
    @inline(__always)
    private static func word(_ base: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        let raw = UnsafeRawPointer(base)
        if count >= 4 {
            let low = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            let high = UInt64(
                UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
            return low | high &<< UInt64(8 &* (count &- 4))
        }
        if count >= 2 {
            let low = UInt64(UInt16(littleEndian: raw.loadUnaligned(as: UInt16.self)))
            let high = UInt64(
                UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)))
            return low | high &<< UInt64(8 &* (count &- 2))
        }
        return UInt64(base[0])
    }

    /// Whether the name whose UTF-8 bytes are `name`, not all ASCII, is valid: on its bytes when
    /// `ForbiddenNames.contains(utf8Name:)` can tell whether it is forbidden (such a name is never
    /// blank), else by the String rules.
    private func isValid(beyondASCII name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let forbidden = forbiddenNames.contains(utf8Name: name) else {
            return nameIssue(String(decoding: name, as: UTF8.self)) == nil
        }
        if forbidden { return false }
        // The control rule itself. In UTF-8 every C1 character starts with 0xC2 and both
        // separators with 0xE2, so a name without those bytes, C0 and DEL has none; else the
        // scalars are decoded, each byte that starts none passed over as `String(decoding:as:)`
        // makes it a replacement character.
        let mayHoldControl = name.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }
        guard mayHoldControl else { return true }
        var index = 0
        while index < name.count {
            guard let (scalar, length) = ForbiddenNames.scalar(in: name, at: index) else {
                index += 1
                continue
            }
            if Self.isControl(scalar) { return false }
            index += length
        }
        return true
    }

    private func nameIssue(_ name: String) -> ValidationIssue? {
        if Self.isBlank(name) { return .emptyName }
        if forbiddenNames.contains(name) { return .forbiddenName(name) }
        if let characters = Self.controlCharacters(in: name) { return .controlCharacters(characters) }
        return nil
    }

    private func pointsIssue(_ points: Double) -> ValidationIssue? {
        if !points.isFinite { return .notFinite }
        if points < min { return .belowMin(points: points, min: min) }
        if points > max { return .aboveMax(points: points, max: max) }
        return nil
    }

    /// Whether `name` has nothing but whitespace and default-ignorable code points (true for the
    /// empty name): whether its ``PlayerName/comparisonKey(_:)`` is empty.
    ///
    /// A character is whitespace when its first scalar is, and an ASCII scalar after whitespace
    /// starts a character of its own, so ASCII bytes are answered without breaking the name into
    /// characters.
    static func isBlank(_ name: String) -> Bool {
        for byte in name.utf8 {
            if byte >= 0x80 {
                if let first = name.unicodeScalars.first, !ScalarFacts.isWhitespace(first),
                    !PlayerName.isDefaultIgnorable(first)
                {
                    return false
                }
                return PlayerName.comparisonKey(name).isEmpty
            }
            if byte != 0x20 && !(0x09...0x0D).contains(byte) { return false }
        }
        return true
    }

    /// The control characters of `name` (see ``ValidationIssue/controlCharacters(_:)``), each
    /// once, in the order they first appear; nil when it has none.
    static func controlCharacters(in name: String) -> String? {
        // In UTF-8 every C1 character starts with 0xC2, and both separators with 0xE2: names
        // without those bytes, and without C0 and DEL, are answered without decoding.
        let mayHold = name.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }
        guard mayHold else { return nil }
        var found = String.UnicodeScalarView()
        for scalar in name.unicodeScalars where isControl(scalar) && !found.contains(scalar) {
            found.append(scalar)
        }
        return found.isEmpty ? nil : String(found)
    }

    /// Whether `scalar` is a control character a name may not hold: C0, DEL, C1, or the line or
    /// paragraph separator.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
            || scalar.value == 0x2029
    }

    /// Whether `name` is forbidden.
    public func isForbidden(_ name: String) -> Bool {
        forbiddenNames.contains(name)
    }
}
