#!/usr/bin/env bash
# The score database against the sqlite3 shell on the same file, side by side in one run, with
# stores of 0, 10,000 and 1,000,000 players (one upload each, made with `playerform import`):
#
#   start-up       `quit` piped into playerform         vs  sqlite3 opening the file, `SELECT 1`
#   first page     `players` (whatever the REPL shows)  vs  the store's page query, 40 rows: the
#                                                            block counts, then a range of row ids
#   one upload     `add NAME POINTS` then quit           vs  the same statements in one transaction,
#                                                            WAL, synchronous=FULL
#   delete first   `delete 1 --yes` then quit            vs  the statements the store runs for it
#   players json   `players --json > /dev/null`          vs  sqlite3 -json over the same rows
#   peak memory    /usr/bin/time -f %M of each of the above
#
# Those include each program's start-up and, for playerform, whatever the REPL builds at start.
# The store itself is measured without them: ScoreStoreProbe db-time (release) times N uploads, pages
# of 40 at the end of the roster, counts and lookups by name, one process, median per operation;
# sqlite3 runs the same N upload transactions (synchronous=FULL) and N page queries in one process,
# per operation after its start-up. Also `playerform import` of the generated records (records/s),
# next to sqlite3 filling the same tables with as many rows in set-based statements.
# Figures are medians of `rounds` runs; ratios are playerform / sqlite3.
#
# The REPL holds only the rows in view, so every row runs at every size.
#
#   Benchmarks/store.sh [rounds] [sizes...]      e.g. Benchmarks/store.sh 5 0 10000 1000000
set -euo pipefail
cd "$(dirname "$0")"
export PATH="/opt/swift/usr/bin:$PATH"
rounds="${1:-5}"
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(0 10000 1000000)
command -v sqlite3 >/dev/null || { echo "store.sh needs sqlite3 (apt-get install -y sqlite3)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "store.sh needs /usr/bin/time (apt-get install -y time)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

swift build -c release --package-path .. --product playerform >/dev/null
swift build -c release --package-path .. --product ScoreStoreProbe >/dev/null
bin="$(swift build -c release --package-path .. --show-bin-path)"

python3 - "$rounds" "$bin/playerform" "$bin/ScoreStoreProbe" "$work" "${sizes[@]}" <<'PY'
import os, re, statistics, subprocess, sys, time, uuid

rounds, playerform, probe, work = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
sizes = [int(size) for size in sys.argv[5:]]
operations = 100


def records(path, count):
    with open(path, "w") as file:
        for index in range(count):
            file.write(
                '{"id":"%s","name":"Player %d","points":%d,"uploadedAt":"2026-11-21T08:00:00.000Z"}\n'
                % (str(uuid.uuid4()).upper(), index, index % 10000))


def run(command, stdin=b""):
    """Seconds and peak resident kilobytes of one run."""
    timed = ["/usr/bin/time", "-f", "%M", "-o", os.path.join(work, "rss")] + command
    start = time.perf_counter()
    done = subprocess.run(timed, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed: {done.stderr.decode()[-500:]}")
    seconds = time.perf_counter() - start
    with open(os.path.join(work, "rss")) as file:
        return seconds, int(file.read().split()[-1])


def report(label, ours, theirs):
    (t1, m1), (t2, m2) = ours, theirs
    print(f"  {label:<14} playerform {t1 * 1000:9.1f} ms {m1 / 1024:7.1f} MiB | sqlite3 {t2 * 1000:8.1f} ms "
          f"{m2 / 1024:6.1f} MiB | time {t1 / t2:6.2f} x")


def median(command, stdin=b"", prepare=None):
    samples = []
    for _ in range(rounds):
        if prepare:
            prepare()
        samples.append(run(command, stdin))
    return statistics.median(s[0] for s in samples), max(s[1] for s in samples)


for size in sizes:
    database = os.path.join(work, f"{size}.sqlite")
    source = os.path.join(work, f"{size}.jsonl")
    records(source, size)
    start = time.perf_counter()
    subprocess.run([playerform, "--store", database, "import", source], stderr=subprocess.DEVNULL, check=True)
    seconds = time.perf_counter() - start
    rate = f"{size / seconds:,.0f} records/s" if size else "-"
    # The floor for the import: sqlite3 filling the same tables and indexes with as many players
    # and scores, in one transaction and two set-based statements (no lookups, no parsing).
    floor = os.path.join(work, f"{size}-floor.sqlite")
    schema = subprocess.run(["sqlite3", database, ".schema player", ".schema score", ".schema roster_block"],
                            capture_output=True, check=True).stdout
    subprocess.run(["sqlite3", floor], input=schema, check=True)
    start = time.perf_counter()
    subprocess.run(["sqlite3", floor], check=True, input=(
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA cache_size=-262144; BEGIN; "
        "INSERT INTO player (id, key, name, points, uploaded_at, uploads) "
        f"SELECT value + 1, 'player ' || value, 'Player ' || value, value % 10000, 0, 1 "
        f"FROM generate_series(0, {size - 1}); "
        "INSERT INTO score (seq, id, player_id, name, points, uploaded_at) "
        "SELECT value + 1, randomblob(16), value + 1, 'Player ' || value, value % 10000, 0 "
        f"FROM generate_series(0, {size - 1}); "
        "INSERT INTO roster_block (block, players) SELECT id >> 12, count(*) FROM player GROUP BY 1; "
        "COMMIT;").encode(), stdout=subprocess.DEVNULL)
    floor_seconds = time.perf_counter() - start
    floor_rate = f"{size / floor_seconds:,.0f} rows/s" if size else "-"
    print(f"{size} players (import: {seconds:.2f} s, {rate}; sqlite3 bulk insert of as many: "
          f"{floor_seconds:.2f} s, {floor_rate})")
    store = [playerform, "--store", database]
    sql = ["sqlite3", database]
    report("start-up", median(store, b"quit\n"), median(sql + ["SELECT 1;"]))
    page = max(size - 40, 0)
    # What the store does for a page: the block that holds roster index `page`, from the block
    # counts, then a range of player row ids.
    seek = ("WITH block AS (SELECT block, players, SUM(players) OVER (ORDER BY block) - players AS before "
            "FROM roster_block), here AS (SELECT block << 12 AS start, {page} - before AS skip FROM block "
            "WHERE before + players > {page} ORDER BY block LIMIT 1) ")
    report(
        "first page", median(store, b"players\nquit\n"),
        median(sql + [seek.format(page=page) + "SELECT name, points, uploaded_at FROM player "
                      "WHERE id >= IFNULL((SELECT start FROM here), 1 << 62) ORDER BY id LIMIT 40 "
                      "OFFSET IFNULL((SELECT skip FROM here), 0);"]))
    counter = iter(range(10**9))
    upload = (
        "PRAGMA synchronous=FULL; BEGIN IMMEDIATE; "
        "INSERT INTO player (id, key, name, points, uploaded_at, uploads) VALUES "
        "((SELECT IFNULL(MAX(seq), 0) + 1 FROM score), 'bench {n}', 'Bench {n}', 1, 0, 1) "
        "ON CONFLICT (key) DO UPDATE SET uploads = uploads + 1; "
        "INSERT INTO score (seq, id, player_id, name, points, uploaded_at) VALUES "
        "((SELECT IFNULL(MAX(seq), 0) + 1 FROM score), X'{id}', (SELECT id FROM player WHERE key = 'bench {n}'), "
        "'Bench {n}', 1, 0) ON CONFLICT (id) DO NOTHING; "
        "INSERT INTO roster_block (block, players) VALUES ((SELECT MAX(seq) FROM score) >> 12, 1) "
        "ON CONFLICT (block) DO UPDATE SET players = players + 1; "
        "UPDATE meta SET revision = revision + 1; COMMIT;")
    ours_samples, theirs_samples = [], []
    for _ in range(rounds):
        ours_samples.append(run(store, f"add Upload{next(counter)} 1\nquit\n".encode()))
        theirs_samples.append(run(sql + [upload.format(id=uuid.uuid4().hex, n=next(counter))]))
    pick = lambda samples: (statistics.median(s[0] for s in samples), max(s[1] for s in samples))
    report("one upload", pick(ours_samples), pick(theirs_samples))
    # Deleting the first player of the roster (the costliest place before players were counted
    # in blocks): playerform's `delete 1`, against sqlite3 running the statements the store runs.
    delete_first = (
        "PRAGMA synchronous=FULL; BEGIN IMMEDIATE; "
        "CREATE TEMP TABLE gone AS SELECT min(id) AS id FROM player; "
        "DELETE FROM score WHERE player_id = (SELECT id FROM gone); "
        "DELETE FROM player WHERE id = (SELECT id FROM gone); "
        "UPDATE roster_block SET players = players - 1 WHERE block = (SELECT id >> 12 FROM gone); "
        "DELETE FROM roster_block WHERE players = 0; "
        "UPDATE meta SET revision = revision + 1; COMMIT;")
    if size:
        ours_samples, theirs_samples = [], []
        for _ in range(rounds):
            ours_samples.append(run(store, b"delete 1 --yes\nquit\n"))
            theirs_samples.append(run(sql + [delete_first]))
        report("delete first", pick(ours_samples), pick(theirs_samples))
    # The store alone: the probe against sqlite3 running the same statements in one process.
    timed = subprocess.run([probe, "db-time", database, str(operations)], capture_output=True, check=True)
    figures = dict((name, int(value)) for value, name in [
        (m.group(2), m.group(1)) for m in re.finditer(r"(upload|last page|count|find|revision) (\d+) us",
                                                       timed.stdout.decode())])
    startup = statistics.median(run(sql + ["SELECT 1;"])[0] for _ in range(rounds))
    def script():
        return "".join(upload.format(id=uuid.uuid4().hex, n=next(counter)) + "\n"
                       for _ in range(operations)).encode()
    uploads = statistics.median(run(sql, script())[0] for _ in range(rounds))
    total = int(subprocess.run(sql + ["SELECT COUNT(*) FROM player;"], capture_output=True).stdout or b"0")
    # The rows the store returns for a page: 40 players by row id, each with its record ids.
    pages = (seek.format(page=max(total - 40, 0)) + "SELECT p.id, p.name, p.points, p.uploaded_at, s.id FROM "
             "(SELECT id, name, points, uploaded_at FROM player WHERE id >= IFNULL((SELECT start FROM here), 1 << 62) "
             "ORDER BY id LIMIT 40 OFFSET IFNULL((SELECT skip FROM here), 0)) AS p "
             "JOIN score AS s ON s.player_id = p.id ORDER BY p.id, s.seq;\n") * operations
    paging = statistics.median(run(sql, pages.encode())[0] for _ in range(rounds))
    per_upload = max(uploads - startup, 0) / operations * 1e6
    per_page = max(paging - startup, 0) / operations * 1e6
    print(f"  store upload   playerform {figures['upload']:9d} us | sqlite3 {per_upload:9.0f} us | "
          f"time {figures['upload'] / max(per_upload, 1):6.2f} x")
    print(f"  store page     playerform {figures['last page']:9d} us | sqlite3 {per_page:9.0f} us | "
          f"time {figures['last page'] / max(per_page, 1):6.2f} x   (count {figures['count']} us, "
          f"find by name {figures['find']} us, revision {figures['revision']} us)")
    report(
        "players json", median(store, b"players --json\nquit\n"),
        median(["sqlite3", "-json", database,
                "SELECT name, points, uploaded_at AS uploadedAt FROM player ORDER BY id;"]))
PY
