import Foundation

/// Checks JSON values against a JSON Schema, for the keywords the committed schemas use: `type`
/// (one or several), `enum`, `required`, `properties`, `additionalProperties: false`, `items`,
/// `minItems`, `maxItems`, `minimum`, `maximum`, and `$ref` to `#/$defs/NAME`.
///
/// A keyword it does not know is a failure, so a schema cannot come to say more than is checked.
struct SchemaCheck {
    let root: [String: Any]

    /// The schema in the file at `path`, relative to the package's root.
    init(file path: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent(path))
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        self.root = root
    }

    /// Every way `text`, one JSON value, breaks the schema: empty when it conforms.
    func problems(_ text: String) -> [String] {
        guard
            let value = try? JSONSerialization.jsonObject(
                with: Data(text.utf8), options: [.fragmentsAllowed])
        else { return ["not JSON: \(text)"] }
        var found: [String] = []
        check(value, against: root, at: "$", into: &found)
        return found
    }

    private static let known: Set<String> = [
        "$schema", "title", "description", "type", "enum", "required", "properties", "additionalProperties",
        "items", "minItems", "maxItems", "minimum", "maximum", "$ref", "$defs",
    ]

    private func check(
        _ value: Any, against schema: [String: Any], at path: String, into found: inout [String]
    ) {
        for key in schema.keys where !Self.known.contains(key) {
            found.append("\(path): the schema uses \(key), which this check does not know")
        }
        if let reference = schema["$ref"] as? String {
            let name = String(reference.dropFirst("#/$defs/".count))
            guard let defs = root["$defs"] as? [String: Any], let target = defs[name] as? [String: Any] else {
                found.append("\(path): unknown reference \(reference)")
                return
            }
            check(value, against: target, at: path, into: &found)
        }
        if let type = schema["type"] {
            let types = (type as? [String]) ?? [(type as? String) ?? ""]
            if !types.contains(where: { Self.isOfType(value, $0) }) {
                found.append("\(path): \(value) is not of type \(types)")
                return
            }
        }
        if let choices = schema["enum"] as? [Any],
            !choices.contains(where: { ($0 as? NSObject)?.isEqual(value) == true })
        {
            found.append("\(path): \(value) is not one of \(choices)")
        }
        if !(value is String), let number = value as? NSNumber {
            if let minimum = schema["minimum"] as? Double, number.doubleValue < minimum {
                found.append("\(path): \(number) is below \(minimum)")
            }
            if let maximum = schema["maximum"] as? Double, number.doubleValue > maximum {
                found.append("\(path): \(number) is above \(maximum)")
            }
        }
        if let object = value as? [String: Any] {
            for key in (schema["required"] as? [String]) ?? [] where object[key] == nil {
                found.append("\(path): lacks \(key)")
            }
            let properties = (schema["properties"] as? [String: Any]) ?? [:]
            for (key, item) in object {
                if let property = properties[key] as? [String: Any] {
                    check(item, against: property, at: "\(path).\(key)", into: &found)
                } else if (schema["additionalProperties"] as? Bool) == false {
                    found.append("\(path): \(key) is not allowed")
                }
            }
        }
        if let array = value as? [Any] {
            if let least = schema["minItems"] as? Int, array.count < least {
                found.append("\(path): fewer than \(least) items")
            }
            if let most = schema["maxItems"] as? Int, array.count > most {
                found.append("\(path): more than \(most) items")
            }
            if let items = schema["items"] as? [String: Any] {
                for (index, item) in array.enumerated() {
                    check(item, against: items, at: "\(path)[\(index)]", into: &found)
                }
            }
        }
    }

    /// Whether `value` is of the JSON `type`; the schemas hold no booleans, so none is told apart.
    private static func isOfType(_ value: Any, _ type: String) -> Bool {
        switch type {
        case "object": value is [String: Any]
        case "array": value is [Any]
        case "string": value is String
        case "null": value is NSNull
        case "integer":
            !(value is String)
                && (value as? NSNumber).map { $0.doubleValue == $0.doubleValue.rounded() } ?? false
        case "number": !(value is String) && value is NSNumber
        default: false
        }
    }
}
