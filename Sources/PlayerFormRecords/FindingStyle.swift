import PlayerFormText

/// How findings are written.
public enum FindingStyle: String, Sendable, CaseIterable {
    /// One line per finding for people: `file:line: "name": reasons`, escaped for the terminal.
    case text
    /// JSON Lines: `{"file", "line", "offset", "name", "issues": [codes], "messages": [reasons]}`;
    /// `offset` is the record's first byte in the input, counting from 0.
    case json

    /// The line, with its line break, that shows `finding` in this style.
    ///
    /// ```swift
    /// FindingStyle.text.line(for: finding)
    /// // players.jsonl:3: "darn": The name darn has been forbidden.
    /// FindingStyle.json.line(for: finding)
    /// // {"file":"players.jsonl","line":3,"offset":41,"name":"darn","issues":["forbiddenName"],...}
    /// ```
    public func line(for finding: Finding) -> String {
        switch self {
        case .text:
            let location = TerminalText.escaped(finding.file) + ":\(finding.line): "
            let subject = finding.name.map { TerminalText.quoted($0) + ": " } ?? "malformed: "
            let reasons = finding.problems.map(Self.shown).joined(separator: " ")
            return location + subject + reasons + "\n"
        case .json:
            let codes = finding.problems.map { JSONText.quoted($0.code) }.joined(separator: ",")
            let messages = finding.problems.map { JSONText.quoted($0.message) }.joined(separator: ",")
            return
                "{\"file\":\(JSONText.quoted(finding.file)),\"line\":\(finding.line),\"offset\":\(finding.offset),"
                + "\"name\":\(finding.name.map(JSONText.quoted) ?? "null"),"
                + "\"issues\":[\(codes)],\"messages\":[\(messages)]}\n"
        }
    }

    /// `problem` as a terminal shows it.
    ///
    /// A rule's message may hold the name as typed, so all of it is escaped; why a record cannot be read is the reader's own words, with what came from
    /// the input escaped already (`not "\xFF"`), so its backslashes stay as written (`accepted:
    /// \" \\ \n`).
    static func shown(_ problem: Finding.Problem) -> String {
        switch problem {
        case .issue(let issue): TerminalText.escaped(issue.message)
        case .duplicate: problem.message
        case .malformed(let reason): TerminalText.message(reason)
        }
    }
}
