import CustomDump
import LoginFormExample
import Testing

/// A test target that depends on `ReactiveCoreTesting` and `CustomDump` alone, as the README
/// tells a user's to: a comparison that fails makes the running test fail.
@Suite("Comparisons in a user's specs")
struct ComparisonFailureTests {
    @Test("a wrong expectation of expectNoDifference fails the test, not only prints")
    func wrongExpectationFails() {
        let form = LoginViewModel()
        form.usernameEdited("ann")
        // withKnownIssue fails this test unless the comparison inside records an issue.
        var stated = LoginState(form)
        stated.username = "bob"
        withKnownIssue("the stated username is wrong") {
            expectNoDifference(stated, LoginState(form))
        }
    }
}
