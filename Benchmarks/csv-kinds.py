#!/usr/bin/env python3
"""What a CSV record costs by the kind of its name, against what CSV may cost to be as fast per byte
as JSON Lines.

usage: Benchmarks/csv-kinds.py [--records N] [--kind-records K] [--runs R] [--generator PATH]

Builds playerform as the README's Install section does (Scripts/release-build.sh), generates N
records (default 2,000,000) with ../shared/bench/gen_players.py as JSON Lines and the same records as
CSV (as Benchmarks/validate.py writes them), and, for each name the generator uses, a CSV file of K
records (default 1,000,000) that all hold that name (the generator's numbered names numbered as it
numbers them), with points 100. Round after round, `playerform validate --quiet` reads every file;
the script prints the median CPU time (user + system, all threads) per record.

The budget is the CPU time per record that CSV may take to be as fast per byte as JSON Lines: the
JSON Lines record's time times the ratio of the two files' sizes. Each kind's ratio to the budget
says how far a file of that kind alone, every branch guessed, is from it.
"""
import argparse, importlib.util, json, os, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "bench")
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ left in Benchmarks/
import validate  # noqa: E402  (the build, the CSV writing and the timing are validate.py's)


def load_generator(path):
    spec = importlib.util.spec_from_file_location("gen_players", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_kind(path, name, numbered, count):
    """A CSV file of `count` records of `name` (numbered as the generator numbers names) with points 100."""
    with open(path, "w", encoding="utf-8", newline="") as out:
        out.write("name,points\n")
        for index in range(count):
            out.write(f"{validate.csv_name(name + str(index % 97) if numbered else name)},100\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", type=int, default=2_000_000)
    ap.add_argument("--kind-records", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--generator", default=os.path.join(SHARED, "gen_players.py"))
    a = ap.parse_args()
    binary = validate.build()
    generator = load_generator(a.generator)
    with tempfile.TemporaryDirectory() as folder:
        jsonl = os.path.join(folder, "mix.jsonl")
        with open(jsonl, "w") as out:
            subprocess.run([sys.executable, a.generator, str(a.records)], stdout=out, check=True)
        mix = os.path.join(folder, "mix.csv")
        validate.write_csv(jsonl, mix)
        files = [("JSON Lines, generated", jsonl, a.records), ("CSV, generated", mix, a.records)]
        kinds = [(name, True) for name in generator.NAMES] + [(name, False) for name in generator.BAD_NAMES]
        for index, (name, numbered) in enumerate(kinds):
            path = os.path.join(folder, f"kind{index}.csv")
            write_kind(path, name, numbered, a.kind_records)
            files.append((json.dumps(name + "N" if numbered else name, ensure_ascii=False), path, a.kind_records))
        times = {path: [] for _, path, _ in files}
        for _ in range(a.runs):
            for _, path, count in files:
                _, cpu, counts = validate.timed([binary, "validate", "--quiet", path])
                if counts[0] != count:
                    sys.exit(f"{path}: {counts[0]} records, expected {count}")
                times[path].append(cpu / count * 1e9)
        per_record = {path: statistics.median(values) for path, values in times.items()}
        size_ratio = os.path.getsize(mix) / os.path.getsize(jsonl)
        budget = per_record[jsonl] * size_ratio
        print(f"{a.records} generated records ({a.kind_records} a kind), runs: {a.runs}")
        print(f"  the CSV file is {size_ratio:.3f} of the JSON Lines file's size: "
              f"the budget is {budget:.1f} ns of CPU a CSV record")
        print(f"  {'file':28s} {'ns/record':>10s} {'/budget':>8s}")
        for label, path, _ in files:
            print(f"  {label:28s} {per_record[path]:10.1f} {per_record[path] / budget:8.2f}")


if __name__ == "__main__":
    main()
