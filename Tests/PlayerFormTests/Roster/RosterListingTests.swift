import Foundation
import PlayerForm
import PlayerFormScores
import PlayerFormTesting
import Testing

@Suite("RosterListing", .timeLimit(.minutes(10)))
struct RosterListingTests {
    /// A store of "P1" to "P\(count)", one record each, in that order.
    private func store(_ count: Int) -> InMemoryScoreStore {
        InMemoryScoreStore(
            records: (1...count).map {
                ScoreRecord(
                    id: UUID(), name: "P\($0)", points: Double($0), uploadedAt: Date(timeIntervalSince1970: 0)
                )
            })
    }

    /// Every page of `listing` of pages of `size`, with `between` run after each page but the last.
    private func pages(
        _ listing: RosterListing, size: Int, between: (Int) async throws -> Void = { _ in }
    ) async throws -> [RosterListing.Page] {
        var pages: [RosterListing.Page] = []
        while true {
            let page = try await listing.next()
            pages.append(page)
            if page.players.count < size { return pages }
            try await between(pages.count)
        }
    }

    @Test("with no change, the pages are the roster in order, each numbered from where it starts")
    func unchanged() async throws {
        let roster = RosterViewModel(store: store(7))
        let found = try await pages(roster.listing(pageSize: 3), size: 3)
        #expect(found.map(\.firstRow) == [0, 3, 6])
        #expect(found.flatMap(\.players).map(\.name) == (1...7).map { "P\($0)" })
    }

    @Test("players deleted before the next page skip no player kept, wherever they were")
    func deletionsSkipNothing() async throws {
        let shared = store(12)
        let roster = RosterViewModel(store: shared)
        let found = try await pages(roster.listing(pageSize: 3), size: 3) { page in
            // After the first page: two players it showed and one ahead of the listing go.
            if page == 1 {
                for name in ["P1", "P2", "P5"] { _ = try await shared.deletePlayer(named: name) }
            }
        }
        #expect(
            found.flatMap(\.players).map(\.name) == ["P1", "P2", "P3"]
                + [4, 6, 7, 8, 9, 10, 11, 12].map { "P\($0)" })
        #expect(found[1].firstRow == 1, "P4 is now the second player")
    }

    @Test("when every player of the last page is deleted, an earlier page's last player finds the place")
    func wholePageDeleted() async throws {
        let shared = store(12)
        let roster = RosterViewModel(store: shared)
        let found = try await pages(roster.listing(pageSize: 3), size: 3) { page in
            // After the second page: all of it, and one player ahead, go.
            if page == 2 {
                for name in ["P4", "P5", "P6", "P8"] { _ = try await shared.deletePlayer(named: name) }
            }
        }
        #expect(found.flatMap(\.players).map(\.name) == (1...12).filter { $0 != 8 }.map { "P\($0)" })
    }

    @Test("a player deleted and added again, now at the end, is not taken for the place it had")
    func deletedAndAddedAgain() async throws {
        let shared = store(9)
        let roster = RosterViewModel(store: shared)
        let found = try await pages(roster.listing(pageSize: 3, withRecordIDs: true), size: 3) { page in
            if page == 1 {
                _ = try await shared.deletePlayer(named: "P3")
                _ = try await shared.upload(name: "P3", points: 30)
            }
        }
        #expect(
            found.flatMap(\.players).map(\.name) == [
                "P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9", "P3",
            ])
    }

    @Test("players added while listing come at the end, once")
    func additionsAtTheEnd() async throws {
        let shared = store(5)
        let roster = RosterViewModel(store: shared)
        let found = try await pages(roster.listing(pageSize: 2), size: 2) { page in
            if page == 1 { _ = try await shared.upload(name: "New", points: 1) }
        }
        #expect(found.flatMap(\.players).map(\.name) == ["P1", "P2", "P3", "P4", "P5", "New"])
    }
}
