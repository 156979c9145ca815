#!/usr/bin/env bash
# Scripted throughput: 100,000 mixed commands piped into `playerform` as the README has users
# build it (Scripts/release-build.sh: one fully static executable), against a baseline that only
# reads lines and prints one line each (repl-baseline.swift, swiftc -O -static-executable, so both
# are alike).
# Both run side by side in one run, several rounds; prints the medians of the elapsed time and of
# the CPU time (user + system) of each, and the ratio of speeds.
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

playerform="$(../Scripts/release-build.sh)"
swiftc -O -static-executable repl-baseline.swift -o "$work/baseline"
python3 repl-commands.py 100000 >"$work/commands.txt"

python3 - "$rounds" "$playerform" "$work/baseline" "$work/commands.txt" <<'PY'
import os, statistics, subprocess, sys, time
rounds, playerform, baseline, commands = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
candidates = {"baseline (read + print)": [baseline], "playerform": [playerform]}
times = {name: [] for name in candidates}
cpu = {name: [] for name in candidates}
for _ in range(rounds):
    for name, command in candidates.items():
        with open(commands, "rb") as stdin:
            start = time.perf_counter()
            process = subprocess.Popen(
                command, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            # wait4 reaps the child and gives its CPU time to the microsecond.
            _, status, usage = os.wait4(process.pid, 0)
            times[name].append(time.perf_counter() - start)
            process.returncode = os.waitstatus_to_exitcode(status)
            cpu[name].append(usage.ru_utime + usage.ru_stime)
lines = sum(1 for _ in open(commands, "rb"))
for name, samples in times.items():
    median = statistics.median(samples)
    print(
        f"{name:26} median {median * 1000:8.1f} ms  ({lines / median:12,.0f} lines/s)"
        f"  cpu {statistics.median(cpu[name]) * 1000:6.1f} ms")
ratio = statistics.median(times["baseline (read + print)"]) / statistics.median(times["playerform"])
print(f"playerform speed / baseline speed = {ratio:.2f} (target >= 0.6)")
cpu_ratio = statistics.median(cpu["baseline (read + print)"]) / statistics.median(cpu["playerform"])
print(f"by CPU time (user + system)       = {cpu_ratio:.2f}")
PY
