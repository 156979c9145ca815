import PropertyBased
import Testing

@testable import PlayerFormRules

@Suite("Stepper decimals")
struct StepperDecimalTests {
    @Test("the arithmetic shortcuts give what reading and writing text gives")
    func shortcutsMatchText() async {
        let wholes = Gen.int(in: -999_999_999_999_999...999_999_999_999_999).map { Double($0) }
        let significands = Gen.int(in: -(1 << 53) + 1...(1 << 53) - 1).map { Int64($0) }
        await propertyCheck(count: 5000, input: wholes, significands, Gen.int(in: -22...22)) {
            whole, significand, exponent in
            if whole != 0 {
                #expect(StepperDecimal.shortest(whole) == StepperDecimal.shortestFromText(whole), "\(whole)")
            }
            let number = StepperDecimal.Number(significand: significand, exponent: exponent)
            #expect(number.value == number.valueFromText, "\(significand)e\(exponent)")
        }
    }

    @Test("shortest decimals of typical and extreme values")
    func shortestDecimals() {
        let cases: [(Double, Int64, Int)] = [
            (100, 1, 2), (0.1, 1, -1), (-2.5, -25, -1), (1e-300, 1, -300), (1e17, 1, 17),
            (0.30000000000000004, 30_000_000_000_000_004, -17),
            (.greatestFiniteMagnitude, 17_976_931_348_623_157, 292),
        ]
        for (value, significand, exponent) in cases {
            #expect(
                StepperDecimal.shortest(value)
                    == StepperDecimal.Number(significand: significand, exponent: exponent),
                "\(value)")
        }
        #expect(StepperDecimal.shortest(.nan) == nil)
        #expect(StepperDecimal.shortest(.infinity) == nil)
    }
}

@Suite("Stepper runs near zero")
struct StepperRunsNearZeroTests {
    /// `times` single presses, one after another, up to the first that does not move.
    static func singlePresses(_ rules: PlayerRules, _ direction: StepperDirection, times: Int) -> (
        Double, Int
    ) {
        var points = rules.points
        var counted = 0
        for _ in 0..<times {
            guard case .moved(let next, _) = rules.press(direction, from: points) else { break }
            points = next
            counted += 1
        }
        return (points, counted)
    }

    @Test("a press whose exact result passes a bound stops at it, also where the Double sum rounds onto it")
    func pressPastBoundNearDoublePrecision() throws {
        // 9999999999999996 + 2.5 is 9999999999999998.5, whose nearest Double is the maximum.
        let up = try PlayerRules(points: 9_999_999_999_999_996, step: 2.5, min: 0, max: 9_999_999_999_999_998)
        #expect(up.press(.up, from: 9_999_999_999_999_996) == .moved(to: 9_999_999_999_999_998, bound: .max))
        let down = try PlayerRules(
            points: -9_999_999_999_999_996, step: 2.5, min: -9_999_999_999_999_998, max: 0)
        #expect(
            down.press(.down, from: -9_999_999_999_999_996) == .moved(to: -9_999_999_999_999_998, bound: .min)
        )
    }

    @Test("a run toward zero below the smallest normal number stops where single presses stop")
    func runTowardZeroStopsBeforeSubnormals() throws {
        for (step, points, direction) in [
            (1e-308, -3.1e-307, StepperDirection.up), (1e-308, 3.1e-307, .down),
            (Double("8e-309")!, -2.4e-307, .up),
        ] {
            let rules = try PlayerRules(
                points: points, step: step, min: -1e300, max: 1e300, maxPointUpdates: 200)
            for times in 1...80 {
                let run = rules.press(direction, from: points, times: times, updatesLeft: 200)
                let single = Self.singlePresses(rules, direction, times: times)
                #expect(
                    run.points == single.0 && run.counted == single.1,
                    "\(times) × \(step) from \(points) \(direction)")
            }
        }
    }
}
