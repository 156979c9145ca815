import PlayerForm
import PlayerFormRules

/// Every continuous output of a `RosterViewModel` at one moment, rows included, for a spec to
/// compare whole with `expectNoDifference` (from CustomDump): a mismatch shows the fields and rows
/// that differ, not two long values.
///
/// ```swift
/// expectNoDifference(RosterState(roster), .empty.with { $0.rows = [.init("Bob", 120)] })
/// ```
public struct RosterState: Equatable, Sendable {
    /// One row of the window as the roster shows it.
    public struct Row: Equatable, Sendable {
        /// The player's name as the row shows it.
        public var name: String
        /// The player's points.
        public var points: Double
        /// Whether the row is selected.
        public var isSelected: Bool
        /// Whether an upload of this player is running.
        public var isUploading: Bool

        /// A row written out, by default not selected and with no upload running.
        public init(_ name: String, _ points: Double, isSelected: Bool = false, isUploading: Bool = false) {
            self.name = name
            self.points = points
            self.isSelected = isSelected
            self.isUploading = isUploading
        }

        /// Reads `row` now.
        public init(_ row: PlayerRowViewModel) {
            self.init(
                row.name.value, row.points.value, isSelected: row.isSelected.value,
                isUploading: row.isUploading.value)
        }
    }

    /// The rows in the window, in roster order.
    public var rows: [Row]
    /// How many players the store keeps, as last read.
    public var playerCount: Int
    /// The index in the roster of the window's first row.
    public var firstIndex: Int
    /// How many rows the window holds at most.
    public var windowSize: Int
    /// Whether a refresh is running.
    public var isLoading: Bool
    /// The selected names, in view or not, sorted so that a diff is stable.
    public var selectedNames: [String]
    /// The name typed for a new player.
    public var newName: String
    /// The points typed for a new player.
    public var newPoints: Double
    /// Why the new player's input is not valid.
    public var inputIssues: [ValidationIssue]
    /// Whether the new player's input may be added.
    public var inputIsValid: Bool

    /// Reads every continuous output of `roster` now.
    public init(_ roster: RosterViewModel) {
        rows = roster.rows.value.map(Row.init)
        playerCount = roster.playerCount.value
        firstIndex = roster.firstIndex.value
        windowSize = roster.windowSize.value
        isLoading = roster.isLoading.value
        selectedNames = roster.selectedNames.value.sorted()
        newName = roster.newName.value
        newPoints = roster.newPoints.value
        inputIssues = roster.inputIssues.value
        inputIsValid = roster.inputIsValid.value
    }

    /// A state written out field by field.
    public init(
        rows: [Row], playerCount: Int, firstIndex: Int, windowSize: Int, isLoading: Bool,
        selectedNames: [String], newName: String, newPoints: Double, inputIssues: [ValidationIssue],
        inputIsValid: Bool
    ) {
        self.rows = rows
        self.playerCount = playerCount
        self.firstIndex = firstIndex
        self.windowSize = windowSize
        self.isLoading = isLoading
        self.selectedNames = selectedNames
        self.newName = newName
        self.newPoints = newPoints
        self.inputIssues = inputIssues
        self.inputIsValid = inputIsValid
    }

    /// A copy with some fields changed.
    public func with(_ change: (inout RosterState) -> Void) -> RosterState {
        var copy = self
        change(&copy)
        return copy
    }
}
