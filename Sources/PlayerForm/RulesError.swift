/// Why a set of rules, or the configuration file they come from, is not accepted.
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
    /// The configuration has a key that is not one of ``RulesError/acceptedKeys``.
    case unknownKey(String)
    /// A key has a value of the wrong kind.
    case wrongType(key: String, expected: String)
    /// The configuration is not a JSON object.
    case notAnObject
    /// The configuration is not valid JSON.
    case malformedJSON(String)
    /// The configuration file cannot be read.
    case unreadable(path: String, reason: String)
    /// The configuration file has a problem; wraps the problem with the file's path.
    indirect case inFile(path: String, RulesError)

    /// The keys a configuration file may have.
    public static let acceptedKeys = [
        "name", "points", "step", "min", "max", "maxPointUpdates", "maxUploads", "forbiddenNames",
    ]

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
        case .unknownKey(let key):
            "unknown key \"\(key)\"; accepted keys: \(Self.acceptedKeys.joined(separator: ", "))"
        case .wrongType(let key, let expected):
            "\"\(key)\" must be \(expected)"
        case .notAnObject:
            "the configuration must be a JSON object, such as {\"max\": 500}"
        case .malformedJSON(let detail):
            "the configuration is not valid JSON: \(detail)"
        case .unreadable(let path, let reason):
            "cannot read configuration file \(path): \(reason)"
        case .inFile(let path, let error):
            "configuration file \(path): \(error)"
        }
    }
}
