import ReactiveCore

/// The view model of one row of the roster: a player's continuous state and the title derived
/// from it, as a table row binds to it.
///
/// While an upload of the player is running and has reported a percentage above zero, the title
/// reads "Colin 40%"; otherwise it is the name.
///
/// A roster holds one row per player, so a row keeps a single stored property and makes each
/// output the first time it is asked for: a row nobody binds to costs little.
///
/// ```swift
/// let row = PlayerRowViewModel(player)
/// row.title.values.observeValues { print($0) }  // Prints "Colin"
/// row.uploadStarted()
/// row.uploadProgressed(percent: 40)             // Prints "Colin 40%"
/// ```
public final class PlayerRowViewModel: Sendable, Identifiable {
    /// The player's name, which identifies the row.
    public let id: String

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
    }

    private let state: MutableProperty<State>
    private let outputs = Locked(Outputs())

    /// Creates the row of `player`.
    public init(_ player: Player, isSelected: Bool = false) {
        id = player.name
        state = MutableProperty(State(player: player, isSelected: isSelected))
    }

    // MARK: Outputs: continuous

    /// The player as the row shows it now.
    public var player: Player { state.value.player }

    /// The player's name.
    public var name: Property<String> {
        output(\.name) { Property(value: id) }
    }

    /// The points of the player's latest upload; announced only when they change.
    public var points: Property<Double> {
        output(\.points) { state.readOnly.map(skippingRepeats: { $0.player.points }) }
    }

    /// The points as the table shows them: "100", "0.5".
    public var pointsText: Property<String> {
        output(\.pointsText) { points.map(PointsFormat.text) }
    }

    /// Whether an upload of this player is running.
    public var isUploading: Property<Bool> {
        output(\.isUploading) { state.readOnly.map(skippingRepeats: { $0.isUploading }) }
    }

    /// How far the running upload has got, 0 to 100.
    public var percentComplete: Property<Int> {
        output(\.percentComplete) { state.readOnly.map(skippingRepeats: { $0.percent }) }
    }

    /// Whether the player is selected.
    public var isSelected: Property<Bool> {
        output(\.isSelected) { state.readOnly.map(skippingRepeats: { $0.isSelected }) }
    }

    /// The name, followed by the percentage while an upload is running and has made progress;
    /// announced only when the text changes.
    public var title: Property<String> {
        output(\.title) {
            let name = id
            return Property.combineLatest(isUploading, percentComplete) { running, percent in
                running && percent > 0 ? "\(name) \(percent)%" : name
            }
            .skipRepeats()
        }
    }

    // MARK: Inputs

    /// A later upload of the player was kept: the row shows its points.
    public func playerUpdated(_ player: Player) {
        precondition(player.name == id, "a row shows one player; \(player.name) is not \(id)")
        state.modify { $0.player = player }
    }

    /// An upload of this player started; its percentage starts at 0.
    public func uploadStarted() {
        state.modify { state in
            state.percent = 0
            state.isUploading = true
        }
    }

    /// The running upload reports how far it has got; values are clamped to 0...100.
    public func uploadProgressed(percent value: Int) {
        state.modify { $0.percent = Swift.min(100, Swift.max(0, value)) }
    }

    /// The upload ended, kept or not.
    public func uploadEnded() {
        state.modify { $0.isUploading = false }
    }

    /// The player was selected or deselected.
    public func selectionChanged(_ isSelected: Bool) {
        state.modify { $0.isSelected = isSelected }
    }

    /// The output at `key`, made by `make` the first time; `make` runs outside the lock because
    /// it may ask for other outputs.
    private func output<Value>(
        _ key: WritableKeyPath<Outputs, Property<Value>?>, make: () -> Property<Value>
    ) -> Property<Value> {
        if let made = outputs.withLock({ $0[keyPath: key] }) { return made }
        let made = make()
        return outputs.withLock { outputs in
            if let existing = outputs[keyPath: key] { return existing }
            outputs[keyPath: key] = made
            return made
        }
    }
}
