import PlayerFormText
import Testing

@testable import PlayerFormTerminal

@Suite("CommandParser")
struct CommandParserTests {
    @Test("every command word parses to its command")
    func everyCommand() throws {
        #expect(try CommandParser.parse("name") == .name(nil))
        #expect(try CommandParser.parse("name Dana") == .name("Dana"))
        #expect(try CommandParser.parse("up") == .up(1))
        #expect(try CommandParser.parse("up 3") == .up(3))
        #expect(try CommandParser.parse("down 2") == .down(2))
        #expect(try CommandParser.parse("points") == .points(nil))
        #expect(try CommandParser.parse("points 12") == .points(12))
        #expect(try CommandParser.parse("step 0.5") == .step(0.5))
        #expect(try CommandParser.parse("min -3.5") == .min(-3.5))
        #expect(try CommandParser.parse("max 1e3") == .max(1000))
        #expect(try CommandParser.parse("upload") == .upload)
        #expect(try CommandParser.parse("reset") == .reset)
        #expect(try CommandParser.parse("show") == .show(json: false))
        #expect(try CommandParser.parse("show --json") == .show(json: true))
        #expect(try CommandParser.parse("help") == .help(nil))
        #expect(try CommandParser.parse("help up") == .help("up"))
        #expect(try CommandParser.parse("quit") == .quit)
        #expect(try CommandParser.parse("exit") == .quit)
    }

    @Test("command words ignore case and surrounding blanks")
    func caseAndBlanks() throws {
        #expect(try CommandParser.parse("  UP\t2 ") == .up(2))
    }

    @Test("a name is the rest of the line, trimmed, with inner spaces kept")
    func nameRestOfLine() throws {
        #expect(try CommandParser.parse("name   Dana  Smith  ") == .name("Dana  Smith"))
    }

    @Test("names that are not ASCII are split and trimmed whole, next to tabs and spaces")
    func nonASCIINames() throws {
        #expect(try CommandParser.parse("name\tZoë\t") == .name("Zoë"))
        #expect(try CommandParser.parse("name  名前 ｄａｒｎ 🙂 ") == .name("名前 ｄａｒｎ 🙂"))
        #expect(try CommandParser.parse("name e\u{301}\u{301}") == .name("e\u{301}\u{301}"))
        #expect(try CommandParser.parse("add Zoë Ünï 12") == .add(name: "Zoë Ünï", points: 12))
    }

    @Test("a quoted name keeps leading and trailing spaces, and \"\" clears it")
    func quotedName() throws {
        #expect(try CommandParser.parse("name \"  Dana \"") == .name("  Dana "))
        #expect(try CommandParser.parse("name \"\"") == .name(""))
    }

    @Test("inside quotes, the escapes that output shows stand for their characters")
    func quotedEscapes() throws {
        #expect(try CommandParser.parse(#"name "a\"b\\c""#) == .name(#"a"b\c"#))
        #expect(try CommandParser.parse(#"name "tab\there""#) == .name("tab\there"))
        #expect(try CommandParser.parse(#"name "tab\\there""#) == .name(#"tab\there"#))
        #expect(
            try CommandParser.parse(#"name "\r\n d\u{200B}arn \u{1F3B2}""#) == .name("\r\n d\u{200B}arn 🎲"))
        #expect(try CommandParser.parse(#"add "a\tb" 3"#) == .add(name: "a\tb", points: 3))
        #expect(try CommandParser.parse(#"name a\tb"#) == .name(#"a\tb"#))
    }

    @Test(
        "inside quotes, a backslash that starts no escape is refused with the escapes accepted",
        arguments: [
            #""a\d""#, #""a\u200B""#, #""a\u{}""#, #""a\u{D800}""#, #""a\u{110000}""#, #""a\u{1234567}""#,
            #""a\"#,
        ])
    func badEscapes(_ rest: String) {
        #expect {
            try CommandParser.parse("name " + rest)
        } throws: { error in
            guard let error = error as? CommandError else { return false }
            return error.message.contains(#"\u{"#)
        }
    }

    @Test("a quoted name must be closed and nothing may follow it")
    func badQuotes() {
        #expect(throws: CommandError.self) { try CommandParser.parse("name \"Dana") }
        #expect(throws: CommandError.self) { try CommandParser.parse("name \"Dana\" Smith") }
    }

    @Test("the quoted form that output shows reads back as the same name")
    func quotedRoundTrip() throws {
        for name in ["  x  ", #"say "hi""#, #"back\slash"#, ""] {
            #expect(try CommandParser.parse("name " + TerminalText.quoted(name)) == .name(name))
        }
    }

    @Test("decimal literals are numbers; -0 is 0")
    func acceptedNumbers() throws {
        #expect(try CommandParser.number("12") == 12)
        #expect(try CommandParser.number("-3.5") == -3.5)
        #expect(try CommandParser.number("1e3") == 1000)
        #expect(try CommandParser.number("+.5") == 0.5)
        #expect(try CommandParser.number("2.") == 2)
        #expect(try CommandParser.number("1E-2") == 0.01)
        let zero = try CommandParser.number("-0")
        #expect(zero == 0 && zero.sign == .plus)
    }

    @Test(
        "anything but a decimal literal is refused with what is accepted",
        arguments: [
            "NaN", "nan", "inf", "-inf", "infinity", "0x10", "12abc", "1e", "e3", ".", "-", "1_000", "１２", "",
        ])
    func refusedNumbers(_ text: String) {
        #expect(throws: CommandError.self) { try CommandParser.number(text) }
        do {
            _ = try CommandParser.number(text)
        } catch {
            #expect(error.message.contains("such as 12, -3.5 or 1e3"))
        }
    }

    @Test("a number too large for a Double is refused as too large")
    func overflow() {
        #expect(
            throws: CommandError("\"1e999\" is too large; numbers must lie between -1.79e308 and 1.79e308.")
        ) {
            try CommandParser.number("1e999")
        }
    }

