import Foundation
import PlayerFormRules
import PlayerFormScores
import ReactiveCore
import ReactiveTable
import Synchronization

/// The roster's view model: the players kept in a score store, seen through a window of rows,
/// the selection, and a small form to add a player.
///
/// The port of SwiftGoal's ManagePlayersViewModel, for rosters of any size.
///
/// The roster never holds every player: it holds the count, the window's first index and size,
/// and a row view model for each player in the window. Moving the window, a refresh, an add
/// and a delete each ask the store for the count and the players in the window (and look up a
/// few players by name), so they cost the window, never the roster. Rows are reused as the
/// window moves, as a table reuses cells: a roster makes at most as many row view models as
/// its window is large.
///
/// Every change of the window is announced once, on ``window`` with the changes of its rows;
/// changes of the players in view (not moves of the window) are also announced on
/// ``contentChanges``, after ``rows`` and ``players`` hold the new rows. A change is made under
/// the roster's lock and announced after the lock is released, so an observer may call back into
/// the roster from any thread; changes made at once by several callers, or by an observer, are
/// announced one after another in the order they were made, never interleaved. Store failures never
/// empty the roster: it keeps what it shows and announces an alert (a cancelled operation is not
/// a failure and raises none).
///
/// ```swift
/// let roster = RosterViewModel(store: store, windowSize: 40)
/// let table = TableBinding<PlayerRowTemplate>(window: roster.window, selection: roster.rowSelected)
/// try await roster.refresh.apply(())      // the first 40 players
/// try await roster.moveWindow.apply(400)  // rows 401 to 440, the same row view models
/// roster.follow(form)                     // uploads from the form appear as changes
/// ```
public final class RosterViewModel: Sendable {
    // MARK: Outputs: continuous

    /// The screen's title.
    public let title = "Players"
    /// The players in the window, in roster order (the order their names were first uploaded).
    public let players: Property<[Player]>
    /// One view model per player in the window, parallel to ``players``; a row keeps its identity
    /// while its player stays in the window, and is reused for another player when it leaves.
    public let rows: Property<[PlayerRowViewModel]>
    /// The window: its first index, the count of players, its rows, and how they changed.
    public let window: Property<RowWindow<PlayerRowViewModel>>
    /// How many players the store keeps, as last read.
    public let playerCount: Property<Int>
    /// The 0-based index in the roster of the window's first row.
    public let firstIndex: Property<Int>
    /// How many rows the window holds at most.
    public let windowSize: Property<Int>
    /// Whether a refresh is running.
    public let isLoading: Property<Bool>
    /// The names of the selected players, in view or not.
    public let selectedNames: Property<Set<String>>
    /// The selected players in the window, in roster order.
    public let selectedPlayers: Property<[Player]>
    /// The name typed for a new player.
    public let newName: Property<String>
    /// The points typed for a new player.
    public let newPoints: Property<Double>
    /// Every reason the new player's input is not valid, by the same rules as the player form.
    public let inputIssues: Property<[ValidationIssue]>
    /// Whether the new player's input is valid.
    public let inputIsValid: Property<Bool>

    // MARK: Outputs: discrete

    /// What changed in the players in view, each time they change (window indices).
    public let contentChanges: Signal<Changeset>
    /// Alerts for the user, such as store failures, carrying values (the store's error, the
    /// name): a front end says each in its own words.
    public let alerts: Signal<RosterAlert>

    // MARK: Actions

    /// Reads the window again, and any damage the store reports, and announces what changed.
    public let refresh: Action<Void, [Player]>
    /// Moves the window to start at this 0-based index of the roster (kept within the roster)
    /// and reads its players; returns them.
    public let moveWindow: Action<Int, [Player]>
    /// Uploads a new player (or new points for a player).
    ///
    /// Enabled only while the input is valid; prefer ``addTapped()``, which uploads the input.
    public let addPlayer: Action<UploadRequest, ScoreRecord>
    /// Deletes the player with this name (as `PlayerName` compares names) and every record of
    /// it, in view or not.
    public let delete: Action<String, Player>
    /// Selects or deselects the player with this name, in view or not; returns whether it is now
    /// selected.
    public let toggleSelection: Action<String, Bool>
    /// Selects or deselects the player of a row: the selection action for a `TableBinding`.
    public let rowSelected: Action<PlayerRowViewModel, Bool>

    // MARK: Storage

    /// What the roster announces for one change: run after the lock is released, one at a time.
    typealias Announcement = @Sendable () -> Void

