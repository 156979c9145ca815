/// The forbidden names' keys that are ASCII and 1 to 16 bytes long, each held as two 64-bit words:
/// what a short ASCII name is compared with, all of its bytes at once.
///
/// A name of 8 bytes or more is its first eight bytes and its last eight (overlapping when it has
/// fewer than 16); a shorter one is its bytes in the low end of one word, zeros above them, twice.
/// A short list is compared whole, without a branch for each key; a longer one is a hash table.
struct ShortASCIIKeys: Sendable {
    /// A key's words and length; a length of 0 marks an empty slot of the table.
    struct Key: Equatable {
        var first: UInt64
        var last: UInt64
        var count: Int
    }

    /// Lists up to this long are compared whole.
    static let scanned = 8

    /// The keys of a short list, or the table's slots; a power of two of them in a table.
    private let keys: [Key]
    private let hashed: Bool
    /// Bit n is set when a key of n bytes is held: most names have a length no key has.
    private let lengths: UInt32
    /// The shift that leaves a hash's top bits, as many as index the table.
    private let shift: UInt64

    /// The keys of `names`, normalized keys as bytes, that are ASCII and 1 to 16 bytes long.
    init(_ names: [[UInt8]]) {
        var keys: [Key] = []
        for name in names where !name.isEmpty && name.count <= 16 && name.allSatisfy({ $0 < 0x80 }) {
            let key = name.withUnsafeBufferPointer { Self.key($0.baseAddress!, count: name.count) }
            if !keys.contains(key) { keys.append(key) }
        }
        lengths = keys.reduce(0) { $0 | 1 << UInt32($1.count) }
        guard keys.count > Self.scanned else {
            self.keys = keys
            self.hashed = false
            self.shift = 64
            return
        }
        // At most a quarter of the slots taken, so that most probes end at their first slot.
        var bits = 3
        while 1 << bits < 4 * keys.count { bits += 1 }
        var slots = [Key](repeating: Key(first: 0, last: 0, count: 0), count: 1 << bits)
        let shift = UInt64(64 - bits)
        let mask = (1 << bits) - 1
        for key in keys {
            var index = Self.slot(first: key.first, last: key.last, count: key.count, shift: shift)
            while slots[index].count != 0 { index = (index + 1) & mask }
            slots[index] = key
        }
        self.keys = slots
        self.hashed = true
        self.shift = shift
    }

    /// The words of the `count` bytes at `base`, 1 to 16 of them, as described above.
    static func key(_ base: UnsafePointer<UInt8>, count: Int) -> Key {
        var first: UInt64 = 0
        var last: UInt64 = 0
        if count >= 8 {
            for offset in 0..<8 {
                first |= UInt64(base[offset]) << UInt64(8 * offset)
                last |= UInt64(base[count - 8 + offset]) << UInt64(8 * offset)
            }
        } else {
            for offset in 0..<count { first |= UInt64(base[offset]) << UInt64(8 * offset) }
            last = first
        }
        return Key(first: first, last: last, count: count)
    }

    /// Whether the ASCII name whose lowercased words are `first` and `last` and whose length is
    /// `count` (1 to 16) is one of the keys.
    @inline(__always)
    func contains(first: UInt64, last: UInt64, count: Int) -> Bool {
        guard lengths & 1 &<< UInt32(count) != 0 else { return false }
        if !hashed {
            // Every key compared, without a branch: a key differs from the name by the bits in
            // which its words and length differ, and the least difference is zero for a match.
            var least = UInt64.max
            for key in keys {
                let difference =
                    (key.first ^ first) | (key.last ^ last) | UInt64(truncatingIfNeeded: key.count ^ count)
                least = Swift.min(least, difference)
            }
            return least == 0
        }
        let mask = keys.count &- 1
        var index = Self.slot(first: first, last: last, count: count, shift: shift)
        while true {
            let key = keys[index]
            if key.count == 0 { return false }
            if key.first == first && key.last == last && key.count == count { return true }
            index = (index &+ 1) & mask
        }
    }

    @inline(__always)
    private static func slot(first: UInt64, last: UInt64, count: Int, shift: UInt64) -> Int {
        let mixed = (first &* 0x9E37_79B9_7F4A_7C15) ^ (last &+ UInt64(count)) &* 0xC2B2_AE3D_27D4_EB4F
        return Int(truncatingIfNeeded: (mixed &* 0x1656_67B1_9E37_79F9) &>> shift)
    }
}
