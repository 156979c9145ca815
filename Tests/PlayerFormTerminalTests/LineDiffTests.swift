import PlayerFormTerminalTesting
import Testing

@Suite("Line diff")
struct LineDiffTests {
    static let numbers = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]

    @Test("equal texts have no difference")
    func equal() {
        #expect(LineDiff.lines(Self.numbers, Self.numbers) == nil)
        #expect(LineDiff.lines([], []) == nil)
    }

    @Test("a changed line and an added one show as - and + lines, numbered on both sides, with context")
    func knownTexts() {
        var actual = Self.numbers
        actual[2] = "THREE"
        actual.append("eleven")
        #expect(
            LineDiff.lines(Self.numbers, actual, context: 1)
                == """
                @@ -2,3 +2,3 @@
                   2  2  two
                -  3     three
                +     3  THREE
                   4  4  four
                @@ -10,1 +10,2 @@
                  10 10  ten
                +    11  eleven
                """)
    }

    @Test("changes closer than twice the context share a hunk; farther ones get their own")
    func hunks() {
        var actual = Self.numbers
        actual[1] = "TWO"
        actual[7] = "EIGHT"
        func hunkCount(context: Int) -> Int {
            (LineDiff.lines(Self.numbers, actual, context: context) ?? "").split(separator: "\n")
                .count { $0.hasPrefix("@@") }
        }
        #expect(hunkCount(context: 3) == 1)
        #expect(hunkCount(context: 2) == 2)
    }

    @Test("a removed line keeps its number in the expected text and the lines after it line up")
    func removedLine() {
        let actual = Self.numbers.filter { $0 != "five" }
        #expect(
            LineDiff.lines(Self.numbers, actual, context: 1)
                == """
                @@ -4,3 +4,2 @@
                   4  4  four
                -  5     five
                   6  5  six
                """)
    }

    @Test("against an empty text every line is added")
    func fromNothing() {
        #expect(
            LineDiff.lines([], ["a", "b"])
                == """
                @@ -0,0 +1,2 @@
                +   1  a
                +   2  b
                """)
    }

    @Test("texts too different to compare line against line show all removed, then all added")
    func hugeMismatch() throws {
        let old = (0..<2_500).map { "old \($0)" }
        let new = (0..<2_500).map { "new \($0)" }
        let lines = try #require(LineDiff.lines(["same"] + old, ["same"] + new, context: 0)).split(
            separator: "\n")
        #expect(lines.first == "@@ -2,2500 +2,2500 @@")
        #expect(lines.dropFirst().prefix(2_500).allSatisfy { $0.hasPrefix("-") })
        #expect(lines.dropFirst(2_501).allSatisfy { $0.hasPrefix("+") })
        #expect(lines.count == 5_001)
    }

    @Test("expectNoLineDifference records the diff, and nothing when the lines are equal")
    func expectation() {
        expectNoLineDifference(["a"], ["a"], "output")
        withKnownIssue {
            expectNoLineDifference(["a", "b"], ["a", "c"], "standard output of x.session")
        } matching: { issue in
            issue.comments.map(\.rawValue).joined() == """
                The standard output of x.session differs (- expected, + actual):

                @@ -1,2 +1,2 @@
                  1 1  a
                - 2    b
                +   2  c
                """
        }
    }
}
