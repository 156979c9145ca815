import Foundation
import ReactiveCore

/// The roster's view model: the players kept in a score store, their rows, the selection, and a
/// small form to add a player. The port of SwiftGoal's ManagePlayersViewModel.
///
/// Every change of the players is announced once, as a ``Changeset`` from the previous list to
/// the new one, after ``rows`` and ``players`` hold the new list. Store failures never empty
/// the roster: it keeps what it shows and announces an alert (a cancelled operation is not a
/// failure and raises none).
///
/// ```swift
/// let roster = RosterViewModel(store: store)
/// roster.contentChanges.observeValues { print($0) }
/// try await roster.refresh.apply(())
/// roster.follow(form)  // uploads from the form appear as changes
/// ```
public final class RosterViewModel: Sendable {
    // MARK: Outputs: continuous

    /// The screen's title.
    public let title = "Players"
    /// The players, in the order their names were first uploaded.
    public let players: Property<[Player]>
    /// One view model per player, parallel to ``players``; a row keeps its identity while its
    /// player stays in the roster.
    public let rows: Property<[PlayerRowViewModel]>
    /// Whether a refresh is running.
    public let isLoading: Property<Bool>
    /// The names of the selected players.
    public let selectedNames: Property<Set<String>>
    /// The selected players, in roster order.
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

    /// What changed in the players, each time they change.
    public let contentChanges: Signal<Changeset>
    /// Alerts for the user, such as store failures.
    public let alerts: Signal<RosterAlert>
    /// The messages of ``alerts``.
    public let alertMessages: Signal<String>

    // MARK: Actions

    /// Reads the store again and announces what changed.
    public let refresh: Action<Void, [Player]>
    /// Uploads a new player (or new points for a player). Enabled only while the input is valid;
    /// prefer ``addTapped()``, which uploads the input.
    public let addPlayer: Action<UploadRequest, ScoreRecord>
    /// Deletes the player with this name and every record of it.
    public let delete: Action<String, Player>
    /// Selects or deselects the player with this name; returns whether it is now selected.
    public let toggleSelection: Action<String, Bool>
    /// Selects or deselects the player of a row: the selection action for a ``TableBinding``.
    public let rowSelected: Action<PlayerRowViewModel, Bool>

    // MARK: Storage

    private let playersStore = MutableProperty<[Player]>([])
    private let loadingStore = MutableProperty(false)
    private let rowsStore = MutableProperty<[PlayerRowViewModel]>([])
    private let selectedStore = MutableProperty<Set<String>>([])
    private let nameStore: MutableProperty<String>
    private let pointsStore: MutableProperty<Double>
    private let changesInput: Signal<Changeset>.Input
    private let alertsInput: Signal<RosterAlert>.Input
    /// Serialises changes of the players, so that changesets are announced in the order they
    /// were computed; recursive, so an observer of a change may change the roster again.
    private let commitLock = NSRecursiveLock()
    private let observations = DisposeBag()

