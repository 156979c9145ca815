/// Which button of the stepper was pressed.
public enum StepperDirection: Sendable, Equatable {
    /// The + button: the points go up by the step.
    case up
    /// The - button: the points go down by the step.
    case down

    fileprivate var sign: Int64 { self == .up ? 1 : -1 }
}

/// A bound of the points.
public enum StepperBound: Sendable, Equatable {
    /// The lowest valid number of points.
    case min
    /// The highest valid number of points.
    case max
}

/// What one press of the stepper does.
public enum StepperPress: Sendable, Equatable {
    /// The points move to `points`. `bound` is set when the points plus or minus the step lay
    /// beyond that bound, so the points were kept at it.
    case moved(to: Double, bound: StepperBound?)
    /// The points are at `bound` and the press would take them beyond it: nothing changes.
    case atBound(StepperBound)
    /// The press cannot move the points by exactly the step.
    case refused(PlayerRefusal)
}

/// What a run of presses of the stepper does: the same as pressing that many times, one press
/// after another, and stopping at the first press that is refused or changes nothing.
public struct StepperPresses: Sendable, Equatable {
    /// Why pressing stopped before every press was made.
    public enum Stop: Sendable, Equatable {
        /// The points are at a bound; the remaining presses change nothing.
        case bound(StepperBound)
        /// The next press would change the points, but no point updates are left.
        case noUpdatesLeft
        /// The next press was refused.
        case refused(PlayerRefusal)
    }

    /// The points after the presses.
    public let points: Double
    /// How many presses changed the points; each uses one point update.
    public let counted: Int
    /// The bound a press was kept at, or stopped at; nil when no press reached beyond a bound.
    public let bound: StepperBound?
    /// Why pressing stopped early; nil when every press counted.
    public let stop: Stop?
}

extension PlayerRules {
    /// Points keep at most this many significant decimal digits when the stepper moves them:
    /// every number of that many digits reads back from a Double as it was written.
    public static let stepperDigits = 15

    /// What one press in `direction` does to `points`: the single rule of the stepper.
    ///
    /// The points move by exactly the step, computed in decimal, so ten presses of 0.1 from 0
    /// give 1. A result beyond min or max is kept at that bound; a press from a bound outward
    /// changes nothing. Otherwise a result that would need more
    /// than ``stepperDigits`` significant digits (or lies below the smallest normal Double) is
    /// refused: ``PlayerRefusal/stepTooSmall(step:points:)`` when the points would not change at
    /// all, ``PlayerRefusal/stepNotExact(step:points:)`` otherwise.
    public func press(_ direction: StepperDirection, from points: Double) -> StepperPress {
        var candidate: Double
        var exact = false
        let sum = StepperDecimal.sum(points, step, direction.sign)
        if let sum, sum.fitsStepperDigits {
            candidate = sum.value
            exact = candidate == 0 || candidate.isNormal
        } else {
            candidate = direction == .up ? points + step : points - step
        }
        // The exact result against the bounds when it is known: a Double sum may round onto a
        // bound that the exact result passes.
        let aboveMax = sum.flatMap { StepperDecimal.order($0, max) }.map { $0 > 0 } ?? (candidate > max)
        let belowMin = sum.flatMap { StepperDecimal.order($0, min) }.map { $0 < 0 } ?? (candidate < min)
        // From a bound outward the exact result lies beyond it, even where the Double does not.
        let bound: StepperBound? =
            if aboveMax || (direction == .up && points >= max) {
                .max
            } else if belowMin || (direction == .down && points <= min) {
                .min
            } else {
                nil
            }
        if let bound {
            let kept = bound == .max ? max : min
            return kept == points ? .atBound(bound) : .moved(to: kept, bound: bound)
        }
        guard exact else {
            return .refused(
                candidate == points
                    ? .stepTooSmall(step: step, points: points) : .stepNotExact(step: step, points: points))
        }
        return .moved(to: candidate, bound: nil)
    }

    /// What pressing `times` times in `direction` does to `points` when `updatesLeft` point
    /// updates remain: exactly what `times` calls of ``press(_:from:)`` one after another do,
    /// stopping at the first press that changes nothing (at a bound), finds no update left, or
    /// is refused; a press at a bound needs no update, and no update left is the reason before
    /// any refusal of the press.
    ///
    /// The cost does not grow with `times` or `updatesLeft`: runs of presses that move the
    /// points by exactly the step are computed at once.
    public func press(
        _ direction: StepperDirection, from points: Double, times: Int, updatesLeft: Int
    ) -> StepperPresses {
        var current = points
        var counted = 0
        var bound: StepperBound?
        var stop: StepperPresses.Stop?
        let allowed = Swift.max(0, Swift.min(times, updatesLeft))
        while counted < times {
            if counted < allowed, let run = exactRun(direction, from: current, limit: allowed - counted) {
                current = run.points
                counted += run.count
                continue
            }
            switch press(direction, from: current) {
            case .atBound(let reached):
                bound = reached
                stop = .bound(reached)
            case .refused(let refusal):
                // With no update left, that is the reason, whatever the press would have done.
                stop = counted < allowed ? .refused(refusal) : .noUpdatesLeft
            case .moved(let next, let kept):
                guard counted < allowed else {
                    stop = .noUpdatesLeft
                    break
                }
                current = next
                counted += 1
                if let kept { bound = kept }
                continue
            }
            break
        }
        return StepperPresses(points: current, counted: counted, bound: bound, stop: stop)
    }

