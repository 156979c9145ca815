/// Why a set of rules is not accepted. (A rules file's own problems are ``RulesFileError``s.)
public enum RulesError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A number is NaN or infinite.
    case notFinite(key: String)
    /// The step is zero or negative.
    case stepNotPositive(Double)
    /// The minimum is above the maximum.
    case minAboveMax(min: Double, max: Double)
    /// A limit is negative.
    case negativeLimit(key: String, value: Int)
    /// A forbidden name is empty or only whitespace.
    case blankForbiddenName(index: Int)

    /// What is wrong with the rules, naming the key.
    public var description: String {
        switch self {
        case .notFinite(let key):
            "\"\(key)\" must be a finite number"
        case .stepNotPositive(let step):
            "\"step\" must be greater than 0, got \(PointsFormat.text(step))"
        case .minAboveMax(let min, let max):
            "\"min\" (\(PointsFormat.text(min))) must not be above \"max\" (\(PointsFormat.text(max)))"
        case .negativeLimit(let key, let value):
            "\"\(key)\" must be a whole number of 0 or more, got \(value)"
        case .blankForbiddenName(let index):
            "\"forbiddenNames\" entry \(index + 1) is empty; every forbidden name needs a visible character"
        }
    }
}
