/// One line-level change of a bound table: a row inserted, redrawn or removed.
///
/// Indices count from 0, as in ``Changeset``. The description numbers rows from 1, as a table
/// shows them to people: `+ 3 Bob 120`, `~ 1 Colin 105`, `- 2 Alice`. The line may hold text a
/// user typed; escape it before it reaches a terminal.
public enum TableChange: Sendable, Hashable, CustomStringConvertible {
    /// A row was inserted at `index` of the new table.
    case inserted(index: Int, line: String)
    /// The row at `index` shows a new line.
    case modified(index: Int, line: String)
    /// The row at `index` of the old table was removed.
    case deleted(index: Int, line: String)

    /// The index of the row.
    public var index: Int {
        switch self {
        case .inserted(let index, _), .modified(let index, _), .deleted(let index, _): index
        }
    }

    /// The row's line.
    public var line: String {
        switch self {
        case .inserted(_, let line), .modified(_, let line), .deleted(_, let line): line
        }
    }

    /// The change line: `+`, `~` or `-`, the row number from 1, and the line.
    public var description: String {
        switch self {
        case .inserted(let index, let line): "+ \(index + 1) \(line)"
        case .modified(let index, let line): "~ \(index + 1) \(line)"
        case .deleted(let index, let line): "- \(index + 1) \(line)"
        }
    }
}
