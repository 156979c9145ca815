import ReactiveCore
import Synchronization

/// Binds row view models to a table of text lines, with no table-view boilerplate.
///
/// The binding follows a window onto a list (``RowWindow``): it holds one template per row in
/// view, never one per row of the list, so a roster of a million players costs the rows on
/// screen. When the window changes, the binding unbinds the templates of rows that left, binds
/// templates to rows that arrived (reusing unbound templates, as a table reuses cells), and
/// announces each row added to or removed from the list as a ``TableChange`` numbered in the
/// whole list; rows that only scrolled into or out of view are rebound silently. A row whose own
/// state changes redraws only its line. Nothing is ever redrawn in full; ``lines`` gives the rows
/// in view when a view needs to draw them once.
///
/// The binding knows nothing of terminals: a view prints ``changes`` and ``lines``.
///
/// ```swift
/// let table = TableBinding<PlayerRowTemplate>(window: roster.window, selection: select)
/// table.changes.observeValues { print($0) }
/// // Prints "+ 3 Bob 120" when Bob is uploaded into the rows in view
/// ```
///
/// Changes are announced on the thread that made them; drive the source from one thread (or a
/// serial queue) to see them in order.
public final class TableBinding<Template: RowTemplate>: Sendable where Template.Row: AnyObject {
    /// The row view model the template shows.
    public typealias Row = Template.Row

    /// Every line-level change, as it happens.
    public let changes: Signal<TableChange>

    /// A row on screen: its template, the line it shows, and the observation of that line.
    private struct Slot {
        let template: Template
        var line: String
        /// Held while the row is bound; released when the row leaves or the template is reused.
        let lineProperty: Property<String>
        let observation: Disposable
    }

    private struct Bound {
        var rows: [Row] = []
        var slots: [Slot] = []
        var reusable: [Template] = []
        var firstIndex = 0
        var totalCount = 0
        var hasFirstWindow = false
    }

    private let state: Mutex<Bound>
    private let changesInput: Signal<TableChange>.Input
    /// The bound source, kept alive for as long as the table shows it.
    private let source: any Sendable
    private let sourceObservation = DisposeBag()
    private let select: (@Sendable (Row) async throws -> Void)?

    /// Binds a window onto a list to a table.
    /// - Parameters:
    ///   - window: the rows in view, where they are in the list, and how they changed.
    ///   - selection: executed with the selected row's view model by ``select(at:)``.
    public init<Output: Sendable>(window: Property<RowWindow<Row>>, selection: Action<Row, Output>?) {
        (changes, changesInput) = Signal<TableChange>.pipe()
        state = Mutex(Bound())
        source = window
        if let selection {
            select = { row in _ = try await selection.apply(row) }
        } else {
            select = nil
        }
        window.values.observeValues(in: sourceObservation) { [weak self] window in
            self?.windowChanged(window)
        }
    }

    /// Binds a window onto a list to a table with no selection.
    public convenience init(window: Property<RowWindow<Row>>) {
        self.init(window: window, selection: Action<Row, Void>?.none)
    }

    /// Binds a whole list of rows to a table.
    ///
    /// A new list is compared with the last by the rows' identity; every row that left is announced
    /// as removed and every row that arrived as added.
    /// - Parameters:
    ///   - rows: the row view models, in table order.
    ///   - selection: executed with the selected row's view model by ``select(at:)``.
    public init<Output: Sendable>(rows: Property<[Row]>, selection: Action<Row, Output>?) {
        (changes, changesInput) = Signal<TableChange>.pipe()
        state = Mutex(Bound())
        source = rows
        if let selection {
            select = { row in _ = try await selection.apply(row) }
        } else {
            select = nil
        }
        rows.values.observeValues(in: sourceObservation) { [weak self] rows in
            self?.rowsChanged(rows)
        }
    }

    /// Binds a whole list of rows to a table with no selection.
    public convenience init(rows: Property<[Row]>) {
        self.init(rows: rows, selection: Action<Row, Void>?.none)
    }

