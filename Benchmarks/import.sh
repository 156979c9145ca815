#!/usr/bin/env bash
# `playerform import` of N records (an export, JSON Lines) into a new score database, side by side
# in one run with sqlite3 importing the same records as CSV into a table keyed by id (the floor of
# any import into SQLite), and with an earlier build when one is given. Prints the medians of the
# elapsed time, records/s and the ratio to sqlite3.
#
#   Benchmarks/import.sh [rounds] [records] [EARLIER]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"
records="${2:-1000000}"
earlier="${3:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$(Scripts/release-build.sh)" "$work/playerform"
if [ -n "$earlier" ]; then cp "$earlier" "$work/earlier"; fi

python3 - "$records" "$work" <<'PY'
import sys, uuid
n, work = int(sys.argv[1]), sys.argv[2]
with open(f"{work}/records.jsonl", "w") as jsonl, open(f"{work}/records.csv", "w") as csv:
    csv.write("id,name,points,uploadedAt\n")
    for i in range(n):
        rid = str(uuid.UUID(int=i * 7919 + 1, version=4)).upper()
        name, points = f"Player {i}", i % 10000
        t = f"2026-01-{1 + i // 86_400_000 % 28:02d}T{i // 3_600_000 % 24:02d}:{i // 60_000 % 60:02d}:{i // 1000 % 60:02d}.{i % 1000:03d}Z"
        jsonl.write(f'{{"id":"{rid}","name":"{name}","points":{points},"uploadedAt":"{t}"}}\n')
        csv.write(f'{rid},"{name}",{points},{t}\n')
PY

python3 - "$rounds" "$records" "$work" "$earlier" <<'PY'
import os, shutil, statistics, subprocess, sys, time
rounds, records, work, earlier = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
def fresh():
    folder = f"{work}/run"
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    return folder
def playerform(binary):
    db = f"{fresh()}/scores.sqlite"
    return [binary, "--store", db, "import", f"{work}/records.jsonl"], None
def sqlite3():
    db = f"{fresh()}/peer.sqlite"
    script = ("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
              "CREATE TABLE score (id TEXT PRIMARY KEY, name TEXT NOT NULL, points REAL NOT NULL,"
              " uploaded_at TEXT NOT NULL);")
    return ["sqlite3", db, script, ".import --csv --skip 1 " + f"{work}/records.csv score"], None
candidates = {"sqlite3 .import (keyed)": sqlite3, "playerform import": lambda: playerform(f"{work}/playerform")}
if earlier:
    candidates["EARLIER import"] = lambda: playerform(f"{work}/earlier")
times = {name: [] for name in candidates}
for _ in range(rounds):
    for name, make in candidates.items():
        command, _ = make()
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times[name].append(time.perf_counter() - start)
peer = statistics.median(times["sqlite3 .import (keyed)"])
print(f"{records} records, medians of {rounds} rounds, load average {os.getloadavg()[0]:.2f}")
for name, values in times.items():
    median = statistics.median(values)
    print(f"{name:26} {median:7.2f} s  {records / median:10,.0f} records/s  ({median / peer:.2f} x sqlite3)")
PY
