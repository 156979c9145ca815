// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "PlayerForm",
    products: [
        .library(name: "PlayerForm", targets: ["ReactiveCore", "PlayerForm"]),
        .library(name: "PlayerFormTesting", targets: ["PlayerFormTesting"]),
    ],
    targets: [
        // A small reactive core: properties, signals, actions. Knows nothing of players.
        .target(name: "ReactiveCore"),
        // Player rules, the player view model and the score store protocol.
        .target(name: "PlayerForm", dependencies: ["ReactiveCore"]),
        // Recorders and controllable doubles for writing behaviour specs of view models.
        .target(name: "PlayerFormTesting", dependencies: ["ReactiveCore", "PlayerForm"]),
        .executableTarget(
            name: "HeadlessPlayer",
            dependencies: ["PlayerForm", "ReactiveCore"],
            path: "Examples/HeadlessPlayer"
        ),
        .testTarget(name: "ReactiveCoreTests", dependencies: ["ReactiveCore", "PlayerFormTesting"]),
        .testTarget(
            name: "PlayerFormTests",
            dependencies: ["PlayerForm", "ReactiveCore", "PlayerFormTesting"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
