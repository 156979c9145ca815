#!/usr/bin/env python3
"""Times `playerform validate --quiet` against the tools a user would pick instead, side by side.

usage: Benchmarks/validate.py [--records N] [--runs R] [--slow-runs S] [--venv DIR] [--skip NAME,...]
                              [--generator PATH] [--format jsonl|csv] [--rss] [--long-first]
                              [--earlier PATH] [--modes]

Builds playerform as the README's Install section does (Scripts/release-build.sh: release, one
fully static executable, in .build-static), generates N player records
(default 1,000,000) with ../shared/bench/gen_players.py (or --generator) into a temporary folder, then runs, round
after round in the same order: `cat` (the floor: reading the file and nothing else), playerform,
Python with the standard json module, and, when they are installed, Python with orjson, polars,
DuckDB (from the virtual environment DIR, default Benchmarks/.venv: `python3 -m venv
Benchmarks/.venv && Benchmarks/.venv/bin/pip install orjson polars duckdb`) and jq. Every peer
applies the default rules (empty name, forbidden name after NFKC or full-width mapping, control
characters, points in 0...10000); the script checks that all count the same records and invalid
records, then prints each median wall time, MB/s, its ratios to playerform and to cat, and the
median CPU time (user + system, all threads). jq and the standard json module run --slow-runs
times (default 3). With --rss it also reports playerform's peak resident memory on a file of about
1 GB built by repeating the records (from /usr/bin/time -v). Temporary files are deleted at the end.

With --format csv the same records are also written as CSV (a header row, then name and points,
quoted where the name holds a comma, quote or line break or starts or ends with a space), and the
runs are `cat` and playerform on the CSV file, Python with the csv module (a slow peer), and `cat`
and playerform on the JSON Lines file of the same records, so the two formats are timed side by
side; all counters must agree, JSON Lines and CSV alike. --rss then uses a CSV file of about 1 GB.

--long-first starts the file with one record of 2 MB, longer than a chunk, which playerform reads
one record at a time (the general path) before the chunks go on. --earlier PATH times another playerform
executable, such as a build of an earlier commit, side by side as `earlier`.

For JSON Lines, when libsimdjson-dev and g++ are installed, the floor peer Benchmarks/simdjson-
validate.cpp (simdjson's iterate_many with the rules' share the generated records need) is built
into the temporary folder and timed as `simdjson`; the table gives each program's CPU per record,
and the last line playerform's against simdjson's. --modes also times playerform's other modes
next to --quiet: the report by reason alone (`pf-report`, --report-only), the records split into
two files (`pf-split`, --valid and --invalid in the temporary folder), duplicates found
(`pf-unique`, --unique) and every finding written to /dev/null with the report (`pf-findings`);
with --rss, each mode's peak resident memory too.
"""
import argparse, csv, json, os, re, resource, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "bench")
SUMMARY = re.compile(r"(\d+) records, (\d+) invalid")

