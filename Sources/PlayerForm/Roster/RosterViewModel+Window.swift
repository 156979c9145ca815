import Foundation
import PlayerFormRules
import PlayerFormScores
import ReactiveCore
import ReactiveTable
import Synchronization

extension RosterViewModel {
    // MARK: Reading the window

    /// How many times a reading is taken again when the roster changed while it was taken.
    static let refreshAttempts = 3

    enum ReadingKind {
        /// The same window, read again: rows that left or came only because others did are
        /// scrolled, the others are changes.
        case content
        /// The window moved: every row that left or came is scrolled.
        case move(to: Int)
    }

    /// What the store said about the window.
    struct Reading {
        var firstIndex: Int
        var total: Int
        var players: [Player]
        var revision: UInt64
        /// Keys of players that left the window but are still in the roster.
        var stillKept: Set<String>
    }

    /// What an action throws for the store's `error`: a cancellation as `CancellationError`, so
    /// that the action reports it as cancelled, and any other error after sending `alert`.
    static func alerting(
        _ error: ScoreStoreError, _ alert: RosterAlert, to alerts: Signal<RosterAlert>.Input
    ) -> any Error {
        if error == .cancelled { return CancellationError() }
        alerts.send(alert)
        return error
    }

    /// Reads the window from the store and commits it; returns how the rows in view changed.
    ///
    /// Retried when another change was committed while reading, so an older reading never undoes a
    /// newer change; after the last attempt the roster keeps what it shows.
    @discardableResult
    func reload(
        _ kind: ReadingKind, afterReading: @Sendable () -> Void = {}
    ) async throws(ScoreStoreError) -> WindowChange? {
        for _ in 0..<Self.refreshAttempts {
            let (generation, old) = commitState()
            let reading = try await read(kind, old: old)
            afterReading()
            if let committed = commit(reading, kind: kind, ifUnchangedSince: generation) {
                return committed.change
            }
        }
        return nil
    }

    func commitState() -> (Int, Shown) {
        shown.withLock { state in
            var copy = state
            copy.announcements = []
            return (state.commits, copy)
        }
    }

    /// The players of the last commit, announced or not yet.
    var playersShown: [Player] {
        shown.withLock { $0.players }
    }

    // MARK: Changing and announcing

    /// Runs `body` under the lock to change what the roster shows, and queues the announcement it
    /// returns.
    ///
    /// The announcements are made after the lock is released: by this caller, unless
    /// another caller (on another thread, or up this thread's stack in an observer) is already
    /// making them, and then by that caller after the ones before. So no observer runs under the
    /// lock, and observers hear one change at a time, in the order the changes were made.
    func change<Result: Sendable>(_ body: (inout Shown) -> (Result, Announcement?)) -> Result {
        let (result, mustAnnounce) = shown.withLock { state -> (Result, Bool) in
            let (result, announcement) = body(&state)
            guard let announcement else { return (result, false) }
            state.announcements.append(announcement)
            guard !state.isAnnouncing else { return (result, false) }
            state.isAnnouncing = true
            return (result, true)
        }
        if mustAnnounce { announceQueued() }
        return result
    }

