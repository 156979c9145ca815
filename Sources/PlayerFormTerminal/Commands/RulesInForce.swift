import PlayerForm
import PlayerFormRules
import PlayerFormText

/// The rules a session runs under, read from the form's view model, with what is left of its
/// limits and where the rules came from: what `rules` prints and `help COMMAND` quotes.
public struct RulesInForce: Sendable, Equatable {
    /// The rules as the form has them now (step, min and max may have been changed).
    public let rules: PlayerRules
    /// Point updates not spent yet.
    public let pointUpdatesLeft: Int
    /// Uploads not spent yet.
    public let uploadsLeft: Int
    /// Where the rules came from: `defaults`, or the rules file's path.
    public let origin: String

    /// How many forbidden names `help` lists before it refers to `rules` for the rest.
    public static let namesInHelp = 10

    /// The rules of `form` now, which came from `origin`.
    public init(form: PlayerViewModel, origin: String) {
        self.rules = form.rules.value
        self.pointUpdatesLeft = form.pointUpdatesRemaining.value
        self.uploadsLeft = form.uploadsRemaining.value
        self.origin = origin
    }

    /// The forbidden names, quoted and escaped, at most `limit` of them and a count of the rest.
    public func forbiddenNamesText(limit: Int = .max) -> String {
        let names = rules.forbiddenNames.names
        guard !names.isEmpty else { return "none" }
        var text = names.prefix(limit).map(TerminalText.quoted).joined(separator: ", ")
        if names.count > limit { text += " and \(names.count - limit) more (rules lists them all)" }
        return text
    }

    /// What `rules` prints, one rule a line.
    public var lines: [String] {
        [
            "step: " + PointsFormat.text(rules.step),
            "min: " + PointsFormat.text(rules.min),
            "max: " + PointsFormat.text(rules.max),
            "point updates: at most \(rules.maxPointUpdates) (\(pointUpdatesLeft) left)",
            "uploads: at most \(rules.maxUploads) (\(uploadsLeft) left)",
            "forbidden names: " + forbiddenNamesText()
                + " (compared ignoring case, surrounding spaces, compatibility forms and invisible characters)",
            "from: " + (origin == "defaults" ? "defaults" : TerminalText.escaped(origin)),
        ]
    }

    /// What `rules --json` prints: one object with the keys `step`, `min`, `max`,
    /// `maxPointUpdates`, `pointUpdatesRemaining`, `maxUploads`, `uploadsRemaining`,
    /// `forbiddenNames` and `source` (`"defaults"` or the rules file's path), in that order.
    public var json: String {
        "{\"step\":" + FormRenderer.jsonNumber(rules.step) + ",\"min\":" + FormRenderer.jsonNumber(rules.min)
            + ",\"max\":" + FormRenderer.jsonNumber(rules.max)
            + ",\"maxPointUpdates\":\(rules.maxPointUpdates)"
            + ",\"pointUpdatesRemaining\":\(pointUpdatesLeft),\"maxUploads\":\(rules.maxUploads)"
            + ",\"uploadsRemaining\":\(uploadsLeft),\"forbiddenNames\":["
            + rules.forbiddenNames.names.map(JSONText.quoted).joined(separator: ",") + "],\"source\":"
            + JSONText.quoted(origin) + "}"
    }

    private var bounds: String {
        "from \(PointsFormat.text(rules.min)) to \(PointsFormat.text(rules.max))"
    }

    private var updates: String {
        "at most \(rules.maxPointUpdates) point updates (\(pointUpdatesLeft) left)"
    }

    private var forbidden: String {
        "the forbidden names (" + forbiddenNamesText(limit: Self.namesInHelp) + ")"
    }

    /// The rule of the form that governs `command`, as a sentence; nil for a command no rule
    /// governs.
    ///
    /// Each command's entry in ``CommandCatalog`` names its rule.
    public func rule(for command: String) -> String? {
        CommandCatalog.entry(named: command)?.rule(in: self)
    }

    /// The rule of `name`.
    var nameRule: String {
        "Rule: a valid name is not blank and is none of " + forbidden + "."
    }

    /// The rule of `up` and `down`.
    var pressRule: String {
        "Rule: " + updates + "; a press moves the points by the step (" + PointsFormat.text(rules.step)
            + ") and keeps them " + bounds + "."
    }

    /// The rule of `points`.
    var pointsRule: String {
        "Rule: " + updates + "; the points are kept " + bounds + "."
    }

    /// The rule of `step`, `min` and `max`.
    var stepperRule: String {
        "Rule: now step \(PointsFormat.text(rules.step)), min \(PointsFormat.text(rules.min)),"
            + " max \(PointsFormat.text(rules.max)); the step must be above 0 and min may not exceed max."
    }

    /// The rule of `upload`.
    var uploadRule: String {
        "Rule: at most \(rules.maxUploads) uploads (\(uploadsLeft) left), after which the form"
            + " locks; only a valid form uploads: a name that is not blank and is none of " + forbidden
            + ", and points " + bounds + "."
    }

    /// The rule of `reset`.
    var resetRule: String {
        "Rule: " + updates + " and at most \(rules.maxUploads) uploads (\(uploadsLeft) left),"
            + " which reset does not give back."
    }

    /// The rule of `add`.
    var addRule: String {
        "Rule: as for upload, a name that is not blank and is none of " + forbidden + ", and points "
            + bounds + "."
    }
}

/// Breaks text into lines at spaces.
enum WordWrap {
    /// `text` in lines of at most `width` terminal columns (at least 20).
    ///
    /// Each line starts with `indent` and is broken between words; a word wider than a line is
    /// broken where the line ends, between characters. Widths are display widths: a wide
    /// character takes two columns.
    static func lines(_ text: String, width: Int, indent: String = "") -> [String] {
        let room = Swift.max(20, width) - TerminalText.width(indent)
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in text.split(separator: " ") {
            var word = Substring(word)
            var wordWidth = TerminalText.width(word)
            if !line.isEmpty, lineWidth + 1 + wordWidth <= room {
                line += " " + word
                lineWidth += 1 + wordWidth
                continue
            }
            if !line.isEmpty { lines.append(indent + line) }
            while wordWidth > room {
                var end = word.startIndex
                var headWidth = 0
                while end < word.endIndex {
                    let columns = TerminalText.width(of: word[end])
                    if headWidth + columns > room, end > word.startIndex { break }
                    headWidth += columns
                    end = word.index(after: end)
                }
                lines.append(indent + word[..<end])
                word = word[end...]
                wordWidth -= headWidth
            }
            line = String(word)
            lineWidth = wordWidth
        }
        if !line.isEmpty || lines.isEmpty { lines.append(indent + line) }
        return lines
    }
}