    deinit {
        sourceObservation.dispose()
        state.withLock { bound in
            for slot in bound.slots {
                slot.observation.dispose()
                slot.template.unbind()
            }
        }
    }

    /// The lines of the rows in view, in row order.
    public var lines: [String] {
        state.withLock { $0.slots.map(\.line) }
    }

    /// The number of rows in view: the rows bound to a template.
    public var count: Int {
        state.withLock { $0.slots.count }
    }

    /// The index in the whole list of the first row in view.
    public var firstIndex: Int {
        state.withLock { $0.firstIndex }
    }

    /// The number of rows of the whole list.
    public var totalCount: Int {
        state.withLock { $0.totalCount }
    }

    /// How many templates have been made: one per row shown at once, as templates are reused.
    public var templateCount: Int {
        state.withLock { $0.slots.count + $0.reusable.count }
    }

    /// Executes the selection action with the view model of the row at `index` of the whole
    /// list, which must be in view.
    /// - Throws: ``TableBindingError`` when there is no such row, it is not in view, or there is
    ///   no selection action; the action's `ActionError` when it refuses or fails.
    public func select(at index: Int) async throws {
        guard let select else { throw TableBindingError.noSelection }
        let found = state.withLock { bound -> Result<Row, TableBindingError> in
            guard (0..<bound.totalCount).contains(index) else {
                return .failure(.noSuchRow(index: index, count: bound.totalCount))
            }
            let local = index - bound.firstIndex
            guard bound.rows.indices.contains(local) else { return .failure(.notInView(index: index)) }
            return .success(bound.rows[local])
        }
        try await select(found.get())
    }

    /// A new list of a whole-list binding: the change by identity.
    private func rowsChanged(_ rows: [Row]) {
        let change = state.withLock { bound -> WindowChange? in
            guard bound.hasFirstWindow else { return nil }
            let changeset = Changeset(
                old: bound.rows, new: rows, id: { ObjectIdentifier($0) }, hasSameContent: { _, _ in true })
            return WindowChange(changeset: changeset, previousFirstIndex: 0)
        }
        windowChanged(RowWindow(firstIndex: 0, totalCount: rows.count, rows: rows, change: change))
    }

    /// Applies a new window: unbinds rows that left and binds rows that arrived.
    ///
    /// A few changes edit the table in place; many are applied in one pass over it.
    private func windowChanged(_ window: RowWindow<Row>) {
        let announced = state.withLock { bound -> [TableChange] in
            defer {
                bound.rows = window.rows
                bound.firstIndex = window.firstIndex
                bound.totalCount = window.totalCount
                bound.hasFirstWindow = true
            }
            guard bound.hasFirstWindow, let change = window.change else {
                // Drawn anew, not a change.
                _ = redraw(&bound, window.rows)
                return []
            }
            let changeset = change.changeset
            let edits = Edits(
                window: window, change: change, oldFirstIndex: bound.firstIndex)
            return changeset.deletions.count + changeset.insertions.count <= Self.fewChanges
                ? editInPlace(&bound, edits) : rebuild(&bound, edits)
        }
        for change in announced { changesInput.send(change) }
    }

    /// What a window change asks of the slots, and how its rows are numbered.
    private struct Edits {
        let window: RowWindow<Row>
        let change: WindowChange
        let oldFirstIndex: Int

        var rows: [Row] { window.rows }
        var changeset: Changeset { change.changeset }

        func deletion(at index: Int, line: String) -> TableChange? {
            change.scrolledOut.contains(index) ? nil : .deleted(index: oldFirstIndex + index, line: line)
        }

        func insertion(at index: Int, line: String) -> TableChange? {
            change.scrolledIn.contains(index) ? nil : .inserted(index: window.firstIndex + index, line: line)
        }
    }

    /// Up to this many changed rows, editing the table in place is cheaper than rebuilding it.
    private static var fewChanges: Int { 32 }

    /// Unbinds every row and binds `rows` anew, announcing nothing.
    private func redraw(_ bound: inout Bound, _ rows: [Row]) -> [TableChange] {
        for slot in bound.slots { _ = unbind(slot, into: &bound.reusable) }
        bound.slots = rows.map { bind($0, to: bound.reusable.popLast() ?? Template()) }
        return []
    }