    /// What the roster shows, changed only under the lock of `shown`.
    struct Shown {
        var firstIndex = 0
        var size: Int
        var total = 0
        var players: [Player] = []
        var keys: [String] = []
        var rows: [PlayerRowViewModel] = []
        /// Rows that left the window, kept for reuse.
        var spare: [PlayerRowViewModel] = []
        /// The store's revision when the window was last read.
        var revision: UInt64?
        /// The selected players: comparison key to name.
        var selected: [String: String] = [:]
        var rowsMade = 0
        /// Counts the commits that changed the roster, so a reading can tell that it is older
        /// than what the roster shows.
        var commits = 0
        /// Announcements of changes made, in the order they were made, not yet started.
        var announcements: [Announcement] = []
        /// Whether a caller is making the announcements; others only queue theirs.
        var isAnnouncing = false
    }

    let shown: Mutex<Shown>
    let store: any ScoreStore
    let playersStore = MutableProperty<[Player]>([])
    let loadingStore = MutableProperty(false)
    let rowsStore = MutableProperty<[PlayerRowViewModel]>([])
    let windowStore = MutableProperty(RowWindow<PlayerRowViewModel>.empty)
    let countStore = MutableProperty(0)
    let firstIndexStore = MutableProperty(0)
    let sizeStore: MutableProperty<Int>
    let selectedStore = MutableProperty<Set<String>>([])
    let nameStore: MutableProperty<String>
    let pointsStore: MutableProperty<Double>
    let changesInput: Signal<Changeset>.Input
    let alertsInput: Signal<RosterAlert>.Input
    let observations = DisposeBag()

    /// Creates a roster of the players in `store`, with `rules` for new players and a window of
    /// `windowSize` rows (at least 1).
    ///
    /// The roster is empty until the first ``refresh``.
    public convenience init(store: any ScoreStore, rules: PlayerRules = .defaults, windowSize: Int = 40) {
        self.init(store: store, rules: Property(value: rules), windowSize: windowSize)
    }

    /// Creates a roster whose new players follow `rules` as they change: the rules of a player
    /// form (``PlayerViewModel/rules``), so that a limit changed in the form holds for the roster's
    /// new players at once.
    public init(store: any ScoreStore, rules: Property<PlayerRules>, windowSize: Int = 40) {
        self.store = store
        let size = max(1, windowSize)
        shown = Mutex(Shown(size: size))
        sizeStore = MutableProperty(size)
        nameStore = MutableProperty("")
        pointsStore = MutableProperty(rules.value.points)
        (contentChanges, changesInput) = Signal<Changeset>.pipe()
        (alerts, alertsInput) = Signal<RosterAlert>.pipe()

        players = playersStore.readOnly
        rows = rowsStore.readOnly
        window = windowStore.readOnly
        playerCount = countStore.readOnly
        firstIndex = firstIndexStore.readOnly
        self.windowSize = sizeStore.readOnly
        selectedNames = selectedStore.readOnly
        selectedPlayers = Property.combineLatest(players, selectedNames).map { players, selected in
            let keys = Set(selected.map(PlayerName.comparisonKey))
            return players.filter { keys.contains($0.key) }
        }
        newName = nameStore.readOnly
        newPoints = pointsStore.readOnly
        inputIssues = Property.combineLatest(newName, newPoints, rules) { name, points, rules in
            rules.validate(name: name, points: points)
        }
        inputIsValid = inputIssues.map(skippingRepeats: { $0.isEmpty })

        // The actions need the roster, which exists only once every stored property is set; they
        // reach it through a box filled at the end of init.
        let roster = WeakRoster()
        let alertsInput = alertsInput

        // As in SwiftGoal: isLoading true, fetch, isLoading false, then the changeset.
        let loading = loadingStore
        refresh = Action { () async throws -> [Player] in
            guard let current = roster.value else { return [] }
            loading.value = true
            do throws(ScoreStoreError) {
                // As in SwiftGoal, the changes are announced after isLoading returns to false.
                try await current.reload(.content) { loading.value = false }
            } catch {
                loading.value = false
                throw RosterViewModel.alerting(error, .readFailed(error), to: alertsInput)
            }
            return current.playersShown
        }
        isLoading = loadingStore.readOnly

        moveWindow = Action { first in
            guard let current = roster.value else { return [] }
            do throws(ScoreStoreError) {
                try await current.reload(.move(to: first))
            } catch {
                throw RosterViewModel.alerting(error, .readFailed(error), to: alertsInput)
            }
            return current.playersShown
        }

        addPlayer = Action(enabledIf: inputIsValid) { request in
            let issues = rules.value.validate(name: request.name, points: request.points)
            guard issues.isEmpty else {
                alertsInput.send(.invalidInput(issues))
                throw RosterError.invalidInput(issues)
            }
            let record: ScoreRecord
            do throws(ScoreStoreError) {
                record = try await store.upload(name: request.name, points: request.points)
            } catch {
                throw RosterViewModel.alerting(
                    error, .addFailed(name: request.name, error: error), to: alertsInput)
            }
            if let current = roster.value, !current.merge(record) {
                // The window cannot tell where the player is: read it again. The record is kept
                // either way, so a failed reading leaves the roster to catch up later.
                _ = try? await current.reload(.content)
            }
            return record
        }

        delete = Action { name in
            let removed: Player?
            do throws(ScoreStoreError) {
                removed = try await store.deletePlayer(named: name)
            } catch {
                throw RosterViewModel.alerting(
                    error, .deleteFailed(name: name, error: error), to: alertsInput)
            }
            guard let removed else {
                alertsInput.send(.noSuchPlayer(name: name))
                throw RosterError.noSuchPlayer(name: name)
            }
            if let current = roster.value {
                current.deselect(key: PlayerName.comparisonKey(name))
                _ = try? await current.reload(.content)
            }
            return removed
        }

        toggleSelection = Action { name in
            guard let current = roster.value else { throw RosterError.noSuchPlayer(name: name) }
            if let selected = current.toggle(name) { return selected }
            // Not in view: the store says whether there is such a player.
            guard let (_, player) = try await store.player(named: name) else {
                alertsInput.send(.noSuchPlayer(name: name))
                throw RosterError.noSuchPlayer(name: name)
            }
            return current.toggle(player.name, known: true) ?? false
        }

        let toggleSelection = toggleSelection
        rowSelected = Action { row in
            do {
                return try await toggleSelection.apply(row.id)
            } catch ActionError.failed(let reason) {
                // Report why, not that the inner action failed.
                throw reason
            }
        }

        roster.value = self
    }

