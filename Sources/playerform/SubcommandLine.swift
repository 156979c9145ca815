import ArgumentParser
import Foundation
import PlayerFormText

/// Parses `playerform validate ...` under a root that has no options of its own.
///
/// ArgumentParser lets a parent command take its options from anywhere on the line, after the
/// subcommand's name too; under ``PlayerFormCommand`` the form's `--config` would take
/// `validate --config FILE` and leave validate with the default rules. Under this root every
/// option after `validate` is validate's, and the form's options are unknown there.
struct ValidateLine: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playerform", version: PlayerFormCommand.configuration.version,
        subcommands: [PlayerFormCommand.Validate.self])
}

extension PlayerFormCommand {
    /// Parses the command line, refuses options given to the wrong command, and runs.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // The commonest line, `playerform` alone, skips the parser: its first use costs about 2.7 ms
        // of a 6 ms start (Benchmarks/README.md, "One parser"); a spec holds the values equal.
        if arguments.isEmpty {
            do {
                try await runSession(SessionOptions())
            } catch {
                exit(reporting: error, root: PlayerFormCommand.self)
            }
            return
        }
        if arguments.first == Validate._commandName {
            await run(ValidateLine.self, arguments, refusingValidate: false)
        } else {
            await run(PlayerFormCommand.self, arguments, refusingValidate: true)
        }
    }

    /// Parses `arguments` under `root` and runs the command they name, exiting as
    /// ``exit(reporting:root:)`` says: usage errors with 64 and their message, thrown exit codes
    /// with their status.
    ///
    /// With `refusingValidate`, reaching `validate` is a usage error: the form's options came
    /// first.
    private static func run(
        _ root: any AsyncParsableCommand.Type, _ arguments: [String], refusingValidate: Bool
    ) async {
        do {
            var command = try root.parseAsRoot(arguments)
            if refusingValidate, command is Validate {
                throw ValidationError(misplacedOptions(arguments))
            }
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(reporting: error, root: root)
        }
    }

    /// Says which options before `validate` are the form's and where validate's go, with the
    /// command line to write instead: `playerform --config X validate F` is
    /// `playerform validate --config X F`.
    static func misplacedOptions(_ arguments: [String]) -> String {
        // The subcommand is the first "validate" that the form's options before it do not take
        // as a value: the words before it parse as the form's options alone.
        let position =
            arguments.indices.first { index in
                arguments[index] == Validate._commandName
                    && (try? PlayerFormCommand.parse(Array(arguments[..<index]))) != nil
            } ?? 0
        var moved: [String] = []
        var foreign: [String] = []
        var index = 0
        while index < position {
            let word = arguments[index]
            if word == "--config" && index + 1 < position {
                moved += [word, arguments[index + 1]]
                index += 2
                continue
            }
            if word.hasPrefix("--config=") || word == "--quiet" {
                // Options validate takes too: they move after it.
                moved.append(word)
            } else if word.hasPrefix("-") {
                foreign.append(String(word.prefix { $0 != "=" }))
            }
            index += 1
        }
        let line = ["playerform", Validate._commandName] + moved + arguments[(position + 1)...]
        let suggestion = line.map(shellWord).joined(separator: " ")
        var reasons: [String] = []
        if !foreign.isEmpty {
            reasons.append(
                "validate does not take \(foreign.joined(separator: ", ")) (options of the form session)")
        }
        if !moved.isEmpty {
            let names = moved.filter { $0.hasPrefix("--") }.map { String($0.prefix { $0 != "=" }) }
            var unique: [String] = []
            for name in names where !unique.contains(name) { unique.append(name) }
            reasons.append(
                unique.joined(separator: " and ") + (unique.count == 1 ? " goes" : " go")
                    + " after the subcommand")
        }
        if reasons.isEmpty { reasons.append("the options before validate are the form's") }
        return TerminalText.escaped(reasons.joined(separator: ", and ") + "; write: " + suggestion)
    }

    /// `word` as a shell word: as it is when it has no special characters, else in single quotes.
    private static func shellWord(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { scalar in
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "_@%+=:,./-".unicodeScalars.contains(scalar)
            }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
