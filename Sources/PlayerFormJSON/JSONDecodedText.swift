/// Where ``JSONCursor`` puts the content of a string that has escapes, decoded: a `[UInt8]`, or
/// storage a reader owns that needs no checks when it is appended to.
///
/// The decoded content of a string is never longer than the string's bytes in the input, so a
/// reader whose storage holds as many bytes as its input never runs out of room.
public protocol JSONDecodedText {
    /// Forgets the bytes held, keeping the storage.
    mutating func removeAllKeepingStorage()
    /// Appends `byte`.
    mutating func append(_ byte: UInt8)
    /// Appends `bytes`.
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
}

extension Array: JSONDecodedText where Element == UInt8 {
    /// Forgets the bytes held, keeping the storage.
    @inlinable
    public mutating func removeAllKeepingStorage() { removeAll(keepingCapacity: true) }
}
