// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "PlayerForm",
    products: [
        .library(name: "PlayerForm", targets: ["ReactiveCore", "PlayerForm"]),
        .library(name: "PlayerFormStore", targets: ["PlayerFormStore"]),
        .library(name: "ReactiveCoreTesting", targets: ["ReactiveCoreTesting"]),
        .library(name: "PlayerFormTesting", targets: ["PlayerFormTesting"]),
        .library(name: "PlayerFormTerminal", targets: ["PlayerFormTerminal"]),
        .executable(name: "playerform", targets: ["playerform"]),
    ],
    dependencies: [
        // Command-line parsing, help and usage errors (exit 64) for the executable only; 1.6 for
        // subcommands that read the main command's --store.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.6.0"),
        // Property-based specs (random inputs, shrinking) for the tests only.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // Field-level diffs of values, for the failures of the view model tester.
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
        // SQLite access for the score store: transactions, migrations, prepared statements, and a
        // busy handler and interrupt for a database another process holds.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The PostgreSQL wire protocol (async, TLS, unix sockets) for the shared league store.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // `swift package generate-documentation`: builds the DocC catalogs of the library targets.
        .package(url: "https://github.com/apple/swift-docc-plugin", from: "1.5.0"),
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
        // The score store in a SQLite database (through GRDB): the executable's default.
        .target(
            name: "PlayerFormSQLite",
            dependencies: [
                "PlayerForm", "PlayerFormStore", "PlayerFormText",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]),
        // The score store on a PostgreSQL server, shared by scorekeepers on several machines.
        .target(
            name: "PlayerFormPostgres",
            dependencies: [
                "PlayerForm", "PlayerFormText",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]),
        // Escaping of user text for terminals, and JSON string literals: one rule for every front end.
        .target(name: "PlayerFormText"),
        // Streaming readers of player record files (JSON Lines, CSV) and the batch validator that
        // checks each record with PlayerRules.
        .target(name: "PlayerFormRecords", dependencies: ["PlayerForm", "PlayerFormJSON", "PlayerFormText"]),
        // The exhaustive view model tester: specs of any view model built on the reactive core.
        .target(
            name: "ReactiveCoreTesting",
            dependencies: ["ReactiveCore", .product(name: "CustomDump", package: "swift-custom-dump")]),
        // Recorders, controllable doubles and the player form's state, for specs of the view models.
        .target(
            name: "PlayerFormTesting",
            dependencies: [
                "ReactiveCore", "ReactiveCoreTesting", "PlayerForm",
                .product(name: "CustomDump", package: "swift-custom-dump"),
            ]),
        // GNU readline (GPL-3) and its history library, from the system (apt: libreadline-dev).
        .systemLibrary(
            name: "CReadline",
            pkgConfig: "readline",
            providers: [.apt(["libreadline-dev"])]
        ),
        // The terminal view of the player form and the roster: the REPL, its commands, rendering,
        // line readers, and the score database it opens by default.
        .target(
            name: "PlayerFormTerminal",
            dependencies: [
                "PlayerForm", "PlayerFormStore", "PlayerFormSQLite", "PlayerFormPostgres", "PlayerFormText",
                "ReactiveCore", "CReadline",
            ]),
        // Captured output, a Ctrl-C a spec can press, and the transcript format of Examples/sessions.
        .target(name: "PlayerFormTerminalTesting", dependencies: ["PlayerFormTerminal"]),
        // The thin executable: parses arguments and connects the layers.
        .executableTarget(
            name: "playerform",
            dependencies: [
                "PlayerForm",
                "PlayerFormRecords",
                "PlayerFormPostgres",
                "PlayerFormSQLite",
                "PlayerFormStore",
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
            dependencies: ["PlayerForm", "PlayerFormSQLite", "ReactiveCore"],
            path: "Examples/HeadlessRoster"
        ),
        // A user's own view model (a login form) and its specs written with the tester.
        .target(name: "LoginFormExample", dependencies: ["ReactiveCore"], path: "Examples/LoginForm/Sources"),
        .testTarget(
            name: "LoginFormExampleTests",
            dependencies: ["LoginFormExample", "ReactiveCoreTesting"],
            path: "Examples/LoginForm/Tests"),
        // Drives a score file or database from a separate process, so the store specs can run real
        // concurrent writers, kill one in the middle of a write, and hold a lock.
        .executableTarget(
            name: "ScoreStoreProbe",
            dependencies: [
                "PlayerForm", "PlayerFormStore", "PlayerFormSQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(name: "ReactiveCoreTests", dependencies: ["ReactiveCore", "PlayerFormTesting"]),
        .testTarget(name: "ReactiveCoreTestingTests", dependencies: ["ReactiveCore", "ReactiveCoreTesting"]),
        .testTarget(
            name: "PlayerFormRecordsTests",
            dependencies: [
                "PlayerFormRecords", "PlayerFormText", "PlayerForm", "playerform",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(
            name: "PlayerFormTests",
            dependencies: [
                "PlayerForm", "ReactiveCore", "PlayerFormTesting", "ReactiveCoreTesting", "PlayerFormText",
                .product(name: "CustomDump", package: "swift-custom-dump"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "PlayerFormStoreTests",
            dependencies: [
                "PlayerForm", "PlayerFormStore", "PlayerFormSQLite", "PlayerFormPostgres",
                "PlayerFormTesting",
                "ReactiveCore", "ScoreStoreProbe", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "PlayerFormTerminalTests",
            dependencies: [
                "PlayerFormTerminal", "PlayerFormTerminalTesting", "PlayerFormText", "PlayerForm",
                "ReactiveCore",
                "PlayerFormTesting",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // Runs the built `playerform` binary: scripted mode, and interactive mode under tmux.
        .testTarget(
            name: "PlayerFormEndToEndTests", dependencies: ["playerform", "PlayerFormTerminalTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