    /// The longest run of at most `limit` presses from `points`, at least one, in which every
    /// press moves the points by exactly the step and stays within min...max, with the points
    /// after it; nil when the next press is not such a press or is not known to be one.
    ///
    /// Within the run every value is `points ± k × step` with fewer than ``stepperDigits``
    /// digits in the units of the finer of the two, and a normal Double (or 0): such a value
    /// reads back exactly, so each single press of the run computes the same value.
    private func exactRun(
        _ direction: StepperDirection, from points: Double, limit: Int
    ) -> (count: Int, points: Double)? {
        guard points >= min, points <= max, limit > 0,
            let grid = StepperDecimal.Grid(points, step, direction.sign)
        else { return nil }
        let digitLimit = StepperDecimal.power(Self.stepperDigits)
        // The values are grid.start + k × grid.increment; the first must lie within the digits.
        let (first, overflow) = grid.start.addingReportingOverflow(grid.increment)
        guard !overflow, first.magnitude < digitLimit.magnitude else { return nil }
        // The last k whose value still has fewer than the digit limit in magnitude.
        let room =
            grid.increment > 0
            ? (digitLimit - 1).subtractingReportingOverflow(grid.start)
            : (grid.start).addingReportingOverflow(digitLimit - 1)
        guard !room.overflow, room.partialValue > 0 else { return nil }
        var count = Int(clamping: room.partialValue / abs(grid.increment))
        count = Swift.min(count, limit)
        guard count >= 1 else { return nil }
        // Below the smallest normal Double a value does not keep its digits: stop before it.
        if grid.exponent < -307 {
            let towardZero = (first > 0) != (grid.increment > 0)
            let normal = { (k: Int) in grid.value(k).magnitude >= Double.leastNormalMagnitude }
            guard first != 0, normal(1) else { return nil }
            if towardZero {
                // Normal only on this side of zero: past it the values grow normal again, but the
                // single presses stopped before it.
                let side = first.signum()
                count = Self.lastTrue(upTo: count) { k in
                    (grid.start + Int64(k) * grid.increment).signum() == side && normal(k)
                }
            }
        }
        // Within min...max: the values move one way, so the last one inside is found by halving.
        let inside = { (k: Int) in
            let value = grid.value(k)
            return value >= self.min && value <= self.max
        }
        if !inside(count) { count = Self.lastTrue(upTo: count, inside) }
        guard count >= 1 else { return nil }
        return (count, grid.value(count))
    }

    /// The largest k in 0...upTo for which `holds` is true, when it holds for every k up to
    /// some point and for none after it, and holds for 0.
    private static func lastTrue(upTo: Int, _ holds: (Int) -> Bool) -> Int {
        var low = 0
        var high = upTo
        while low < high {
            let middle = low + (high - low + 1) / 2
            if holds(middle) { low = middle } else { high = middle - 1 }
        }
        return low
    }
}

/// The decimal arithmetic of the stepper: a finite Double as its shortest decimal, and the sum
/// of two such decimals, in Int64 significands.
enum StepperDecimal {
    /// A decimal `significand × 10^exponent`.
    struct Number: Equatable {
        var significand: Int64
        var exponent: Int

        /// Whether the significand, without trailing zeros, has at most
        /// ``PlayerRules/stepperDigits`` digits.
        var fitsStepperDigits: Bool {
            var digits = significand.magnitude
            while digits != 0 && digits % 10 == 0 { digits /= 10 }
            return digits < StepperDecimal.power(PlayerRules.stepperDigits).magnitude
        }

        /// The nearest Double.
        var value: Double {
            // Both operands exact, so one operation rounds once, as reading the text does.
            if significand.magnitude < 1 << 53, exponent >= -22, exponent <= 22 {
                let whole = Double(significand)
                return exponent < 0 ? whole / exactPowers[-exponent] : whole * exactPowers[exponent]
            }
            return Double("\(significand)e\(exponent)") ?? .nan
        }

