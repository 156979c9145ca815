import CustomDump
import PlayerFormRules
import PlayerFormTesting
import Testing

@Suite("Player form state in diffs")
struct PlayerFormStateTests {
    @Test(
        "a validation issue shows in a diff as its case and values",
        arguments: [
            (ValidationIssue.emptyName, ".emptyName"),
            (.notFinite, ".notFinite"),
            (.forbiddenName("darn"), #".forbiddenName("darn")"#),
            (.belowMin(points: -5, min: 0), ".belowMin(points: -5.0, min: 0.0)"),
            (.aboveMax(points: 101, max: 100), ".aboveMax(points: 101.0, max: 100.0)"),
        ])
    func issueDump(issue: ValidationIssue, dump: String) {
        #expect(String(customDumping: issue) == dump)
    }
}
