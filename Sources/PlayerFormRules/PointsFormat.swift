import Foundation

/// How points are shown.
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
}