    @Test("numbers at the edges of a Double are read or refused with the range")
    func extremeNumbers() throws {
        #expect(try CommandParser.parse("points 1e308") == .points(1e308))
        #expect(try CommandParser.parse("points -1e308") == .points(-1e308))
        #expect(try CommandParser.parse("step 9223372036854775808") == .step(0x1p63))
        #expect(try CommandParser.parse("min -9223372036854775808") == .min(-0x1p63))
        for text in ["1e309", "-1e309"] {
            #expect(
                throws: CommandError(
                    "\"\(text)\" is too large; numbers must lie between -1.79e308 and 1.79e308.")
            ) { try CommandParser.parse("max \(text)") }
        }
        for text in ["inf", "-inf", "nan", "Infinity"] {
            #expect(
                throws: CommandError(
                    "\"\(text)\" is not a number; type a decimal number such as 12, -3.5 or 1e3.")
            ) { try CommandParser.parse("points \(text)") }
        }
    }

    @Test("counts and rows at the edges of Int are read, or refused saying which way they overflow")
    func extremeCounts() throws {
        #expect(try CommandParser.parse("up 9223372036854775807") == .up(.max))
        #expect(try CommandParser.parse("down -9223372036854775808") == .down(.min))
        #expect(
            throws: CommandError(
                "\"9223372036854775808\" is too large; a count is a whole number up to 9223372036854775807.")
        ) { try CommandParser.parse("up 9223372036854775808") }
        #expect(
            throws: CommandError(
                "\"-9223372036854775809\" is too small; the stepper can be pressed 1 or more times.")
        ) { try CommandParser.parse("down -9223372036854775809") }
        #expect(try CommandParser.parse("select 9223372036854775807") == .select(row: .max))
        #expect(
            throws: CommandError(
                "\"9223372036854775808\" is too large for a row number; players lists the rows.")
        ) { try CommandParser.parse("delete 9223372036854775808 --yes") }
        #expect(throws: CommandError.self) { try CommandParser.parse("select 1e16") }
    }

    @Test("counts are whole numbers; their sign is left for the view model to judge")
    func counts() throws {
        #expect(try CommandParser.parse("up 99999999999") == .up(99_999_999_999))
        #expect(try CommandParser.parse("down -3") == .down(-3))
        #expect(try CommandParser.parse("up 0") == .up(0))
        #expect(throws: CommandError.self) { try CommandParser.parse("up 1.5") }
        #expect(throws: CommandError.self) { try CommandParser.parse("up two") }
        #expect(throws: CommandError.self) { try CommandParser.parse("up 99999999999999999999") }
        #expect(throws: CommandError.self) { try CommandParser.parse("up 1 2") }
    }

    @Test("an unknown command suggests the closest command")
    func didYouMean() {
        #expect(
            throws: CommandError(
                "Unknown command \"nmae\". Did you mean name? Type help for the list of commands.")
        ) { try CommandParser.parse("nmae Dana") }
        #expect(throws: CommandError("Unknown command \"frobnicate\". Type help for the list of commands.")) {
            try CommandParser.parse("frobnicate")
        }
    }

    @Test("an unknown command is escaped in the message")
    func unknownEscaped() {
        #expect(throws: CommandError("Unknown command \"\\u{1B}[2J\". Type help for the list of commands.")) {
            try CommandParser.parse("\u{1B}[2J")
        }
    }

    @Test("commands without arguments refuse arguments, and show accepts only --json")
    func extraArguments() {
        #expect(throws: CommandError("upload takes no arguments.")) { try CommandParser.parse("upload now") }
        #expect(throws: CommandError("show accepts only --json, not \"json\".")) {
            try CommandParser.parse("show json")
        }
        #expect(throws: CommandError.self) { try CommandParser.parse("help nothing") }
        #expect(throws: CommandError("step needs a number, such as step 5.")) {
            try CommandParser.parse("step")
        }
    }
}

