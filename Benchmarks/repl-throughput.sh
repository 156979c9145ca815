#!/usr/bin/env bash
# Scripted throughput: 100,000 mixed commands piped into `playerform` (release build), against a
# baseline that only reads lines and prints one line each (repl-baseline.swift, swiftc -O). Both
# run side by side in one run, several rounds; prints the medians and the ratio of speeds.
#
#   Benchmarks/repl-throughput.sh [rounds]
set -euo pipefail
cd "$(dirname "$0")"
export PATH="/opt/swift/usr/bin:$PATH"
rounds="${1:-7}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The REPL reads its score file when it starts: use an empty one, not the user's.
export XDG_DATA_HOME="$work/data"

swift build -c release --package-path .. --product playerform >/dev/null
playerform="$(swift build -c release --package-path .. --show-bin-path)/playerform"
swiftc -O repl-baseline.swift -o "$work/baseline"
python3 repl-commands.py 100000 >"$work/commands.txt"

python3 - "$rounds" "$playerform" "$work/baseline" "$work/commands.txt" <<'PY'
import statistics, subprocess, sys, time
rounds, playerform, baseline, commands = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
candidates = {"baseline (read + print)": [baseline], "playerform": [playerform]}
times = {name: [] for name in candidates}
for _ in range(rounds):
    for name, command in candidates.items():
        with open(commands, "rb") as stdin:
            start = time.perf_counter()
            subprocess.run(command, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times[name].append(time.perf_counter() - start)
lines = sum(1 for _ in open(commands, "rb"))
for name, samples in times.items():
    median = statistics.median(samples)
    print(f"{name:26} median {median * 1000:8.1f} ms  ({lines / median:12,.0f} lines/s)")
ratio = statistics.median(times["baseline (read + print)"]) / statistics.median(times["playerform"])
print(f"playerform speed / baseline speed = {ratio:.2f} (target >= 0.6)")
PY
