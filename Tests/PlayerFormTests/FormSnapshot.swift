import PlayerForm

/// Every continuous output of a player view model at one moment, so that a spec can assert the
/// whole observable state after an input and any unexpected change fails it.
struct FormSnapshot: Equatable, CustomStringConvertible {
    var name = "Colin"
    var points = 100.0
    var pointsText = "100"
    var step = 1.0
    var min = 0.0
    var max = 10000.0
    var issues: [ValidationIssue] = []
    var isValid = true
    var pointUpdatesRemaining = 10
    var uploadsDone = 0
    var uploadsRemaining = 5
    var isLocked = false
    var canEditName = true
    var canChangePoints = true
    var canUpload = true
    var isUploading = false

    /// The state of a new form with the default rules.
    static let initial = FormSnapshot()

    init() {}

    init(_ form: PlayerViewModel) {
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

    /// A copy with some fields changed.
    func with(_ change: (inout FormSnapshot) -> Void) -> FormSnapshot {
        var copy = self
        change(&copy)
        return copy
    }

    var description: String {
        "name=\(name) points=\(pointsText) step/min/max=\(step)/\(min)/\(max) issues=\(issues.map(\.code)) "
            + "valid=\(isValid) updatesLeft=\(pointUpdatesRemaining) uploads=\(uploadsDone)/+\(uploadsRemaining) "
            + "locked=\(isLocked) editName=\(canEditName) stepper=\(canChangePoints) upload=\(canUpload) "
            + "uploading=\(isUploading)"
    }
}
