// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "PlayerForm",
    products: [
        .library(name: "PlayerForm", targets: ["ReactiveCore", "PlayerForm"]),
        .library(name: "PlayerFormStore", targets: ["PlayerFormStore"]),
        .library(name: "PlayerFormTesting", targets: ["PlayerFormTesting"]),
        .library(name: "PlayerFormTerminal", targets: ["PlayerFormTerminal"]),
        .executable(name: "playerform", targets: ["playerform"]),
    ],
    dependencies: [
        // Command-line parsing, help and usage errors (exit 64) for the executable only.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Property-based specs (random inputs, shrinking) for the tests only.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // A small reactive core: properties, signals, actions. Knows nothing of players.
        .target(name: "ReactiveCore"),
        // The strict JSON reader (RFC 8259, on bytes) shared by the record files and the rules file.
        .target(name: "PlayerFormJSON"),
        // Player rules and their JSON rules file, the player view model and the score store protocol.
        .target(name: "PlayerForm", dependencies: ["ReactiveCore", "PlayerFormJSON", "PlayerFormText"]),
        // The score store on disk: an append-only JSON Lines file shared by several processes.
        .target(name: "PlayerFormStore", dependencies: ["PlayerForm"]),
        // Escaping of user text for terminals, and JSON string literals: one rule for every front end.
        .target(name: "PlayerFormText"),
        // Streaming readers of player record files (JSON Lines, CSV) and the batch validator that
        // checks each record with PlayerRules.
        .target(name: "PlayerFormRecords", dependencies: ["PlayerForm", "PlayerFormJSON", "PlayerFormText"]),
        // Recorders and controllable doubles for writing behaviour specs of view models.
        .target(name: "PlayerFormTesting", dependencies: ["ReactiveCore", "PlayerForm"]),
        // GNU readline (GPL-3) and its history library, from the system (apt: libreadline-dev).
        .systemLibrary(
            name: "CReadline",
            pkgConfig: "readline",
            providers: [.apt(["libreadline-dev"])]
        ),
        // The terminal view of the player form and the roster: the REPL, its commands, rendering,
        // line readers, and the score file it uses by default.
        .target(
            name: "PlayerFormTerminal",
            dependencies: ["PlayerForm", "PlayerFormStore", "PlayerFormText", "ReactiveCore", "CReadline"]),
        // Captured output, a Ctrl-C a spec can press, and the transcript format of Examples/sessions.
        .target(name: "PlayerFormTerminalTesting", dependencies: ["PlayerFormTerminal"]),
        // The thin executable: parses arguments and connects the layers.
        .executableTarget(
            name: "playerform",
            dependencies: [
                "PlayerForm",
                "PlayerFormRecords",
                "PlayerFormTerminal",
                "PlayerFormText",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "HeadlessPlayer",
            dependencies: ["PlayerForm", "ReactiveCore"],
            path: "Examples/HeadlessPlayer"
        ),
        .executableTarget(
            name: "HeadlessRoster",
            dependencies: ["PlayerForm", "PlayerFormStore", "ReactiveCore"],
            path: "Examples/HeadlessRoster"
        ),
        // Drives a score file from a separate process, so the store specs can run real concurrent
        // writers and kill one in the middle of a write.
        .executableTarget(name: "ScoreStoreProbe", dependencies: ["PlayerForm", "PlayerFormStore"]),
        .testTarget(name: "ReactiveCoreTests", dependencies: ["ReactiveCore", "PlayerFormTesting"]),
        .testTarget(
            name: "PlayerFormRecordsTests",
            dependencies: ["PlayerFormRecords", "PlayerFormText", "PlayerForm", "playerform"]),
        .testTarget(
            name: "PlayerFormTests",
            dependencies: [
                "PlayerForm", "ReactiveCore", "PlayerFormTesting", "PlayerFormText",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "PlayerFormStoreTests",
            dependencies: [
                "PlayerForm", "PlayerFormStore", "PlayerFormTesting", "ReactiveCore", "ScoreStoreProbe",
            ]
        ),
        .testTarget(
            name: "PlayerFormTerminalTests",
            dependencies: [
                "PlayerFormTerminal", "PlayerFormTerminalTesting", "PlayerFormText", "PlayerForm",
                "ReactiveCore",
                "PlayerFormTesting",
            ]
        ),
        // Runs the built `playerform` binary: scripted mode, and interactive mode under tmux.
        .testTarget(
            name: "PlayerFormEndToEndTests", dependencies: ["playerform", "PlayerFormTerminalTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
