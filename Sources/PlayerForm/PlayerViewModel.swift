import PlayerFormRules
import PlayerFormScores
import ReactiveCore

/// The player form's view model: every rule of the form, and the state a view binds to.
///
/// Continuous state is a `Property` (ask for it at any time), discrete events are a `Signal`
/// (they happen once). Outputs are read-only; inputs are named after what the user did and return
/// or throw why they were refused, so that a view can say why without knowing the rules.
///
/// ```swift
/// let form = PlayerViewModel(store: InMemoryScoreStore())
/// form.isValid.values.observeValues { print($0) }  // Prints "true"
/// try form.nameEdited("")                          // Prints "false"
/// ```
public final class PlayerViewModel: Sendable {
    // MARK: Outputs: continuous

    /// The rules the form started with, and returns to on reset.
    public let configuredRules: PlayerRules
    /// The player's name.
    public let name: Property<String>
    /// The player's points.
    public let points: Property<Double>
    /// The points as the score label shows them: "100", "0.5".
    public let pointsText: Property<String>
    /// How far one press of the stepper moves the points.
    public let step: Property<Double>
    /// The lowest valid number of points.
    public let min: Property<Double>
    /// The highest valid number of points.
    public let max: Property<Double>
    /// The current rules, including the stepper's configuration and the forbidden names.
    public let rules: Property<PlayerRules>
    /// Every reason the form is not valid, recomputed on every change of the name, the points or
    /// the rules; empty when valid.
    public let issues: Property<[ValidationIssue]>
    /// Whether the form is valid; changes only when validity changes.
    public let isValid: Property<Bool>
    /// How many more times the points may change.
    public let pointUpdatesRemaining: Property<Int>
    /// How many uploads have succeeded.
    public let uploadsDone: Property<Int>
    /// How many more uploads are allowed.
    public let uploadsRemaining: Property<Int>
    /// Whether the form is locked: the last allowed upload has succeeded.
    public let isLocked: Property<Bool>
    /// Whether the name field is enabled.
    public let canEditName: Property<Bool>
    /// Whether the stepper is shown: not locked and point updates remain.
    public let canChangePoints: Property<Bool>
    /// Whether the upload button is enabled: valid, uploads remain, and no upload is running.
    public let canUpload: Property<Bool>
    /// Whether an upload is running.
    public let isUploading: Property<Bool>

    // MARK: Outputs: discrete

    /// A forbidden name was entered; the name has been reset to "".
    public let forbiddenNameEntered: Signal<String>
    /// Messages for the user, such as "Updated Colin with 100 points".
    public let messages: Signal<PlayerMessage>

    // MARK: Actions

    /// Uploads the name and points captured when it starts.
    ///
    /// Enabled only when the form is valid, uploads remain and no upload is running. Prefer
    /// ``uploadTapped()``, which captures the form and says why an upload is refused.
    public let upload: Action<UploadRequest, ScoreRecord>

    // MARK: Storage

    private let nameStore: MutableProperty<String>
    private let pointsStore: MutableProperty<Double>
    private let rulesStore: MutableProperty<PlayerRules>
    private let pointUpdatesUsed = MutableProperty(0)
    private let uploadsStore = MutableProperty(0)
    private let forbiddenNameInput: Signal<String>.Input
    private let messagesInput: Signal<PlayerMessage>.Input
    private let observations = DisposeBag()

