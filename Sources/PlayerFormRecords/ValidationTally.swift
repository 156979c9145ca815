import PlayerFormRules

/// Counts of the records read so far, and, when findings are made, of each reason.
public struct ValidationTally: Equatable, Sendable {
    /// Records read, valid or not.
    public var records = 0
    /// Records that break a rule or cannot be read.
    public var invalid = 0
    /// How many records had each reason, counted when findings are made or the validator counts
    /// reasons (`--report-only`); not with `--quiet`, which only counts.
    public var reasons = ReasonCounts()

    /// No records yet.
    public init() {}

    /// Records that break no rule.
    public var valid: Int { records - invalid }

    /// The summary line: `N records, K invalid` (`1 record, ...` for one).
    public var summary: String { "\(records) \(records == 1 ? "record" : "records"), \(invalid) invalid" }

    /// Adds the counts of `later`, records read after these.
    public mutating func add(_ later: ValidationTally) {
        records += later.records
        invalid += later.invalid
        reasons.add(later.reasons)
    }
}

/// Why a record is not valid, as a report counts it.
///
/// Each rule of `PlayerRules`, `duplicateName` for a player already in the file (`--unique`), or
/// `malformed` for a record that cannot be read. The raw value is the stable code findings carry.
public enum FindingReason: String, CaseIterable, Sendable {
    case emptyName, controlCharacters, forbiddenName, belowMin, aboveMax, notFinite, duplicateName, malformed

    /// The reason of a rule's issue.
    public init(_ code: ValidationIssue.Code) {
        switch code {
        case .emptyName: self = .emptyName
        case .controlCharacters: self = .controlCharacters
        case .forbiddenName: self = .forbiddenName
        case .belowMin: self = .belowMin
        case .aboveMax: self = .aboveMax
        case .notFinite: self = .notFinite
        }
    }

    /// The reason of a finding's problem.
    public init(_ problem: Finding.Problem) {
        switch problem {
        case .issue(let issue): self.init(issue.code)
        case .duplicate: self = .duplicateName
        case .malformed: self = .malformed
        }
    }

    fileprivate var index: Int {
        switch self {
        case .emptyName: 0
        case .controlCharacters: 1
        case .forbiddenName: 2
        case .belowMin: 3
        case .aboveMax: 4
        case .notFinite: 5
        case .duplicateName: 6
        case .malformed: 7
        }
    }
}

/// How many records had each ``FindingReason``, with the lines of the first of them.
///
/// A record that breaks two rules counts under both.
public struct ReasonCounts: Equatable, Sendable {
    /// How many first lines are kept for each reason.
    public static let firstLinesKept = 3

    private var counts = [Int](repeating: 0, count: FindingReason.allCases.count)
    private var lines = [[Int]](repeating: [], count: FindingReason.allCases.count)

    /// None yet.
    public init() {}

    /// How many records had `reason`.
    public subscript(reason: FindingReason) -> Int { counts[reason.index] }

    /// The lines of the first records that had `reason` (at most ``firstLinesKept``), in input
    /// order.
    public func firstLines(_ reason: FindingReason) -> [Int] { lines[reason.index] }

    /// The reasons some record had, in the order of `FindingReason.allCases`.
    public var seen: [FindingReason] { FindingReason.allCases.filter { counts[$0.index] > 0 } }

    /// Counts a record on `line` that had `reason`.
    public mutating func add(_ reason: FindingReason, line: Int) {
        counts[reason.index] += 1
        if lines[reason.index].count < Self.firstLinesKept { lines[reason.index].append(line) }
    }

    /// Adds the counts of `later`, records read after these.
    public mutating func add(_ later: ReasonCounts) {
        for index in counts.indices where later.counts[index] > 0 {
            counts[index] += later.counts[index]
            let room = Self.firstLinesKept - lines[index].count
            if room > 0 { lines[index].append(contentsOf: later.lines[index].prefix(room)) }
        }
    }
}
