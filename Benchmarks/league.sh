#!/usr/bin/env bash
# The league on PostgreSQL against psql and pgbench running the same statements on the same
# server, side by side in one run. A throwaway server of its own (initdb in a temporary folder,
# unix socket only; as root it runs as the user playerform-pg, which .ci/run makes):
#
#   uploads/s, C clients   C playerform processes at once, each piping `add NAME 1` K times
#                          vs  pgbench -M prepared -c C -j C -t K of the same upload: one call
#                          of playerform_keep_record (the function the league's schema has: the
#                          revision bump with NOTIFY, the id check, the player upsert with its
#                          block count and the score), as playerform sends it
#   start-up               `quit` piped into playerform --store URL   vs  psql -c 'SELECT 1'
#   first page             `players` then `quit`                       vs  psql running the page
#                                                                          query (the block counts,
#                                                                          then 40 players by id and
#                                                                          their record ids)
#   import of P records    `playerform import` of the league's export  vs  psql \copy of the same
#                          (JSON Lines) into a new database            file into a table keyed by
#                                                                      the records' ids (jsonb)
#
# on a league of P players (one score each; loaded with set-based SQL into the tables playerform
# made, since the load is not what is measured). Each figure is the median of `rounds` runs;
# ratios are playerform / peer for times and playerform / pgbench for rates. Every side includes
# its own program's start-up: playerform's connection, migration check and first page read.
#
#   Benchmarks/league.sh [rounds] [players] [uploads per client] [clients...]
#   e.g. Benchmarks/league.sh 5 1000000 200 1 4 16
#   PLAYERFORM_BIN=.build/debug/playerform Benchmarks/league.sh 3 10000 50   # a binary already built
set -euo pipefail
cd "$(dirname "$0")"
export PATH="/opt/swift/usr/bin:$PATH"
rounds="${1:-5}"
players="${2:-1000000}"
per_client="${3:-200}"
shift 3 || shift $#
clients=("$@")
[ ${#clients[@]} -gt 0 ] || clients=(1 4 16)

pg_bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
for tool in initdb pg_ctl pgbench psql; do
    [ -x "$pg_bin/$tool" ] || { echo "league.sh needs $tool (apt-get install -y postgresql)" >&2; exit 1; }
done
work="$(mktemp -d /tmp/league-bench.XXXXXX)"
as=()
if [ "$(id -u)" = 0 ]; then
    id playerform-pg >/dev/null 2>&1 || useradd --system --no-create-home playerform-pg
    chown playerform-pg "$work"
    as=(runuser -u playerform-pg --)
fi
stop() {
    "${as[@]}" "$pg_bin/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap stop EXIT
"${as[@]}" "$pg_bin/initdb" -D "$work/data" -U postgres --auth=trust >"$work/initdb.log" 2>&1
"${as[@]}" "$pg_bin/pg_ctl" -D "$work/data" -w -t 60 -l "$work/server.log" \
    -o "-k $work -p 5432 -c listen_addresses='' -c max_connections=100" start >/dev/null

# PLAYERFORM_BIN names a playerform already built (say which build when quoting its figures).
if [ -n "${PLAYERFORM_BIN:-}" ]; then
    bin="$(dirname "$PLAYERFORM_BIN")"
else
    swift build -c release --package-path .. --product playerform >/dev/null
    bin="$(swift build -c release --package-path .. --show-bin-path)"
fi

python3 - "$rounds" "$players" "$per_client" "$bin/playerform" "$pg_bin" "$work" "${clients[@]}" <<'PY'
import os, re, statistics, subprocess, sys, time

rounds, players, per_client = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
playerform, pg_bin, work = sys.argv[4], sys.argv[5], sys.argv[6]
clients = [int(count) for count in sys.argv[7:]]
url = f"postgres://postgres@localhost:5432/postgres?host={work}"
psql = [f"{pg_bin}/psql", "-qAtX", "-v", "ON_ERROR_STOP=1", "-h", work, "-U", "postgres", "postgres"]


def sql(statement):
    return subprocess.run(psql + ["-c", statement], capture_output=True, check=True).stdout.decode().strip()


def timed(command, stdin=b""):
    start = time.perf_counter()
    done = subprocess.run(command, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed: {done.stderr.decode()[-500:]}")
    return time.perf_counter() - start


def median(command, stdin=b""):
    return statistics.median(timed(command, stdin) for _ in range(rounds))


# playerform makes its tables; the players are loaded with set-based SQL, as a league of that
# size would hold them after its uploads.
subprocess.run([playerform, "--store", url], input=b"quit\n", check=True)
start = time.perf_counter()
sql(f"""INSERT INTO player (id, key, key_digest, name, points, uploaded_at, uploads)
  SELECT n + 1, 'player ' || n, sha256(convert_to('player ' || n, 'UTF8')), 'Player ' || n, n % 10000,
    1763712000000, 1
  FROM generate_series(0, {players - 1}) AS n;
INSERT INTO score (seq, id, player_id, name, points, uploaded_at)
  SELECT id, gen_random_uuid(), id, name, points, uploaded_at FROM player;
INSERT INTO roster_block (block, players) SELECT id >> 12, count(*) FROM player GROUP BY 1;
SELECT setval('score_seq_seq', greatest({players}, 1));
UPDATE meta SET revision = revision + 1;""")
sql("VACUUM ANALYZE player")
sql("VACUUM ANALYZE score")
print(f"league of {players:,} players (loaded in {time.perf_counter() - start:.1f} s), "
      f"{rounds} rounds, medians; {per_client} uploads per client")

upload_script = os.path.join(work, "upload.sql")
with open(upload_script, "w") as file:
    # One upload, as PostgresScoreStore sends it: one statement.
    file.write("""\\set n random(1, 2000000000)
SELECT playerform_keep_record(gen_random_uuid(), 'Bench ' || :client_id || ' ' || :n,
  'bench ' || :client_id || ' ' || :n, sha256(convert_to('bench ' || :client_id || ' ' || :n, 'UTF8')),
  1, 1763712000000, 'playerform', 'public');
""")

counter = iter(range(10**9))
for count in clients:
    ours, theirs = [], []
    for _ in range(rounds):
        scripts = []
        for client in range(count):
            scripts.append("".join(f"add U{next(counter)} 1\n" for _ in range(per_client)).encode())
        start = time.perf_counter()
        running = [subprocess.Popen([playerform, "--store", url], stdin=subprocess.PIPE,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for _ in scripts]
        for process, script in zip(running, scripts):
            process.stdin.write(script)
            process.stdin.close()
        for process in running:
            if process.wait() != 0:
                sys.exit("playerform failed: " + process.stderr.read().decode()[-500:])
        ours.append(count * per_client / (time.perf_counter() - start))
        bench = subprocess.run(
            [f"{pg_bin}/pgbench", "-n", "-M", "prepared", "-h", work, "-U", "postgres", "-c", str(count),
             "-j", str(count), "-t", str(per_client), "-f", upload_script, "postgres"],
            capture_output=True, check=True).stdout.decode()
        theirs.append(float(re.search(r"tps = ([0-9.]+)", bench).group(1)))
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"  uploads/s, {count:>2} clients  playerform {a:9.0f} /s | pgbench {b:9.0f} /s | rate {a / b:5.2f} x")

startup = (median([playerform, "--store", url], b"quit\n"), median(psql + ["-c", "SELECT 1"]))
total = int(sql("SELECT count(*) FROM player"))
page = ("WITH block AS (SELECT block, players, sum(players) OVER (ORDER BY block) - players AS before "
        "FROM roster_block), here AS (SELECT block << 12 AS first, 0 - before AS skip FROM block "
        "WHERE before + players > 0 ORDER BY block LIMIT 1) "
        "SELECT p.id, p.name, p.points, p.uploaded_at, 0::bigint, s.id FROM (SELECT id, name, points, "
        "uploaded_at FROM player WHERE id >= (SELECT first FROM here) ORDER BY id "
        "LIMIT 40 OFFSET (SELECT skip FROM here)) AS p "
        "JOIN score AS s ON s.player_id = p.id ORDER BY p.id, s.seq")
first = (median([playerform, "--store", url], b"players\nquit\n"), median(psql + ["-c", page]))
print(f"  (league now {total:,} players)")
for label, (a, b) in [("start-up", startup), ("first page", first)]:
    print(f"  {label:<20} playerform {a * 1000:9.1f} ms | psql {b * 1000:9.1f} ms | time {a / b:5.2f} x")

# The import: the league's records, exported, into a new database each round, next to psql
# loading the same file into a table keyed by the records' ids.
export = os.path.join(work, "records.jsonl")
with open(export, "wb") as file:
    subprocess.run([playerform, "--store", url, "export"], stdout=file, check=True)
records = sum(1 for _ in open(export, "rb"))
ours, theirs = [], []
for round_number in range(rounds):
    for side in ("a", "b"):
        sql(f"DROP DATABASE IF EXISTS import_{side}")
        sql(f"CREATE DATABASE import_{side}")
    target = f"postgres://postgres@localhost:5432/import_a?host={work}"
    subprocess.run([playerform, "--store", target], input=b"quit\n", check=True)
    ours.append(timed([playerform, "--store", target, "import", export]))
    peer = [arg if arg != "postgres" or index < len(psql) - 1 else "import_b" for index, arg in enumerate(psql)]
    subprocess.run(peer + ["-c", "CREATE TABLE peer (doc jsonb NOT NULL, "
                           "id uuid GENERATED ALWAYS AS ((doc->>'id')::uuid) STORED PRIMARY KEY)"], check=True)
    theirs.append(timed(peer + ["-c", f"\\copy peer (doc) FROM '{export}' WITH (FORMAT csv, QUOTE E'\\x01', "
                                f"DELIMITER E'\\x02')"]))
a, b = statistics.median(ours), statistics.median(theirs)
print(f"  import of {records:,} records playerform {a:7.2f} s | psql \\copy {b:7.2f} s | time {a / b:5.2f} x")
PY
