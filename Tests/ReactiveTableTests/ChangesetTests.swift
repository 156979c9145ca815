import PropertyBased
import ReactiveTable
import Testing

/// An item with an identity and a content that may change.
private struct Item: Equatable, Identifiable, CustomStringConvertible {
    let id: Int
    let content: Int

    var description: String { "\(id):\(content)" }
}

/// A list of items with unique ids, in the order `ids` first names them; each id's content is
/// taken from `contents`.
private func items(_ ids: [Int], contents: [Int]) -> [Item] {
    var seen = Set<Int>()
    return ids.filter { seen.insert($0).inserted }.map {
        Item(id: $0, content: contents[$0 % contents.count])
    }
}

private func isStrictlyIncreasing(_ values: [Int]) -> Bool {
    zip(values, values.dropFirst()).allSatisfy { $0 < $1 }
}

@Suite("Changeset")
struct ChangesetTests {
    static let ids = Gen.int(in: 0...12).array(of: 0...14)
    static let contents = Gen.int(in: 0...2).array(of: 13...13)

    @Test("for random lists, applying the changeset to the old list gives the new list")
    func applyingGivesNew() async {
        await propertyCheck(count: 400, input: Self.ids, Self.ids, Self.contents, Self.contents) {
            oldIDs, newIDs, oldContents, newContents in
            let old = items(oldIDs, contents: oldContents)
            let new = items(newIDs, contents: newContents)
            let changeset = Changeset(old: old, new: new)
            #expect(changeset.apply(to: old, from: new) == new, "\(changeset)")
        }
    }

    @Test(
        "for random lists, the indices follow the rules: deletions and modifications are old indices, insertions new ones"
    )
    func indicesFollowTheRules() async {
        await propertyCheck(count: 400, input: Self.ids, Self.ids, Self.contents, Self.contents) {
            oldIDs, newIDs, oldContents, newContents in
            let old = items(oldIDs, contents: oldContents)
            let new = items(newIDs, contents: newContents)
            let changeset = Changeset(old: old, new: new)
            let newIDSet = Set(new.map(\.id))
            let oldIDSet = Set(old.map(\.id))

            // Sorted, without duplicates, in range.
            #expect(isStrictlyIncreasing(changeset.deletions))
            #expect(isStrictlyIncreasing(changeset.modifications))
            #expect(isStrictlyIncreasing(changeset.insertions))
            #expect(changeset.deletions.allSatisfy(old.indices.contains))
            #expect(changeset.modifications.allSatisfy(old.indices.contains))
            #expect(changeset.insertions.allSatisfy(new.indices.contains))
            #expect(Set(changeset.deletions).isDisjoint(with: changeset.modifications))
            #expect(old.count - changeset.deletions.count + changeset.insertions.count == new.count)

            // Gone items are deleted, new items inserted.
            for (index, item) in old.enumerated() where !newIDSet.contains(item.id) {
                #expect(changeset.deletions.contains(index))
            }
            for (index, item) in new.enumerated() where !oldIDSet.contains(item.id) {
                #expect(changeset.insertions.contains(index))
            }

            // The items kept in place are in the same order in both lists...
            let deleted = Set(changeset.deletions)
            let inserted = Set(changeset.insertions)
            let keptOld = old.indices.filter { !deleted.contains($0) }
            let keptNew = new.indices.filter { !inserted.contains($0) }
            #expect(keptOld.map { old[$0].id } == keptNew.map { new[$0].id })

            // ...and exactly those whose content differs are modifications.
            let differing = zip(keptOld, keptNew).filter { old[$0].content != new[$1].content }.map(\.0)
            #expect(changeset.modifications == differing)
        }
    }

    @Test("when no item moves, only removed items are deleted and only added items inserted")
    func noMovesMeansNoSpuriousChanges() async {
        let flags = Gen.bool.array(of: 0...14)
        await propertyCheck(count: 300, input: flags, Gen.int(in: 0...15).array(of: 0...5)) {
            keep, positions in
            let old = (0..<keep.count).map { Item(id: $0, content: 0) }
            var new = old.enumerated().filter { keep[$0.offset] }.map(\.element)
            var added: [Int] = []
            for (offset, position) in positions.enumerated() {
                let item = Item(id: 100 + offset, content: 0)
                new.insert(item, at: min(position, new.count))
                added.append(item.id)
            }
            let changeset = Changeset(old: old, new: new)
            #expect(changeset.deletions == keep.indices.filter { !keep[$0] })
            #expect(changeset.insertions == new.indices.filter { added.contains(new[$0].id) })
            #expect(changeset.modifications == [])
        }
    }

    @Test("new content for an item in place is a modification at its old index")
    func modification() {
        let old = [Item(id: 1, content: 100), Item(id: 2, content: 50)]
        let new = [Item(id: 1, content: 105), Item(id: 2, content: 50)]
        #expect(Changeset(old: old, new: new) == Changeset(modifications: [0]))
    }

    @Test("a moved item is deleted at its old index and inserted at its new one")
    func move() {
        let old = [1, 2, 3].map { Item(id: $0, content: 0) }
        let new = [3, 1, 2].map { Item(id: $0, content: 0) }
        #expect(Changeset(old: old, new: new) == Changeset(deletions: [2], insertions: [0]))
    }

    @Test("one insertion at the end of 100,000 rows is a single insertion")
    func oneInsertionIntoALongList() {
        let old = (0..<100_000).map { Item(id: $0, content: 0) }
        let new = old + [Item(id: 100_000, content: 0)]
        #expect(Changeset(old: old, new: new) == Changeset(insertions: [100_000]))
    }

    @Test("equal lists give an empty changeset")
    func equalLists() {
        let list = [1, 2].map { Item(id: $0, content: 0) }
        #expect(Changeset(old: list, new: list).isEmpty)
        #expect(!Changeset(deletions: [0]).isEmpty)
    }

    @Test("applying builds parallel elements: inserted ones made, modified ones updated, others kept")
    func applyToParallelList() {
        let old = [Item(id: 1, content: 0), Item(id: 2, content: 0), Item(id: 3, content: 0)]
        let new = [Item(id: 1, content: 7), Item(id: 3, content: 0), Item(id: 4, content: 0)]
        let changeset = Changeset(old: old, new: new)
        let rows = changeset.apply(
            to: ["row1", "row2", "row3"], from: new, insert: { "new\($0.id)" },
            modify: { row, item in "\(row)=\(item.content)" })
        #expect(rows == ["row1=7", "row3", "new4"])
    }
}
