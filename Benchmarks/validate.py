#!/usr/bin/env python3
"""Times `playerform validate --quiet` against the Python reference counter and a jq filter.

usage: Benchmarks/validate.py [--records N] [--runs R] [--jq-runs J] [--rss]

Builds playerform in release mode with the static standard library, generates N player records
(default 1,000,000) with ../shared/bench/gen_players.py into a temporary folder, then runs the three
counters side by side, round after round in the same order, checks that all three count the same
records and invalid records, and prints each median wall time and median CPU time (user + system,
all threads) with its ratio to playerform. playerform reads on a second thread, so on a busy
machine its wall time depends on a second core being free; the CPU ratio does not.
With --rss it also builds a file of about 1 GB by repeating the records and reports playerform's
peak resident memory on it (from /usr/bin/time -v). Temporary files are deleted at the end.
"""
import argparse, os, re, resource, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "bench")
SUMMARY = re.compile(r"(\d+) records, (\d+) invalid")


def build():
    env = dict(os.environ, PATH="/opt/swift/usr/bin:" + os.environ.get("PATH", ""))
    subprocess.run(["swift", "build", "-c", "release", "--product", "playerform", "-Xswiftc", "-static-stdlib",
                    "--package-path", ROOT], check=True, env=env, stdout=subprocess.DEVNULL)
    out = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path", "--package-path", ROOT],
                         check=True, env=env, capture_output=True, text=True).stdout.strip()
    return os.path.join(out, "playerform")


def cpu_of_children():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command):
    """Wall time, CPU time (user + system, all threads) and the (records, invalid) counts."""
    cpu = cpu_of_children()
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    cpu = cpu_of_children() - cpu
    found = SUMMARY.search(done.stdout + done.stderr)
    if not found:
        sys.exit(f"no summary from {command[0]}: {done.stdout} {done.stderr}")
    return elapsed, cpu, (int(found.group(1)), int(found.group(2)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--jq-runs", type=int, default=3)
    ap.add_argument("--rss", action="store_true")
    a = ap.parse_args()

    playerform = build()
    folder = tempfile.mkdtemp(prefix="playerform-bench-")
    try:
        data = os.path.join(folder, "players.jsonl")
        with open(data, "w") as f:
            subprocess.run([sys.executable, os.path.join(SHARED, "gen_players.py"), str(a.records)], stdout=f, check=True)
        candidates = {
            "playerform": [playerform, "validate", "--quiet", data],
            "python": [sys.executable, os.path.join(SHARED, "reference_validate.py"), data],
            "jq": ["jq", "-n", "-r", "-f", os.path.join(HERE, "validate.jq"), data],
        }
        times = {name: [] for name in candidates}
        cpus = {name: [] for name in candidates}
        counts = {}
        for round in range(max(a.runs, a.jq_runs)):
            for name, command in candidates.items():
                if round >= (a.jq_runs if name == "jq" else a.runs):
                    continue
                elapsed, cpu, count = timed(command)
                times[name].append(elapsed)
                cpus[name].append(cpu)
                counts.setdefault(name, set()).add(count)
        print(f"{a.records} records, {os.path.getsize(data) / 1e6:.1f} MB; runs: {a.runs} (jq {a.jq_runs})")
        for name, seen in counts.items():
            print(f"  {name:<11} counts {' | '.join(f'{r} records, {i} invalid' for r, i in sorted(seen))}")
        if len({count for seen in counts.values() for count in seen}) != 1:
            sys.exit("the counters disagree")
        base = statistics.median(times["playerform"])
        cpu_base = statistics.median(cpus["playerform"])
        print(f"  load average before the runs' end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        print(f"  {'':<11} {'wall median s':>14} {'min s':>7} {'ratio':>6}   {'CPU median s':>13} {'ratio':>6}")
        for name, values in times.items():
            median = statistics.median(values)
            cpu = statistics.median(cpus[name])
            print(f"  {name:<11} {median:14.3f} {min(values):7.3f} {median / base:6.1f}   {cpu:13.3f} {cpu / cpu_base:6.1f}")

        if a.rss:
            big = os.path.join(folder, "big.jsonl")
            with open(data, "rb") as src, open(big, "wb") as dst:
                chunk = src.read()
                while dst.tell() < 1_000_000_000:
                    dst.write(chunk)
            done = subprocess.run(["/usr/bin/time", "-v", playerform, "validate", "--quiet", big],
                                  capture_output=True, text=True)
            rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1)
            print(f"  peak RSS on {os.path.getsize(big) / 1e9:.2f} GB: {int(rss) / 1024:.1f} MiB; "
                  f"{SUMMARY.search(done.stderr).group(0)}")
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
