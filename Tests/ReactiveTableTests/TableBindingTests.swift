import ReactiveCore
import ReactiveCoreTesting
import ReactiveTable
import Testing

/// The table kit specified with a row of its own: a title, a value, progress and a mark.
@Suite("TableBinding")
struct TableBindingTests {
    let source = MutableProperty<[ItemRow]>([])
    let colin = ItemRow("Colin", 100)
    let alice = ItemRow("Alice", 50)
    let bob = ItemRow("Bob", 120)

    @Test("the first list is drawn as lines and announces no change")
    func firstList() {
        source.value = [colin, alice]
        let table = TableBinding<ItemRowTemplate>(rows: source.readOnly)
        let changes = Recorder(table.changes)
        #expect(table.lines == ["Colin 100", "Alice 50"])
        #expect(table.count == 2)
        #expect(changes.values == [])
    }

    @Test("an inserted row is announced as one line, numbered from 1")
    func insertion() {
        source.value = [colin, alice]
        let table = TableBinding<ItemRowTemplate>(rows: source.readOnly)
        let changes = Recorder(table.changes)
        source.value = [colin, alice, bob]
        #expect(changes.values == [.inserted(index: 2, line: "Bob 120")])
        #expect(changes.values.map(\.description) == ["+ 3 Bob 120"])
        #expect(table.lines == ["Colin 100", "Alice 50", "Bob 120"])
    }

    @Test("a row whose state changes redraws only its line")
    func modification() {
        source.value = [colin, alice]
        let table = TableBinding<ItemRowTemplate>(rows: source.readOnly)
        let changes = Recorder(table.changes)
        colin.update(105)
        colin.progress(40)
        #expect(changes.values.map(\.description) == ["~ 1 Colin 105", "~ 1 Colin 40% 105"])
        #expect(table.lines == ["Colin 40% 105", "Alice 50"])
    }

    @Test("a removed row is announced by name and its bindings end")
    func removal() {
        source.value = [colin, alice, bob]
        let table = TableBinding<ItemRowTemplate>(rows: source.readOnly)
        let changes = Recorder(table.changes)
        #expect(alice.line.observerCount == 1)
        source.value = [colin, bob]
        #expect(changes.values.map(\.description) == ["- 2 Alice"])
        #expect(alice.line.observerCount == 0)
        alice.update(60)
        #expect(changes.values.count == 1)
        #expect(table.lines == ["Colin 100", "Bob 120"])
    }

    @Test("a template is reused for a new row and no longer follows its old row")
    func reuse() {
        source.value = [colin, alice]
        let table = TableBinding<ItemRowTemplate>(rows: source.readOnly)
        let changes = Recorder(table.changes)
        #expect(table.templateCount == 2)
        source.value = [colin, bob]
        #expect(table.templateCount == 2)
        alice.update(60)
        bob.update(130)
        #expect(changes.values.map(\.description) == ["- 2 Alice", "+ 2 Bob 120", "~ 2 Bob 130"])
    }

    @Test("deletions are announced from the bottom up, then insertions from the top down")
    func batchOrder() {
        let dan = ItemRow("Dan", 1)
        source.value = [colin, alice, bob]
        let table = TableBinding<ItemRowTemplate>(rows: source.readOnly)
        let changes = Recorder(table.changes)
        source.value = [dan, alice]
        #expect(changes.values.map(\.description) == ["- 3 Bob", "- 1 Colin", "+ 1 Dan 1"])
    }

    @Test("a new list that drops half the rows and adds others leaves the table showing exactly it")
    func largeBatch() {
        let many = (0..<1000).map { ItemRow("P\($0)", $0) }
        source.value = many
        let table = TableBinding<ItemRowTemplate>(rows: source.readOnly)
        let changes = Recorder(table.changes)
        let added = (0..<10).map { ItemRow("New\($0)", 1) }
        var next = many.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        for (offset, row) in added.enumerated() { next.insert(row, at: offset * 50) }
        source.value = next

        #expect(table.lines == next.map { "\($0.id) \($0.line.value.value)" })
        let deleted = changes.values.filter { if case .deleted = $0 { true } else { false } }
        let inserted = changes.values.filter { if case .inserted = $0 { true } else { false } }
        #expect(deleted.map(\.index) == Array(stride(from: 999, through: 1, by: -2)))
        #expect(inserted.map(\.index) == (0..<10).map { $0 * 50 })
        #expect(changes.values.count == 510)
        #expect(table.templateCount == 1000)
        #expect(many[1].line.observerCount == 0)
        #expect(many[0].line.observerCount == 1)
    }

    @Test("selecting a row executes the selection action with that row's view model")
    func selection() async throws {
        source.value = [colin, alice]
        let select = Action<ItemRow, String> { row in row.id }
        let picked = Recorder(select.values)
        let table = TableBinding<ItemRowTemplate>(rows: source.readOnly, selection: select)
        try await table.select(at: 1)
        #expect(picked.values == ["Alice"])
    }

