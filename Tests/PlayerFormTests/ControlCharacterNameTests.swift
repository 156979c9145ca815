import PlayerForm
import PlayerFormRules
import PlayerFormScores
import ReactiveCore
import Testing

@Suite("The name rule: a name is one line of visible text")
struct ControlCharacterNameTests {
    /// Every control character a name may not hold: C0, DEL, C1, and the line and paragraph
    /// separators.
    static let controls: [Unicode.Scalar] =
        (0..<0x20).compactMap(Unicode.Scalar.init) + (0x7F...0x9F).compactMap(Unicode.Scalar.init)
        + ["\u{2028}", "\u{2029}"]

    @Test("each control character inside, before or after a name makes it invalid, and is named")
    func everyControlCharacter() {
        for scalar in Self.controls {
            let control = String(scalar)
            for name in ["a\(control)b", "Dana\(control)", "\(control)Dana"] {
                #expect(
                    PlayerRules.defaults.validate(name: name, points: 1) == [.controlCharacters(control)],
                    "U+\(String(scalar.value, radix: 16))")
                #expect(!PlayerRules.defaults.isValid(name: name, points: 1))
            }
        }
    }

    @Test("visible text next to the control ranges is accepted: space, NBSP, é, U+2027, U+202A's neighbours")
    func visibleNeighbours() {
        for name in ["a b", "a\u{A0}b", "a\u{A1}b", "é", "a\u{2027}b", "a\u{202F}b", "名前", "~"] {
            #expect(
                PlayerRules.defaults.validate(name: name, points: 1) == [],
                "\(name.unicodeScalars.map(\.value))")
        }
    }

    @Test("the issue names each control character once, in the order they first appear")
    func eachOnceInOrder() {
        #expect(
            PlayerRules.defaults.validate(name: "Pasted\nup 2\n\tshow\n", points: 1) == [
                .controlCharacters("\n\t")
            ])
    }

    @Test("a name of whitespace only is empty, and a forbidden name with a line break is forbidden")
    func otherIssuesFirst() {
        #expect(PlayerRules.defaults.validate(name: "\n\t ", points: 1) == [.emptyName])
        #expect(PlayerRules.defaults.validate(name: "darn\n", points: 1) == [.forbiddenName("darn\n")])
    }

    @Test("the form: a name with a line break is not valid, and the upload is refused")
    func form() async throws {
        let store = InMemoryScoreStore()
        let form = PlayerViewModel(store: store)
        try form.nameEdited("Pasted\nup 2\nshow\n")
        #expect(form.issues.value == [.controlCharacters("\n")])
        #expect(!form.canUpload.value)
        guard case .refused = await form.uploadTapped() else {
            Issue.record("the upload was not refused")
            return
        }
        #expect(try await store.records().isEmpty)
    }

    @Test("the roster's add: a name with a control character is refused, and nothing is stored")
    func rosterAdd() async throws {
        let store = InMemoryScoreStore()
        let roster = RosterViewModel(store: store)
        roster.newNameEdited("Solo\n")
        roster.newPointsEdited(5)
        #expect(roster.inputIssues.value == [.controlCharacters("\n")])
        await #expect(throws: ActionError.self) { try await roster.addTapped() }
        #expect(try await store.records().isEmpty)
    }
}