    /// Creates a form with `rules`, uploading to `store`.
    ///
    /// Each upload waits `uploadDelay` first, as the sample's did (it took a second), so that a
    /// person sees it under way and can cancel it: a cancelled wait uploads nothing.
    public init(rules: PlayerRules = .defaults, store: any ScoreStore, uploadDelay: Duration = .zero) {
        configuredRules = rules
        nameStore = MutableProperty(rules.name)
        pointsStore = MutableProperty(rules.points)
        rulesStore = MutableProperty(rules)
        (forbiddenNameEntered, forbiddenNameInput) = Signal<String>.pipe()
        (messages, messagesInput) = Signal<PlayerMessage>.pipe()

        name = nameStore.readOnly
        points = pointsStore.readOnly
        pointsText = points.map(PointsFormat.text)
        self.rules = rulesStore.readOnly
        step = self.rules.map(skippingRepeats: { $0.step })
        min = self.rules.map(skippingRepeats: { $0.min })
        max = self.rules.map(skippingRepeats: { $0.max })
        issues = Property.combineLatest(name, points, self.rules) { name, points, rules in
            rules.validate(name: name, points: points)
        }
        // Closures rather than key paths: a key path used as a function projects at run time.
        isValid = issues.map(skippingRepeats: { $0.isEmpty })

        let maxPointUpdates = rules.maxPointUpdates
        let maxUploads = rules.maxUploads
        pointUpdatesRemaining = pointUpdatesUsed.readOnly.map { Swift.max(0, maxPointUpdates - $0) }
        uploadsDone = uploadsStore.readOnly
        uploadsRemaining = uploadsDone.map { Swift.max(0, maxUploads - $0) }
        isLocked = uploadsDone.map(skippingRepeats: { $0 >= maxUploads })
        canEditName = isLocked.map { !$0 }
        canChangePoints = Property.combineLatest(isLocked, pointUpdatesRemaining) { locked, remaining in
            !locked && remaining > 0
        }
        .skipRepeats()

        let uploadsAllowed = Property.combineLatest(isValid, isLocked) { valid, locked in valid && !locked }
        let uploads = uploadsStore
        let messagesInput = messagesInput
        let currentRules = rulesStore
        upload = Action(enabledIf: uploadsAllowed) { request in
            // The action is enabled by the form's validity; the request itself is checked too, so
            // nothing invalid is uploaded, whoever builds the request.
            let issues = currentRules.value.validate(name: request.name, points: request.points)
            guard issues.isEmpty else { throw PlayerRefusal.invalid(issues) }
            let record: ScoreRecord
            do throws(ScoreStoreError) {
                if uploadDelay > .zero {
                    try? await Task.sleep(for: uploadDelay)
                    if Task.isCancelled { throw .cancelled }
                }
                record = try await store.upload(name: request.name, points: request.points)
            } catch .cancelled {
                messagesInput.send(.uploadCancelled(name: request.name))
                throw CancellationError()
            } catch {
                messagesInput.send(.uploadFailed(name: request.name, error: error))
                throw error
            }
            uploads.modify { $0 += 1 }
            messagesInput.send(.uploaded(name: record.name, points: record.points))
            return record
        }
        canUpload = upload.isEnabled
        isUploading = upload.isExecuting

        // The sample's alert handler reset the name from inside the forbidden-name handler; here the
        // view model does it, and the reactive core delivers the reset after the forbidden value.
        // It holds what it uses rather than a weak reference to the form: loading a weak reference
        // on every edit costs more than the rest of this handler. Nothing here holds the form, and
        // the observation ends with the form's dispose bag.
        let nameStore = nameStore
        let forbiddenNameInput = forbiddenNameInput
        nameStore.changes.observeValues(in: observations) { name in
            guard currentRules.withValue({ $0.isForbidden(name) }) else { return }
            forbiddenNameInput.send(name)
            // Compare and set: a newer name stored meanwhile by another thread is kept.
            nameStore.update { current in
                guard current == name else { return false }
                current = ""
                return true
            }
        }
    }

    // MARK: Inputs

    /// The user typed a new name.
    ///
    /// A forbidden name is announced on ``forbiddenNameEntered`` and then replaced by "".
    /// - Throws: `PlayerRefusal.locked(uploads:)` when the form is locked.
    public func nameEdited(_ text: String) throws(PlayerRefusal) {
        try refuseIfLocked()
        nameStore.value = text
    }

    /// The user pressed the stepper's plus button `times` times.
    ///
    /// Each press follows `PlayerRules.press(_:from:)` and the outcome is what that many single
    /// presses give, at a cost that does not grow with `times`. Each press that changes the
    /// points uses one point update; a press from the maximum outward changes nothing, uses none
    /// and stops pressing (the outcome's `bound` says so). Pressing also stops when no point
    /// updates are left or a press is refused (the step is too small, or the result cannot be
    /// exact); the outcome then carries the refusal, and the presses before it stay counted.
    /// The points change once, to where the presses end.
    /// - Throws: `PlayerRefusal` when the form is locked, `times` is below 1, or the first
    ///   press is refused.
    @discardableResult
    public func stepUpTapped(times: Int = 1) throws(PlayerRefusal) -> StepperOutcome {
        try press(times: times, direction: .up)
    }

    /// The user pressed the stepper's minus button `times` times; see ``stepUpTapped(times:)``.
    @discardableResult
    public func stepDownTapped(times: Int = 1) throws(PlayerRefusal) -> StepperOutcome {
        try press(times: times, direction: .down)
    }

    /// The user set the stepper to `value`.
    ///
    /// As a stepper does, the value is clamped to min...max; the outcome says when it was. Infinite
    /// values clamp to the nearest bound.
    /// - Throws: `PlayerRefusal` when the form is locked, no point updates are left, or the
    ///   value is not a number.
    @discardableResult
    public func stepperSet(to value: Double) throws(PlayerRefusal) -> StepperOutcome {
        try refuseIfLocked()
        guard !value.isNaN else { throw .notANumber }
        let rules = rulesStore.value
        let clamped = Swift.min(Swift.max(value, rules.min), rules.max)
        let requested: Double? = clamped == value ? nil : value
        guard clamped != pointsStore.value else {
            return StepperOutcome(points: clamped, requested: requested, updatesUsed: 0, refusal: nil)
        }
        try useOnePointUpdate()
        pointsStore.value = clamped
        return StepperOutcome(points: clamped, requested: requested, updatesUsed: 1, refusal: nil)
    }

    /// The user changed the stepper's step.
    ///
    /// Points do not move.
    public func stepChanged(to step: Double) throws(PlayerRefusal) {
        try changeRules { rules throws(RulesError) in try rules.with(step: step) }
    }

    /// The user changed the minimum.
    ///
    /// Points do not move; the form reports points below it.
    public func minChanged(to min: Double) throws(PlayerRefusal) {
        try changeRules { rules throws(RulesError) in try rules.with(min: min) }
    }

