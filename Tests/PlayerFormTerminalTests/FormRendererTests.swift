import Foundation
import PlayerForm
import PlayerFormRules
import PlayerFormScores
import Testing

@testable import PlayerFormTerminal

@Suite("FormRenderer")
struct FormRendererTests {
    let form = PlayerViewModel(store: InMemoryScoreStore())
    let renderer = FormRenderer()

    @Test("show --json has exactly the documented keys, in order, on one line")
    func jsonKeys() throws {
        let json = renderer.json(of: form)
        #expect(!json.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let keys = [
            "name", "points", "step", "min", "max", "valid", "issues", "pointUpdatesRemaining", "uploads",
            "uploadsRemaining", "canEditName", "canChangePoints", "canUpload", "locked",
        ]
        #expect(Set(object.keys) == Set(keys))
        let positions = keys.compactMap { json.range(of: "\"\($0)\":")?.lowerBound }
        #expect(positions == positions.sorted() && positions.count == keys.count)
    }

    @Test("show --json reports the view model's values and reason codes")
    func jsonValues() throws {
        try form.nameEdited("")
        try form.maxChanged(to: 50)
        #expect(
            renderer.json(of: form)
                == #"{"name":"","points":100,"step":1,"min":0,"max":50,"valid":false,"issues":["emptyName","aboveMax"],"#
                + #""pointUpdatesRemaining":10,"uploads":0,"uploadsRemaining":5,"canEditName":true,"#
                + #""canChangePoints":true,"canUpload":false,"locked":false}"#)
    }

    @Test("names in JSON are escaped as JSON requires")
    func jsonEscapes() throws {
        try form.nameEdited("a\"b\\\u{1B}\n")
        #expect(renderer.json(of: form).hasPrefix(#"{"name":"a\"b\\\u001b\n","#))
    }

    @Test("the screen shows every widget of the sample's form")
    func screen() throws {
        try form.nameEdited("\u{1B}[31mRed")
        #expect(
            renderer.screen(of: form) == [
                #"Name:    [\u{1B}[31mRed]"#,
                "Points:  100",
                "Stepper: [-] [+]  step 1, min 0, max 10000, 10 updates left",
                "Upload:  [Upload] disabled (0 done, 5 left)",
                #"Valid:   no: The name contains control characters (\u{1B}): a name is one line of visible text."#,
            ])
    }

    @Test("a locked form shows its name field disabled and its stepper and upload button hidden")
    func lockedScreen() async throws {
        try form.nameEdited("Colin")
        for _ in 1...5 { _ = await form.uploadTapped() }
        #expect(
            renderer.screen(of: form) == [
                "Name:    [Colin] (disabled)",
                "Points:  100",
                "Stepper: hidden (10 updates left)",
                "Upload:  hidden (5 done, 0 left)",
                "Valid:   yes",
            ])
        #expect(
            renderer.json(of: form).hasSuffix(
                #""canEditName":false,"canChangePoints":false,"canUpload":false,"locked":true}"#))
    }

    @Test("the screen says an upload is running while it runs", .timeLimit(.minutes(5)))
    func uploadingScreen() async throws {
        let store = EndlessStore()
        let form = PlayerViewModel(store: store)
        try form.nameEdited("Colin")
        let upload = Task { await form.uploadTapped() }
        for await _ in store.started.stream { break }
        #expect(renderer.screen(of: form)[3] == "Upload:  [Upload] disabled (0 done, 5 left), uploading...")
        upload.cancel()
        _ = await upload.value
        #expect(renderer.screen(of: form)[3] == "Upload:  [Upload] enabled (0 done, 5 left)")
    }

    @Test("the screen shows the reasons of an invalid form")
    func invalidScreen() throws {
        try form.nameEdited(" ")
        #expect(renderer.screen(of: form).last == "Valid:   no: The name is empty.")
        #expect(renderer.screen(of: form)[3] == "Upload:  [Upload] disabled (0 done, 5 left)")
    }

    @Test("the prompt shows the name, points and validity, escaped and shortened")
    func prompt() {
        #expect(renderer.prompt(name: "Colin", pointsText: "100", isValid: true) == "Colin 100 ok> ")
        #expect(renderer.prompt(name: "", pointsText: "3", isValid: false) == "(no name) 3 invalid> ")
        #expect(renderer.prompt(name: "\u{1B}x", pointsText: "1", isValid: true) == #"\u{1B}x 1 ok> "#)
        let long = renderer.prompt(name: String(repeating: "n", count: 40), pointsText: "1", isValid: true)
        #expect(long == String(repeating: "n", count: 23) + "… 1 ok> ")
    }

    @Test("a name of spaces shows as (no name) in the prompt; a locked form's prompt says locked")
    func promptBlankAndLocked() {
        #expect(renderer.prompt(name: "   ", pointsText: "3", isValid: false) == "(no name) 3 invalid> ")
        #expect(renderer.prompt(name: "\t", pointsText: "3", isValid: false) == #"\t 3 invalid> "#)
        #expect(
            renderer.prompt(name: "Dana", pointsText: "3", isValid: true, isLocked: true) == "Dana 3 locked> "
        )
    }

    @Test("the screen says 1 update left, in the singular")
    func singularUpdate() throws {
        let form = PlayerViewModel(rules: try PlayerRules(maxPointUpdates: 1), store: InMemoryScoreStore())
        #expect(FormRenderer().screen(of: form)[2].hasSuffix(", 1 update left"))
        _ = try form.stepUpTapped(times: 1)
        #expect(FormRenderer().screen(of: form)[2] == "Stepper: hidden (0 updates left)")
    }

    @Test("a coloured prompt wraps every escape sequence in \\001 and \\002 for readline")
    func colouredPrompt() {
        let prompt = FormRenderer(style: TerminalStyle(usesColor: true))
            .prompt(name: "Colin", pointsText: "100", isValid: true)
        #expect(
            prompt
                == "\u{1}\u{1B}[36m\u{2}Colin\u{1}\u{1B}[0m\u{2} 100 \u{1}\u{1B}[32m\u{2}ok\u{1}\u{1B}[0m\u{2}> "
        )
    }

    @Test("the forbidden-name alert reads as the sample's, with the name escaped")
    func alert() {
        #expect(
            renderer.forbiddenNameLine("darn\u{7}")
                == #"Forbidden Name! The name darn\u{7} has been forbidden!"#)
    }

    @Test("help lists every command")
    func help() {
        let lines = renderer.help()
        for name in CommandCatalog.names {
            #expect(lines.contains { $0.hasPrefix("  " + name) })
        }
    }
}

