import ArgumentParser
import Foundation
import PlayerFormRules
import PlayerFormSystem
import PlayerFormTerminal

/// `--config FILE`: the rules file.
///
/// One option and one way of reading it, for the form session and for `validate` alike.
struct RulesFileOption: ParsableArguments {
    /// The exit status for a rules file whose content is not accepted (EX_DATAERR).
    static let rejectedStatus: Int32 = 65
    /// The exit status for a rules file that cannot be opened or read (EX_NOINPUT).
    static let unreadableStatus: Int32 = 66

    @Option(
        name: .customLong("config"),
        help: ArgumentHelp("A JSON rules file, such as {\"max\": 500}.", valueName: "file"))
    var path: String?

    /// The rules of the file, or the defaults without `--config`.
    ///
    /// The file is read once. When it cannot be read or is not accepted, prints why on standard
    /// error and throws the exit status (66 or 65).
    func rules() throws -> PlayerRules {
        try Self.rules(path: path)
    }

    /// The rules of the file at `path`, or the defaults when it is nil, as ``rules()`` reads them.
    static func rules(path: String?) throws -> PlayerRules {
        guard let path else { return .defaults }
        do {
            return try PlayerRules(configurationFile: path, bytes: CommandLineBytes.bytes(of: path))
        } catch {
            // A message placed in the file starts with FILE:LINE:COLUMN; any other is an error.
            let label = error.line == nil ? "error: " : ""
            StandardError.write("\(label)\(TerminalWords.shown(error))\n")
            throw ExitCode(error.reason == .unreadable ? Self.unreadableStatus : Self.rejectedStatus)
        }
    }
}