    /// The user changed the maximum.
    ///
    /// Points do not move; the form reports points above it.
    public func maxChanged(to max: Double) throws(PlayerRefusal) {
        try changeRules { rules throws(RulesError) in try rules.with(max: max) }
    }

    /// The forbidden names changed; validity is evaluated again, the name is left as it is.
    public func forbiddenNamesChanged(to names: [String]) throws(PlayerRefusal) {
        try changeRules { rules throws(RulesError) in try rules.with(forbiddenNames: names) }
    }

    /// The user asked for the defaults: name, points and rules return to ``configuredRules``.
    ///
    /// Spent point updates and uploads are not given back, and the reset itself spends none.
    public func resetTapped() throws(PlayerRefusal) {
        try refuseIfLocked()
        rulesStore.value = configuredRules
        nameStore.value = configuredRules.name
        pointsStore.value = configuredRules.points
    }

    /// The user tapped upload: captures the name and points now and uploads them.
    ///
    /// The result says whether the record was kept; the same news goes to ``messages``.
    public func uploadTapped() async -> UploadResult {
        if let refusal = uploadRefusal() { return .refused(refusal) }
        let request = UploadRequest(name: nameStore.value, points: pointsStore.value)
        do {
            return .uploaded(try await upload.apply(request))
        } catch {
            switch error {
            case .disabled: return .refused(uploadRefusal() ?? .uploadInProgress)
            case .cancelled: return .cancelled
            case .failed(let refusal as PlayerRefusal): return .refused(refusal)
            case .failed(let failure as ScoreStoreError): return .failed(failure)
            // The upload's work throws a refusal, a store's error or a cancellation, nothing else.
            case .failed: return .cancelled
            }
        }
    }

    /// Cancels a running upload.
    public func uploadCancelTapped() {
        upload.cancel()
    }

    /// Why an upload would be refused now, or nil when it would start.
    public func uploadRefusal() -> PlayerRefusal? {
        if isLocked.value { return .locked(uploads: uploadsStore.value) }
        if isUploading.value { return .uploadInProgress }
        let issues = self.issues.value
        if !issues.isEmpty { return .invalid(issues) }
        return nil
    }

    // MARK: Rules

    private func refuseIfLocked() throws(PlayerRefusal) {
        if isLocked.value { throw .locked(uploads: uploadsStore.value) }
    }

    private func useOnePointUpdate() throws(PlayerRefusal) {
        let limit = configuredRules.maxPointUpdates
        let granted = pointUpdatesUsed.update { used -> Bool in
            guard used < limit else { return false }
            used += 1
            return true
        }
        if !granted { throw .noPointUpdatesLeft(limit: limit) }
    }

    /// `times` presses, computed at once by `PlayerRules.press(_:from:times:updatesLeft:)`;
    /// the points change once, and the updates the presses counted are spent together.
    private func press(times: Int, direction: StepperDirection) throws(PlayerRefusal) -> StepperOutcome {
        try refuseIfLocked()
        guard times > 0 else { throw .invalidPressCount(times) }
        let limit = configuredRules.maxPointUpdates
        let rules = rulesStore.value
        let start = pointsStore.value
        var result: StepperPresses
        repeat {
            // Compare and set: the updates are spent only if none was spent meanwhile.
            let used = pointUpdatesUsed.value
            result = rules.press(direction, from: start, times: times, updatesLeft: limit - used)
            let counted = result.counted
            let spent =
                counted == 0
                || pointUpdatesUsed.update { current in
                    guard current == used else { return false }
                    current += counted
                    return true
                }
            if spent { break }
        } while true
        var refusal: PlayerRefusal?
        switch result.stop {
        case .noUpdatesLeft: refusal = .noPointUpdatesLeft(limit: limit)
        case .refused(let reason): refusal = reason
        case .bound, nil: break
        }
        if result.counted == 0, let refusal { throw refusal }
        if result.counted > 0 { pointsStore.value = result.points }
        return StepperOutcome(
            points: result.points, requested: nil, updatesUsed: result.counted, refusal: refusal,
            presses: times, bound: result.bound)
    }

    private func changeRules(
        _ change: (PlayerRules) throws(RulesError) -> PlayerRules
    ) throws(PlayerRefusal) {
        try refuseIfLocked()
        do {
            let changed = try change(rulesStore.value)
            rulesStore.value = changed
        } catch {
            throw .rejectedRules(error)
        }
    }
}

/// What an upload sends: the name and points captured when it started.
public struct UploadRequest: Sendable, Equatable {
    /// The name.
    public let name: String
    /// The points.
    public let points: Double

    /// Creates a request.
    public init(name: String, points: Double) {
        self.name = name
        self.points = points
    }
}

/// How an upload ended.
public enum UploadResult: Sendable, Equatable {
    /// The store kept the record.
    case uploaded(ScoreRecord)
    /// The upload did not start.
    case refused(PlayerRefusal)
    /// The store failed with this error.
    case failed(ScoreStoreError)
    /// The upload was cancelled.
    case cancelled
}
