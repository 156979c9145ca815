import PlayerFormJSON

/// Decoded string content for a parser of lines, in storage it owns: appending checks nothing
/// but a bound, since ``reserve(_:)`` with a line's length before reading it leaves room for any
/// string of the line decoded (never longer than its bytes in the line).
///
/// Copies share storage until ``reserve(_:)``, which gives a copy storage of its own, so a
/// parser that calls it before each line keeps value semantics.
struct LineScratch: JSONDecodedText {
    private final class Storage {
        let bytes: UnsafeMutableBufferPointer<UInt8>

        init(capacity: Int) { bytes = .allocate(capacity: capacity) }

        deinit { bytes.deallocate() }
    }

    private var storage: Storage
    /// The start of `storage`, kept apart so that appending does not go through the class.
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    /// Storage for `capacity` bytes to start with.
    init(capacity: Int) {
        storage = Storage(capacity: Swift.max(capacity, 1))
        base = storage.bytes.baseAddress!
        self.capacity = storage.bytes.count
    }

    /// Makes room for `capacity` bytes in all, in storage no copy of this scratch shares; the
    /// bytes held may be lost.
    @inline(__always)
    mutating func reserve(_ capacity: Int) {
        guard capacity > self.capacity || !isKnownUniquelyReferenced(&storage) else { return }
        // Grown by doubling; a copy's storage of its own is only as large as it was.
        storage = Storage(
            capacity: capacity > self.capacity ? Swift.max(capacity, self.capacity * 2) : self.capacity)
        base = storage.bytes.baseAddress!
        self.capacity = storage.bytes.count
        count = 0
    }

    /// The bytes held; they stay until the scratch is next changed.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    mutating func removeAllKeepingStorage() { count = 0 }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        precondition(count < capacity, "scratch too small for the line")
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        precondition(bytes.count <= capacity - count, "scratch too small for the line")
        guard let source = bytes.baseAddress else { return }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }
}
