"""Benchmark: what checking a training table against its test table costs, against checking each alone.

Issue 38 asks that the test table be profiled in one pass, at the cost of checking it alone.
This script writes (seeded, under bench/out/) a training and a test table of the long shape
(:func:`make_data.make_long`, seeds 0 and 1, ``--rows`` and a quarter as many rows) and times
whole processes, each fresh, alternating their order in every round:

* ``train``: ``nblint check train.csv --target y``;
* ``test``: ``nblint check test.csv --target y``;
* ``pair``: ``nblint check train.csv --target y --test test.csv``.

It prints each command's median wall and CPU seconds (min-max) over ``--repeat`` rounds, the
median of the per-round ratios ``pair / (train + test)`` (wall and CPU; at most 1 is the bar:
the pair costs no more than the two checks it replaces) and the load average before and after.
The findings of ``pair`` on the training table are checked to equal those of ``train``.

    python bench/bench_traintest.py                   # 1,000,000 training rows, 5 rounds
    python bench/bench_traintest.py --rows 100000 --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from make_data import make_long

OUT = Path(__file__).resolve().parent / "out"


def measured(argv: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds (the child's user + system) of one fresh process, and its standard output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()[-300:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000, help="training rows (the test table: a quarter)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    train, test = OUT / f"tt_train_{args.rows}.csv", OUT / f"tt_test_{args.rows}.csv"
    if not train.exists():
        make_long(train, args.rows, seed=0)
    if not test.exists():
        make_long(test, max(args.rows // 4, 1), seed=1)
    nblint = [sys.executable, "-m", "nblint", "check", "--format", "json"]
    commands = {
        "train": [*nblint, str(train), "--target", "y"],
        "test": [*nblint, str(test), "--target", "y"],
        "pair": [*nblint, str(train), "--target", "y", "--test", str(test)],
    }
    load_before = os.getloadavg()
    wall: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    outputs: dict[str, str] = {}
    for round_ in range(args.repeat):
        order = list(commands) if round_ % 2 == 0 else list(reversed(commands))
        for name in order:
            w, c, out = measured(commands[name])
            wall[name].append(w)
            cpu[name].append(c)
            outputs[name] = out
    load_after = os.getloadavg()
    for name in commands:
        print(f"{name:6s} wall {spread(wall[name])} s   cpu {spread(cpu[name])} s")
    for what, times in (("wall", wall), ("cpu", cpu)):
        ratios = [p / (a + b) for p, a, b in zip(times["pair"], times["train"], times["test"])]
        print(f"pair / (train + test), {what}: {spread(ratios)}")
    on_train = [f for f in json.loads(outputs["pair"]) if not f["code"].startswith("NB6")]
    same = on_train == json.loads(outputs["train"])
    print(f"the pair's findings on the training table equal the training check's: {same}")
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (2 cores)")


if __name__ == "__main__":
    main()
