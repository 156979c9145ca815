// swift-tools-version: 6.2
// Benchmarks live in their own package so that the main build stays light.
import PackageDescription

let package = Package(
    name: "PlayerFormBenchmarks",
    dependencies: [
        .package(name: "PlayerForm", path: ".."),
        // Counts allocations (LD_PRELOAD on Linux) so "no allocations per edit" is measured.
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
    ],
    targets: [
        .executableTarget(
            name: "PipelineBenchmark",
            dependencies: [
                .product(name: "PlayerForm", package: "PlayerForm"),
                .product(name: "PlayerFormRules", package: "PlayerForm"),
                .product(name: "PlayerFormScores", package: "PlayerForm"),
                .product(name: "ReactiveCore", package: "PlayerForm"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
        .executableTarget(
            name: "RosterBenchmark",
            dependencies: [
                .product(name: "PlayerForm", package: "PlayerForm"),
                .product(name: "PlayerFormScores", package: "PlayerForm"),
                .product(name: "PlayerFormSQLite", package: "PlayerForm"),
                .product(name: "PlayerFormTerminal", package: "PlayerForm"),
                .product(name: "ReactiveCore", package: "PlayerForm"),
                .product(name: "ReactiveTable", package: "PlayerForm"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