    /// Makes the queued announcements until none is left; called only by the caller that set
    /// `isAnnouncing`, which this clears under the lock when it finds the queue empty.
    func announceQueued() {
        while true {
            let batch = shown.withLock { state -> [Announcement] in
                let batch = state.announcements
                state.announcements = []
                if batch.isEmpty { state.isAnnouncing = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            for announce in batch { announce() }
        }
    }

    func read(_ kind: ReadingKind, old: Shown) async throws(ScoreStoreError) -> Reading {
        var first: Int
        switch kind {
        case .content: first = old.firstIndex
        case .move(let index): first = index
        }
        first = max(0, first)
        // One reading, in which the revision, the count and the players agree.
        var window = try await store.rosterWindow(from: first, limit: old.size)
        // A window past the end shows the last rows: read again from there. The start only goes
        // down, so this ends however the count changes meanwhile.
        while first > 0 && first >= window.playerCount {
            first = max(0, window.playerCount - old.size)
            window = try await store.rosterWindow(from: first, limit: old.size)
        }
        let (revision, total, players) = (window.revision, window.playerCount, window.players)
        var stillKept: Set<String> = []
        // Only rows in view before may have left it (none at the first reading).
        if case .content = kind, !old.keys.isEmpty {
            let newKeys = Set(players.map(\.key))
            for (index, key) in old.keys.enumerated() where !newKeys.contains(key) {
                if try await store.player(named: old.players[index].name) != nil { stillKept.insert(key) }
            }
        }
        return Reading(
            firstIndex: first, total: total, players: players, revision: revision, stillKept: stillKept)
    }

    /// A reading that was committed, and what it changed (nil: nothing).
    struct Committed {
        let change: WindowChange?
    }

    /// Commits `reading` when no other commit happened since `generation`; nil when one did.
    func commit(
        _ reading: Reading, kind: ReadingKind, ifUnchangedSince generation: Int
    ) -> Committed? {
        change { state -> (Committed?, Announcement?) in
            guard state.commits == generation else { return (nil, nil) }
            let moved: Bool
            if case .move = kind { moved = true } else { moved = false }
            let (change, announcement) = commitWindow(
                &state, firstIndex: reading.firstIndex, total: reading.total, players: reading.players,
                revision: reading.revision, moved: moved, stillKept: reading.stillKept)
            return (Committed(change: change), announcement)
        }
    }

    /// Replaces the window in `state` with `players` from `firstIndex`; returns the change, nil
    /// when nothing changed, and what announces it.
    ///
    /// Call under the lock; the announcement is made after it is released.
    func commitWindow(
        _ state: inout Shown, firstIndex: Int, total: Int, players: [Player], revision: UInt64?, moved: Bool,
        stillKept: Set<String>
    ) -> (WindowChange?, Announcement?) {
        let keys = players.map(\.key)
        let changeset = Changeset(
            old: Array(zip(state.keys, state.players)), new: Array(zip(keys, players)), id: { $0.0 },
            hasSameContent: { $0.1 == $1.1 })
        if let revision { state.revision = revision }
        let windowMoved = firstIndex != state.firstIndex || total != state.total
        guard !changeset.isEmpty || windowMoved else { return (nil, nil) }
        state.commits += 1

        // Which deletions and insertions only scrolled: all of them when the window moved;
        // otherwise rows that left but are still kept, and rows that came from further down.
        var scrolledOut: Set<Int> = []
        var scrolledIn: Set<Int> = []
        if moved {
            scrolledOut = Set(changeset.deletions)
            scrolledIn = Set(changeset.insertions)
        } else {
            scrolledOut = Set(changeset.deletions.filter { stillKept.contains(state.keys[$0]) })
            let removed = changeset.deletions.count - scrolledOut.count
            // Players are added only at the end of the roster: a row that came in above the old
            // end (less the players removed in view) was already there.
            scrolledIn = Set(changeset.insertions.filter { firstIndex + $0 < state.total - removed })
        }

        var spare = state.spare
        for index in changeset.deletions { spare.append(state.rows[index]) }
        let selected = state.selected
        var made = 0
        // Rows are reused and updated when the change is announced, as their observers hear it.
        var rowUpdates: [@Sendable () -> Void] = []
        let rows = changeset.apply(
            to: state.rows, from: players,
            insert: { player -> PlayerRowViewModel in
                let isSelected = selected[player.key] != nil
                if let row = spare.popLast() {
                    rowUpdates.append { row.reuse(for: player, isSelected: isSelected) }
                    return row
                }
                made += 1
                return PlayerRowViewModel(player, isSelected: isSelected)
            },
            modify: { row, player in
                rowUpdates.append { row.playerUpdated(player) }
                return row
            })
        // Players removed in view leave the selection.
        var selection = selected
        for index in changeset.deletions where !scrolledOut.contains(index) {
            selection[state.keys[index]] = nil
        }

        let previousFirst = state.firstIndex
        state.firstIndex = firstIndex
        state.total = total
        state.players = players
        state.keys = keys
        state.rows = rows
        state.spare = spare
        state.rowsMade += made
        state.selected = selection

        let change = WindowChange(
            changeset: changeset, previousFirstIndex: previousFirst, scrolledOut: scrolledOut,
            scrolledIn: scrolledIn)
        let window = RowWindow(firstIndex: firstIndex, totalCount: total, rows: rows, change: change)
        let selectionChanged = selection.count != selected.count
        let (selectedStore, rowsStore, playersStore) = (selectedStore, rowsStore, playersStore)
        let (countStore, firstIndexStore, windowStore) = (countStore, firstIndexStore, windowStore)
        let changesInput = changesInput
        let (rowUpdatesMade, newSelection) = (rowUpdates, selection)
        return (
            change,
            {
                for update in rowUpdatesMade { update() }
                if selectionChanged { selectedStore.value = Set(newSelection.values) }
                rowsStore.value = rows
                playersStore.value = players
                countStore.value = total
                firstIndexStore.value = firstIndex
                windowStore.value = window
                if !moved, !changeset.isEmpty { changesInput.send(changeset) }
            }
        )
    }

    /// Adds a kept upload to the window when the window can tell where it goes: new points for a
    /// player in view, or a new player when the window shows the whole roster.
    ///
    /// Returns false when it cannot (the player may be anywhere out of view).
    func merge(_ record: ScoreRecord) -> Bool {
        change { state -> (Bool, Announcement?) in
            let key = PlayerName.comparisonKey(record.name)
            var players = state.players
            if let index = state.keys.firstIndex(of: key) {
                guard !players[index].recordIDs.contains(record.id) else { return (true, nil) }
                players[index] = players[index].updated(with: record)
                let (_, announcement) = commitWindow(
                    &state, firstIndex: state.firstIndex, total: state.total, players: players, revision: nil,
                    moved: false, stillKept: [])
                return (true, announcement)
            }
            guard state.firstIndex == 0, state.players.count == state.total else { return (false, nil) }
            // The window shows every player, so this one is new: it goes at the end.
            if players.count < state.size {
                players.append(
                    Player(
                        name: record.name, points: record.points, uploadedAt: record.uploadedAt,
                        recordIDs: [record.id], key: key))
            }
            let (_, announcement) = commitWindow(
                &state, firstIndex: 0, total: state.total + 1, players: players, revision: nil, moved: false,
                stillKept: [])
            return (true, announcement)
        }
    }
}
