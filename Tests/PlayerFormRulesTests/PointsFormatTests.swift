import PlayerFormRules
import Testing

@Suite("Points format")
struct PointsFormatTests {
    @Test(
        "whole points show no decimals and fractions show the shortest decimal",
        arguments: [
            (100.0, "100"), (0.5, "0.5"), (0, "0"), (-0.0, "0"), (-3, "-3"), (10000, "10000"), (0.1, "0.1"),
            (1e15, "1000000000000000"), (-9_007_199_254_740_992, "-9007199254740992"), (1e20, "1e+20"),
            (Double.nan, "nan"), (.infinity, "inf"),
        ])
    func text(points: Double, expected: String) {
        #expect(PointsFormat.text(points) == expected)
    }
}
