"""Benchmark: what a small table's check costs as a whole process, against reading it with pandas.

A linter run by pre-commit or CI starts once per batch of files, often for one small
table, so its start-up is most of its time. This script writes (seeded, under bench/out/)
a CSV of about 2 KB with a target ``y`` and a folder of ``--files`` such tables, then
measures whole processes, each fresh:

* ``read``: ``python -c "import pandas; pandas.read_csv(PATH)"``, the baseline;
* ``check``: ``python -m nblint check PATH --target y``;
* ``version``, ``rules``: ``nblint --version`` and ``nblint rules`` (no table read);
* ``folder``: ``nblint check FOLDER --target y`` over all ``--files`` tables in one process.

``read`` and ``check`` run in pairs (the order alternating), ``--repeat`` pairs, so
both meet the same load; the script prints each command's median wall time (min-max),
the median of the paired ratios ``check / read`` (min-max), what the folder run costs
per table against one ``check`` process, and the load average before and after.

    python bench/bench_startup.py                 # 21 pairs, 1,000 tables in the folder
    python bench/bench_startup.py --repeat 5 --files 50   # quick look
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_check import INSTALLED_ENV  # the measured processes cache their bytecode
from make_data import small_folder, small_table

OUT = Path(__file__).resolve().parent / "out"


def timed(argv: list[str]) -> float:
    """Wall seconds of one fresh process (its output discarded; exit 0 or 1 expected)."""
    start = time.perf_counter()
    code = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False, env=INSTALLED_ENV)
    wall = time.perf_counter() - start
    if code.returncode not in (0, 1):
        raise RuntimeError(f"{argv} failed: {code.stderr.decode()[-2000:]}")
    return wall


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=21, help="paired runs of read and check")
    parser.add_argument("--files", type=int, default=1000, help="tables in the folder run")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    table = OUT / "small.csv"
    small_table(table, 0)
    folder = small_folder(OUT / f"small_{args.files}", args.files)

    python = sys.executable
    read = [python, "-c", f"import pandas; pandas.read_csv({str(table)!r})"]
    check = [python, "-m", "nblint", "check", str(table), "--target", "y"]
    load_before = os.getloadavg()
    timed(read), timed(check)  # warm the page cache and the bytecode caches
    reads, checks, ratios = [], [], []
    for i in range(args.repeat):
        if i % 2:
            c, r = timed(check), timed(read)
        else:
            r, c = timed(read), timed(check)
        reads.append(r)
        checks.append(c)
        ratios.append(c / r)
    version = [timed([python, "-m", "nblint", "--version"]) for _ in range(5)]
    rules = [timed([python, "-m", "nblint", "rules"]) for _ in range(5)]
    folders = [timed([python, "-m", "nblint", "check", str(folder), "--target", "y"]) for _ in range(3)]
    load_after = os.getloadavg()

    single = statistics.median(checks)
    per_table = statistics.median(folders) / args.files
    print(f"{'command':<44} {'median s (min-max)':>24}")
    print(f"{'read: import pandas; read_csv (2 KB)':<44} {spread(reads):>24}")
    print(f"{'check: nblint check small.csv --target y':<44} {spread(checks):>24}")
    print(f"{'nblint --version':<44} {spread(version):>24}")
    print(f"{'nblint rules':<44} {spread(rules):>24}")
    print(f"{f'nblint check FOLDER ({args.files} tables)':<44} {spread(folders):>24}")
    print(
        f"check / read, paired: median {statistics.median(ratios):.2f} (min {min(ratios):.2f}, "
        f"max {max(ratios):.2f}) over {args.repeat} pairs"
    )
    print(
        f"folder: {per_table * 1000:.1f} ms per table, {per_table / single:.3f} of one check process "
        f"({statistics.median(folders) / (args.files * single):.3f} x {args.files} start-ups)"
    )
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min); cpus={os.cpu_count()}")


if __name__ == "__main__":
    main()