    // MARK: Inputs

    /// The user typed the new player's name.
    public func newNameEdited(_ name: String) {
        nameStore.value = name
    }

    /// The user typed the new player's points.
    public func newPointsEdited(_ points: Double) {
        pointsStore.value = points
    }

    /// The window holds at most `size` rows (at least 1) from the next reading on.
    public func windowSizeChanged(to size: Int) {
        let size = max(1, size)
        let sizeStore = sizeStore
        change { state in
            state.size = size
            return ((), { sizeStore.value = size })
        }
    }

    /// The user tapped add: uploads the name and points typed, captured now.
    /// - Throws: `ActionError.disabled` when the input is not valid or an add is running;
    ///   `ActionError.failed(_:)` when the store fails (the alert says so too).
    @discardableResult
    public func addTapped() async throws(ActionError) -> ScoreRecord {
        try await addPlayer.apply(UploadRequest(name: nameStore.value, points: pointsStore.value))
    }

    /// Reads the window again when the store changed since it was last read, by this roster or
    /// any other client: asks the store for its revision (one cheap call) and, only when it moved,
    /// for the count and the window.
    ///
    /// Changes of players in view are announced as by ``refresh``; rows that only moved into or out
    /// of view are not.
    /// - Returns: how the count changed, when the store had changed; nil when it had not.
    /// - Throws: the store's error; the roster keeps what it shows.
    @discardableResult
    public func refreshIfStoreChanged() async throws(ScoreStoreError) -> RosterCatchUp? {
        let revision = try await store.revision()
        guard revision != shown.withLock({ $0.revision }) else { return nil }
        let before = shown.withLock { $0.total }
        let change = try await reload(.content)
        let after = shown.withLock { $0.total }
        return RosterCatchUp(
            countBefore: before, countAfter: after, addedInView: change?.additions.count ?? 0,
            removedInView: change?.removals.count ?? 0)
    }

    /// At most `limit` players of the roster from the 0-based `offset`, in view or not, read
    /// from the store without changing the window: for views that list the whole roster a page
    /// at a time, or look up a row by its number.
    public func players(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player] {
        try await store.players(from: offset, limit: limit)
    }

    /// The same players as ``players(from:limit:)``, whose record ids may be left empty: for
    /// views that list the whole roster and show no record, which the store answers faster.
    public func playerListing(from offset: Int, limit: Int) async throws(ScoreStoreError) -> [Player] {
        try await store.playerListing(from: offset, limit: limit)
    }

    /// The player named `name` (as `PlayerName` compares names) and its 0-based place in the
    /// roster, in view or not, asked of the store: one lookup of its key, whatever the roster's
    /// size; nil when the store keeps no such player.
    public func player(named name: String) async throws(ScoreStoreError) -> (index: Int, player: Player)? {
        try await store.player(named: name)
    }

    /// The players whose names start with `text` (as `PlayerName` compares names: case, width
    /// and invisible characters aside), at most `limit`, in the order of their names, each with
    /// its 0-based place in the roster: asked of the store, which answers from an index, whatever
    /// the roster's size.
    public func players(startingWith text: String, limit: Int) async throws(ScoreStoreError) -> [(
        index: Int, player: Player
    )] {
        try await store.players(startingWith: text, limit: limit)
    }

