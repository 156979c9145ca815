import Foundation

extension PlayerRules {
    /// Reads rules from a JSON object whose keys are all optional: `name`, `points`, `step`,
    /// `min`, `max`, `maxPointUpdates`, `maxUploads`, `forbiddenNames`. Missing keys keep the
    /// defaults.
    ///
    /// ```json
    /// {"max": 500, "forbiddenNames": ["darn", "heck"]}
    /// ```
    /// - Throws: ``RulesError`` naming the key that is wrong and what it accepts; unknown keys
    ///   are errors.
    public init(configuration data: Data) throws(RulesError) {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            throw .malformedJSON(Self.describe(error))
        }
        guard let fields = object as? [String: Any] else { throw .notAnObject }
        for key in fields.keys.sorted() where !RulesError.acceptedKeys.contains(key) {
            throw .unknownKey(key)
        }
        let defaults = PlayerRules.defaults
        try self.init(
            name: Self.string(fields, "name") ?? defaults.name,
            points: Self.number(fields, "points") ?? defaults.points,
            step: Self.number(fields, "step") ?? defaults.step,
            min: Self.number(fields, "min") ?? defaults.min,
            max: Self.number(fields, "max") ?? defaults.max,
            maxPointUpdates: Self.count(fields, "maxPointUpdates") ?? defaults.maxPointUpdates,
            maxUploads: Self.count(fields, "maxUploads") ?? defaults.maxUploads,
            forbiddenNames: Self.strings(fields, "forbiddenNames") ?? defaults.forbiddenNames.names)
    }

    /// Reads rules from the JSON configuration file at `path`.
    /// - Throws: ``RulesError/unreadable(path:reason:)`` when the file cannot be read, or
    ///   ``RulesError/inFile(path:_:)`` wrapping what is wrong with its content.
    public init(configurationFile path: String) throws(RulesError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path: path, reason: Self.describe(error))
        }
        do {
            try self.init(configuration: data)
        } catch {
            throw .inFile(path: path, error)
        }
    }

    /// JSON `true` and `false` arrive as NSNumber too; their type encoding is "c".
    private static func isBool(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    private static func string(_ fields: [String: Any], _ key: String) throws(RulesError) -> String? {
        guard let value = fields[key] else { return nil }
        guard let text = value as? String else { throw .wrongType(key: key, expected: "a string") }
        return text
    }

    private static func number(_ fields: [String: Any], _ key: String) throws(RulesError) -> Double? {
        guard let value = fields[key] else { return nil }
        guard !isBool(value), let number = value as? NSNumber else {
            throw .wrongType(key: key, expected: "a number")
        }
        return number.doubleValue
    }

    private static func count(_ fields: [String: Any], _ key: String) throws(RulesError) -> Int? {
        guard let value = fields[key] else { return nil }
        guard !isBool(value), let number = value as? NSNumber,
            number.doubleValue == number.doubleValue.rounded(), abs(number.doubleValue) < 1e9
        else { throw .wrongType(key: key, expected: "a whole number of 0 or more") }
        return number.intValue
    }

    private static func strings(_ fields: [String: Any], _ key: String) throws(RulesError) -> [String]? {
        guard let value = fields[key] else { return nil }
        guard let names = value as? [Any], names.allSatisfy({ $0 is String }) else {
            throw .wrongType(key: key, expected: "an array of strings")
        }
        return names.map { $0 as! String }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? CocoaError, let underlying = error.underlying as? POSIXError {
            return String(cString: strerror(underlying.code.rawValue))
        }
        let text = (error as NSError).localizedDescription
        return text.isEmpty ? "\(error)" : text
    }
}
