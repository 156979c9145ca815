import CustomDump
import PlayerForm
import PlayerFormRules
import PlayerFormScores
import PlayerFormTesting
import ReactiveCore
import ReactiveCoreTesting
import Synchronization
import Testing

@Suite("Player view model")
struct PlayerViewModelTests {
    let form = PlayerViewModel(store: InMemoryScoreStore())

    @Test("a new form shows the defaults and is valid")
    func initialState() {
        let tester = PlayerFormTester(form)
        expectNoDifference(.initial, tester.state)
        tester.finish()
    }

    @Test("editing the name changes the name and nothing else")
    func editName() throws {
        let tester = PlayerFormTester(form)
        try tester.send {
            try $0.nameEdited("Dana")
        } assert: {
            $0.name = "Dana"
        }
        tester.finish()
    }

    @Test("an empty name makes the form invalid and disables upload")
    func emptyName() throws {
        let tester = PlayerFormTester(form)
        try tester.send {
            try $0.nameEdited("   ")
        } assert: {
            $0.name = "   "
            $0.issues = [.emptyName]
            $0.isValid = false
            $0.canUpload = false
        }
        tester.finish()
    }

    @Test("a forbidden name emits the event once and the name is reset to empty")
    func forbiddenName() throws {
        let tester = PlayerFormTester(form, alsoWatching: [.changes(\.name)])
        try tester.send {
            try $0.nameEdited("darn")
        } assert: {
            $0.name = ""
            $0.issues = [.emptyName]
            $0.isValid = false
            $0.canUpload = false
        }
        tester.receive(\.forbiddenNameEntered, "darn")
        tester.receive(\.name, "darn")
        tester.receive(\.name, "")
        tester.finish()
    }

    @Test("every observer sees the forbidden name and then the empty name, in order")
    func forbiddenNameOrderForEveryObserver() throws {
        let first = Recorder(changesOf: form.name)
        let second = Recorder(changesOf: form.name)
        let validity = Recorder(form.issues.map { $0.map(\.code) })
        try form.nameEdited(" ＤＡＲＮ ")
        #expect(first.values == [" ＤＡＲＮ ", ""])
        #expect(second.values == [" ＤＡＲＮ ", ""])
        #expect(validity.values == [[], [.forbiddenName], [.emptyName]])
    }

    @Test("observers of the forbidden-name event see the name still holding the forbidden value")
    func forbiddenNameHeldDuringEvent() throws {
        let form = self.form
        let seen = Mutex<[String]>([])
        form.forbiddenNameEntered.observeValues { _ in seen.withLock { $0.append(form.name.value) } }
        try form.nameEdited("darn")
        #expect(seen.withLock { $0 } == ["darn"], "the reset to \"\" comes after the event")
        #expect(form.name.value == "")
    }

    @Test("a name typed while the forbidden-name alert is handled is kept, not reset")
    func nameTypedDuringAlertIsKept() throws {
        let form = self.form
        form.forbiddenNameEntered.observeValues { _ in try? form.nameEdited("Bob") }
        try form.nameEdited("darn")
        #expect(form.name.value == "Bob")
        #expect(form.isValid.value)
    }

    @Test("a refused point update announces nothing")
    func refusedUpdateIsSilent() throws {
        try form.stepUpTapped(times: 10)
        let remaining = Recorder(changesOf: form.pointUpdatesRemaining)
        #expect(throws: PlayerRefusal.noPointUpdatesLeft(limit: 10)) { try form.stepUpTapped() }
        #expect(remaining.values.isEmpty)
    }

    @Test("exactly 10 point updates are accepted and the 11th is refused")
    func tenPointUpdates() throws {
        for expected in 1...10 {
            try form.stepUpTapped()
            #expect(form.pointUpdatesRemaining.value == 10 - expected)
        }
        #expect(throws: PlayerRefusal.noPointUpdatesLeft(limit: 10)) { try form.stepUpTapped() }
        #expect(throws: PlayerRefusal.noPointUpdatesLeft(limit: 10)) { try form.stepperSet(to: 5) }
        expectNoDifference(
            .initial.with {
                $0.points = 110
                $0.pointsText = "110"
                $0.pointUpdatesRemaining = 0
                $0.canChangePoints = false
            },
            PlayerFormState(form))
    }

    @Test("a change that leaves the points equal does not count as an update")
    func equalPointsDoNotCount() throws {
        let outcome = try form.stepperSet(to: 100)
        #expect(outcome.updatesUsed == 0)
        #expect(form.pointUpdatesRemaining.value == 10)
        try form.stepperSet(to: 10000)
        let atMax = try form.stepUpTapped()
        #expect(atMax.updatesUsed == 0)
        #expect(form.pointUpdatesRemaining.value == 9)
    }

    @Test("setting the stepper clamps to min...max and says so")
    func stepperClamps() throws {
        let high = try form.stepperSet(to: 20000)
        #expect(high == StepperOutcome(points: 10000, requested: 20000, updatesUsed: 1, refusal: nil))
        let low = try form.stepperSet(to: -.infinity)
        #expect(low.points == 0)
        #expect(low.wasClamped)
        let inside = try form.stepperSet(to: 42)
        #expect(!inside.wasClamped)
        #expect(form.points.value == 42)
        #expect(throws: PlayerRefusal.notANumber) { try form.stepperSet(to: .nan) }
    }

