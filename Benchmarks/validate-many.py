#!/usr/bin/env python3
"""Times `playerform validate` over many small files, as `find ... -print0 | playerform validate
--files0-from -` checks them, against the same files checked by an earlier build, side by side.

usage: Benchmarks/validate-many.py [--files N] [--records R] [--runs K] [--earlier PATH]
                                   [--generator PATH]

Builds playerform as the README's Install section does (Scripts/release-build.sh), writes N files
(default 10,000) of R records each (default 100) from ../shared/bench/gen_players.py into a
temporary folder, then runs, round after round in the same order: `cat` of every file (the
floor), playerform --quiet and playerform writing every finding (to /dev/null), each reading the
list of paths from --files0-from, and the same two with --earlier PATH when given. Prints the
median wall and CPU times and the ratio to playerform --quiet; checks that the counts agree.
"""
import argparse, os, re, resource, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SUMMARY = re.compile(r"(\d+) records, (\d+) invalid")


def cpu_of_children():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=10_000)
    ap.add_argument("--records", type=int, default=100)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--earlier", help="an earlier playerform executable, timed side by side")
    ap.add_argument("--generator", default=os.path.join(os.path.dirname(ROOT), "shared", "bench", "gen_players.py"))
    a = ap.parse_args()
    playerform = subprocess.run([os.path.join(ROOT, "Scripts", "release-build.sh")], capture_output=True,
                                text=True, check=True).stdout.strip()
    folder = tempfile.mkdtemp(prefix="playerform-many-")
    try:
        lines = subprocess.run([sys.executable, a.generator, str(a.files * a.records)], capture_output=True,
                               text=True, check=True).stdout.splitlines(keepends=True)
        paths = []
        for index in range(a.files):
            path = os.path.join(folder, f"p{index:06d}.jsonl")
            with open(path, "w") as f:
                f.writelines(lines[index * a.records:(index + 1) * a.records])
            paths.append(path)
        listing = ("\0".join(paths) + "\0").encode()
        commands = {"cat": ["xargs", "-0", "cat"],
                    "playerform": [playerform, "validate", "--quiet", "--files0-from", "-"],
                    "pf-findings": [playerform, "validate", "--files0-from", "-"]}
        if a.earlier:
            commands["earlier"] = [a.earlier, "validate", "--quiet", "--files0-from", "-"]
            commands["earlier-findings"] = [a.earlier, "validate", "--files0-from", "-"]
        times = {name: [] for name in commands}
        cpus = {name: [] for name in commands}
        counts = set()
        load = os.getloadavg()[0]
        for _ in range(a.runs):
            for name, command in commands.items():
                cpu = cpu_of_children()
                start = time.perf_counter()
                done = subprocess.run(command, input=listing, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                times[name].append(time.perf_counter() - start)
                cpus[name].append(cpu_of_children() - cpu)
                if name != "cat":
                    # The last line is the summary of all inputs; the report names each file's.
                    found = SUMMARY.findall(done.stderr.decode(errors="replace"))
                    if not found:
                        sys.exit(f"no summary from {name}: {done.stderr[-300:]}")
                    counts.add(f"{found[-1][0]} records, {found[-1][1]} invalid")
        if len(counts) != 1:
            sys.exit(f"the counts disagree: {counts}")
        print(f"{a.files} files of {a.records} records; {counts.pop()}; runs: {a.runs}; load average "
              f"{load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end, on {os.cpu_count()} cores")
        base = statistics.median(times["playerform"])
        print(f"  {'':<17} {'wall median s':>14} {'/playerform':>12} {'CPU median s':>13}")
        for name in commands:
            median = statistics.median(times[name])
            print(f"  {name:<17} {median:14.3f} {median / base:12.2f} {statistics.median(cpus[name]):13.3f}")
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
