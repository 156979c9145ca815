// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "PlayerForm",
    products: [
        .library(name: "ReactiveCore", targets: ["ReactiveCore"]),
        .library(name: "ReactiveTable", targets: ["ReactiveTable"]),
        .library(name: "PlayerFormRules", targets: ["PlayerFormRules"]),
        .library(name: "PlayerFormScores", targets: ["PlayerFormScores"]),
        .library(name: "PlayerForm", targets: ["PlayerForm"]),
        .library(name: "PlayerFormSQLite", targets: ["PlayerFormSQLite"]),
        .library(name: "PlayerFormPostgres", targets: ["PlayerFormPostgres"]),
        .library(name: "PlayerFormTerminal", targets: ["PlayerFormTerminal"]),
        .library(name: "ReactiveCoreTesting", targets: ["ReactiveCoreTesting"]),
        .library(name: "PlayerFormTesting", targets: ["PlayerFormTesting"]),
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
        // Its issue reporting's link to Swift Testing, so that a failed `expectNoDifference` fails
        // the spec instead of only printing; for the tests only.
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
        // SQLite access for the score store: transactions, migrations, prepared statements, and a
        // busy handler and interrupt for a database another process holds.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The PostgreSQL wire protocol (async, TLS, unix sockets) for the shared league store.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // `swift package generate-documentation`: builds the DocC catalogs of the library targets.
        .package(url: "https://github.com/apple/swift-docc-plugin", from: "1.5.0"),
        // SHA-1 for the name-based ids (UUID version 5) of roster records imported without an id,
        // SHA-256 for the league's index of player keys. Already built for postgres-nio (its SCRAM
        // authentication).
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"5.0.0"),
        // Typed file descriptors and errno values: the write-all loop of PlayerFormSystem. Already
        // built for postgres-nio (through SwiftNIO).
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        // A small reactive core: properties, signals, actions. Knows nothing of players.
        .target(name: "ReactiveCore"),
        // Operating system plumbing in one place: errno text, writing all of a buffer, creating
        // folders, the XDG base directories, signal handlers. Knows nothing of players.
        .target(
            name: "PlayerFormSystem", dependencies: [.product(name: "SystemPackage", package: "swift-system")]
        ),
        // Runs a built executable for the end-to-end specs: standard input written and both
        // outputs read at once, so that no pipe fills up. For the tests only.
        .target(
            name: "BuiltBinaryTesting",
            dependencies: ["PlayerFormSystem", .product(name: "SystemPackage", package: "swift-system")],
            path: "Tests/BuiltBinaryTesting"),
        // The strict JSON reader (RFC 8259, on bytes) shared by the record files and the rules file.
        .target(name: "PlayerFormJSON"),
        // Binding lists of row view models to tables: change sets, row templates, windows. Knows
        // nothing of players.
        .target(name: "ReactiveTable", dependencies: ["ReactiveCore"]),
        // The player rules (names, points, forbidden names, the stepper) and their JSON rules file.
        // No reactive code.
        .target(
            name: "PlayerFormRules", dependencies: ["PlayerFormJSON", "PlayerFormText"]),
        // The score store protocol, score records and players, the store in memory, and the time
        // format of score files.
        .target(name: "PlayerFormScores", dependencies: ["PlayerFormRules"]),
        // The view models: the player form, the roster and its rows.
        .target(
            name: "PlayerForm",
            dependencies: ["ReactiveCore", "ReactiveTable", "PlayerFormRules", "PlayerFormScores"]),
        // Import and export of score files over any score store: the readers of score files (the
        // JSON Lines of earlier versions, exports, spreadsheet rosters) and the writer of exports.
        .target(
            name: "PlayerFormTransfer",
            dependencies: [
                "PlayerFormScores", "PlayerFormRules", "PlayerFormSystem", "PlayerFormText",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // The score store in a SQLite database (through GRDB): the executable's default.
        .target(
            name: "PlayerFormSQLite",
            dependencies: [
                "PlayerFormScores", "PlayerFormSystem", "PlayerFormText",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]),
        // The score store on a PostgreSQL server, shared by scorekeepers on several machines.
        .target(
            name: "PlayerFormPostgres",
            dependencies: [
                "PlayerFormScores", "PlayerFormText", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]),
        // Escaping of user text for terminals, and JSON string literals: one rule for every front end.
        .target(name: "PlayerFormText"),
        // SSE2's byte comparisons and the instruction that gathers their bits, which Swift's SIMD
        // types lack, for the CSV lines the record readers read in one look. A header of inline C.
        .target(name: "CByteClasses"),
        // Streaming readers of player record files (JSON Lines, CSV) and the batch validator that
        // checks each record with PlayerRules. No reactive code, nothing of the command line.
        .target(
            name: "PlayerFormRecords",
            dependencies: ["PlayerFormRules", "PlayerFormJSON", "PlayerFormText", "CByteClasses"]),
        // The exhaustive view model tester, a recorder of signals and properties and a scheduler
        // that runs when a spec says: specs of any view model built on the reactive core.
        // It brings IssueReportingTestSupport with it, so that in a user's test target a failed
        // `expectNoDifference` fails the running test instead of only printing a line.
        .target(
            name: "ReactiveCoreTesting",
            dependencies: [
                "ReactiveCore", .product(name: "CustomDump", package: "swift-custom-dump"),
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]),
        // Controllable doubles and the states of the player form and the roster, for specs of the
        // player view models (the generic recorder and scheduler are ReactiveCoreTesting's).
        .target(
            name: "PlayerFormTesting",
            dependencies: [
                "ReactiveCore", "ReactiveCoreTesting", "PlayerForm", "PlayerFormRules", "PlayerFormScores",
                .product(name: "CustomDump", package: "swift-custom-dump"),
            ]),
        // GNU readline (GPL-3) and its history library, from the system (apt: libreadline-dev).
        .systemLibrary(
            name: "CReadline",
            pkgConfig: "readline",
            providers: [.apt(["libreadline-dev"])]
        ),
        // The terminal view of the player form and the roster: the REPL, its commands, rendering,
        // line readers and the text row template. Opens no store: it is given one.
        .target(
            name: "PlayerFormTerminal",
            dependencies: [
                "PlayerForm", "PlayerFormRules", "PlayerFormScores", "PlayerFormSystem", "PlayerFormText",
                "ReactiveCore", "ReactiveTable", "CReadline",
            ]),
        // Captured output, a Ctrl-C a spec can press, the transcript format of Examples/sessions, the
        // check of a replay against its transcript (a line diff, or re-recording), and line diffs.
        .target(
            name: "PlayerFormTerminalTesting", dependencies: ["PlayerFormTerminal"],
            path: "Tests/PlayerFormTerminalTesting"),
        // The executable and composition root: parses arguments, opens the store, starts the REPL
        // or the validator, and owns exit statuses, signals and standard output.
        .executableTarget(
            name: "playerform",
            dependencies: [
                "PlayerForm",
                "PlayerFormRules",
                "PlayerFormScores",
                "PlayerFormRecords",
                "PlayerFormPostgres",
                "PlayerFormSQLite",
                "PlayerFormSystem",
                "PlayerFormTransfer",
                "PlayerFormTerminal",
                "PlayerFormText",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The program exports no symbols: the dynamic loader would otherwise search tens of
            // thousands of them at every start (about half a millisecond with the static runtime).
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux]))]
        ),
        .executableTarget(
            name: "HeadlessPlayer",
            dependencies: ["PlayerForm", "PlayerFormRules", "PlayerFormScores", "ReactiveCore"],
            path: "Examples/HeadlessPlayer"
        ),
        .executableTarget(
            name: "HeadlessRoster",
            dependencies: [
                "PlayerForm", "PlayerFormScores", "PlayerFormSQLite", "PlayerFormTerminal", "ReactiveCore",
                "ReactiveTable",
            ],
            path: "Examples/HeadlessRoster"
        ),
        // A user's own view model (a login form) and its specs written with the tester.
        .target(name: "LoginFormExample", dependencies: ["ReactiveCore"], path: "Examples/LoginForm/Sources"),
        // Only what the README tells a user's test target to depend on.
        .testTarget(
            name: "LoginFormExampleTests",
            dependencies: [
                "LoginFormExample", "ReactiveCoreTesting",
                .product(name: "CustomDump", package: "swift-custom-dump"),
            ],
            path: "Examples/LoginForm/Tests"),
        // Drives a score file or database from a separate process, so the store specs can run real
        // concurrent writers, kill one in the middle of a write, and hold a lock.
        .executableTarget(
            name: "ScoreStoreProbe",
            dependencies: [
                "PlayerFormScores", "PlayerFormSQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tests/ScoreStoreProbe"),
        .testTarget(
            name: "ReactiveCoreTests",
            dependencies: ["ReactiveCore", "PlayerFormSystem", "ReactiveCoreTesting"]),
        .testTarget(name: "ReactiveCoreTestingTests", dependencies: ["ReactiveCore", "ReactiveCoreTesting"]),
        .testTarget(
            name: "ReactiveTableTests",
            dependencies: [
                "ReactiveTable", "ReactiveCore", "ReactiveCoreTesting",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(
            name: "PlayerFormRulesTests",
            dependencies: [
                "PlayerFormRules", "PlayerFormText",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(name: "PlayerFormScoresTests", dependencies: ["PlayerFormScores"]),
        .testTarget(name: "PlayerFormSystemTests", dependencies: ["PlayerFormSystem", "BuiltBinaryTesting"]),
        .testTarget(
            name: "PlayerFormRecordsTests",
            dependencies: [
                "PlayerFormRecords", "PlayerFormJSON", "PlayerFormRules",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(
            name: "PlayerFormTests",
            dependencies: [
                "PlayerForm", "PlayerFormRules", "PlayerFormScores", "ReactiveCore", "ReactiveTable",
                "PlayerFormTesting", "ReactiveCoreTesting", "PlayerFormText",
                .product(name: "CustomDump", package: "swift-custom-dump"),
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // A SQLite VFS that fails the syncs of chosen files: specs of durability.
        .target(name: "CSyncFaults", path: "Tests/CSyncFaults", linkerSettings: [.linkedLibrary("sqlite3")]),
        .testTarget(
            name: "PlayerFormStoreTests",
            dependencies: [
                "CSyncFaults",
                "PlayerForm", "PlayerFormRules", "PlayerFormScores", "PlayerFormTransfer", "PlayerFormSQLite",
                "PlayerFormPostgres", "PlayerFormTesting", "ReactiveCoreTesting",
                "ReactiveCore", "ScoreStoreProbe", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "PlayerFormTerminalTests",
            dependencies: [
                "PlayerFormTerminal", "PlayerFormTerminalTesting", "PlayerFormText", "PlayerForm",
                "PlayerFormRules", "PlayerFormScores", "ReactiveCore", "ReactiveTable", "PlayerFormTesting",
                "ReactiveCoreTesting",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // The executable's own parts (the validate run, its progress line, the exit status of each
        // store error) and `playerform validate` run end to end.
        .testTarget(
            name: "playerformTests",
            dependencies: [
                "playerform", "PlayerFormRecords", "PlayerFormRules", "PlayerFormScores", "PlayerFormSQLite",
                "PlayerFormPostgres", "PlayerFormTransfer", "BuiltBinaryTesting",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        // Runs the built `playerform` binary: scripted mode, and interactive mode under tmux.
        .testTarget(
            name: "PlayerFormEndToEndTests",
            dependencies: ["playerform", "PlayerFormTerminalTesting", "BuiltBinaryTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