    private func editInPlace(_ bound: inout Bound, _ edits: Edits) -> [TableChange] {
        var announced: [TableChange] = []
        // From the bottom up, so each index holds when it is read.
        for index in edits.changeset.deletions.reversed() {
            let line = unbind(bound.slots.remove(at: index), into: &bound.reusable)
            if let change = edits.deletion(at: index, line: line) { announced.append(change) }
        }
        for index in edits.changeset.insertions {
            let slot = bind(edits.rows[index], to: bound.reusable.popLast() ?? Template())
            bound.slots.insert(slot, at: index)
            if let change = edits.insertion(at: index, line: slot.line) { announced.append(change) }
        }
        return announced
    }

    private func rebuild(_ bound: inout Bound, _ edits: Edits) -> [TableChange] {
        let deletions = edits.changeset.deletions
        let insertions = edits.changeset.insertions
        var removals: [TableChange] = []
        var kept: [Slot] = []
        kept.reserveCapacity(bound.slots.count - deletions.count)
        var nextDeletion = 0
        for (index, slot) in bound.slots.enumerated() {
            if nextDeletion < deletions.count, deletions[nextDeletion] == index {
                nextDeletion += 1
                let line = unbind(slot, into: &bound.reusable)
                if let change = edits.deletion(at: index, line: line) { removals.append(change) }
            } else {
                kept.append(slot)
            }
        }
        // Deletions are announced from the bottom up, as in place.
        var announced = Array(removals.reversed())
        var slots: [Slot] = []
        slots.reserveCapacity(edits.rows.count)
        var nextInsertion = 0
        var keptIndex = 0
        for index in edits.rows.indices {
            if nextInsertion < insertions.count, insertions[nextInsertion] == index {
                nextInsertion += 1
                let slot = bind(edits.rows[index], to: bound.reusable.popLast() ?? Template())
                slots.append(slot)
                if let change = edits.insertion(at: index, line: slot.line) { announced.append(change) }
            } else {
                slots.append(kept[keptIndex])
                keptIndex += 1
            }
        }
        bound.slots = slots
        return announced
    }

    /// Ends the bindings of a row that left, keeps its template for reuse, and returns the line
    /// that announces its removal.
    private func unbind(_ slot: Slot, into reusable: inout [Template]) -> String {
        let line = slot.template.removalLine(lastLine: slot.line)
        slot.observation.dispose()
        slot.template.unbind()
        reusable.append(slot.template)
        return line
    }

    private func bind(_ row: Row, to template: Template) -> Slot {
        let line = template.bind(row)
        let key = ObjectIdentifier(template)
        let observation = line.changes.observeValues { [weak self] text in
            self?.lineChanged(of: key, to: text)
        }
        return Slot(template: template, line: line.value, lineProperty: line, observation: observation)
    }

    private func lineChanged(of key: ObjectIdentifier, to text: String) {
        let change = state.withLock { bound -> TableChange? in
            guard let index = bound.slots.firstIndex(where: { ObjectIdentifier($0.template) == key }),
                bound.slots[index].line != text
            else { return nil }
            bound.slots[index].line = text
            return .modified(index: bound.firstIndex + index, line: text)
        }
        if let change { changesInput.send(change) }
    }
}

/// Why a table binding could not select a row.
public enum TableBindingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no row at `index`; the table has `count` rows.
    case noSuchRow(index: Int, count: Int)
    /// The row at `index` is in the list but not in view.
    case notInView(index: Int)
    /// The table was bound without a selection action.
    case noSelection

    /// What was wrong, naming the row and how many rows there are.
    public var description: String {
        switch self {
        case .noSuchRow(let index, let count):
            count == 0
                ? "there is no row \(index + 1): the table is empty"
                : "there is no row \(index + 1): rows are numbered 1 to \(count)"
        case .notInView(let index): "row \(index + 1) is not in view"
        case .noSelection: "rows of this table cannot be selected"
        }
    }
}