@Suite("CommandParser: roster commands")
struct RosterCommandParserTests {
    @Test("players, players N, --page N, --all, --json, refresh, select and delete parse to their commands")
    func words() throws {
        #expect(try CommandParser.parse("players") == .players(.currentPage))
        #expect(try CommandParser.parse("players 3") == .players(.page(3)))
        #expect(try CommandParser.parse("players --page 12") == .players(.page(12)))
        #expect(try CommandParser.parse("players --all") == .players(.all))
        #expect(try CommandParser.parse("players --json") == .players(.json))
        #expect(try CommandParser.parse("refresh") == .refresh)
        #expect(try CommandParser.parse("select 2") == .select(row: 2))
        #expect(try CommandParser.parse("delete 3") == .delete(row: 3, confirmed: false))
        #expect(try CommandParser.parse("delete 3 --yes") == .delete(row: 3, confirmed: true))
        #expect(try CommandParser.parse("delete --yes 3") == .delete(row: 3, confirmed: true))
    }

    @Test("add takes the last word as points and everything before it as the name")
    func add() throws {
        #expect(try CommandParser.parse("add Bob 120") == .add(name: "Bob", points: 120))
        #expect(try CommandParser.parse("add Ann  Lee 1e2") == .add(name: "Ann  Lee", points: 100))
        #expect(try CommandParser.parse("add \" Ann \" 5") == .add(name: " Ann ", points: 5))
    }

    @Test("add without points, or with points that are not a number, says what is accepted")
    func addRefused() {
        #expect(
            throws: CommandError("add needs a name and points; type add NAME POINTS, such as add Bob 120.")
        ) {
            try CommandParser.parse("add Bob")
        }
        #expect(
            throws: CommandError(
                "\"lots\" is not a number; type a decimal number such as 12, -3.5 or 1e3.")
        ) {
            try CommandParser.parse("add Bob lots")
        }
        // A quoted name with blanks in it and nothing after: the points are what is missing.
        for line in [#"add "Blank Points""#, #"add  "Ann \" Lee"  "#] {
            #expect(
                throws: CommandError(
                    "add needs points after the name; type add NAME POINTS, such as add Bob 120."),
                "\(line)"
            ) {
                try CommandParser.parse(line)
            }
        }
    }

    @Test("row numbers are whole numbers from 1, one per command")
    func rowNumbers() {
        #expect(
            throws: CommandError(
                "\"0\" is not a row number; rows are numbered from 1, as players shows them.")
        ) {
            try CommandParser.parse("select 0")
        }
        #expect(
            throws: CommandError(
                "\"-1\" is not a row number; rows are numbered from 1, as players shows them.")
        ) {
            try CommandParser.parse("delete -1 --yes")
        }
        #expect(
            throws: CommandError(
                #"select needs a row number or a name, such as select 1 or select "Ann Lee"; players lists the rows."#
            )
        ) {
            try CommandParser.parse("select")
        }
        #expect(
            throws: CommandError(
                "select takes one row number or one name, such as select 1; type one select a row.")
        ) {
            try CommandParser.parse("select 1 2")
        }
        #expect(
            throws: CommandError(
                "delete takes one row number or one name, such as delete 1; type one delete a row.")
        ) {
            try CommandParser.parse("delete 1 2")
        }
    }

    @Test("players accepts a page number, --page N, --all or --json, and refresh no arguments")
    func extraArguments() {
        let usage =
            "type players, players N (or --page N) for page N, players --all, players --json, or players --csv."
        #expect(throws: CommandError("players does not accept \"--xml\"; " + usage)) {
            try CommandParser.parse("players --xml")
        }
        #expect(throws: CommandError("players does not accept \"2 3\"; " + usage)) {
            try CommandParser.parse("players 2 3")
        }
        #expect(throws: CommandError("players does not accept \"--page\"; " + usage)) {
            try CommandParser.parse("players --page")
        }
        for bad in ["0", "-1", "x", "1.5", "99999999999999999999"] {
            #expect(
                throws: CommandError(
                    "\"\(bad)\" is not a page number; pages are numbered from 1, such as players 2.")
            ) {
                try CommandParser.parse("players --page \(bad)")
            }
        }
        #expect(throws: CommandError("refresh takes no arguments.")) {
            try CommandParser.parse("refresh now")
        }
    }

    @Test("a mistyped roster command gets a did-you-mean")
    func suggestion() {
        #expect(
            throws: CommandError(
                "Unknown command \"playres\". Did you mean players? Type help for the list of commands.")
        ) {
            try CommandParser.parse("playres")
        }
        #expect(
            throws: CommandError(
                "Unknown command \"delte\". Did you mean delete? Type help for the list of commands.")
        ) {
            try CommandParser.parse("delte 1")
        }
    }
}