        /// The nearest Double, read from text: what ``value`` computes.
        var valueFromText: Double {
            Double("\(significand)e\(exponent)") ?? .nan
        }
    }

    /// `points`, `step` (greater than 0) and a direction on one decimal grid: the value after k
    /// presses is `(start + k × increment) × 10^exponent`.
    struct Grid {
        let start: Int64
        let increment: Int64
        let exponent: Int

        init?(_ points: Double, _ step: Double, _ sign: Int64) {
            guard let base = StepperDecimal.shortest(points), let unit = StepperDecimal.shortest(step),
                unit.significand > 0
            else { return nil }
            let exponent = base.significand == 0 ? unit.exponent : Swift.min(base.exponent, unit.exponent)
            guard let start = StepperDecimal.scaled(base, to: exponent),
                let increment = StepperDecimal.scaled(unit, to: exponent)
            else { return nil }
            self.start = start
            self.increment = sign * increment
            self.exponent = exponent
        }

        /// The value after `presses` presses; the caller keeps it within the grid's digits.
        func value(_ presses: Int) -> Double {
            Number(significand: start + Int64(presses) * increment, exponent: exponent).value
        }
    }

    /// Whether `number` is below (-1), at (0) or above (1) the shortest decimal of `value`; nil
    /// when the two cannot be written on one grid in an Int64.
    static func order(_ number: Number, _ value: Double) -> Int? {
        guard let other = shortest(value) else { return nil }
        let exponent = Swift.min(number.exponent, other.exponent)
        guard let left = scaled(number, to: exponent), let right = scaled(other, to: exponent) else {
            return nil
        }
        return left < right ? -1 : left == right ? 0 : 1
    }

    /// `points ± step` exactly, or nil when it does not fit in an Int64 significand.
    static func sum(_ points: Double, _ step: Double, _ sign: Int64) -> Number? {
        guard let grid = Grid(points, step, sign) else { return nil }
        let (significand, overflow) = grid.start.addingReportingOverflow(grid.increment)
        return overflow ? nil : Number(significand: significand, exponent: grid.exponent)
    }

    /// 10^`exponent`, for exponents 0...18.
    static func power(_ exponent: Int) -> Int64 {
        var result: Int64 = 1
        for _ in 0..<exponent { result *= 10 }
        return result
    }

    /// `number` written with `exponent`, no larger than its own; nil when it does not fit.
    static func scaled(_ number: Number, to exponent: Int) -> Int64? {
        if number.significand == 0 { return 0 }
        let shift = number.exponent - exponent
        guard shift <= 18 else { return nil }
        let (result, overflow) = number.significand.multipliedReportingOverflow(by: power(shift))
        return overflow ? nil : result
    }

    /// 10^0 through 10^22, each exact in a Double.
    static let exactPowers: [Double] = (0...22).map { Double("1e\($0)") ?? 0 }

    /// The shortest decimal that reads back as `value`, without trailing zeros; nil when
    /// `value` is not finite.
    static func shortest(_ value: Double) -> Number? {
        guard value.isFinite else { return nil }
        if value == 0 { return Number(significand: 0, exponent: 0) }
        // A whole number below 10^15 is its own shortest decimal.
        if let whole = Int64(exactly: value), whole.magnitude < 1_000_000_000_000_000 {
            return stripped(Number(significand: whole, exponent: 0))
        }
        return shortestFromText(value)
    }

    /// ``shortest(_:)`` read from the description of a finite, nonzero `value`.
    static func shortestFromText(_ value: Double) -> Number? {
        // The description is the shortest round-trip form: "100.0", "0.0001", "1e-05", "-1.5e+20".
        var significand: Int64 = 0
        var exponent = 0
        var afterPoint = false
        var negative = false
        var text = value.description.utf8[...]
        if text.first == UInt8(ascii: "-") {
            negative = true
            text = text.dropFirst()
        }
        while let byte = text.first, byte != UInt8(ascii: "e") {
            text = text.dropFirst()
            if byte == UInt8(ascii: ".") {
                afterPoint = true
                continue
            }
            // At most 17 significant digits, so the significand fits.
            significand = significand * 10 + Int64(byte - UInt8(ascii: "0"))
            if afterPoint { exponent -= 1 }
        }
        if !text.isEmpty, let written = Int(String(decoding: text.dropFirst(), as: UTF8.self)) {
            exponent += written
        }
        return stripped(Number(significand: negative ? -significand : significand, exponent: exponent))
    }

    /// `number` without trailing zeros in its significand.
    private static func stripped(_ number: Number) -> Number {
        var number = number
        while number.significand != 0 && number.significand % 10 == 0 {
            number.significand /= 10
            number.exponent += 1
        }
        return number
    }
}