# The default rules, as each peer applies them. Each program reads the file named by argv[1] and
# prints "N records, K invalid".
RULES = r"""
import math, re, sys, unicodedata
FORBIDDEN = {"dag nabbit", "darn", "poop"}
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
def ok(r):
    name, pts = r.get("name"), r.get("points")
    return (isinstance(name, str) and isinstance(pts, (int, float)) and not isinstance(pts, bool)
            and name.strip() != "" and CONTROL.search(name) is None
            and unicodedata.normalize("NFKC", name).strip().lower() not in FORBIDDEN
            and math.isfinite(pts) and 0 <= pts <= 10000)
def count(load):
    total = bad = 0
    with open(sys.argv[1], "rb") as f:
        for line in f:
            if not line.strip():
                continue
            total += 1
            try:
                bad += not ok(load(line))
            except (ValueError, AttributeError):
                bad += 1
    print(f"{total} records, {bad} invalid")
"""
PYTHON = RULES + "import json\ncount(json.loads)\n"
# The same rules over CSV records: a record whose field count differs from the header's, or whose
# points are not a number, is invalid; blank lines are skipped.
PYTHON_CSV = RULES + r"""
import csv
total = bad = 0
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    rows = csv.reader(f)
    header = [title.strip() for title in next(rows)]
    name_at, points_at = header.index("name"), header.index("points")
    for row in rows:
        if not "".join(row).strip(" \t\r") and len(row) <= 1:
            continue
        total += 1
        try:
            bad += len(row) != len(header) or not ok({"name": row[name_at], "points": float(row[points_at])})
        except ValueError:
            bad += 1
print(f"{total} records, {bad} invalid")
"""
ORJSON = RULES + "import orjson\ncount(orjson.loads)\n"
FULL_WIDTH = "".join(chr(c) for c in range(0xFF01, 0xFF5F))
ASCII = "".join(chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F))
POLARS = r"""
import sys, polars as pl
name, points = pl.col("name"), pl.col("points")
key = name.str.replace_many(list(%r), list(%r)).str.to_lowercase().str.strip_chars()
bad = (name.is_null() | points.is_null() | (name.str.strip_chars() == "")
       | name.str.contains(r"[\x00-\x1F\x7F-\x{9F}\x{2028}\x{2029}]")
       | key.is_in(["dag nabbit", "darn", "poop"]) | ~points.is_finite() | (points < 0) | (points > 10000))
out = (pl.scan_ndjson(sys.argv[1], schema={"name": pl.String, "points": pl.Float64})
       .select(pl.len().alias("n"), bad.sum().alias("k")).collect())
print(f"{out['n'][0]} records, {out['k'][0]} invalid")
""" % (FULL_WIDTH, ASCII)
DUCKDB = r"""
import sys, duckdb
connection = duckdb.connect()
connection.execute('SET enable_progress_bar = false')
n, k = connection.execute(r'''
    SELECT count(*), count(*) FILTER (WHERE name IS NULL OR points IS NULL OR trim(name) = ''
        OR regexp_matches(name, '[\x00-\x1f\x7f-\x{9f}\x{2028}\x{2029}]')
        OR trim(lower(translate(name, '%s', '%s'))) IN ('dag nabbit', 'darn', 'poop')
        OR NOT isfinite(points) OR points < 0 OR points > 10000)
    FROM read_json(?, format = 'newline_delimited', columns = {'name': 'VARCHAR', 'points': 'DOUBLE'})
''', [sys.argv[1]]).fetchone()
print(f"{n} records, {k} invalid")
""" % (FULL_WIDTH, ASCII.replace("'", "''"))


def build():
    script = os.path.join(ROOT, "Scripts", "release-build.sh")
    return subprocess.run([script], check=True, stdout=subprocess.PIPE, text=True).stdout.strip()


def build_simdjson(folder):
    """The simdjson peer (Benchmarks/simdjson-validate.cpp), built when libsimdjson-dev and g++ are
    installed; None otherwise."""
    if not os.path.exists("/usr/include/simdjson.h") or not shutil.which("g++"):
        print("  (simdjson peer left out: install libsimdjson-dev and g++)", file=sys.stderr)
        return None
    program = os.path.join(folder, "simdjson-validate")
    subprocess.run(["g++", "-O3", "-std=c++17", os.path.join(HERE, "simdjson-validate.cpp"), "-lsimdjson",
                    "-o", program], check=True)
    return program


def csv_name(name):
    """A name as a CSV field: quoted when it holds a comma, quote or line break, or starts or ends with a space."""
    if any(c in name for c in ',"\n\r') or name != name.strip():
        return '"' + name.replace('"', '""') + '"'
    return name


def write_csv(jsonl, path):
    """Writes the records of the JSON Lines file `jsonl` as CSV: the same names and points, in order."""
    with open(jsonl, encoding="utf-8") as src, open(path, "w", encoding="utf-8", newline="") as dst:
        dst.write("name,points\n")
        for line in src:
            record = json.loads(line)
            dst.write(f"{csv_name(record['name'])},{json.dumps(record['points'])}\n")


