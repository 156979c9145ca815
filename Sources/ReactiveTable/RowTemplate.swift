import ReactiveCore

/// Renders one row of a table: binds a row view model to the line that shows it.
///
/// A ``TableBinding`` makes one template per visible row and reuses templates of rows that left
/// the table. Before reuse, or when its row goes away, the binding calls ``unbind()``: whatever
/// the template started for its row (observations, loads) ends there.
public protocol RowTemplate: AnyObject, SendableMetatype {
    /// The row view model this template shows.
    associatedtype Row: Sendable

    /// Creates an unbound template.
    init()

    /// Binds the template to `row` and returns the row's rendered line, kept up to date for as
    /// long as the template stays bound.
    func bind(_ row: Row) -> Property<String>

    /// Ends everything ``bind(_:)`` started; the template may then be bound to another row.
    func unbind()

    /// The line that announces the row's removal, given the last line it showed.
    func removalLine(lastLine: String) -> String
}

extension RowTemplate {
    /// The last line shown.
    public func removalLine(lastLine: String) -> String { lastLine }
}
