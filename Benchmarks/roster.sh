#!/usr/bin/env bash
# Roster benchmark: refresh of 100,000 players and its memory, the changeset for one upload into
# 100,000 rows, and one append to a file of 1,000 versus 100,000 records.
#
# Usage: Benchmarks/roster.sh            (ROSTER_PLAYERS=10000 Benchmarks/roster.sh for a smaller roster)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export PATH="/opt/swift/usr/bin:$PATH"

cd "$here"
echo "== building (release)" >&2
swift build -c release --product RosterBenchmark >&2
echo "== running" >&2
"$(swift build -c release --show-bin-path)/RosterBenchmark"
