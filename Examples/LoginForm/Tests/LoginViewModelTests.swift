import LoginFormExample
import ReactiveCoreTesting
import Testing

/// Everything the login view shows, read from the view model's properties.
struct LoginState: Equatable {
    var username: String
    var password: String
    var usernameProblem: String?
    var isLoginEnabled: Bool

    init(_ form: LoginViewModel) {
        username = form.username.value
        password = form.password.value
        usernameProblem = form.usernameProblem.value
        isLoginEnabled = form.isLoginEnabled.value
    }
}

func makeTester() -> ViewModelTester<LoginViewModel, LoginState> {
    ViewModelTester(
        LoginViewModel(), state: LoginState.init,
        events: [.signal(\.loginRequested), .signal(\.loginRefused)])
}

@Suite("Login form")
struct LoginViewModelTests {
    @Test("a new form asks for a username and login is disabled")
    func initialState() {
        let tester = makeTester()
        #expect(tester.state.usernameProblem == "Enter a username")
        #expect(!tester.state.isLoginEnabled)
        tester.finish()
    }

    @Test("login is enabled once the username and the password are filled in")
    func enabledWhenFilled() {
        let tester = makeTester()
        tester.send {
            $0.usernameEdited("ann")
        } assert: {
            $0.username = "ann"
            $0.usernameProblem = nil
        }
        tester.send {
            $0.passwordEdited("secret")
        } assert: {
            $0.password = "secret"
            $0.isLoginEnabled = true
        }
        tester.send {
            $0.passwordEdited("")
        } assert: {
            $0.password = ""
            $0.isLoginEnabled = false
        }
        tester.finish()
    }

    @Test(
        "a username with whitespace anywhere disables login",
        arguments: ["ann smith", " ann", "ann\t", "ann\nx", "ann\u{00A0}x", "ann\u{3000}"])
    func whitespaceInUsername(username: String) {
        let tester = makeTester()
        tester.send {
            $0.passwordEdited("secret")
        } assert: {
            $0.password = "secret"
        }
        tester.send {
            $0.usernameEdited(username)
        } assert: {
            $0.username = username
            $0.usernameProblem = "A username has no spaces"
        }
        tester.send { $0.loginTapped() }
        tester.receive(\.loginRefused, "A username has no spaces")
        tester.finish()
    }

    @Test("login sends the credentials once and changes nothing")
    func loginSendsCredentials() {
        let tester = makeTester()
        tester.send {
            $0.usernameEdited("ann")
        } assert: {
            $0.username = "ann"
            $0.usernameProblem = nil
        }
        tester.send {
            $0.passwordEdited("secret")
        } assert: {
            $0.password = "secret"
            $0.isLoginEnabled = true
        }
        tester.send { $0.loginTapped() }
        tester.receive(\.loginRequested, Credentials(username: "ann", password: "secret"))
        tester.finish()
    }

    @Test("a tap on a disabled login says what is missing")
    func refusedLogin() {
        let tester = makeTester()
        tester.send { $0.loginTapped() }
        tester.receive(\.loginRefused, "Enter a username")
        tester.send {
            $0.usernameEdited("ann")
        } assert: {
            $0.username = "ann"
            $0.usernameProblem = nil
        }
        tester.send { $0.loginTapped() }
        tester.receive(\.loginRefused, "Enter a password")
        tester.finish()
    }

    @Test("the enabled state is announced only when it changes")
    func enabledAnnouncedOnChange() {
        let tester = ViewModelTester(
            LoginViewModel(), state: LoginState.init, events: [.changes(\.isLoginEnabled)])
        tester.send {
            $0.usernameEdited("ann")
        } assert: {
            $0.username = "ann"
            $0.usernameProblem = nil
        }
        tester.send {
            $0.passwordEdited("s")
        } assert: {
            $0.password = "s"
            $0.isLoginEnabled = true
        }
        tester.receive(\.isLoginEnabled, true)
        tester.send {
            $0.passwordEdited("se")
        } assert: {
            $0.password = "se"
        }
        tester.finish()
    }
}
