import PlayerFormScores
import PlayerFormTerminalTesting
import Testing

@testable import PlayerFormTerminal

@Suite("REPLSession: names shown by the one escaping rule")
struct EscapingSessionTests {
    let output = CapturedOutput()

    func run(_ lines: [String], interactive: Bool = false) async -> (REPLSession.Outcome, PlaybackReader) {
        let (form, roster) = sessionViewModels(
            rules: .defaults, store: InMemoryScoreStore(), uploadDelay: .zero)
        let reader = PlaybackReader(lines: lines, interactive: interactive)
        let outcome = await REPLSession(form: form, roster: roster, reader: reader, output: output).run()
        return (outcome, reader)
    }

    @Test("a forbidden name hidden by invisible characters is refused and shown with its escapes")
    func invisibleForbiddenName() async {
        let (outcome, _) = await run(["name d\u{200B}arn", "show", "add \u{FEFF}darn 3"])
        #expect(outcome == .failed)
        #expect(
            Array(output.results.prefix(3)) == [
                #"Forbidden Name! The name d\u{200B}arn has been forbidden!"#, #"name: """#,
                "valid: no (The name is empty.)",
            ])
        #expect(output.errors.contains { $0.hasSuffix(#"The name \u{FEFF}darn has been forbidden."#) })
        #expect(
            !output.lines.contains {
                "\($0)".unicodeScalars.contains { $0.value == 0x200B || $0.value == 0xFEFF }
            })
    }

    @Test(
        "a tab and a literal backslash show differently, in refusals, rows, change lines, the form and the prompt"
    )
    func tabAndBackslash() async {
        let (outcome, reader) = await run(
            [#"add "tab\there" 1"#, #"add "tab\\there" 2"#, "players", #"name "a\\b""#, "show", "name"],
            interactive: true)
        #expect(outcome == .succeeded)
        // A tab is a control character: the name is refused, and the refusal shows it escaped.
        #expect(
            output.errors == [
                #"error: The name contains control characters (\t): a name is one line of visible text."#
            ])
        #expect(
            Array(output.results.prefix(4)).map(timeless) == [
                #"+ 1 tab\\there 2"#, "Players: rows 1-1 of 1",
                "  row  name        points  uploaded (UTC)       selected",
                #"    1  tab\\there       2  1970-01-01 00:00:00"#,
            ])
        #expect(output.results.contains(#"Name:    [a\\b]"#))
        #expect(output.results.filter { $0 == #"name: "a\\b""# }.count == 2)
        #expect(reader.prompts.last == #"a\\b 100 ok> "#)
    }

    @Test("a name equivalent to the last one but made of other characters is shown again, as it is")
    func equivalentNamesShowTheirOwnCharacters() async {
        // U+2000 EN QUAD is canonically U+2002 EN SPACE: equal as Strings, escaped apart.
        let (outcome, _) = await run(["name \"a\u{2000}b\"", "name \"a\u{2002}b\"", "name \"a\u{2002}b\""])
        #expect(outcome == .succeeded)
        #expect(
            output.results.filter { $0.hasPrefix("name:") } == [
                #"name: "a\u{2000}b""#, #"name: "a\u{2002}b""#,
            ])
    }

    @Test("invisible characters in a roster row and in the delete question are escaped")
    func rowsAndQuestion() async {
        let (outcome, reader) = await run(
            ["add Col\u{200B}in 5", "players", "delete 1", "n"], interactive: true)
        #expect(outcome == .succeeded)
        #expect(output.results.map(timeless).contains(#"    1  Col\u{200B}in       5  1970-01-01 00:00:00"#))
        #expect(reader.prompts.contains(#"Delete Col\u{200B}in? [y/N] "#))
    }

    @Test("show --json and players --json use JSON escapes for the same characters")
    func json() async {
        let (outcome, _) = await run([
            "add p\u{2060}oop 5", "add Zo\u{AD}ë 6", "name a\u{FEFF}b", "show --json", "players --json",
        ])
        #expect(outcome == .failed)
        #expect(output.results.contains { $0.hasPrefix(#"{"name":"a\ufeffb","#) })
        #expect(output.results.contains { $0.hasPrefix(#"[{"name":"Zo\u00adë","points":6,"#) })
        #expect(output.errors.contains { $0.contains(#"The name p\u{2060}oop has been forbidden."#) })
    }
}