    @Test("selecting a row that does not exist says which rows exist")
    func selectionOutOfRange() async {
        source.value = [colin, alice]
        let table = TableBinding<ItemRowTemplate>(
            rows: source.readOnly, selection: Action<ItemRow, Void> { _ in })
        await #expect(throws: TableBindingError.noSuchRow(index: 5, count: 2)) {
            try await table.select(at: 5)
        }
        #expect(
            TableBindingError.noSuchRow(index: 5, count: 2).description
                == "there is no row 6: rows are numbered 1 to 2")
        let plain = TableBinding<ItemRowTemplate>(rows: source.readOnly)
        await #expect(throws: TableBindingError.noSelection) { try await plain.select(at: 0) }
    }

    @Test("a selected row shows a mark")
    func selectedMark() {
        source.value = [colin]
        let table = TableBinding<ItemRowTemplate>(rows: source.readOnly)
        colin.select(true)
        #expect(table.lines == ["Colin 100 *"])
    }

    @Test("when the binding goes away, its rows are no longer observed")
    func bindingLifetime() {
        source.value = [colin]
        var table: TableBinding<ItemRowTemplate>? = TableBinding(rows: source.readOnly)
        #expect(colin.line.observerCount == 1)
        #expect(table?.count == 1)
        table = nil
        #expect(colin.line.observerCount == 0)
    }

    // MARK: A window onto a long list

    @Test("a window is numbered in the whole list; rows that only scrolled are rebound without a line")
    func windowNumbering() {
        let window = MutableProperty(RowWindow(firstIndex: 100, totalCount: 500, rows: [colin, alice]))
        let table = TableBinding<ItemRowTemplate>(window: window.readOnly)
        let changes = Recorder(table.changes.map(\.description))
        #expect(table.lines == ["Colin 100", "Alice 50"])
        #expect(table.firstIndex == 100)
        #expect(table.totalCount == 500)

        colin.update(105)
        // Alice removed from the list; Bob scrolled in from below.
        window.value = RowWindow(
            firstIndex: 100, totalCount: 499, rows: [colin, bob],
            change: WindowChange(
                changeset: Changeset(deletions: [1], insertions: [1]), previousFirstIndex: 100,
                scrolledIn: [1]))
        // The window moved by one: Colin scrolled out, Dan is new at the end of the list.
        let dan = ItemRow("Dan", 1)
        window.value = RowWindow(
            firstIndex: 101, totalCount: 500, rows: [bob, dan],
            change: WindowChange(
                changeset: Changeset(deletions: [0], insertions: [1]), previousFirstIndex: 100,
                scrolledOut: [0]))

        #expect(changes.values == ["~ 101 Colin 105", "- 102 Alice", "+ 103 Dan 1"])
        #expect(table.lines == ["Bob 120", "Dan 1"])
        #expect(table.templateCount == 2)
        #expect(colin.line.observerCount == 0)
        bob.update(130)
        #expect(changes.values.last == "~ 102 Bob 130")
    }

    @Test("a window without a change is drawn anew, announcing nothing and reusing templates")
    func windowRedrawn() {
        let window = MutableProperty(RowWindow(firstIndex: 0, totalCount: 3, rows: [colin, alice]))
        let table = TableBinding<ItemRowTemplate>(window: window.readOnly)
        let changes = Recorder(table.changes)
        window.value = RowWindow(firstIndex: 1, totalCount: 3, rows: [alice, bob])
        #expect(changes.values == [])
        #expect(table.lines == ["Alice 50", "Bob 120"])
        #expect(table.templateCount == 2)
        #expect(colin.line.observerCount == 0)
    }

    @Test("selecting by index in the whole list: rows in view are selected, others say why not")
    func windowSelection() async throws {
        let window = MutableProperty(RowWindow(firstIndex: 10, totalCount: 30, rows: [colin, alice]))
        let select = Action<ItemRow, String> { row in row.id }
        let picked = Recorder(select.values)
        let table = TableBinding<ItemRowTemplate>(window: window.readOnly, selection: select)
        try await table.select(at: 11)
        #expect(picked.values == ["Alice"])
        await #expect(throws: TableBindingError.notInView(index: 3)) { try await table.select(at: 3) }
        await #expect(throws: TableBindingError.noSuchRow(index: 30, count: 30)) {
            try await table.select(at: 30)
        }
        #expect(TableBindingError.notInView(index: 3).description == "row 4 is not in view")
    }
}

/// A row view model of the specs' own: a title, a value, the progress of some work, and whether
/// it is selected.
final class ItemRow: Sendable {
    struct State: Equatable, Sendable {
        var value: Int
        var percent: Int?
        var isSelected = false
    }

    let id: String
    private let state: MutableProperty<State>

    init(_ title: String, _ value: Int) {
        id = title
        state = MutableProperty(State(value: value))
    }

    /// What the row shows.
    var line: Property<State> { state.readOnly }

    func update(_ value: Int) { state.modify { $0.value = value } }
    func progress(_ percent: Int) { state.modify { $0.percent = percent } }
    func select(_ selected: Bool) { state.modify { $0.isSelected = selected } }
}

/// Renders an ``ItemRow`` as "Colin 100", "Colin 40% 100" while its work goes on, and "Colin 100 *"
/// when selected; its removal reads "Colin".
final class ItemRowTemplate: RowTemplate {
    private var title = ""

    init() {}

    func bind(_ row: ItemRow) -> Property<String> {
        title = row.id
        let title = row.id
        return row.line.map { state in
            let shown = state.percent.map { "\(title) \($0)% \(state.value)" } ?? "\(title) \(state.value)"
            return state.isSelected ? shown + " *" : shown
        }
    }

    func unbind() { title = "" }

    func removalLine(lastLine: String) -> String { title }
}
