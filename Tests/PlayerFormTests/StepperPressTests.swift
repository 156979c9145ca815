import Foundation
import PlayerForm
import PlayerFormRules
import PlayerFormScores
import PropertyBased
import Testing

/// A stepper scenario built from random numbers: a step, points (small multiples of the step,
/// values near the limit of 15 digits, binary fractions, extremes), bounds around the points,
/// the point updates left, how many presses and which way.
private struct Scenario: CustomStringConvertible {
    let rules: PlayerRules
    let times: Int
    let direction: StepperDirection

    init?(_ numbers: [Int]) {
        let n = numbers.map { Int($0.magnitude) }
        let exponent = n[7] % 10 == 0 ? numbers[1] % 320 : numbers[1] % 25
        guard let step = Double("\(1 + n[0] % 99)e\(exponent)"), step > 0, step.isFinite else { return nil }
        let points: Double
        switch n[2] % 5 {
        case 0: points = Double(numbers[3] % 60) * step
        case 1:
            let digits = 999_999_999_999_700 + n[3] % 400
            points = Double("\(numbers[3] < 0 ? "-" : "")\(digits)e\(exponent)") ?? 0
        case 2: points = Double(numbers[3]) / 7
        case 3:
            points = [1e17, 0.30000000000000004, .leastNormalMagnitude / 4, -1e300, 123_456.789][n[3] % 5]
        default: points = 0
        }
        var min = points - Double(n[4] % 300) * step - (numbers[4] < 0 ? step / 2 : 0)
        var max = points + Double(n[5] % 300) * step + (numbers[5] < 0 ? step / 3 : 0)
        if n[4] % 7 == 0 { min = points + step }
        if n[5] % 7 == 0 { max = points - step }
        if min > max { (min, max) = (max, min) }
        guard points.isFinite, min.isFinite, max.isFinite,
            let rules = try? PlayerRules(
                points: points, step: step, min: min, max: max, maxPointUpdates: n[6] % 250)
        else { return nil }
        self.rules = rules
        self.times = 1 + n[8] % 200
        self.direction = numbers[8] < 0 ? .down : .up
    }

    var description: String {
        "\(direction) \(times) from \(rules.points) by \(rules.step) in \(rules.min)...\(rules.max), "
            + "\(rules.maxPointUpdates) updates"
    }
}

/// What pressing did, as a spec compares it.
private struct Pressed: Equatable {
    var points: Double
    var counted: Int
    var refusal: PlayerRefusal?
    var bound: StepperBound?
}

@Suite("Stepper presses")
struct StepperPressTests {
    /// Presses `form` as `direction` says, `times` at once.
    private func press(_ form: PlayerViewModel, _ direction: StepperDirection, times: Int) -> Pressed {
        do {
            let outcome =
                direction == .up ? try form.stepUpTapped(times: times) : try form.stepDownTapped(times: times)
            #expect(outcome.points == form.points.value)
            return Pressed(
                points: outcome.points, counted: outcome.updatesUsed, refusal: outcome.refusal,
                bound: outcome.bound)
        } catch {
            return Pressed(points: form.points.value, counted: 0, refusal: error, bound: nil)
        }
    }

    /// `times` single presses by the one-press rule, one after another, spending updates as the
    /// form does.
    private func singlePresses(_ scenario: Scenario) -> Pressed {
        let rules = scenario.rules
        var result = Pressed(points: rules.points, counted: 0)
        for _ in 0..<scenario.times {
            switch rules.press(scenario.direction, from: result.points) {
            case .atBound(let bound):
                result.bound = bound
                return result
            case .refused(let refusal):
                let updatesLeft = result.counted < rules.maxPointUpdates
                result.refusal = updatesLeft ? refusal : .noPointUpdatesLeft(limit: rules.maxPointUpdates)
                return result
            case .moved(let points, let bound):
                guard result.counted < rules.maxPointUpdates else {
                    result.refusal = .noPointUpdatesLeft(limit: rules.maxPointUpdates)
                    return result
                }
                result.points = points
                result.counted += 1
                if let bound { result.bound = bound }
            }
        }
        return result
    }

