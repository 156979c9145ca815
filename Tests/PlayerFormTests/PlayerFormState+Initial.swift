import PlayerFormTesting

extension PlayerFormState {
    /// The state of a new form with the default rules, written out so that the specs pin them.
    static let initial = PlayerFormState(
        name: "Colin", points: 100, pointsText: "100", step: 1, min: 0, max: 10000, issues: [], isValid: true,
        pointUpdatesRemaining: 10, uploadsDone: 0, uploadsRemaining: 5, isLocked: false, canEditName: true,
        canChangePoints: true, canUpload: true, isUploading: false)
}
