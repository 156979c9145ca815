extension CommandCatalog {
    /// One REPL command, declared once: the words that run it, how its arguments are read, its
    /// help, what completes its arguments, and the handler of ``REPLSession`` that runs it.
    ///
    /// The parser, `help`, `help COMMAND`, tab completion and the session's dispatch all read it. A class, so
    /// that a line read as a command shares its entry rather than copying it.
    public final class Entry: Sendable {
        /// The command word.
        public let name: String
        /// Other words that run the command, accepted as `help` topics too; help and completion
        /// offer only ``name``.
        public let aliases: [String]
        /// How to type it.
        public let usage: String
        /// What it does.
        public let summary: String
        /// Whether its output may be longer than a screen, so that at a terminal it goes through
        /// the pager.
        let pagesOutput: Bool
        /// Whether it works on the roster, so that a session without one refuses it.
        let usesRoster: Bool
        /// Whether its argument starts with a player's name, which completion offers from the
        /// store.
        let completesPlayerNames: Bool
        private let governingRule: @Sendable (RulesInForce) -> String?
        private let argumentCompletions: @Sendable (_ before: [Substring], _ word: String) -> [String]
        private let read: @Sendable (CommandArguments) throws(CommandError) -> any Sendable
        private let perform:
            @Sendable (REPLSession, CommandArguments, _ deferred: Bool) throws(CommandError) -> Performance

        /// Declares a command whose arguments `arguments` reads into an `Arguments`.
        /// - Parameters:
        ///   - name: the command word, in lower case.
        ///   - aliases: other words that run it.
        ///   - usage: how to type it, starting with `name`; optional parts in brackets.
        ///   - summary: what it does, for `help` and `help COMMAND`.
        ///   - rule: the rule of the form that governs it, for `help COMMAND`.
        ///   - completes: what completes the word being typed after the arguments `before`.
        ///   - pagesOutput: its output may be longer than a screen.
        ///   - completesPlayerNames: its argument starts with a player's name.
        ///   - arguments: reads the rest of the line, or says what was wrong and what is accepted.
        ///   - handler: what runs it.
        init<Arguments: Sendable>(
            _ name: String, aliases: [String] = [], usage: String, summary: String,
            rule: @escaping @Sendable (RulesInForce) -> String? = { _ in nil },
            completes: @escaping @Sendable (_ before: [Substring], _ word: String) -> [String] = { _, _ in []
            },
            pagesOutput: Bool = false, completesPlayerNames: Bool = false,
            arguments: @escaping @Sendable (CommandArguments) throws(CommandError) -> Arguments,
            run handler: Handler<Arguments>
        ) {
            self.name = name
            self.aliases = aliases
            self.usage = usage
            self.summary = summary
            self.governingRule = rule
            self.argumentCompletions = completes
            self.pagesOutput = pagesOutput
            self.completesPlayerNames = completesPlayerNames
            self.read = { (text: CommandArguments) throws(CommandError) -> any Sendable in try arguments(text)
            }
            switch handler {
            case .immediate(let body):
                usesRoster = false
                perform = { (session, text, deferred) throws(CommandError) -> Performance in
                    let parsed = try arguments(text)
                    if deferred { return .pending { session in body(session, parsed) } }
                    return .finished(body(session, parsed))
                }
            case .session(let body):
                usesRoster = false
                perform = { (_, text, _) throws(CommandError) -> Performance in
                    let parsed = try arguments(text)
                    return .pending { session in await body(session, parsed) }
                }
            case .roster(let body):
                usesRoster = true
                perform = { (_, text, _) throws(CommandError) -> Performance in
                    let parsed = try arguments(text)
                    return .pending { session in
                        await session.onRoster { view in await body(session, view, parsed) }
                    }
                }
            }
        }

        /// Declares a command that takes no arguments.
        convenience init(
            _ name: String, aliases: [String] = [], usage: String, summary: String,
            rule: @escaping @Sendable (RulesInForce) -> String? = { _ in nil },
            run handler: Handler<Void>
        ) {
            self.init(
                name, aliases: aliases, usage: usage, summary: summary, rule: rule,
                arguments: CommandParser.noArguments, run: handler)
        }

        /// The rule of the form that governs the command, as `rules` has it now; nil when no
        /// rule does.
        public func rule(in rules: RulesInForce) -> String? {
            governingRule(rules)
        }

        /// What completes `word`, typed after the arguments `before`: an option of the command
        /// (`players --j` gives `--json`), read from its usage, not typed yet, ignoring case as the
        /// parser does; else what the entry completes.
        func completions(after before: [Substring], word: String) -> [String] {
            if word.hasPrefix("-") {
                let typed = Set(before.map { $0.lowercased() })
                let prefix = word.lowercased()
                return options.filter { $0.hasPrefix(prefix) && !typed.contains($0) }
            }
            return argumentCompletions(before, word)
        }

        /// The options the command's usage shows (`--json`, `--page`, `--yes`), in its order.
        var options: [String] {
            var options: [String] = []
            for word in usage.split(whereSeparator: { " []|".contains($0) }) where word.hasPrefix("--") {
                if !options.contains(String(word)) { options.append(String(word)) }
            }
            return options
        }

        /// Whether the command's argument is the path of a file, which completion offers from
        /// the file system (`source`, `output`, `once`).
        var takesFile: Bool {
            usage.hasSuffix(" FILE") || usage.hasSuffix(" [FILE]")
        }

        /// The command's arguments as read from `arguments`, for specs of the parser and of the
        /// table: a value of the type the entry's handler takes.
        /// - Throws: ``CommandError`` saying what was wrong and what is accepted.
        func arguments(_ arguments: CommandArguments) throws(CommandError) -> any Sendable {
            try read(arguments)
        }

        /// Reads the command's arguments and runs it in `session` as far as it runs without waiting.
        ///
        /// A command whose handler is immediate runs to the end, with nothing allocated for it,
        /// unless `deferred` (its output is to go through the pager, which must begin first); for
        /// any other, what is left to await is returned. Nothing runs when the arguments are
        /// refused.
        /// - Throws: ``CommandError`` saying what was wrong and what is accepted.
        func perform(_ arguments: CommandArguments, in session: REPLSession, deferred: Bool = false)
            throws(CommandError) -> Performance
        {
            try perform(session, arguments, deferred)
        }
    }

    /// How far a command ran when ``Entry/perform(_:in:)`` returned.
    enum Performance {
        /// It ran to the end, with this result.
        case finished(REPLSession.StepResult)
        /// Its arguments were read; what is left to run must be awaited.
        case pending((REPLSession) async -> REPLSession.StepResult)
    }

    /// How the session runs a command with its arguments.
    enum Handler<Arguments> {
        /// A handler of the session alone, or of the form, that never waits: a script runs it
        /// with no asynchronous call.
        case immediate(@Sendable (REPLSession, Arguments) -> REPLSession.StepResult)
        /// A handler of the session alone, or of the form, that may wait (an upload, a file).
        case session(@Sendable (REPLSession, Arguments) async -> REPLSession.StepResult)
        /// A handler of the roster: a session without one refuses the command, and others'
        /// changes are read first, so that it works on the roster as it is.
        case roster(@Sendable (REPLSession, RosterView, Arguments) async -> REPLSession.StepResult)
    }
}

/// A command's word as typed and the rest of its line, for the command's argument reader.
struct CommandArguments: Sendable {
    /// The command word as typed, in lower case: the name or an alias, for messages such as
    /// `\i needs the path of a file of commands`.
    let word: String
    /// The rest of the line without blanks at its ends; empty when there is nothing more.
    let text: String
}
