import ReactiveCore

/// Binds a list of row view models to a table of text lines, with no table-view boilerplate.
///
/// The binding observes a property of row view models. When the property sends a new list, the
/// binding works out which rows left and which arrived (by object identity, with ``Changeset``),
/// unbinds the templates of rows that left, binds templates to rows that arrived (reusing
/// unbound templates), and announces each as a ``TableChange``. A row whose own state changes
/// redraws only its line. Nothing is ever redrawn in full; ``lines`` gives the whole table when
/// a view needs to draw it once.
///
/// The binding knows nothing of terminals: a view prints ``changes`` and ``lines``.
///
/// ```swift
/// let table = TableBinding<PlayerRowTemplate>(rows: roster.rows, selection: select)
/// table.changes.observeValues { print($0) }
/// // Prints "+ 3 Bob 120" when Bob is uploaded
/// ```
///
/// Changes are announced on the thread that made them; drive the source from one thread (or a
/// serial queue) to see them in order.
public final class TableBinding<Template: RowTemplate>: Sendable where Template.Row: AnyObject {
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
        var hasFirstList = false
    }

    private let state: Locked<Bound>
    private let changesInput: Signal<TableChange>.Input
    /// The bound list, kept alive for as long as the table shows it.
    private let source: Property<[Row]>
    private let sourceObservation = DisposeBag()
    private let select: (@Sendable (Row) async throws -> Void)?

    /// Binds `rows` to a table.
    /// - Parameters:
    ///   - rows: the row view models, in table order.
    ///   - selection: executed with the selected row's view model by ``select(at:)``.
    public init<Output: Sendable>(rows: Property<[Row]>, selection: Action<Row, Output>?) {
        (changes, changesInput) = Signal<TableChange>.pipe()
        state = Locked(Bound())
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

    /// Binds `rows` to a table with no selection.
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

    /// Every line of the table, in row order.
    public var lines: [String] {
        state.withLock { $0.slots.map(\.line) }
    }

    /// The number of rows.
    public var count: Int {
        state.withLock { $0.slots.count }
    }

    /// How many templates have been made: one per row shown at once, as templates are reused.
    public var templateCount: Int {
        state.withLock { $0.slots.count + $0.reusable.count }
    }

    /// Executes the selection action with the view model of the row at `index`.
    /// - Throws: ``TableBindingError`` when there is no such row or no selection action; the
    ///   action's ``ActionError`` when it refuses or fails.
    public func select(at index: Int) async throws {
        guard let select else { throw TableBindingError.noSelection }
        let row = state.withLock { bound -> Row? in
            bound.rows.indices.contains(index) ? bound.rows[index] : nil
        }
        guard let row else { throw TableBindingError.noSuchRow(index: index, count: count) }
        try await select(row)
    }

    /// Applies a new list: unbinds rows that left and binds rows that arrived. A few changes edit
    /// the table in place; many are applied in one pass over it, so that a change of many rows
    /// costs no more than a pass over all of them.
    private func rowsChanged(_ rows: [Row]) {
        let announced = state.withLock { bound -> [TableChange] in
            let changeset = Changeset(
                old: bound.rows, new: rows, id: { ObjectIdentifier($0) }, hasSameContent: { _, _ in true })
            bound.rows = rows
            let announced =
                changeset.deletions.count + changeset.insertions.count <= Self.fewChanges
                ? editInPlace(&bound, changeset, rows) : rebuild(&bound, changeset, rows)
            // The first list is the table as it is drawn, not a change.
            defer { bound.hasFirstList = true }
            return bound.hasFirstList ? announced : []
        }
        for change in announced { changesInput.send(change) }
    }

    /// Up to this many changed rows, editing the table in place is cheaper than rebuilding it.
    private static var fewChanges: Int { 32 }

    private func editInPlace(_ bound: inout Bound, _ changeset: Changeset, _ rows: [Row]) -> [TableChange] {
        var announced: [TableChange] = []
        // From the bottom up, so each index holds when it is read.
        for index in changeset.deletions.reversed() {
            announced.append(unbind(bound.slots.remove(at: index), at: index, into: &bound.reusable))
        }
        for index in changeset.insertions {
            let slot = bind(rows[index], to: bound.reusable.popLast() ?? Template())
            bound.slots.insert(slot, at: index)
            announced.append(.inserted(index: index, line: slot.line))
        }
        return announced
    }

    private func rebuild(_ bound: inout Bound, _ changeset: Changeset, _ rows: [Row]) -> [TableChange] {
        var removals: [TableChange] = []
        var kept: [Slot] = []
        kept.reserveCapacity(bound.slots.count - changeset.deletions.count)
        var nextDeletion = 0
        for (index, slot) in bound.slots.enumerated() {
            if nextDeletion < changeset.deletions.count, changeset.deletions[nextDeletion] == index {
                nextDeletion += 1
                removals.append(unbind(slot, at: index, into: &bound.reusable))
            } else {
                kept.append(slot)
            }
        }
        // Deletions are announced from the bottom up, as in place.
        var announced = Array(removals.reversed())
        var slots: [Slot] = []
        slots.reserveCapacity(rows.count)
        var nextInsertion = 0
        var keptIndex = 0
        for index in rows.indices {
            if nextInsertion < changeset.insertions.count, changeset.insertions[nextInsertion] == index {
                nextInsertion += 1
                let slot = bind(rows[index], to: bound.reusable.popLast() ?? Template())
                slots.append(slot)
                announced.append(.inserted(index: index, line: slot.line))
            } else {
                slots.append(kept[keptIndex])
                keptIndex += 1
            }
        }
        bound.slots = slots
        return announced
    }

    /// Ends the bindings of a row that left and keeps its template for reuse.
    private func unbind(_ slot: Slot, at index: Int, into reusable: inout [Template]) -> TableChange {
        let change = TableChange.deleted(index: index, line: slot.template.removalLine(lastLine: slot.line))
        slot.observation.dispose()
        slot.template.unbind()
        reusable.append(slot.template)
        return change
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
            return .modified(index: index, line: text)
        }
        if let change { changesInput.send(change) }
    }
}

/// Why a table binding could not select a row.
public enum TableBindingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no row at `index`; the table has `count` rows.
    case noSuchRow(index: Int, count: Int)
    /// The table was bound without a selection action.
    case noSelection

    public var description: String {
        switch self {
        case .noSuchRow(let index, let count):
            count == 0
                ? "there is no row \(index + 1): the table is empty"
                : "there is no row \(index + 1): rows are numbered 1 to \(count)"
        case .noSelection: "rows of this table cannot be selected"
        }
    }
}
