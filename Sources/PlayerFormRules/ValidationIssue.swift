/// Why a player's name and points are not valid, with a message for the user.
public enum ValidationIssue: Hashable, Sendable, CustomStringConvertible {
    /// The name is empty or has only whitespace and default-ignorable code points.
    case emptyName
    /// The name contains control characters: C0 (U+0000...U+001F, which include tab, line feed
    /// and carriage return), DEL (U+007F), C1 (U+0080...U+009F), or the line and paragraph
    /// separators U+2028 and U+2029. A name is one line of visible text. Holds each such character
    /// of the name once, in the order they first appear.
    case controlCharacters(String)
    /// The name is on the forbidden list (ignoring case, surrounding whitespace and compatibility forms).
    case forbiddenName(String)
    /// The points are below the minimum.
    case belowMin(points: Double, min: Double)
    /// The points are above the maximum.
    case aboveMax(points: Double, max: Double)
    /// The points are not a finite number (NaN or infinity).
    case notFinite

    /// A stable code for machine-readable output.
    public enum Code: String, CaseIterable, Sendable, Codable {
        case emptyName, controlCharacters, forbiddenName, belowMin, aboveMax, notFinite
    }

    /// The stable code of this issue.
    public var code: Code {
        switch self {
        case .emptyName: .emptyName
        case .controlCharacters: .controlCharacters
        case .forbiddenName: .forbiddenName
        case .belowMin: .belowMin
        case .aboveMax: .aboveMax
        case .notFinite: .notFinite
        }
    }

    /// The message shown to the user.
    ///
    /// It may contain the name as typed; escape it before it reaches a terminal.
    public var message: String {
        switch self {
        case .emptyName:
            "The name is empty."
        case .controlCharacters(let characters):
            "The name contains control characters (\(characters)): a name is one line of visible text."
        case .forbiddenName(let name):
            "The name \(name) has been forbidden."
        case .belowMin(let points, let min):
            "Points \(PointsFormat.text(points)) are below the minimum of \(PointsFormat.text(min))."
        case .aboveMax(let points, let max):
            "Points \(PointsFormat.text(points)) are above the maximum of \(PointsFormat.text(max))."
        case .notFinite:
            "Points must be a finite number."
        }
    }

    /// The message: ``message``.
    public var description: String { message }
}
