import Crypto
import Foundation
import PlayerFormRules
import PlayerFormScores

/// The id of a record that a file gives without one (a roster from a spreadsheet): a name-based
/// UUID (RFC 9562, version 5) of the player's comparison key, the points and the time in
/// milliseconds, so that the same record read again has the same id and is kept once.
enum UploadID {
    /// The namespace of these ids: a UUID of this program's own.
    static let namespace: [UInt8] = Array(
        withUnsafeBytes(of: UUID(uuidString: "6F1B7D0E-3C2A-4E55-9B1D-5A0C8E7F2D41")!.uuid) { Array($0) })

    static func make(name: String, points: Double, uploadedAt: Date) -> UUID {
        let text =
            PlayerName.comparisonKey(name) + "\u{1F}" + String(points.bitPattern) + "\u{1F}"
            + String(Timestamp.milliseconds(uploadedAt))
        var hash = Insecure.SHA1()
        hash.update(data: namespace)
        hash.update(data: Array(text.utf8))
        var bytes = Array(hash.finalize().prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x50
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
