#!/usr/bin/env bash
# Start-up, side by side in one run: `playerform --version` and `echo quit | playerform` (a whole
# session with its SQLite database, in an empty data folder), for the build the README tells
# people to install (Scripts/release-build.sh), next to `sqlite3 :memory: .quit` (the peer)
# and /bin/true (the floor). Prints the medians and the ratios to sqlite3.
#
#   Benchmarks/repl-startup.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
runs="${1:-50}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state"

static="$(Scripts/release-build.sh)"

python3 - "$runs" "$static" <<'PY'
import statistics, subprocess, sys, time
runs, static = int(sys.argv[1]), sys.argv[2]
candidates = {
    "/bin/true": (["/bin/true"], b""),
    "sqlite3 :memory: .quit": (["sqlite3", ":memory:", ".quit"], b""),
    "playerform --version": ([static, "--version"], b""),
    "echo quit | playerform": ([static], b"quit\n"),
}
times = {name: [] for name in candidates}
for _ in range(runs):
    for name, (command, stdin) in candidates.items():
        start = time.perf_counter()
        subprocess.run(command, input=stdin, stdout=subprocess.DEVNULL, check=True)
        times[name].append(time.perf_counter() - start)
peer = statistics.median(times["sqlite3 :memory: .quit"])
for name, samples in times.items():
    median = statistics.median(samples)
    print(f"{name:24} median {median * 1000:6.2f} ms  ({median / peer:4.1f} x sqlite3)")
print("target: under 3 ms and within 1.5 x sqlite3")
PY
