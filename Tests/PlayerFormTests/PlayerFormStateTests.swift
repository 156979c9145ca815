import CustomDump
import PlayerForm
import PlayerFormRules
import PlayerFormScores
import PlayerFormTesting
import Testing

/// The text of every comment of `issue`.
func text(of issue: Issue) -> String {
    issue.comments.map(\.rawValue).joined(separator: "\n")
}

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

    @Test("the state read from a new form is every default, field by field")
    func readsEveryOutput() {
        expectNoDifference(.initial, PlayerFormState(PlayerViewModel(store: InMemoryScoreStore())))
    }

    @Test("a form state that does not match fails with a diff marking exactly the fields that differ")
    func mismatchShowsTheFields() throws {
        let form = PlayerViewModel(store: InMemoryScoreStore())
        try form.nameEdited("")
        withKnownIssue {
            expectNoDifference(.initial.with { $0.name = "" }, PlayerFormState(form))
        } matching: { issue in
            // CustomDump marks the stated value with a minus sign (U+2212) and the actual with a plus.
            let marked = text(of: issue).split(separator: "\n")
                .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
                .filter { $0.hasPrefix("− ") || $0.hasPrefix("+ ") }
            return marked == [
                "+ [0]: .emptyName", "− isValid: true,", "+ isValid: false,", "− canUpload: true,",
                "+ canUpload: false,",
            ]
        }
    }
}
