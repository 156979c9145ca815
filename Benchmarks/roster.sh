#!/usr/bin/env bash
# Roster benchmark: refresh of 100,000 players and its memory, the changeset for one upload into
# 100,000 rows, and one append to a file of 1,000 versus 100,000 records.
#
# Builds the libraries in release mode with the root package, then compiles
# Benchmarks/Sources/RosterBenchmark/main.swift against them with swiftc -O, and runs it.
# Usage: Benchmarks/roster.sh            (ROSTER_PLAYERS=10000 Benchmarks/roster.sh for a smaller roster)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
export PATH="/opt/swift/usr/bin:$PATH"

scratch="$root/.build-bench"
echo "== building the libraries (release)" >&2
swift build -c release --package-path "$root" --scratch-path "$scratch" --target PlayerFormStore >&2
release="$(swift build -c release --package-path "$root" --scratch-path "$scratch" --show-bin-path)"

echo "== compiling the benchmark" >&2
objects=()
for module in ReactiveCore PlayerForm PlayerFormStore; do
    objects+=("$release/$module.build"/*.o)
done
binary="$scratch/roster-benchmark"
swiftc -O -module-name RosterBenchmark -I "$release/Modules" \
    "$here/Sources/RosterBenchmark/main.swift" "${objects[@]}" -o "$binary" >&2

echo "== running" >&2
"$binary"