    @Test("for random steps, bounds, points and updates, N presses at once equal N single presses")
    func manyPressesEqualSinglePresses() async {
        await propertyCheck(count: 3000, input: Gen.int(in: -100_000...100_000).array(of: 9)) { numbers in
            guard let scenario = Scenario(numbers) else { return }
            let expected = singlePresses(scenario)
            let form = PlayerViewModel(rules: scenario.rules, store: InMemoryScoreStore())
            let actual = press(form, scenario.direction, times: scenario.times)
            #expect(actual == expected, "\(scenario)")
            #expect(form.pointUpdatesRemaining.value == scenario.rules.maxPointUpdates - expected.counted)
            // One press of the form is one press of the rule.
            let single = PlayerViewModel(rules: scenario.rules, store: InMemoryScoreStore())
            let first = press(single, scenario.direction, times: 1)
            switch scenario.rules.press(scenario.direction, from: scenario.rules.points) {
            case .moved(let points, _) where scenario.rules.maxPointUpdates > 0:
                #expect(first.points == points && first.counted == 1, "\(scenario)")
            case .refused(let refusal) where scenario.rules.maxPointUpdates > 0:
                #expect(first.refusal == refusal, "\(scenario)")
            default:
                #expect(first.counted == 0 && first.points == scenario.rules.points, "\(scenario)")
            }
        }
    }

    @Test("ten presses of 0.1 from 0 give exactly 1, and down is as exact as up")
    func decimalStepping() throws {
        let rules = try PlayerRules(points: 0, step: 0.1)
        var points = 0.0
        for _ in 0..<10 {
            guard case .moved(let next, nil) = rules.press(.up, from: points) else { break }
            points = next
        }
        #expect(points == 1)
        var naive = 0.0
        for _ in 0..<10 { naive += 0.1 }
        #expect(naive != 1, "binary floating point drifts; stepping must not")
        #expect(rules.press(.down, from: 0.3) == .moved(to: 0.2, bound: nil))
        #expect(try PlayerRules().press(.down, from: 100) == .moved(to: 99, bound: nil))
    }

    @Test("a billion presses with a billion updates are counted at once", .timeLimit(.minutes(5)))
    func billionPresses() throws {
        let rules = try PlayerRules(step: 0.1, max: 1e15, maxPointUpdates: 1_000_000_000)
        let form = PlayerViewModel(rules: rules, store: InMemoryScoreStore())
        let up = try form.stepUpTapped(times: .max)
        #expect(up.updatesUsed == 1_000_000_000)
        #expect(up.refusal == .noPointUpdatesLeft(limit: 1_000_000_000))
        #expect(form.points.value == 100_000_100, "100 + 10^9 × 0.1, with no drift")
        #expect(!form.canChangePoints.value)
    }

    @Test(
        "pressing down past the minimum from far above stops at it, whatever the count",
        .timeLimit(.minutes(5)))
    func downToMinimum() throws {
        let rules = try PlayerRules(points: 1e14, min: -1e14, max: 1e15, maxPointUpdates: .max)
        let form = PlayerViewModel(rules: rules, store: InMemoryScoreStore())
        let down = try form.stepDownTapped(times: .max)
        #expect(down.points == -1e14)
        #expect(down.updatesUsed == 200_000_000_000_000)
        #expect(down.bound == .min)
        #expect(down.refusal == nil)
    }

