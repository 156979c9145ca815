import Testing

/// The difference between two texts, line by line, as a spec shows it when they should be equal:
/// hunks of changed lines with a few unchanged lines of context around them, each line with its
/// number in the expected text and in the actual one.
///
/// ```
/// @@ -3,3 +3,3 @@
///      3     3  > up 2
/// -    4        points: 102
/// +          4  points: 103
///      5     5  point updates left: 8
/// ```
///
/// `-` lines are only in the expected text, `+` lines only in the actual one; the first column is
/// the line's number in the expected text, the second in the actual text (both from 1).
public enum LineDiff {
    /// One line of the comparison.
    enum Step: Equatable {
        /// The same line at `expected` and `actual` (indices from 0).
        case same(expected: Int, actual: Int)
        /// Only in the expected text.
        case removed(Int)
        /// Only in the actual text.
        case added(Int)
    }

    /// The longest middle part, in lines of each side, compared line against line; past it, the
    /// middle is shown as all removed and all added, so that a huge mismatch costs no huge table.
    static let largestTable = 4_000_000

    /// The difference between `expected` and `actual`, or nil when they are equal.
    ///
    /// - Parameters:
    ///   - expected: the lines stated, shown as `-` lines where they differ.
    ///   - actual: the lines found, shown as `+` lines where they differ.
    ///   - context: how many unchanged lines to show before and after each change; changes closer
    ///     than twice this share one hunk.
    /// - Returns: the hunks of the difference, or nil when the lines are equal.
    public static func lines(_ expected: [String], _ actual: [String], context: Int = 3) -> String? {
        if expected == actual { return nil }
        let steps = steps(expected, actual)
        let context = max(0, context)
        var hunks: [Range<Int>] = []
        for (index, step) in steps.enumerated() {
            if case .same = step { continue }
            let start = max(0, index - context)
            let end = min(steps.count, index + context + 1)
            if let last = hunks.last, start <= last.upperBound {
                hunks[hunks.count - 1] = last.lowerBound..<max(last.upperBound, end)
            } else {
                hunks.append(start..<end)
            }
        }
        let width = String(max(expected.count, actual.count)).count
        func number(_ index: Int?) -> String {
            let text = index.map { String($0 + 1) } ?? ""
            return String(repeating: " ", count: width - text.count) + text
        }
        var text: [String] = []
        for hunk in hunks {
            let part = steps[hunk]
            text.append(header(part))
            for step in part {
                switch step {
                case .same(let old, let new):
                    text.append("  \(number(old)) \(number(new))  \(expected[old])")
                case .removed(let old):
                    text.append("- \(number(old)) \(number(nil))  \(expected[old])")
                case .added(let new):
                    text.append("+ \(number(nil)) \(number(new))  \(actual[new])")
                }
            }
        }
        return text.joined(separator: "\n")
    }

    /// The changes that turn `expected` into `actual`: a longest common subsequence of lines is
    /// kept, and within a run of changes the removed lines come before the added ones.
    static func steps(_ expected: [String], _ actual: [String]) -> [Step] {
        var prefix = 0
        while prefix < expected.count, prefix < actual.count, expected[prefix] == actual[prefix] {
            prefix += 1
        }
        var suffix = 0
        while suffix < expected.count - prefix, suffix < actual.count - prefix,
            expected[expected.count - 1 - suffix] == actual[actual.count - 1 - suffix]
        {
            suffix += 1
        }
        let old = Array(expected[prefix..<(expected.count - suffix)])
        let new = Array(actual[prefix..<(actual.count - suffix)])
        var steps = (0..<prefix).map { Step.same(expected: $0, actual: $0) }
        if old.count * new.count > largestTable {
            steps += old.indices.map { Step.removed(prefix + $0) }
            steps += new.indices.map { Step.added(prefix + $0) }
        } else {
            steps += middle(old, new).map { step -> Step in
                switch step {
                case .same(let a, let b): .same(expected: prefix + a, actual: prefix + b)
                case .removed(let a): .removed(prefix + a)
                case .added(let b): .added(prefix + b)
                }
            }
        }
        steps += (0..<suffix).map {
            Step.same(expected: expected.count - suffix + $0, actual: actual.count - suffix + $0)
        }
        return steps
    }

    /// The steps between two texts with nothing in common at either end, from a table of the
    /// longest common subsequence of every pair of tails.
    private static func middle(_ old: [String], _ new: [String]) -> [Step] {
        let columns = new.count + 1
        // common[i * columns + j]: the length of the longest common subsequence of old[i...], new[j...].
        var common = [Int](repeating: 0, count: (old.count + 1) * columns)
        for i in old.indices.reversed() {
            for j in new.indices.reversed() {
                common[i * columns + j] =
                    old[i] == new[j]
                    ? common[(i + 1) * columns + j + 1] + 1
                    : max(common[(i + 1) * columns + j], common[i * columns + j + 1])
            }
        }
        var steps: [Step] = []
        var removed: [Step] = []
        var added: [Step] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                steps += removed + added
                removed = []
                added = []
                steps.append(.same(expected: i, actual: j))
                i += 1
                j += 1
            } else if j == new.count
                || (i < old.count && common[(i + 1) * columns + j] >= common[i * columns + j + 1])
            {
                removed.append(.removed(i))
                i += 1
            } else {
                added.append(.added(j))
                j += 1
            }
        }
        return steps + removed + added
    }

    /// `@@ -FIRST,COUNT +FIRST,COUNT @@` for the lines of a hunk, as in a unified diff.
    private static func header(_ part: ArraySlice<Step>) -> String {
        var oldLines: [Int] = []
        var newLines: [Int] = []
        for step in part {
            switch step {
            case .same(let old, let new):
                oldLines.append(old)
                newLines.append(new)
            case .removed(let old): oldLines.append(old)
            case .added(let new): newLines.append(new)
            }
        }
        func range(_ lines: [Int]) -> String {
            guard let first = lines.first else { return "0,0" }
            return "\(first + 1),\(lines.count)"
        }
        return "@@ -\(range(oldLines)) +\(range(newLines)) @@"
    }
}

/// Records an issue showing the ``LineDiff`` of `expected` and `actual` when they differ: for
/// lines of output, where `#expect(a == b)` would show two arrays.
///
/// - Parameters:
///   - expected: the lines stated.
///   - actual: the lines found.
///   - what: what the lines are, for the message (`standard output of basics.session`).
///   - sourceLocation: where the issue is reported.
public func expectNoLineDifference(
    _ expected: [String], _ actual: [String], _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let difference = LineDiff.lines(expected, actual) else { return }
    Issue.record(
        Comment(rawValue: "The \(what) differs (- expected, + actual):\n\n\(difference)"),
        sourceLocation: sourceLocation)
}
