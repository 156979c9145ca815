import ReactiveCore

/// The view model of one row of the roster: a player's continuous state and the title derived
/// from it, as a table row binds to it.
///
/// While an upload of the player is running and has reported a percentage above zero, the title
/// reads "Colin 40%"; otherwise it is the name.
///
/// ```swift
/// let row = PlayerRowViewModel(player)
/// row.title.values.observeValues { print($0) }  // Prints "Colin"
/// row.uploadStarted()
/// row.uploadProgressed(percent: 40)             // Prints "Colin 40%"
/// ```
public final class PlayerRowViewModel: Sendable, Identifiable {
    // MARK: Outputs: continuous

    /// The player's name, which identifies the row.
    public let id: String
    /// The player's name.
    public let name: Property<String>
    /// The points of the player's latest upload.
    public let points: Property<Double>
    /// The points as the table shows them: "100", "0.5".
    public let pointsText: Property<String>
    /// Whether an upload of this player is running.
    public let isUploading: Property<Bool>
    /// How far the running upload has got, 0 to 100.
    public let percentComplete: Property<Int>
    /// Whether the player is selected.
    public let isSelected: Property<Bool>
    /// The name, followed by the percentage while an upload is running and has made progress;
    /// announced only when the text changes.
    public let title: Property<String>

    // MARK: Storage

    private let playerStore: MutableProperty<Player>
    private let uploading = MutableProperty(false)
    private let percent = MutableProperty(0)
    private let selected: MutableProperty<Bool>

    /// Creates the row of `player`.
    public init(_ player: Player, isSelected: Bool = false) {
        id = player.name
        playerStore = MutableProperty(player)
        selected = MutableProperty(isSelected)
        name = Property(value: player.name)
        points = playerStore.readOnly.map(\.points).skipRepeats()
        pointsText = points.map(PointsFormat.text)
        isUploading = uploading.readOnly
        percentComplete = percent.readOnly
        self.isSelected = selected.readOnly.skipRepeats()
        let name = player.name
        title = Property.combineLatest(isUploading, percentComplete).map { running, percent in
            running && percent > 0 ? "\(name) \(percent)%" : name
        }.skipRepeats()
    }

    /// The player as the row shows it now.
    public var player: Player { playerStore.value }

    // MARK: Inputs

    /// A later upload of the player was kept: the row shows its points.
    public func playerUpdated(_ player: Player) {
        precondition(player.name == id, "a row shows one player; \(player.name) is not \(id)")
        playerStore.value = player
    }

    /// An upload of this player started; its percentage starts at 0.
    public func uploadStarted() {
        percent.value = 0
        uploading.value = true
    }

    /// The running upload reports how far it has got; values are clamped to 0...100.
    public func uploadProgressed(percent value: Int) {
        percent.value = Swift.min(100, Swift.max(0, value))
    }

    /// The upload ended, kept or not.
    public func uploadEnded() {
        uploading.value = false
    }

    /// The player was selected or deselected.
    public func selectionChanged(_ isSelected: Bool) {
        selected.value = isSelected
    }
}
