#!/usr/bin/env bash
# Builds a package of a user's own, depending on this one as the README says (ReactiveCoreTesting
# and CustomDump, nothing else), and checks that a failed expectNoDifference in its specs fails
# `swift test` there: a comparison cannot pass silently in a user's package.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The dependency by path is named after its folder.
ln -s "$repo" "$work/PlayerForm"
mkdir -p "$work/user/Sources/Scoreboard" "$work/user/Tests/ScoreboardTests"
cat >"$work/user/Package.swift" <<SWIFT
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Scoreboard",
    dependencies: [
        .package(path: "$work/PlayerForm"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    ],
    targets: [
        .target(name: "Scoreboard", dependencies: [.product(name: "ReactiveCore", package: "PlayerForm")]),
        .testTarget(
            name: "ScoreboardTests",
            dependencies: [
                "Scoreboard",
                .product(name: "ReactiveCoreTesting", package: "PlayerForm"),
                .product(name: "CustomDump", package: "swift-custom-dump"),
            ]),
    ]
)
SWIFT
cat >"$work/user/Sources/Scoreboard/Scoreboard.swift" <<'SWIFT'
import ReactiveCore

public final class Scoreboard {
    public let total = MutableProperty(0)
    public init() {}
}
SWIFT
cat >"$work/user/Tests/ScoreboardTests/ScoreboardTests.swift" <<'SWIFT'
import CustomDump
import Scoreboard
import Testing

@Test func wrongExpectation() {
    expectNoDifference(Scoreboard().total.value, 1)
}
SWIFT
cd "$work/user"
set +e
swift test >"$work/test.log" 2>&1
status=$?
set -e
if [ "$status" -eq 0 ] || ! grep -q "wrongExpectation() recorded an issue" "$work/test.log"; then
    cat "$work/test.log" >&2
    echo "error: a failed expectNoDifference did not fail the user's test (status $status)" >&2
    exit 1
fi
echo "a failed expectNoDifference fails a user's test (status $status)"
