import PlayerFormText

/// What a run of `playerform validate` found, by reason: per input and in total.
///
/// For people, a table on standard error (with a bar per reason at a terminal); for programs, one
/// JSON object (see `docs/validate-report.schema.json`).
///
/// ```text
/// reason             records   share  first lines
/// forbiddenName            3   30.0%  2, 5, 9
/// aboveMax                 1   10.0%  4
/// ```
public struct ValidationReport: Sendable {
    /// One input's counts: its label (a path, or `<stdin>`) and its tally.
    public struct Input: Sendable {
        /// The input as findings name it.
        public var file: String
        /// What it held.
        public var tally: ValidationTally

        /// An input's counts.
        public init(file: String, tally: ValidationTally) {
            self.file = file
            self.tally = tally
        }
    }

    /// The inputs, in the order they were read.
    public var inputs: [Input]
    /// Why a run ended before the end of its inputs.
    public enum Stop: String, Sendable {
        /// Ctrl-C.
        case interrupted
        /// `--max-errors` was reached.
        case maxErrors
    }

    /// Why the run ended before the end of its inputs, when it did.
    public var stopped: Stop?

    /// A report of `inputs`.
    public init(inputs: [Input], stopped: Stop? = nil) {
        self.inputs = inputs
        self.stopped = stopped
    }

    /// The counts of every input together.
    public var total: ValidationTally {
        inputs.reduce(into: ValidationTally()) { $0.add($1.tally) }
    }

    /// The table for people, each line ending with a line break.
    ///
    /// For several inputs, each input's counts and reasons, then the reasons of all; for one, its
    /// reasons. Nothing when no record was invalid. `bars` adds a bar per reason, for a terminal.
    public func text(bars: Bool) -> String {
        var text = ""
        if inputs.count > 1 {
            for input in inputs {
                text += "\(TerminalText.escaped(input.file)): \(input.tally.summary)\n"
                text += Self.rows(input.tally, bars: bars, indent: "  ", lines: true)
            }
        }
        let total = total
        guard total.invalid > 0 else { return text }
        // Lines of several inputs together would not say whose they are: each input's rows give
        // them.
        let lines = inputs.count <= 1
        if !lines { text += "all inputs:\n" }
        text += Self.header(bars: bars, lines: lines) + Self.rows(total, bars: bars, indent: "", lines: lines)
        return text
    }

    /// The report as one line of JSON, with its line break.
    public var json: String {
        var text = "{" + Self.jsonCounts(total, lines: inputs.count <= 1)
        if let stopped { text += ",\"stopped\":\"\(stopped.rawValue)\"" }
        text += ",\"files\":["
        text += inputs.map {
            "{\"file\":\(JSONText.quoted($0.file))," + Self.jsonCounts($0.tally, lines: true) + "}"
        }
        .joined(separator: ",")
        return text + "]}\n"
    }

    private static func header(bars: Bool, lines: Bool) -> String {
        let head =
            "reason".padding(toLength: 18, withPad: " ", startingAt: 0) + "records".leftPadded(to: 10)
            + "share".leftPadded(to: 8)
        guard lines else { return head + "\n" }
        return head + "  " + (bars ? String(repeating: " ", count: 22) : "") + "first lines\n"
    }

    private static func rows(_ tally: ValidationTally, bars: Bool, indent: String, lines withLines: Bool)
        -> String
    {
        // The most common first; equal counts in the order of the reasons' list (`seen` is).
        let reasons = tally.reasons.seen.enumerated().sorted {
            (tally.reasons[$0.element], -$0.offset) > (tally.reasons[$1.element], -$1.offset)
        }.map(\.element)
        return reasons.map { reason in
            let count = tally.reasons[reason]
            let share = tally.records > 0 ? Double(count) / Double(tally.records) : 0
            let lines = tally.reasons.firstLines(reason).map(String.init).joined(separator: ", ")
            let more = count > ReasonCounts.firstLinesKept ? ", ..." : ""
            let row =
                indent + reason.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0)
                + String(count).leftPadded(to: 10) + percent(share).leftPadded(to: 8)
            let bar = bars ? "  " + bar(share) : ""
            return row + bar + (withLines ? "  " + lines + more : "") + "\n"
        }.joined()
    }

    /// `share` as a percentage with one decimal: `30.0%`, `0.1%`, and `<0.1%` for a share too small
    /// to show but not none.
    public static func percent(_ share: Double) -> String {
        let tenths = (share * 1000).rounded()
        if tenths == 0 && share > 0 { return "<0.1%" }
        return "\(Int(tenths) / 10).\(Int(tenths) % 10)%"
    }

    /// A bar of 20 cells for `share` (from 0 to 1), in eighths of a cell, padded with spaces.
    public static func bar(_ share: Double) -> String {
        let eighths = Int((min(max(share, 0), 1) * 160).rounded())
        let partial = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"][eighths % 8]
        let drawn = String(repeating: "█", count: eighths / 8) + partial
        return drawn + String(repeating: " ", count: 20 - eighths / 8 - (partial.isEmpty ? 0 : 1))
    }

    /// The counts as JSON members; `firstLines` is empty without `lines` (the counts of several
    /// inputs together, whose lines would not say whose they are).
    private static func jsonCounts(_ tally: ValidationTally, lines withLines: Bool) -> String {
        let reasons = tally.reasons.seen.map { reason in
            let count = tally.reasons[reason]
            let share = tally.records > 0 ? Double(count) / Double(tally.records) : 0
            let lines =
                withLines ? tally.reasons.firstLines(reason).map(String.init).joined(separator: ",") : ""
            return "{\"reason\":\"\(reason.rawValue)\",\"records\":\(count),\"share\":\(share),"
                + "\"firstLines\":[\(lines)]}"
        }.joined(separator: ",")
        return "\"records\":\(tally.records),\"valid\":\(tally.valid),\"invalid\":\(tally.invalid),"
            + "\"malformed\":\(tally.reasons[.malformed]),\"reasons\":[\(reasons)]"
    }
}

extension String {
    /// The string with spaces before it to make `width` characters (ASCII text).
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
