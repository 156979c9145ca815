import CustomDump
import PlayerFormRules

/// In a tester's diff a validation issue shows as the case it is (`.emptyName`), not as its message:
/// a dump shows a case without values by its description, which here is the sentence for the user.
extension ValidationIssue: CustomDumpStringConvertible {
    /// The issue's case, such as `.emptyName`, in place of its message.
    public var customDumpDescription: String {
        switch self {
        case .emptyName: ".emptyName"
        case .notFinite: ".notFinite"
        case .controlCharacters(let characters):
            ".controlCharacters(\(String(customDumping: characters)))"
        case .forbiddenName(let name): ".forbiddenName(\(String(customDumping: name)))"
        case .belowMin(let points, let min):
            ".belowMin(points: \(String(customDumping: points)), min: \(String(customDumping: min)))"
        case .aboveMax(let points, let max):
            ".aboveMax(points: \(String(customDumping: points)), max: \(String(customDumping: max)))"
        }
    }
}