@Suite("TerminalStyle")
struct TerminalStyleTests {
    @Test("colour only on a terminal, not when NO_COLOR is non-empty, --no-color is given or TERM is dumb")
    func policy() {
        let tty = ["TERM": "xterm"]
        #expect(TerminalStyle.choose(isTerminal: true, environment: tty, noColorFlag: false).usesColor)
        #expect(!TerminalStyle.choose(isTerminal: false, environment: tty, noColorFlag: false).usesColor)
        #expect(!TerminalStyle.choose(isTerminal: true, environment: tty, noColorFlag: true).usesColor)
        #expect(
            !TerminalStyle.choose(isTerminal: true, environment: ["NO_COLOR": "1"], noColorFlag: false)
                .usesColor)
        #expect(
            TerminalStyle.choose(isTerminal: true, environment: ["NO_COLOR": ""], noColorFlag: false)
                .usesColor)
        #expect(
            !TerminalStyle.choose(isTerminal: true, environment: ["TERM": "dumb"], noColorFlag: false)
                .usesColor)
    }

    @Test("plain style writes no escape sequences")
    func plain() {
        #expect(TerminalStyle.plain.paint("x", .red) == "x")
        #expect(TerminalStyle(usesColor: true).paint("x", .red) == "\u{1B}[31mx\u{1B}[0m")
    }
}
