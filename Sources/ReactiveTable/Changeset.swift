/// What changed between two versions of a list, so that a view can change only those rows.
///
/// The indices follow the rules of a table's batch update:
/// - ``deletions``: indices in the old list of items that are gone (or moved);
/// - ``modifications``: indices in the old list of items that stay in place but whose content
///   differs;
/// - ``insertions``: indices in the new list of items that are new (or moved).
///
/// Each list is sorted and holds no duplicates. Items kept in place keep their relative order.
///
/// ```swift
/// let change = Changeset(old: ["a", "b"], new: ["b", "c"], id: { $0 })
/// // deletions [0], modifications [], insertions [1]
/// ```
public struct Changeset: Sendable, Hashable, CustomStringConvertible {
    /// Old indices of the items that were removed.
    public let deletions: [Int]
    /// Old indices of the items whose content changed.
    public let modifications: [Int]
    /// New indices of the items that were added.
    public let insertions: [Int]

    /// Creates a changeset from its indices; each list must be sorted and free of duplicates.
    public init(deletions: [Int] = [], modifications: [Int] = [], insertions: [Int] = []) {
        self.deletions = deletions
        self.modifications = modifications
        self.insertions = insertions
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        deletions.isEmpty && modifications.isEmpty && insertions.isEmpty
    }

    /// The deletions, modifications and insertions, for failures of specs.
    public var description: String {
        "Changeset(deletions: \(deletions), modifications: \(modifications), insertions: \(insertions))"
    }

    /// The changes that turn `old` into `new`.
    ///
    /// Items are matched by `id`; ids must be unique within each list. An item kept in both lists
    /// is a modification when `hasSameContent` says its content differs. When items were
    /// reordered, the largest set of items whose order is unchanged stays in place and the others
    /// are deleted and inserted.
    ///
    /// Runs in time linear in the length of the common prefix and suffix, plus O(m log m) for the
    /// m items between them, so a single change in a long list is cheap. Inlinable, so that it is
    /// specialised for the caller's item type.
    @inlinable
    public init<Item, ID: Hashable>(
        old: [Item], new: [Item], id: (Item) -> ID, hasSameContent: (Item, Item) -> Bool
    ) {
        var modifications: [Int] = []
        // A common prefix and suffix (by id) cannot contain moves: scan them without hashing.
        var start = 0
        while start < old.count, start < new.count, id(old[start]) == id(new[start]) {
            if !hasSameContent(old[start], new[start]) { modifications.append(start) }
            start += 1
        }
        var oldEnd = old.count
        var newEnd = new.count
        var suffixModifications: [Int] = []
        while oldEnd > start, newEnd > start, id(old[oldEnd - 1]) == id(new[newEnd - 1]) {
            if !hasSameContent(old[oldEnd - 1], new[newEnd - 1]) { suffixModifications.append(oldEnd - 1) }
            oldEnd -= 1
            newEnd -= 1
        }

        var deletions: [Int] = []
        var insertions: [Int] = []
        if start == oldEnd {
            insertions = Array(start..<newEnd)
        } else if start == newEnd {
            deletions = Array(start..<oldEnd)
        } else {
            let middle = Self.middle(
                old: old, new: new, oldRange: start..<oldEnd, newRange: start..<newEnd, id: id,
                hasSameContent: hasSameContent)
            deletions = middle.deletions
            insertions = middle.insertions
            modifications += middle.modifications
        }
        modifications += suffixModifications.reversed()
        self.init(deletions: deletions, modifications: modifications, insertions: insertions)
    }