    /// Creates a roster of the players in `store`, with `rules` for new players. The roster is
    /// empty until the first ``refresh``.
    public init(store: any ScoreStore, rules: PlayerRules = .defaults) {
        nameStore = MutableProperty("")
        pointsStore = MutableProperty(rules.points)
        (contentChanges, changesInput) = Signal<Changeset>.pipe()
        (alerts, alertsInput) = Signal<RosterAlert>.pipe()
        alertMessages = alerts.map(\.message)

        players = playersStore.readOnly
        rows = rowsStore.readOnly
        selectedNames = selectedStore.readOnly
        selectedPlayers = Property.combineLatest(players, selectedNames).map { players, selected in
            players.filter { selected.contains($0.name) }
        }
        newName = nameStore.readOnly
        newPoints = pointsStore.readOnly
        inputIssues = Property.combineLatest(newName, newPoints).map { name, points in
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
            loading.value = true
            // An upload or a deletion may land in the roster while the store is read; the older
            // reading must not undo it. Such a reading is discarded and the store read again; if the
            // roster still moves, it keeps what it shows and the next refresh catches up.
            var reading: ScoreReading
            var players: [Player]
            var generation = 0
            var attempts = 0
            repeat {
                attempts += 1
                generation = roster.value?.generation ?? 0
                do {
                    reading = try await store.read()
                } catch {
                    loading.value = false
                    if !(error is CancellationError) { alertsInput.send(.readFailed(reason: "\(error)")) }
                    throw error
                }
                players = Player.roster(from: reading.records)
            } while roster.value?.generation != generation && attempts < RosterViewModel.refreshAttempts
            loading.value = false
            for problem in reading.problems { alertsInput.send(.damagedStore(problem: problem)) }
            let settled = players
            roster.value?.commit(ifUnchangedSince: generation) { _ in settled }
            return players
        }
        isLoading = loadingStore.readOnly

        addPlayer = Action(enabledIf: inputIsValid) { request in
            let issues = rules.validate(name: request.name, points: request.points)
            guard issues.isEmpty else {
                alertsInput.send(.invalidInput(issues))
                throw RosterError.invalidInput(issues)
            }
            let record: ScoreRecord
            do {
                record = try await store.upload(name: request.name, points: request.points)
            } catch {
                if !(error is CancellationError) {
                    alertsInput.send(.addFailed(name: request.name, reason: "\(error)"))
                }
                throw error
            }
            roster.value?.merge(record)
            return record
        }

        delete = Action { name in
            guard let player = roster.value?.players.value.first(where: { $0.name == name }) else {
                alertsInput.send(.noSuchPlayer(name: name))
                throw RosterError.noSuchPlayer(name: name)
            }
            do {
                try await store.delete(ids: player.recordIDs)
            } catch {
                if !(error is CancellationError) {
                    alertsInput.send(.deleteFailed(name: name, reason: "\(error)"))
                }
                throw error
            }
            roster.value?.commit { players in players.filter { $0.name != name } }
            return player
        }

        toggleSelection = Action { name in
            guard let roster = roster.value, let selected = roster.toggle(name) else {
                alertsInput.send(.noSuchPlayer(name: name))
                throw RosterError.noSuchPlayer(name: name)
            }
            return selected
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

    /// The user tapped add: uploads the name and points typed, captured now.
    /// - Throws: ``ActionError/disabled`` when the input is not valid or an add is running;
    ///   ``ActionError/failed(_:)`` when the store fails (the alert says so too).
    @discardableResult
    public func addTapped() async throws(ActionError) -> ScoreRecord {
        try await addPlayer.apply(UploadRequest(name: nameStore.value, points: pointsStore.value))
    }

    /// Shows the uploads of `form` in the roster as they happen: while an upload of a player in
    /// the roster runs, its row shows it; a kept upload becomes a change of the roster.
    ///
    /// The form must upload to the same store as the roster. Dispose the result to stop
    /// following; following ends at the latest when the roster goes away.
    @discardableResult
    public func follow(_ form: PlayerViewModel) -> Disposable {
        let following = DisposeBag()
        let running = Locked<String?>(nil)
        form.upload.isExecuting.changes.observeValues(in: following) { [weak self, weak form] executing in
            guard executing, let self, let form else { return }
            let name = form.name.value
            running.withLock { $0 = name }
            self.row(named: name)?.uploadStarted()
        }
        form.upload.values.observeValues(in: following) { [weak self] record in
            self?.merge(record)
        }
        form.upload.isExecuting.changes.observeValues(in: following) { [weak self] executing in
            guard !executing, let name = running.withLock({ $0.take() }) else { return }
            self?.row(named: name)?.uploadEnded()
        }
        let disposable = Disposable { following.dispose() }
        observations.insert(disposable)
        return disposable
    }

    // MARK: Changes

    /// Replaces the players with `transform(players)` and announces the change, if any.
    /// How many times a refresh reads the store when the roster changes during the reading.
    static let refreshAttempts = 3

    /// Counts the commits that changed the roster, so a refresh can tell that its reading is older
    /// than what the roster shows.
    private let commits = Locked(0)

    /// The number of commits that changed the roster so far.
    var generation: Int { commits.value }

    /// Commits `transform` only when no other commit changed the roster since `generation`;
    /// returns whether it did.
    @discardableResult
    private func commit(ifUnchangedSince generation: Int, _ transform: ([Player]) -> [Player]) -> Bool {
        commitLock.lock()
        defer { commitLock.unlock() }
        guard commits.value == generation else { return false }
        commit(transform)
        return true
    }

    private func commit(_ transform: ([Player]) -> [Player]) {
        commitLock.lock()
        defer { commitLock.unlock() }
        let old = playersStore.value
        let new = transform(old)
        let changeset = Changeset(old: old, new: new, id: { $0.name }, hasSameContent: ==)
        guard !changeset.isEmpty else { return }
        commits.withLock { $0 += 1 }

        let selected = selectedStore.value
        if !selected.isEmpty, !changeset.deletions.isEmpty {
            let remaining = Set(new.map(\.name))
            if !selected.isSubset(of: remaining) {
                selectedStore.value = selected.intersection(remaining)
            }
        }
        let rows = changeset.apply(
            to: rowsStore.value, from: new,
            insert: { PlayerRowViewModel($0, isSelected: selected.contains($0.name)) },
            modify: { row, player in
                row.playerUpdated(player)
                return row
            })
        rowsStore.value = rows
        playersStore.value = new
        changesInput.send(changeset)
    }

    /// Adds a kept upload to the roster: new points for a known player, or a new player at the end.
    private func merge(_ record: ScoreRecord) {
        commit { players in
            var players = players
            if let index = players.firstIndex(where: { $0.name == record.name }) {
                guard !players[index].recordIDs.contains(record.id) else { return players }
                players[index] = players[index].updated(with: record)
            } else {
                players.append(
                    Player(
                        name: record.name, points: record.points, uploadedAt: record.uploadedAt,
                        recordIDs: [record.id]))
            }
            return players
        }
    }

    /// Toggles the selection of `name`; nil when no player has that name.
    private func toggle(_ name: String) -> Bool? {
        commitLock.lock()
        defer { commitLock.unlock() }
        guard let row = rowsStore.value.first(where: { $0.id == name }) else { return nil }
        let isSelected = selectedStore.modify { selected -> Bool in
            if selected.remove(name) == nil {
                selected.insert(name)
                return true
            }
            return false
        }
        row.selectionChanged(isSelected)
        return isSelected
    }

    private func row(named name: String) -> PlayerRowViewModel? {
        rowsStore.value.first { $0.id == name }
    }
}

/// A weak reference to the roster for the actions it owns, which are made before it is complete.
private final class WeakRoster: Sendable {
    private let reference = Locked<WeakBox?>(nil)

    private struct WeakBox {
        weak var roster: RosterViewModel?
    }

    var value: RosterViewModel? {
        get { reference.withLock { $0?.roster } }
        set { reference.withLock { $0 = WeakBox(roster: newValue) } }
    }
}
