import PlayerFormRules
import PlayerFormScores
import ReactiveCore
import Synchronization

/// The view model of one row of the roster: a player's continuous state and the title derived
/// from it, as a table row binds to it.
///
/// While an upload of the player is running and has reported a percentage above zero, the title
/// reads "Colin 40%"; otherwise it is the name.
///
/// A roster holds rows only for the players in view and reuses a row for another player when
/// the view moves, as a table reuses its cells: ``reuse(for:isSelected:)`` drops every binding
/// to the outputs of the old player (they stop changing), cancels the work bound to the row
/// with ``bindWork(_:)``, and shows the new player through outputs made anew. Each output is
/// made the first time it is asked for, so a row nobody binds to costs little.
///
/// ```swift
/// let row = PlayerRowViewModel(player)
/// row.title.values.observeValues { print($0) }  // Prints "Colin"
/// row.uploadStarted()
/// row.uploadProgressed(percent: 40)             // Prints "Colin 40%"
/// ```
public final class PlayerRowViewModel: Sendable, Identifiable {
    /// Everything a row shows, stored together.
    private struct State: Sendable {
        var player: Player
        var isUploading = false
        var percent = 0
        var isSelected: Bool
    }

    /// The outputs made so far; each is made once, when first asked for.
    private struct Outputs {
        var name: Property<String>?
        var points: Property<Double>?
        var pointsText: Property<String>?
        var isUploading: Property<Bool>?
        var percentComplete: Property<Int>?
        var isSelected: Property<Bool>?
        var title: Property<String>?
        var line: Property<Line>?
    }

    /// What a row shows, as one value: the title, the points as the table shows them, and
    /// whether the player is selected.
    public struct Line: Equatable, Sendable {
        /// The name, or "Colin 40%" while an upload reports progress (see ``title``).
        public let title: String
        /// The points as the table shows them: "100", "0.5".
        public let points: String
        /// Whether the player is selected.
        public let isSelected: Bool

        /// A line, as specs expect one.
        public init(title: String, points: String, isSelected: Bool) {
            self.title = title
            self.points = points
            self.isSelected = isSelected
        }
    }

    /// What the row shows for one player: replaced whole when the row is reused, so that
    /// bindings to the old player's outputs hear nothing more.
    private final class Showing: Sendable {
        let state: MutableProperty<State>
        let outputs = Mutex(Outputs())
        let work = DisposeBag()

        init(_ state: State) {
            self.state = MutableProperty(state)
        }
    }

    private let showing: Mutex<Showing>

    /// Creates the row of `player`.
    public init(_ player: Player, isSelected: Bool = false) {
        showing = Mutex(Showing(State(player: player, isSelected: isSelected)))
    }

    // MARK: Outputs: continuous

    /// The name of the player the row shows now, which identifies the row.
    public var id: String { player.name }

    /// The player as the row shows it now.
    public var player: Player { current.state.value.player }

    /// The player's name, as its latest upload spells it.
    public var name: Property<String> {
        output(\.name) { showing in showing.state.readOnly.map(skippingRepeats: { $0.player.name }) }
    }

    /// The points of the player's latest upload; announced only when they change.
    public var points: Property<Double> {
        output(\.points) { showing in showing.state.readOnly.map(skippingRepeats: { $0.player.points }) }
    }

    /// The points as the table shows them: "100", "0.5".
    public var pointsText: Property<String> {
        output(\.pointsText) { _ in points.map(PointsFormat.text) }
    }

    /// Whether an upload of this player is running.
    public var isUploading: Property<Bool> {
        output(\.isUploading) { showing in showing.state.readOnly.map(skippingRepeats: { $0.isUploading }) }
    }

    /// How far the running upload has got, 0 to 100.
    public var percentComplete: Property<Int> {
        output(\.percentComplete) { showing in showing.state.readOnly.map(skippingRepeats: { $0.percent }) }
    }

    /// Whether the player is selected.
    public var isSelected: Property<Bool> {
        output(\.isSelected) { showing in showing.state.readOnly.map(skippingRepeats: { $0.isSelected }) }
    }

    /// The name, followed by the percentage while an upload is running and has made progress;
    /// announced only when the text changes.
    public var title: Property<String> {
        output(\.title) { showing in showing.state.readOnly.map(skippingRepeats: { Self.title(of: $0) }) }
    }

    /// The title, the points and the selection together, announced once for each change of the
    /// row however many of them it touches: a new upload that respells the name and changes the
    /// points is one change, where binding ``title`` and ``pointsText`` apart would see a name
    /// with the old points in between.
    public var line: Property<Line> {
        output(\.line) { showing in
            showing.state.readOnly.map(skippingRepeats: { state in
                Line(
                    title: Self.title(of: state), points: PointsFormat.text(state.player.points),
                    isSelected: state.isSelected)
            })
        }
    }

    /// The title of a row in `state`.
    private static func title(of state: State) -> String {
        state.isUploading && state.percent > 0 ? "\(state.player.name) \(state.percent)%" : state.player.name
    }

    // MARK: Inputs

    /// A later upload of the player was kept: the row shows its points (and its spelling of the
    /// name, which names the same player).
    public func playerUpdated(_ player: Player) {
        let state = current.state
        precondition(
            PlayerName.same(player.name, state.value.player.name),
            "a row shows one player until it is reused; \(player.name) is not \(state.value.player.name)")
        state.modify { $0.player = player }
    }

    /// The row is reused for `player`: work bound to it is cancelled, bindings to the outputs of
    /// the player it showed hear nothing more, and its outputs, made anew when asked for, show
    /// `player` with no upload running.
    public func reuse(for player: Player, isSelected: Bool) {
        let old = showing.withLock { showing in
            defer { showing = Showing(State(player: player, isSelected: isSelected)) }
            return showing
        }
        old.work.dispose()
    }

    /// Ties `work` the row started for its player (a load, an observation) to that player:
    /// disposed when the row is reused for another player.
    ///
    /// Disposed at once when called on a row that is being reused.
    public func bindWork(_ work: Disposable) {
        current.work.insert(work)
    }

    /// An upload of this player started; its percentage starts at 0.
    public func uploadStarted() {
        current.state.modify { state in
            state.percent = 0
            state.isUploading = true
        }
    }

    /// The running upload reports how far it has got; values are clamped to 0...100.
    public func uploadProgressed(percent value: Int) {
        current.state.modify { $0.percent = Swift.min(100, Swift.max(0, value)) }
    }

    /// The upload ended, kept or not.
    public func uploadEnded() {
        current.state.modify { $0.isUploading = false }
    }

    /// The player was selected or deselected.
    public func selectionChanged(_ isSelected: Bool) {
        current.state.modify { $0.isSelected = isSelected }
    }

    private var current: Showing { showing.withLock { $0 } }

    /// The output at `key` for the player shown now, made by `make` the first time; `make` runs
    /// outside the lock because it may ask for other outputs.
    private func output<Value>(
        _ key: WritableKeyPath<Outputs, Property<Value>?>, make: (Showing) -> Property<Value>
    ) -> Property<Value> {
        let showing = current
        if let made = showing.outputs.withLock({ $0[keyPath: key] }) { return made }
        let made = make(showing)
        return showing.outputs.withLock { outputs in
            if let existing = outputs[keyPath: key] { return existing }
            outputs[keyPath: key] = made
            return made
        }
    }
}
