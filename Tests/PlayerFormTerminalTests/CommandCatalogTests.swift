import Testing

@testable import PlayerFormTerminal

@Suite("CommandCatalog")
struct CommandCatalogTests {
    @Test("the first word completes to command names")
    func completesCommands() {
        #expect(CommandCatalog.completions(before: "", word: "u") == ["up", "upload"])
        #expect(CommandCatalog.completions(before: "  ", word: "sh") == ["show"])
        #expect(CommandCatalog.completions(before: "", word: "re") == ["reset", "refresh"])
        #expect(CommandCatalog.completions(before: "", word: "p") == ["points", "players", "pager"])
        #expect(CommandCatalog.completions(before: "", word: "de") == ["delete"])
        #expect(CommandCatalog.completions(before: "", word: "").count == CommandCatalog.names.count)
    }

    @Test("completion ignores case, as the parser does")
    func completesIgnoringCase() {
        #expect(CommandCatalog.completions(before: "", word: "SH") == ["show"])
        #expect(CommandCatalog.completions(before: "", word: "Up") == ["up", "upload"])
        #expect(CommandCatalog.completions(before: "HELP ", word: "Ma") == ["max"])
    }

    @Test("after help, topics complete; elsewhere nothing does")
    func completesTopics() {
        #expect(CommandCatalog.completions(before: "help ", word: "ma") == ["max"])
        #expect(CommandCatalog.completions(before: "help ", word: "pl") == ["players"])
        #expect(CommandCatalog.completions(before: "name ", word: "ma") == [])
        #expect(CommandCatalog.completions(before: "help up ", word: "u") == [])
    }

    @Test("suggestions: a prefix, or at most two edits away")
    func suggestions() {
        #expect(CommandCatalog.suggestion(for: "uplo") == "upload")
        #expect(CommandCatalog.suggestion(for: "shwo") == "show")
        #expect(CommandCatalog.suggestion(for: "frobnicate") == nil)
        #expect(CommandCatalog.suggestion(for: "") == nil)
    }

    @Test("every command has help")
    func help() {
        for name in CommandCatalog.names {
            #expect(CommandCatalog.entry(named: name)?.summary.isEmpty == false)
        }
    }
}

@Suite("CommandCatalog suggestions for short words")
struct ShortSuggestionTests {
    @Test("a short word is suggested a command only one edit away")
    func short() {
        #expect(CommandCatalog.suggestion(for: "uo") == "up")
        #expect(CommandCatalog.suggestion(for: "\u{0}\u{0}") == nil)
    }
}
