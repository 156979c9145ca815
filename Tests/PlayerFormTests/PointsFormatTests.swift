import PlayerForm
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

    @Test("ten steps of 0.1 from 0 give exactly 1")
    func decimalStepping() {
        var points = 0.0
        for _ in 0..<10 { points = PointsFormat.stepped(points, by: 0.1, times: 1) }
        #expect(points == 1)
        var naive = 0.0
        for _ in 0..<10 { naive += 0.1 }
        #expect(naive != 1, "binary floating point drifts; stepping must not")
    }

    @Test("stepping down is as exact as stepping up")
    func steppingDown() {
        #expect(PointsFormat.stepped(0.3, by: 0.1, times: -1) == 0.2)
        #expect(PointsFormat.stepped(100, by: 1, times: -1) == 99)
    }
}
