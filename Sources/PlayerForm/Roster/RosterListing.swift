import Foundation
import PlayerFormScores

/// The whole roster read a page at a time, for a listing or an export that other sessions may
/// change while it runs: every player kept from its start to its end is given once, in roster
/// order, whatever is deleted or added meanwhile.
///
/// A page is read from where the last one ended. A deletion before that place would move every
/// later player up, and reading on from the same number would skip as many; so when the store
/// changed since the last page (its revision, asked before and after each page, one cheap
/// question each), the next page starts after the last player given that is still kept, found by
/// its name (and, when the page had them, its first record, so that a player deleted and added
/// again, now at the end, is not taken for it). When every player of the last page is gone, the
/// last player of each earlier page is tried in turn, and when none is left the listing starts
/// again from the first player: a player may then be given twice, never skipped. Players added
/// meanwhile come at the end, as they do in the roster.
///
/// ```swift
/// let listing = roster.listing(pageSize: 1_000)
/// while true {
///     let page = try await listing.next()
///     // rows page.firstRow + 1 ... for page.players
///     if page.players.count < 1_000 { break }
/// }
/// ```
public final class RosterListing {
    /// One page: its players and the 0-based place of the first of them in the roster.
    public struct Page: Sendable {
        /// The 0-based place in the roster of the first of ``players`` when they were read.
        public let firstRow: Int
        /// The players, in roster order.
        public let players: [Player]
    }

    /// A player given, by which the listing finds its place again.
    private struct Anchor {
        let name: String
        /// Its first record, when the page read the record ids.
        let firstRecord: UUID?

        init(_ player: Player) {
            name = player.name
            firstRecord = player.recordIDs.first
        }
    }

    private let store: any ScoreStore
    private let pageSize: Int
    private let withRecordIDs: Bool
    private var offset = 0
    private var revision: UInt64?
    /// The players of the last page, last first.
    private var lastPage: [Anchor] = []
    /// The last player of each earlier page, first page first.
    private var earlier: [Anchor] = []

    /// A listing of `store` in pages of `pageSize` players (at least 1), with each player's record
    /// ids when `withRecordIDs` is set.
    init(store: any ScoreStore, pageSize: Int, withRecordIDs: Bool) {
        self.store = store
        self.pageSize = max(1, pageSize)
        self.withRecordIDs = withRecordIDs
    }

    /// The next page: fewer than the page size of players at the end of the roster.
    /// - Throws: the store's error; the listing may be asked again.
    public func next() async throws(ScoreStoreError) -> Page {
        var players: [Player] = []
        // A page read while the store changed may be out of step with the place it was read
        // from: it is read again, a few times at most, and the next page finds its place anew.
        for _ in 0..<3 {
            let before = try await store.revision()
            if let revision, revision != before { try await findPlace() }
            revision = before
            players =
                withRecordIDs
                ? try await store.players(from: offset, limit: pageSize)
                : try await store.playerListing(from: offset, limit: pageSize)
            if try await store.revision() == before { break }
        }
        let page = Page(firstRow: offset, players: players)
        offset += players.count
        if let last = lastPage.first { earlier.append(last) }
        lastPage = players.reversed().map(Anchor.init)
        return page
    }

    /// Sets the place to read from after the last player given that is still kept.
    private func findPlace() async throws(ScoreStoreError) {
        for anchor in lastPage + earlier.reversed() {
            guard let found = try await store.player(named: anchor.name) else { continue }
            if let first = anchor.firstRecord, !found.player.recordIDs.contains(first) { continue }
            offset = found.index + 1
            return
        }
        offset = 0
    }
}

extension RosterViewModel {
    /// The whole roster a page at a time, kept in step with other sessions' changes as
    /// ``RosterListing`` says; `withRecordIDs` reads each player's record ids too.
    public func listing(pageSize: Int, withRecordIDs: Bool = false) -> RosterListing {
        RosterListing(store: store, pageSize: pageSize, withRecordIDs: withRecordIDs)
    }
}