    @Test("pressing many times stops at a bound, says which, and spends updates only on changes")
    func pressingStopsAtBound() throws {
        try form.stepperSet(to: 9998)
        let outcome = try form.stepUpTapped(times: 99_999_999_999)
        #expect(
            outcome
                == StepperOutcome(
                    points: 10000, requested: nil, updatesUsed: 2, refusal: nil, presses: 99_999_999_999,
                    bound: .max))
        #expect(form.pointUpdatesRemaining.value == 7)
        let exact = try form.stepDownTapped(times: 2)
        #expect(exact.bound == nil, "no press reached beyond a bound")
    }

    @Test("pressing more times than updates remain applies what it can and says why it stopped")
    func pressingStopsWhenUpdatesRunOut() throws {
        let outcome = try form.stepDownTapped(times: 20)
        #expect(outcome.updatesUsed == 10)
        #expect(outcome.points == 90)
        #expect(outcome.refusal == .noPointUpdatesLeft(limit: 10))
    }

    @Test("a press count below one is refused")
    func pressCount() {
        #expect(throws: PlayerRefusal.invalidPressCount(0)) { try form.stepUpTapped(times: 0) }
        #expect(throws: PlayerRefusal.invalidPressCount(-3)) { try form.stepDownTapped(times: -3) }
    }

    @Test("changing min re-evaluates validity without moving the points")
    func minChange() throws {
        let tester = PlayerFormTester(form)
        try tester.send {
            try $0.minChanged(to: 200)
        } assert: {
            $0.min = 200
            $0.issues = [.belowMin(points: 100, min: 200)]
            $0.isValid = false
            $0.canUpload = false
        }
        tester.finish()
    }

    @Test("changing max re-evaluates validity without moving the points")
    func maxChange() throws {
        let tester = PlayerFormTester(form)
        try tester.send {
            try $0.maxChanged(to: 50)
        } assert: {
            $0.max = 50
            $0.issues = [.aboveMax(points: 100, max: 50)]
            $0.isValid = false
            $0.canUpload = false
        }
        try tester.send {
            try $0.maxChanged(to: 100)
        } assert: {
            $0.max = 100
            $0.issues = []
            $0.isValid = true
            $0.canUpload = true
        }
        tester.finish()
    }

    @Test("changing the step changes how far the stepper moves")
    func stepChange() throws {
        try form.stepChanged(to: 25)
        try form.stepUpTapped()
        #expect(form.points.value == 125)
        #expect(form.step.value == 25)
    }

    @Test("an inconsistent stepper configuration is refused and changes nothing")
    func inconsistentConfiguration() {
        let tester = PlayerFormTester(form)
        #expect(throws: PlayerRefusal.rejectedRules(.minAboveMax(min: 20000, max: 10000))) {
            try tester.send { try $0.minChanged(to: 20000) }
        }
        #expect(throws: PlayerRefusal.rejectedRules(.stepNotPositive(0))) {
            try tester.send { try $0.stepChanged(to: 0) }
        }
        tester.finish()
    }

    @Test("changing the forbidden names re-evaluates validity and leaves the name as it is")
    func forbiddenNamesChange() throws {
        let tester = PlayerFormTester(form)
        try tester.send {
            try $0.forbiddenNamesChanged(to: ["colin"])
        } assert: {
            $0.issues = [.forbiddenName("Colin")]
            $0.isValid = false
            $0.canUpload = false
        }
        try tester.send {
            try $0.forbiddenNamesChanged(to: [])
        } assert: {
            $0.issues = []
            $0.isValid = true
            $0.canUpload = true
        }
        tester.finish()
    }

    @Test("ten steps of 0.1 from 0 give exactly 1, shown as 1, valid at max 1")
    func decimalSteppingWithoutDrift() throws {
        let rules = try PlayerRules(points: 0, step: 0.1, min: 0, max: 1)
        let form = PlayerViewModel(rules: rules, store: InMemoryScoreStore())
        for _ in 0..<10 { try form.stepUpTapped() }
        #expect(form.points.value == 1)
        #expect(form.pointsText.value == "1")
        #expect(form.isValid.value)
    }

    @Test("points text shows whole numbers without decimals and keeps fractions")
    func pointsText() throws {
        let texts = Recorder(form.pointsText)
        try form.stepperSet(to: 0.5)
        try form.stepperSet(to: 7)
        #expect(texts.values == ["100", "0.5", "7"])
    }

    @Test("reset restores values and rules, gives back no spent updates, and spends none")
    func reset() throws {
        try form.nameEdited("Dana")
        try form.stepUpTapped(times: 3)
        try form.maxChanged(to: 50)
        try form.forbiddenNamesChanged(to: ["dana"])
        try form.resetTapped()
        expectNoDifference(.initial.with { $0.pointUpdatesRemaining = 7 }, PlayerFormState(form))
        #expect(form.rules.value == .defaults)
        try form.resetTapped()
        #expect(form.pointUpdatesRemaining.value == 7)
    }

    @Test("a form configured with other rules starts from them and resets to them")
    func customRules() throws {
        let rules = try PlayerRules(name: "Ann", points: 3, max: 5, maxPointUpdates: 1, maxUploads: 2)
        let form = PlayerViewModel(rules: rules, store: InMemoryScoreStore())
        #expect(form.name.value == "Ann")
        #expect(form.uploadsRemaining.value == 2)
        try form.stepUpTapped()
        #expect(!form.canChangePoints.value)
        try form.resetTapped()
        #expect(form.points.value == 3)
    }

    @Test("a form allowed no uploads is locked from the start")
    func noUploadsAllowed() throws {
        let form = PlayerViewModel(rules: try PlayerRules(maxUploads: 0), store: InMemoryScoreStore())
        #expect(form.isLocked.value)
        #expect(!form.canEditName.value)
        #expect(!form.canUpload.value)
    }
}
