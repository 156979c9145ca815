import ArgumentParser

/// `playerform`: the player form at a terminal, and batch tools that share its rules.
@main
struct PlayerFormCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playerform",
        abstract: "A player form: edit a name and points, validate them, upload them.",
        version: "0.1.0",
        subcommands: [Validate.self]
    )
}
