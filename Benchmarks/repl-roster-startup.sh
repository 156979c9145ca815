#!/usr/bin/env bash
# Start-up of the REPL with its score database: `quit` piped into `playerform` (release build) with
# an empty database and with one of N players (one upload each, imported), side by side in one run.
# Prints the medians and the ratio to the empty database.
#
#   Benchmarks/repl-roster-startup.sh [players] [rounds]
set -euo pipefail
cd "$(dirname "$0")"
export PATH="/opt/swift/usr/bin:$PATH"
players="${1:-100000}"
rounds="${2:-9}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

swift build -c release --package-path .. --product playerform >/dev/null
playerform="$(swift build -c release --package-path .. --show-bin-path)/playerform"

python3 - "$players" "$rounds" "$playerform" "$work" <<'PY'
import os, statistics, subprocess, sys, time, uuid

players, rounds, playerform, work = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
empty = os.path.join(work, "empty.sqlite")
full = os.path.join(work, "full.sqlite")
records = os.path.join(work, "full.jsonl")
with open(records, "w") as file:
    for index in range(players):
        file.write(
            '{"id":"%s","kind":"score","name":"Player %d","points":%d,"uploadedAt":"2026-11-21T08:00:00.000Z"}\n'
            % (str(uuid.uuid4()).upper(), index, index % 10000))
subprocess.run([playerform, "--store", empty, "import", "-"], stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
subprocess.run([playerform, "--store", full, "import", records], stderr=subprocess.DEVNULL, check=True)

candidates = {
    "empty database": [playerform, "--store", empty],
    f"{players} players": [playerform, "--store", full],
}
times = {name: [] for name in candidates}
for _ in range(rounds):
    for name, command in candidates.items():
        start = time.perf_counter()
        subprocess.run(command, input=b"quit\n", stdout=subprocess.DEVNULL, check=True)
        times[name].append(time.perf_counter() - start)
base = statistics.median(times["empty database"])
for name, values in times.items():
    median = statistics.median(values)
    print(f"{name:<20} median {median * 1000:8.1f} ms  ({median / base:6.1f} x empty)")
PY
