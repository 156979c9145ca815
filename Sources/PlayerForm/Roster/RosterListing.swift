import PlayerFormScores

/// The whole roster read a page at a time, for a listing or an export that other sessions may
/// change while it runs: every player kept from its start to its end is given once, in roster
/// order, whatever is deleted or added meanwhile.
///
/// A page is read from where the last one ended. A deletion before that place would move every
/// later player up, and reading on from the same number would skip as many; so when the store
/// changed since the last page (its revision, one cheap question), the next page starts after the
/// last player given that is still kept, found by its name. Players added meanwhile come at the
/// end, as they do in the roster.
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

    private let store: any ScoreStore
    private let pageSize: Int
    private let withRecordIDs: Bool
    private var offset = 0
    private var revision: UInt64?
    /// The names of the last page, last first: where the next page starts after a change.
    private var lastNames: [String] = []

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
        let now = try await store.revision()
        if let revision, revision != now {
            for name in lastNames {
                if let found = try await store.player(named: name) {
                    offset = found.index + 1
                    break
                }
            }
        }
        revision = now
        let players =
            withRecordIDs
            ? try await store.players(from: offset, limit: pageSize)
            : try await store.playerListing(from: offset, limit: pageSize)
        let page = Page(firstRow: offset, players: players)
        offset += players.count
        lastNames = players.reversed().map(\.name)
        return page
    }
}

extension RosterViewModel {
    /// The whole roster a page at a time, kept in step with other sessions' changes as
    /// ``RosterListing`` says; `withRecordIDs` reads each player's record ids too.
    public func listing(pageSize: Int, withRecordIDs: Bool = false) -> RosterListing {
        RosterListing(store: store, pageSize: pageSize, withRecordIDs: withRecordIDs)
    }
}
