/// A line of output made as bytes.
///
/// Appending to a byte array costs a copy and a capacity check, where each `+=` on a String also
/// updates its count and flags: that showed in `show`, which is written piece by piece after many
/// commands of a script.
struct LineBuilder {
    private var bytes: [UInt8] = []

    /// An empty line with room for `capacity` bytes.
    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends `text`.
    static func += (line: inout LineBuilder, text: String) {
        line.bytes.append(contentsOf: text.utf8)
    }

    /// The line as text; every piece appended was text, so the bytes are valid UTF-8.
    var text: String {
        String(decoding: bytes, as: UTF8.self)
    }
}
