/// The rows of a long list that are in view: where they start in the list, how long the list
/// is, the row view models of the rows in view alone, and how they came from the previous window.
///
/// A list of a million players is shown through a window of a few dozen rows; a ``TableBinding``
/// bound to a window holds templates for the rows in view only.
public struct RowWindow<Row: Sendable>: Sendable {
    /// The index in the whole list of the first row in view.
    public let firstIndex: Int
    /// How many rows the whole list has.
    public let totalCount: Int
    /// The row view models of the rows in view, in list order.
    public let rows: [Row]
    /// How ``rows`` came from the rows of the previous window; nil when they are to be drawn
    /// anew, as the first window is.
    public let change: WindowChange?

    /// Creates a window.
    public init(firstIndex: Int, totalCount: Int, rows: [Row], change: WindowChange? = nil) {
        self.firstIndex = firstIndex
        self.totalCount = totalCount
        self.rows = rows
        self.change = change
    }

    /// An empty window at the top of an empty list.
    public static var empty: RowWindow { RowWindow(firstIndex: 0, totalCount: 0, rows: []) }
}

/// How the rows in view changed: a ``Changeset`` from the old rows in view to the new ones,
/// and which of its deletions and insertions are rows that only left or came into view (the
/// window moved, or rows above it were removed) rather than rows removed from or added to the
/// list.
///
/// Only the others are changes of the list, which a view announces.
public struct WindowChange: Sendable, Hashable {
    /// From the old rows in view (deletions, modifications) to the new ones (insertions).
    public let changeset: Changeset
    /// The index in the whole list of the first row of the old window.
    public let previousFirstIndex: Int
    /// Deletions (old window indices) of rows that only left the view.
    public let scrolledOut: Set<Int>
    /// Insertions (new window indices) of rows that only came into view.
    public let scrolledIn: Set<Int>

    /// Creates a change.
    public init(
        changeset: Changeset, previousFirstIndex: Int, scrolledOut: Set<Int> = [], scrolledIn: Set<Int> = []
    ) {
        self.changeset = changeset
        self.previousFirstIndex = previousFirstIndex
        self.scrolledOut = scrolledOut
        self.scrolledIn = scrolledIn
    }

    /// The deletions of rows removed from the list, in old window indices.
    public var removals: [Int] { changeset.deletions.filter { !scrolledOut.contains($0) } }

    /// The insertions of rows added to the list, in new window indices.
    public var additions: [Int] { changeset.insertions.filter { !scrolledIn.contains($0) } }
}
