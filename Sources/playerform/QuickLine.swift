/// The commonest command lines, read without the argument parser: its first use costs about a
/// millisecond, more than the rest of a short run, as it reflects on every option of the command.
///
/// A line is read here only when each of its words is an option written apart from its value
/// (`--store FILE`, not `--store=FILE` or `-qc`), or a file; anything else, help included, goes to
/// the parser, which says what is wrong with it. So a line read here has no mistake, and the
/// values are the parser's: specs compare the two on random lines.
enum QuickLine {
    /// An option of a command line.
    private enum Kind {
        /// A flag, at most once.
        case flag(WritableKeyPath<Values, Bool>)
        /// An option with a value, at most once.
        case single(WritableKeyPath<Values, String?>)
        /// An option with a value, any number of times.
        case repeated(WritableKeyPath<Values, [String]>)
    }

    /// The words of a line, sorted by option.
    private struct Values {
        var config: String?
        var store: String?
        var historyFile: String?
        var inputFormat: String?
        var format: String?
        var commands: [String] = []
        var scriptFiles: [String] = []
        var files: [String] = []
        var noColor = false
        var bail = false
        var echo = false
        var quiet = false
        var noPager = false
    }

    /// The form session's options, by every name they have.
    private static var sessionOptions: [String: Kind] {
        [
            "--config": .single(\.config), "--store": .single(\.store),
            "--history-file": .single(\.historyFile),
            "-c": .repeated(\.commands), "--command": .repeated(\.commands),
            "-f": .repeated(\.scriptFiles), "--file": .repeated(\.scriptFiles),
            "--no-color": .flag(\.noColor), "--bail": .flag(\.bail), "--echo": .flag(\.echo),
            "-q": .flag(\.quiet), "--quiet": .flag(\.quiet), "--no-pager": .flag(\.noPager),
        ]
    }

    /// `validate`'s options.
    private static var validateOptions: [String: Kind] {
        [
            "--config": .single(\.config), "--input-format": .single(\.inputFormat),
            "--format": .single(\.format), "--quiet": .flag(\.quiet),
        ]
    }

    /// The form session's values for `arguments` (the words after the program's name), or nil
    /// when the parser must read them.
    static func session(_ arguments: [String]) -> SessionArguments? {
        // The commonest line of all, without building the table of options.
        if arguments.isEmpty { return SessionArguments() }
        guard let values = read(arguments, options: sessionOptions, takesFiles: false) else { return nil }
        return SessionArguments(
            configPath: values.config, store: values.store, noColor: values.noColor, bail: values.bail,
            historyFile: values.historyFile, commands: values.commands, files: values.scriptFiles,
            echo: values.echo, quiet: values.quiet, noPager: values.noPager)
    }

    /// `validate`'s values for `arguments` (the words after `validate`), or nil when the parser
    /// must read them.
    static func validate(_ arguments: [String]) -> PlayerFormCommand.Validate.Arguments? {
        guard let values = read(arguments, options: validateOptions, takesFiles: true) else { return nil }
        var inputFormat: PlayerFormCommand.Validate.InputFormat?
        if let name = values.inputFormat {
            guard let known = PlayerFormCommand.Validate.InputFormat(rawValue: name) else { return nil }
            inputFormat = known
        }
        var format = PlayerFormCommand.Validate.OutputFormat.text
        if let name = values.format {
            guard let known = PlayerFormCommand.Validate.OutputFormat(rawValue: name) else { return nil }
            format = known
        }
        return PlayerFormCommand.Validate.Arguments(
            files: values.files, inputFormat: inputFormat, format: format, quiet: values.quiet,
            configPath: values.config)
    }

    /// The values of `arguments` under `options`; nil when a word is none of them (nor a file,
    /// with `takesFiles`), an option or a flag that may come once comes again, or a value is
    /// missing, empty or looks like an option.
    private static func read(_ arguments: [String], options: [String: Kind], takesFiles: Bool) -> Values? {
        var values = Values()
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            guard let kind = options[word] else {
                guard takesFiles, isValue(word) else { return nil }
                values.files.append(word)
                continue
            }
            if case .flag(let flag) = kind {
                guard !values[keyPath: flag] else { return nil }
                values[keyPath: flag] = true
                continue
            }
            guard index < arguments.count, isValue(arguments[index]) else { return nil }
            let value = arguments[index]
            index += 1
            switch kind {
            case .single(let option):
                guard values[keyPath: option] == nil else { return nil }
                values[keyPath: option] = value
            case .repeated(let option):
                values[keyPath: option].append(value)
            case .flag:
                break
            }
        }
        return values
    }

    /// Whether the parser takes `word` as a value: not empty, and not like an option (`-` alone,
    /// standard input, is a value).
    private static func isValue(_ word: String) -> Bool {
        !word.isEmpty && (word == "-" || !word.hasPrefix("-"))
    }
}
