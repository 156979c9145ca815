import ReactiveCore

/// The view model of a login form, built only on the reactive core: a username field and a
/// password field, combined into whether the login button is enabled.
///
/// The username must not be empty and must not contain whitespace (spaces, tabs, line breaks,
/// no-break spaces and other Unicode whitespace); the password must not be empty. Tapping login
/// while the form is valid requests a login with the credentials; tapping it while invalid sends
/// why it was refused.
public final class LoginViewModel: Sendable {
    /// The username as typed.
    public let username: Property<String>
    /// The password as typed.
    public let password: Property<String>
    /// What is wrong with the username, or nil when it is acceptable.
    public let usernameProblem: Property<String?>
    /// Whether the login button is enabled: the username is acceptable and the password is not empty.
    public let isLoginEnabled: Property<Bool>
    /// A login the user asked for, sent when login is tapped while enabled.
    public let loginRequested: Signal<Credentials>
    /// Why a tap on login did nothing, sent when login is tapped while disabled.
    public let loginRefused: Signal<String>

    private let usernameInput = MutableProperty("")
    private let passwordInput = MutableProperty("")
    private let requests: Signal<Credentials>.Input
    private let refusals: Signal<String>.Input

    /// Creates an empty form.
    public init() {
        username = usernameInput.readOnly
        password = passwordInput.readOnly
        usernameProblem = username.map(LoginViewModel.problem(with:))
        isLoginEnabled = Property.combineLatest(usernameProblem, password) { problem, password in
            problem == nil && !password.isEmpty
        }.skipRepeats()
        (loginRequested, requests) = Signal<Credentials>.pipe()
        (loginRefused, refusals) = Signal<String>.pipe()
    }

    /// The user changed the username field.
    public func usernameEdited(_ text: String) {
        usernameInput.value = text
    }

    /// The user changed the password field.
    public func passwordEdited(_ text: String) {
        passwordInput.value = text
    }

    /// The user tapped login.
    public func loginTapped() {
        if isLoginEnabled.value {
            requests.send(Credentials(username: username.value, password: password.value))
        } else {
            refusals.send(usernameProblem.value ?? "Enter a password")
        }
    }

    /// What is wrong with `username`, or nil.
    public static func problem(with username: String) -> String? {
        if username.isEmpty { return "Enter a username" }
        if username.contains(where: \.isWhitespace) { return "A username has no spaces" }
        return nil
    }
}

/// What a login sends.
public struct Credentials: Equatable, Sendable {
    /// The username.
    public var username: String
    /// The password.
    public var password: String

    /// Creates credentials.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}