def cpu_of_children():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command, discard_output=False):
    """Wall time, CPU time (user + system, all threads) and the (records, invalid) counts.

    With discard_output, standard output goes to /dev/null (findings nobody reads) and the counts
    are read from standard error."""
    cpu = cpu_of_children()
    if command[0] == "cat":
        # The floor: reading the file and writing it where nothing reads it.
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
        return time.perf_counter() - start, cpu_of_children() - cpu, None
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL if discard_output else subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    done.stdout = done.stdout or ""
    elapsed = time.perf_counter() - start
    cpu = cpu_of_children() - cpu
    found = SUMMARY.search(done.stdout + done.stderr)
    if not found:
        sys.exit(f"no summary from {' '.join(command[:2])}: {done.stdout[-500:]} {done.stderr[-500:]}")
    return elapsed, cpu, (int(found.group(1)), int(found.group(2)))


def has(python, module):
    return os.path.exists(python) and subprocess.run([python, "-c", f"import {module}"], capture_output=True).returncode == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--slow-runs", type=int, default=3)
    ap.add_argument("--venv", default=os.path.join(HERE, ".venv"))
    ap.add_argument("--skip", default="", help="peers to leave out, comma-separated")
    ap.add_argument("--rss", action="store_true")
    ap.add_argument("--generator", default=os.path.join(SHARED, "gen_players.py"))
    ap.add_argument("--format", choices=["jsonl", "csv"], default="jsonl")
    ap.add_argument("--long-first", action="store_true",
                    help="start the file with a record of 2 MB, longer than a chunk, which the "
                         "one-record-at-a-time reader reads")
    ap.add_argument("--earlier", help="an earlier playerform executable, timed side by side as 'earlier'")
    ap.add_argument("--modes", action="store_true",
                    help="also time playerform's --report-only, --valid/--invalid, --unique and every "
                         "finding, next to --quiet")
    a = ap.parse_args()
    skip = set(filter(None, a.skip.split(",")))

    playerform = build()
    folder = tempfile.mkdtemp(prefix="playerform-bench-")
    try:
        data = os.path.join(folder, "players.jsonl")
        with open(data, "w") as f:
            if a.long_first:
                f.write('{"name": "' + "x" * 2_000_000 + '", "points": 1}\n')
                f.flush()
            subprocess.run([sys.executable, a.generator, str(a.records)], stdout=f, check=True)
        venv = os.path.join(a.venv, "bin", "python")
        if a.format == "csv":
            jsonl, data = data, os.path.join(folder, "players.csv")
            write_csv(jsonl, data)
            candidates = {"cat": ["cat", data], "playerform": [playerform, "validate", "--quiet", data],
                          "python-csv": [sys.executable, "-c", PYTHON_CSV, data],
                          "cat-jsonl": ["cat", jsonl], "pf-jsonl": [playerform, "validate", "--quiet", jsonl]}
        else:
            candidates = {"cat": ["cat", data], "playerform": [playerform, "validate", "--quiet", data]}
            simdjson = build_simdjson(folder)
            if simdjson:
                candidates["simdjson"] = [simdjson, data]
            for name, program in (("polars", POLARS), ("duckdb", DUCKDB), ("orjson", ORJSON)):
                if has(venv, name):
                    candidates[name] = [venv, "-c", program, data]
            candidates["python"] = [sys.executable, "-c", PYTHON, data]
            if shutil.which("jq"):
                candidates["jq"] = ["jq", "-n", "-r", "-f", os.path.join(HERE, "validate.jq"), data]
        if a.earlier:
            candidates["earlier"] = [a.earlier, "validate", "--quiet", data]
        if a.modes:
            candidates["pf-report"] = [playerform, "validate", "--report-only", data]
            candidates["pf-split"] = [playerform, "validate", "--quiet", "--valid", os.path.join(folder, "valid.out"),
                                      "--invalid", os.path.join(folder, "invalid.out"), data]
            candidates["pf-unique"] = [playerform, "validate", "--quiet", "--unique", data]
            candidates["pf-findings"] = [playerform, "validate", data]
        candidates = {name: command for name, command in candidates.items() if name not in skip}
        slow = {"python", "jq", "python-csv"}
        times = {name: [] for name in candidates}
        cpus = {name: [] for name in candidates}
        counts = {}
        load = os.getloadavg()[0]
        for round in range(max(a.runs, a.slow_runs)):
            for name, command in candidates.items():
                if round >= (a.slow_runs if name in slow else a.runs):
                    continue
                elapsed, cpu, count = timed(command, discard_output=name == "pf-findings")
                times[name].append(elapsed)
                cpus[name].append(cpu)
                # --unique counts duplicates as invalid too: the others' counts do not apply.
                if count is not None and name != "pf-unique":
                    counts.setdefault(name, set()).add(count)
        size = os.path.getsize(data)
        sizes = {name: os.path.getsize(command[-1]) for name, command in candidates.items()}
        floors = {name: "cat-jsonl" if command[-1] != data else "cat" for name, command in candidates.items()}
        if a.format == "csv":
            print(f"{a.records} records, CSV {size / 1e6:.1f} MB, JSON Lines {os.path.getsize(jsonl) / 1e6:.1f} MB; "
                  f"runs: {a.runs} (python-csv: {a.slow_runs})")
        else:
            print(f"{a.records} records, {size / 1e6:.1f} MB; runs: {a.runs} (python, jq: {a.slow_runs})")
        for name, seen in counts.items():
            print(f"  {name:<11} counts {' | '.join(f'{r} records, {i} invalid' for r, i in sorted(seen))}")
        if len({count for seen in counts.values() for count in seen}) != 1:
            sys.exit("the counters disagree")
        base = statistics.median(times["playerform"])
        print(f"  load average: {load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end, on {os.cpu_count()} cores")
        print(f"  {'':<11} {'wall median s':>14} {'MB/s':>7} {'records/s':>11} {'/playerform':>11} {'/cat':>7}"
              f"   {'CPU median s':>13} {'CPU ns/record':>14}")
        for name, values in times.items():
            median = statistics.median(values)
            cpu = statistics.median(cpus[name])
            floor = times.get(floors[name])
            to_cat = f"{median / statistics.median(floor):7.1f}" if floor else f"{'':>7}"
            print(f"  {name:<11} {median:14.3f} {sizes[name] / 1e6 / median:7.0f} {a.records / median:11.3g}"
                  f" {median / base:11.2f} {to_cat}   {cpu:13.3f} {cpu / a.records * 1e9:14.1f}")
        if "simdjson" in cpus:
            ratio = statistics.median(cpus["playerform"]) / statistics.median(cpus["simdjson"])
            print(f"  playerform's CPU per record: {ratio:.2f} x simdjson's")

        if a.rss:
            big = os.path.join(folder, "big." + a.format)
            with open(data, "rb") as src, open(big, "wb") as dst:
                chunk = src.read()
                if a.format == "csv":
                    header, chunk = chunk.split(b"\n", 1)
                    dst.write(header + b"\n")
                while dst.tell() < 1_000_000_000:
                    dst.write(chunk)
            modes = {"--quiet": ["--quiet"]}
            if a.modes:
                modes.update({"--report-only": ["--report-only"],
                              "--valid/--invalid": ["--quiet", "--valid", os.path.join(folder, "valid.out"),
                                                    "--invalid", os.path.join(folder, "invalid.out")],
                              "--unique": ["--quiet", "--unique"], "findings": []})
            for mode, flags in modes.items():
                done = subprocess.run(["/usr/bin/time", "-v", playerform, "validate", *flags, big],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1)
                print(f"  peak RSS on {os.path.getsize(big) / 1e9:.2f} GB, {mode}: {int(rss) / 1024:.1f} MiB; "
                      f"{SUMMARY.search(done.stderr).group(0)}")
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