    @Test("a step too small to change the points is refused with both numbers, and nothing changes")
    func stepTooSmall() throws {
        let form = PlayerViewModel(store: InMemoryScoreStore())
        try form.stepChanged(to: 1e-300)
        #expect(throws: PlayerRefusal.stepTooSmall(step: 1e-300, points: 100)) { try form.stepUpTapped() }
        #expect(throws: PlayerRefusal.stepTooSmall(step: 1e-300, points: 100)) {
            try form.stepDownTapped(times: 5)
        }
        #expect(
            PlayerRefusal.stepTooSmall(step: 1e-300, points: 100).description
                == "Step 1e-300 is too small to change 100 points.")
        #expect(form.points.value == 100)
        #expect(form.pointUpdatesRemaining.value == 10)
    }

    @Test("with no update left that is the reason, even for a press the step would refuse")
    func noUpdatesBeforeRefusal() throws {
        let form = PlayerViewModel(rules: try PlayerRules(points: 9990), store: InMemoryScoreStore())
        try form.stepUpTapped(times: 10)
        try form.stepChanged(to: 1e-300)
        #expect(throws: PlayerRefusal.noPointUpdatesLeft(limit: 10)) { try form.stepDownTapped() }
        #expect(try form.stepUpTapped().bound == .max, "a press at a bound needs no update")
        #expect(form.points.value == 10000)
    }

    @Test("a press that cannot move the points by exactly the step is refused")
    func stepNotExact() throws {
        let rules = try PlayerRules(points: 1e17, step: 9, max: 1e18)
        let form = PlayerViewModel(rules: rules, store: InMemoryScoreStore())
        #expect(throws: PlayerRefusal.stepNotExact(step: 9, points: 1e17)) { try form.stepUpTapped() }
        #expect(
            PlayerRefusal.stepNotExact(step: 9, points: 1e17).description
                == "Step 9 cannot move 100000000000000000 points exactly: the result cannot be kept to 15"
                + " significant digits.")
        let fifteen = try PlayerRules(points: 999_999_999_999_998, max: 1e18)
        let near = PlayerViewModel(rules: fifteen, store: InMemoryScoreStore())
        let outcome = try near.stepUpTapped(times: 5)
        #expect(outcome.updatesUsed == 2, "999999999999999 and 1000000000000000 have at most 15 digits")
        #expect(outcome.refusal == .stepNotExact(step: 1, points: 1e15))
        #expect(near.points.value == 1e15)
    }

    @Test("extreme values at the stepper's inputs are clamped or refused, never trapped")
    func extremeInputs() throws {
        let form = PlayerViewModel(
            rules: try PlayerRules(min: -1e308, max: 1e308, maxPointUpdates: .max),
            store: InMemoryScoreStore())
        #expect(try form.stepperSet(to: 1e308).points == 1e308)
        #expect(try form.stepUpTapped(times: .max).bound == .max)
        #expect(try form.stepperSet(to: -.infinity).points == -1e308)
        #expect(try form.stepDownTapped(times: .max).bound == .min)
        #expect(throws: PlayerRefusal.notANumber) { try form.stepperSet(to: .nan) }
        #expect(throws: PlayerRefusal.invalidPressCount(.min)) { try form.stepUpTapped(times: .min) }
        #expect(throws: PlayerRefusal.invalidPressCount(0)) { try form.stepDownTapped(times: 0) }
        try form.stepperSet(to: 100)
        try form.stepChanged(to: 1e308)
        #expect(throws: PlayerRefusal.stepNotExact(step: 1e308, points: 100)) { try form.stepUpTapped() }
        try form.stepperSet(to: 0)
        let huge = try form.stepUpTapped(times: .max)
        #expect(huge.points == 1e308)
        #expect(huge.bound == .max)
        #expect(huge.updatesUsed == 1)
        for bad in [Double.nan, .infinity, -.infinity] {
            #expect(throws: PlayerRefusal.rejectedRules(.notFinite(key: "step"))) {
                try form.stepChanged(to: bad)
            }
        }
        #expect(throws: PlayerRefusal.rejectedRules(.stepNotPositive(-1e308))) {
            try form.stepChanged(to: -1e308)
        }
    }
}
