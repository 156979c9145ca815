import Foundation

/// How points are shown and stepped.
public enum PointsFormat {
    /// Points as the score label shows them: whole numbers without a decimal part ("100", not
    /// "100.0"), fractions as the shortest decimal that reads back the same ("0.5").
    ///
    /// ```swift
    /// PointsFormat.text(100)  // "100"
    /// PointsFormat.text(0.5)  // "0.5"
    /// ```
    public static func text(_ points: Double) -> String {
        guard points.isFinite else {
            return points.isNaN ? "nan" : (points < 0 ? "-inf" : "inf")
        }
        if points == 0 { return "0" }
        if points == points.rounded(), abs(points) < 0x1p63 {
            return String(Int64(points))
        }
        return String(describing: points)
    }

    /// `points + steps * step`, computed in decimal so that stepping by 0.1 ten times from 0 gives
    /// exactly 1 rather than 0.9999999999999999.
    public static func stepped(_ points: Double, by step: Double, times steps: Int) -> Double {
        // Whole numbers well below 2^53 add exactly in binary: the usual case needs no decimals.
        let exactLimit = 1e15
        if points == points.rounded(), step == step.rounded(), abs(points) < exactLimit,
            abs(step) < exactLimit, abs(steps) < 1000, abs(step) * Double(abs(steps)) < exactLimit
        {
            return points + Double(steps) * step
        }
        guard points.isFinite, step.isFinite,
            let start = Decimal(string: String(describing: points)),
            let increment = Decimal(string: String(describing: step))
        else { return points + Double(steps) * step }
        let result = start + increment * Decimal(steps)
        return Double(String(describing: result)) ?? points + Double(steps) * step
    }
}
