#!/usr/bin/env python3
"""Writes N mixed playerform commands (default 100,000) to standard output, the same every time."""
import random
import sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
rng = random.Random(42)
names = ["Dana", "Colin", "Zoë", "darn", "  spaced  ", "Ann Lee", '"quoted"', "x" * 40]
makers = [
    lambda: "name " + rng.choice(names),
    lambda: "up %d" % rng.randint(1, 3),
    lambda: "down",
    lambda: "points %s" % rng.choice(["12", "-3.5", "1e3", "20000", "NaN"]),
    lambda: "step %s" % rng.choice(["1", "0.5", "2"]),
    lambda: "min %d" % rng.randint(0, 50),
    lambda: "max %d" % rng.randint(100, 10000),
    lambda: "show --json",
    lambda: "show",
    lambda: "name",
    lambda: "points",
    lambda: "reset",
    lambda: "# a comment",
    lambda: "",
    lambda: "nmae typo",
]
out = sys.stdout
for _ in range(count):
    out.write(rng.choice(makers)() + "\n")
