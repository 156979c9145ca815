#!/usr/bin/env bash
# Start-up: `playerform --version`, median over repeated runs, for the release build with the
# Swift runtime linked dynamically (the default) and statically (--static-swift-stdlib), next to
# /bin/true as the floor. Target: under 10 ms.
#
#   Benchmarks/repl-startup.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
runs="${1:-50}"

swift build -c release --product playerform >/dev/null
dynamic="$(swift build -c release --show-bin-path)/playerform"
swift build -c release --product playerform --build-path .build-static --static-swift-stdlib >/dev/null
static="$(swift build -c release --build-path .build-static --show-bin-path)/playerform"

python3 - "$runs" "$dynamic" "$static" <<'PY'
import statistics, subprocess, sys, time
runs, dynamic, static = int(sys.argv[1]), sys.argv[2], sys.argv[3]
candidates = {
    "/bin/true": ["/bin/true"],
    "playerform --version (dynamic stdlib)": [dynamic, "--version"],
    "playerform --version (static stdlib)": [static, "--version"],
}
times = {name: [] for name in candidates}
for _ in range(runs):
    for name, command in candidates.items():
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
        times[name].append(time.perf_counter() - start)
floor = statistics.median(times["/bin/true"])
for name, samples in times.items():
    median = statistics.median(samples)
    print(f"{name:40} median {median * 1000:6.2f} ms  ({median / floor:5.1f} x /bin/true)")
PY