    /// The changes between the parts of `old` and `new` that differ at both ends.
    @inlinable
    static func middle<Item, ID: Hashable>(
        old: [Item], new: [Item], oldRange: Range<Int>, newRange: Range<Int>, id: (Item) -> ID,
        hasSameContent: (Item, Item) -> Bool
    ) -> (deletions: [Int], modifications: [Int], insertions: [Int]) {
        var newIndexByID: [ID: Int] = [:]
        newIndexByID.reserveCapacity(newRange.count)
        for index in newRange { newIndexByID[id(new[index])] = index }

        // Old indices of items also in the new list, in old order, with their new index.
        var common: [(old: Int, new: Int)] = []
        var deletions: [Int] = []
        for index in oldRange {
            if let newIndex = newIndexByID[id(old[index])] {
                common.append((index, newIndex))
            } else {
                deletions.append(index)
            }
        }

        // The items that stay in place are the longest run of common items whose new indices
        // increase; the other common items moved and become a deletion and an insertion.
        let staying = longestIncreasingRun(common.map(\.new))
        var stays = [Bool](repeating: false, count: common.count)
        for position in staying { stays[position] = true }

        var modifications: [Int] = []
        var keptNewIndices = Set<Int>()
        for (position, pair) in common.enumerated() {
            if stays[position] {
                keptNewIndices.insert(pair.new)
                if !hasSameContent(old[pair.old], new[pair.new]) { modifications.append(pair.old) }
            } else {
                deletions.append(pair.old)
            }
        }
        deletions.sort()
        let insertions = newRange.filter { !keptNewIndices.contains($0) }
        return (deletions, modifications, insertions)
    }

    /// Positions in `values` of a longest strictly increasing subsequence (patience sorting).
    @usableFromInline
    static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        var tails: [Int] = []  // positions of the smallest tail of each run length
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if values[tails[mid]] < value { low = mid + 1 } else { high = mid }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var run: [Int] = []
        var position = tails.last ?? -1
        while position >= 0 {
            run.append(position)
            position = previous[position]
        }
        return run.reversed()
    }

    /// Applies this changeset to `old`: deleted elements go, inserted ones are made from the new
    /// list, modified ones are updated from it, and the others are kept as they are.
    ///
    /// - Parameters:
    ///   - old: the list the changeset was computed from, or a list that parallels it (such as
    ///     row view models of old items).
    ///   - new: the list the changeset leads to.
    ///   - insert: makes the element for an inserted item.
    ///   - modify: gives the element for a modified item, from the old element and the new item.
    /// - Returns: a list parallel to `new`.
    @inlinable
    public func apply<Element, Source>(
        to old: [Element], from new: [Source], insert: (Source) -> Element,
        modify: (Element, Source) -> Element
    ) -> [Element] {
        precondition(
            old.count - deletions.count + insertions.count == new.count,
            "the changeset does not lead from a list of \(old.count) to one of \(new.count)")
        var result: [Element] = []
        result.reserveCapacity(new.count)
        var nextDeletion = 0
        var nextModification = 0
        var nextInsertion = 0
        var oldIndex = 0
        for newIndex in new.indices {
            if nextInsertion < insertions.count, insertions[nextInsertion] == newIndex {
                result.append(insert(new[newIndex]))
                nextInsertion += 1
                continue
            }
            while nextDeletion < deletions.count, deletions[nextDeletion] == oldIndex {
                nextDeletion += 1
                oldIndex += 1
            }
            if nextModification < modifications.count, modifications[nextModification] == oldIndex {
                result.append(modify(old[oldIndex], new[newIndex]))
                nextModification += 1
            } else {
                result.append(old[oldIndex])
            }
            oldIndex += 1
        }
        return result
    }

    /// Applies this changeset to `old`, taking inserted and modified items from `new`.
    @inlinable
    public func apply<Item>(to old: [Item], from new: [Item]) -> [Item] {
        apply(to: old, from: new, insert: { $0 }, modify: { $1 })
    }
}

extension Changeset {
    /// The changes that turn `old` into `new`, matching items by their identity and comparing
    /// their content with `==`.
    @inlinable
    public init<Item: Identifiable & Equatable>(old: [Item], new: [Item]) {
        self.init(old: old, new: new, id: { $0.id }, hasSameContent: ==)
    }

    /// The changes that turn `old` into `new`, matching items by `id` and comparing content with
    /// `==`.
    @inlinable
    public init<Item: Equatable, ID: Hashable>(old: [Item], new: [Item], id: (Item) -> ID) {
        self.init(old: old, new: new, id: id, hasSameContent: ==)
    }
}
