// Drives the player view model with no user interface and prints every event it observes:
// the same bindings a view would make, written as print statements.
import PlayerForm
import PlayerFormScores
import ReactiveCore

let form = PlayerViewModel(store: InMemoryScoreStore())
let bindings = DisposeBag()

form.name.values.observeValues(in: bindings) { print("name: \"\($0)\"") }
form.pointsText.changes.observeValues(in: bindings) { print("points: \($0)") }
form.isValid.changes.observeValues(in: bindings) { print("valid: \($0)") }
form.canChangePoints.changes.observeValues(in: bindings) { print("stepper shown: \($0)") }
form.canUpload.changes.observeValues(in: bindings) { print("upload enabled: \($0)") }
form.forbiddenNameEntered.observeValues(in: bindings) {
    print("alert: Forbidden Name! The name \($0) has been forbidden!")
}
form.messages.observeValues(in: bindings) { print("message: \($0)") }

do {
    try form.nameEdited("darn")
    try form.nameEdited("Dana")
    try form.stepUpTapped(times: 3)
    try form.stepperSet(to: 20000)
    try form.maxChanged(to: 50)
    print("issues: \(form.issues.value.map(\.message))")
    try form.maxChanged(to: 10000)
} catch {
    print("refused: \(error)")
}

for _ in 1...5 {
    let result = await form.uploadTapped()
    if case .refused(let why) = result { print("refused: \(why)") }
}
print("locked: \(form.isLocked.value)")
if case .refused(let why) = await form.uploadTapped() { print("refused: \(why)") }
