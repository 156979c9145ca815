#!/usr/bin/env bash
# Start-up, side by side in one run: `playerform --version` and `echo quit | playerform` (a whole
# session with its SQLite database, in an empty data folder), for the build the README tells
# people to install (Scripts/release-build.sh), next to `sqlite3 :memory: .quit` (the peer),
# /bin/true (the floor), and sqlite3 opening the session's database and reading what a session
# reads at start (its pragmas, the migrations, the key rule, the player count): the floor of a
# session that opens its database, whatever program does it. Prints the medians and the ratios to
# `sqlite3 :memory: .quit`. An earlier build given as EARLIER runs a session in the same rounds,
# so that a change is measured side by side with the build before it. Two more starts are timed:
# a session given its commands with -c (options on the command line), and `validate` of a small
# file of 200 records, next to jq reading the same file when jq is installed.
#
#   Benchmarks/repl-startup.sh [runs] [EARLIER]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
runs="${1:-50}"
earlier="${2:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state"

# Each build is timed from a copy made now: on these machines a file written long ago started
# about 0.7 ms slower than a fresh copy of the same bytes (the state of its pages in the page
# cache), which would favour whichever build was written last.
cp "$(Scripts/release-build.sh)" "$work/playerform"
static="$work/playerform"
if [ -n "$earlier" ]; then
    cp "$earlier" "$work/earlier"
    earlier="$work/earlier"
fi

# The session's database, made by a first session, for the sqlite3 that opens it.
echo quit | "$static" >/dev/null
database="$XDG_DATA_HOME/playerform/scores.sqlite"
# A small file of records, about a third of them invalid (points above the maximum of 10000).
small="$work/small.jsonl"
python3 -c 'import json
for i in range(200): print(json.dumps({"name": f"Player {i}", "points": (i * 997) % 15000}))' > "$small"

python3 - "$runs" "$static" "$database" "$earlier" "$small" <<'PY'
import shutil, statistics, subprocess, sys, time
runs, static, database, earlier, small = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
opening = ("PRAGMA journal_mode; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; "
           "SELECT identifier FROM grdb_migrations; SELECT key_rule FROM meta; SELECT count(*) FROM player;")
candidates = {
    "/bin/true": (["/bin/true"], b""),
    "sqlite3 :memory: .quit": (["sqlite3", ":memory:", ".quit"], b""),
    "sqlite3 opening the db": (["sqlite3", database, opening], b""),
    "playerform --version": ([static, "--version"], b""),
    "echo quit | playerform": ([static], b"quit\n"),
}
if earlier:
    candidates["echo quit | EARLIER"] = ([earlier], b"quit\n")
candidates["playerform -c players"] = ([static, "--store", database, "-c", "players"], b"")
if earlier:
    candidates["EARLIER -c players"] = ([earlier, "--store", database, "-c", "players"], b"")
candidates["validate 200 records"] = ([static, "validate", "--quiet", small], b"")
if earlier:
    candidates["EARLIER validate 200"] = ([earlier, "validate", "--quiet", small], b"")
if shutil.which("jq"):
    candidates["jq . 200 records"] = (["jq", "-c", ".", small], b"")
times = {name: [] for name in candidates}
for _ in range(runs):
    for name, (command, stdin) in candidates.items():
        start = time.perf_counter()
        done = subprocess.run(command, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times[name].append(time.perf_counter() - start)
        # validate's status is 1 when a record is invalid, as a third of these are; any other
        # failure stops the benchmark.
        if done.returncode not in (0, 1):
            sys.exit(f"{name} failed with status {done.returncode}")
peer = statistics.median(times["sqlite3 :memory: .quit"])
for name, samples in times.items():
    median = statistics.median(samples)
    print(f"{name:24} median {median * 1000:6.2f} ms  ({median / peer:5.2f} x sqlite3)")
print("target: echo quit | playerform under 5 ms and within 2 x sqlite3")
PY