    /// How many players the store keeps now, asked of the store (``playerCount`` is the count as
    /// last read).
    public func playerCountNow() async throws(ScoreStoreError) -> Int {
        try await store.playerCount()
    }

    /// Whether the player named `name` (as `PlayerName` compares names) is selected, in view or
    /// not.
    public func isSelected(_ name: String) -> Bool {
        let key = PlayerName.comparisonKey(name)
        return shown.withLock { $0.selected[key] != nil }
    }

    /// How many row view models this roster has made: at most the largest window it showed,
    /// however many players it showed through it.
    public var rowViewModelsMade: Int {
        shown.withLock { $0.rowsMade }
    }

    /// Shows the uploads of `form` in the roster as they happen: while an upload of a player in
    /// the window runs, its row shows it; a kept upload of a player in the window, or of a new
    /// player when the window shows the whole roster, becomes a change of the roster at once;
    /// other uploads appear at the next reading (``refreshIfStoreChanged()``).
    ///
    /// The form must upload to the same store as the roster. Dispose the result to stop
    /// following; following ends at the latest when the roster goes away.
    @discardableResult
    public func follow(_ form: PlayerViewModel) -> Disposable {
        let following = DisposeBag()
        let running = Mutex<String?>(nil)
        form.upload.isExecuting.changes.observeValues(in: following) { [weak self, weak form] executing in
            guard executing, let self, let form else { return }
            let name = form.name.value
            running.withLock { $0 = name }
            self.row(named: name)?.uploadStarted()
        }
        form.upload.values.observeValues(in: following) { [weak self] record in
            _ = self?.merge(record)
        }
        form.upload.isExecuting.changes.observeValues(in: following) { [weak self] executing in
            guard !executing, let name = running.withLock({ $0.take() }) else { return }
            self?.row(named: name)?.uploadEnded()
        }
        let disposable = Disposable { following.dispose() }
        observations.insert(disposable)
        return disposable
    }

    // MARK: Selection

    /// Toggles the selection of `name` when its player is in view, or when `known` says the
    /// store keeps it; nil when neither.
    func toggle(_ name: String, known: Bool = false) -> Bool? {
        let selectedStore = selectedStore
        return change { state -> (Bool?, Announcement?) in
            let key = PlayerName.comparisonKey(name)
            let index = state.keys.firstIndex(of: key)
            guard index != nil || known else { return (nil, nil) }
            let isSelected: Bool
            if state.selected.removeValue(forKey: key) == nil {
                state.selected[key] = index.map { state.players[$0].name } ?? name
                isSelected = true
            } else {
                isSelected = false
            }
            let selection = Set(state.selected.values)
            let row = index.map { state.rows[$0] }
            return (
                isSelected,
                {
                    selectedStore.value = selection
                    row?.selectionChanged(isSelected)
                }
            )
        }
    }

    /// Removes the player with `key` from the selection.
    func deselect(key: String) {
        let selectedStore = selectedStore
        change { state -> ((), Announcement?) in
            guard state.selected.removeValue(forKey: key) != nil else { return ((), nil) }
            let selection = Set(state.selected.values)
            return ((), { selectedStore.value = selection })
        }
    }

    func row(named name: String) -> PlayerRowViewModel? {
        let key = PlayerName.comparisonKey(name)
        return shown.withLock { state in state.keys.firstIndex(of: key).map { state.rows[$0] } }
    }
}

/// What ``RosterViewModel/refreshIfStoreChanged()`` found: how the count of players changed, and
/// how many players were added and removed in view.
public struct RosterCatchUp: Sendable, Equatable {
    /// The count before the reading.
    public let countBefore: Int
    /// The count after it.
    public let countAfter: Int
    /// Players added in view.
    public let addedInView: Int
    /// Players removed in view.
    public let removedInView: Int

    /// Creates a catch-up.
    public init(countBefore: Int, countAfter: Int, addedInView: Int, removedInView: Int) {
        self.countBefore = countBefore
        self.countAfter = countAfter
        self.addedInView = addedInView
        self.removedInView = removedInView
    }

    /// How the count changed by players added or removed out of view.
    public var changedOutOfView: Int {
        countAfter - countBefore - addedInView + removedInView
    }
}

/// A weak reference to the roster for the actions it owns, which are made before it is complete.
private final class WeakRoster: Sendable {
    let reference = Mutex<WeakBox?>(nil)

    struct WeakBox {
        weak var roster: RosterViewModel?
    }

    var value: RosterViewModel? {
        get { reference.withLock { $0?.roster } }
        set { reference.withLock { $0 = WeakBox(roster: newValue) } }
    }
}
