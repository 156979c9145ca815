import PlayerForm
import PlayerFormRules
import ReactiveCore
import ReactiveCoreTesting

/// Every continuous output of a `PlayerViewModel` at one moment: the state a
/// `ViewModelTester` compares after each step of a spec.
public struct PlayerFormState: Equatable, Sendable {
    /// The form's `name`.
    public var name: String
    /// The form's `points`.
    public var points: Double
    /// The form's `pointsText`.
    public var pointsText: String
    /// The form's `step`.
    public var step: Double
    /// The form's `min`.
    public var min: Double
    /// The form's `max`.
    public var max: Double
    /// The form's `issues`.
    public var issues: [ValidationIssue]
    /// The form's `isValid`.
    public var isValid: Bool
    /// The form's `pointUpdatesRemaining`.
    public var pointUpdatesRemaining: Int
    /// The form's `uploadsDone`.
    public var uploadsDone: Int
    /// The form's `uploadsRemaining`.
    public var uploadsRemaining: Int
    /// The form's `isLocked`.
    public var isLocked: Bool
    /// The form's `canEditName`.
    public var canEditName: Bool
    /// The form's `canChangePoints`.
    public var canChangePoints: Bool
    /// The form's `canUpload`.
    public var canUpload: Bool
    /// The form's `isUploading`.
    public var isUploading: Bool

    /// Reads every output of `form` now.
    public init(_ form: PlayerViewModel) {
        name = form.name.value
        points = form.points.value
        pointsText = form.pointsText.value
        step = form.step.value
        min = form.min.value
        max = form.max.value
        issues = form.issues.value
        isValid = form.isValid.value
        pointUpdatesRemaining = form.pointUpdatesRemaining.value
        uploadsDone = form.uploadsDone.value
        uploadsRemaining = form.uploadsRemaining.value
        isLocked = form.isLocked.value
        canEditName = form.canEditName.value
        canChangePoints = form.canChangePoints.value
        canUpload = form.canUpload.value
        isUploading = form.isUploading.value
    }

    /// A state written out field by field, for a spec that pins every value.
    public init(
        name: String, points: Double, pointsText: String, step: Double, min: Double, max: Double,
        issues: [ValidationIssue], isValid: Bool, pointUpdatesRemaining: Int, uploadsDone: Int,
        uploadsRemaining: Int, isLocked: Bool, canEditName: Bool, canChangePoints: Bool, canUpload: Bool,
        isUploading: Bool
    ) {
        self.name = name
        self.points = points
        self.pointsText = pointsText
        self.step = step
        self.min = min
        self.max = max
        self.issues = issues
        self.isValid = isValid
        self.pointUpdatesRemaining = pointUpdatesRemaining
        self.uploadsDone = uploadsDone
        self.uploadsRemaining = uploadsRemaining
        self.isLocked = isLocked
        self.canEditName = canEditName
        self.canChangePoints = canChangePoints
        self.canUpload = canUpload
        self.isUploading = isUploading
    }

    /// A copy with some fields changed.
    public func with(_ change: (inout PlayerFormState) -> Void) -> PlayerFormState {
        var copy = self
        change(&copy)
        return copy
    }
}

/// A tester of the player form: its whole state, and its two signals.
public typealias PlayerFormTester = ViewModelTester<PlayerViewModel, PlayerFormState>

extension ViewModelTester where Model == PlayerViewModel, State == PlayerFormState {
    /// Starts watching `form`: its ``PlayerFormState``, `PlayerViewModel.forbiddenNameEntered`,
    /// `PlayerViewModel.messages`, and the signals of `alsoWatching` (such as
    /// `.signal(\.name.changes)` to receive each value the name passes through).
    public convenience init(
        _ form: PlayerViewModel, exhaustivity: Exhaustivity = .on,
        alsoWatching extra: [EventStream<PlayerViewModel>] = [],
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) {
        self.init(
            form, exhaustivity: exhaustivity, state: PlayerFormState.init,
            events: [.signal(\.forbiddenNameEntered), .signal(\.messages)] + extra, fileID: fileID,
            filePath: filePath, line: line, column: column)
    }
}
