#!/usr/bin/env bash
# Start-up of the REPL with its score database, side by side in one run: `quit`, and `players` then
# `quit`, piped into `playerform` (release build) with databases of several sizes (one upload per
# player, made with `playerform import`). Prints for each size the median wall time, its ratio to
# the empty database, the peak resident memory, the extra time the first `players` page adds, and
# the time of one `players` page inside the session (100 `players` in one session, less `quit`
# alone, divided by 100: less noisy than the single page), and the same for `find player 99`, a
# page of the players whose names start with it (11,111 of them at 1,000,000): it reads the store's
# index of names, so it should cost the rows it shows, not the roster's size.
#
#   Benchmarks/repl-roster-startup.sh [rounds] [sizes...]     (default: 3 rounds; 0 10000 1000000 1000000h)
#
# A size ending in h is that many players of which the first 40, the page a session shows first,
# have hostile names: 100,000 ideographs each (a Unicode-heavy comparison key, 300 KB of UTF-8).
# What a page costs should follow what it shows, 30 columns of a name, not a name's length.
#
# The REPL asks the database only for the page in view, so its start-up should not grow with the
# number of players. Benchmarks/roster.sh measures the roster alone over a million players in memory.
set -euo pipefail
cd "$(dirname "$0")"
export PATH="/opt/swift/usr/bin:$PATH"
rounds="${1:-3}"
shift || true
sizes="${*:-0 10000 1000000 1000000h}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The install build, as the other benchmarks of the REPL measure it.
playerform="$(../Scripts/release-build.sh)"

python3 - "$rounds" "$playerform" "$work" $sizes <<'PY'
import os, statistics, subprocess, sys, time, uuid

rounds, playerform, work = int(sys.argv[1]), sys.argv[2], sys.argv[3]
sizes = sys.argv[4:]
# A thousand different ideographs, a hundred times over: a name of 100,000 characters.
block = "".join(chr(0x4E00 + index * 7) for index in range(1000))
files = {}
for size in sizes:
    count, hostile = int(size.rstrip("h")), size.endswith("h")
    records = os.path.join(work, f"{size}.jsonl")
    with open(records, "w", encoding="utf-8") as file:
        for index in range(count):
            name = chr(0x4E00 + index) + block * 100 if hostile and index < 40 else f"Player {index}"
            file.write(
                '{"id":"%s","kind":"score","name":"%s","points":%d,"uploadedAt":"2026-11-21T08:00:00.000Z"}\n'
                % (str(uuid.uuid4()).upper(), name, index % 10000))
    path = os.path.join(work, f"{size}.sqlite")
    subprocess.run([playerform, "--store", path, "import", records], stderr=subprocess.DEVNULL, check=True)
    os.remove(records)
    files[size] = path

def run(path, script):
    """Wall time in seconds and peak resident memory in MiB of one session."""
    start = time.perf_counter()
    process = subprocess.Popen(
        [playerform, "--store", path], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    process.stdin.write(script)
    process.stdin.close()
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"playerform exited {process.returncode} with {path}")
    return elapsed, usage.ru_maxrss / 1024

quit_times = {size: [] for size in sizes}
page_times = {size: [] for size in sizes}
many_times = {size: [] for size in sizes}
find_times = {size: [] for size in sizes}
memory = {size: 0.0 for size in sizes}
for _ in range(rounds):
    # Side by side: every size in each round, so that all see the same load.
    for size in sizes:
        elapsed, peak = run(files[size], b"quit\n")
        quit_times[size].append(elapsed)
        memory[size] = max(memory[size], peak)
        elapsed, peak = run(files[size], b"players\nquit\n")
        page_times[size].append(elapsed)
        memory[size] = max(memory[size], peak)
        elapsed, peak = run(files[size], b"players\n" * 100 + b"quit\n")
        many_times[size].append(elapsed)
        memory[size] = max(memory[size], peak)
        elapsed, peak = run(files[size], b"find player 99\n" * 100 + b"quit\n")
        find_times[size].append(elapsed)
        memory[size] = max(memory[size], peak)
base = statistics.median(quit_times[sizes[0]])
print(f"{rounds} rounds; ratios to {sizes[0]} players (h: the first 40 names of 100,000 ideographs)")
for size in sizes:
    quit = statistics.median(quit_times[size])
    page = statistics.median(page_times[size])
    each = (statistics.median(many_times[size]) - quit) / 100
    found = (statistics.median(find_times[size]) - quit) / 100
    print(
        f"{int(size.rstrip('h')):>10,}{'h' if size.endswith('h') else ' '} players  start-up + quit median {quit * 1000:9.1f} ms ({quit / base:7.1f} x)"
        f"  peak {memory[size]:8.1f} MiB  first players page adds {(page - quit) * 1000:7.1f} ms"
        f"  one page in session {each * 1000:6.2f} ms  one find {found * 1000:6.2f} ms")
PY
