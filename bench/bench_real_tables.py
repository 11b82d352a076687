"""Benchmark: nblint's time on every real table of both corpora, against reading the table.

Issue 22 asks that no table be slow for its shape: a table whose CSV reads in under
0.1 s checks in under 2 s.  This lints every available table of ``tests/real_tables``
(both corpora, every variant) once, in this process, and prints the slowest tables,
the median, and the slowest against its CSV read.  ``--synthetic`` adds a drop-first
table of the shape that once took 32 s (1,185 rows x 71 dummies of nested variables
whose names share stems), where the dummy-set search asked for name stems millions
of times.

    python bench/bench_real_tables.py                 # both corpora
    python bench/bench_real_tables.py --synthetic     # and the nested drop-first table
    python bench/bench_real_tables.py --only 'gapminder*'
"""

from __future__ import annotations

import argparse
import fnmatch
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from real_tables import build, score  # noqa: E402


def nested_drop_first(rows: int = 1185, seed: int = 0) -> pd.DataFrame:
    """A drop-first table of nested variables: regions within zones, models within makes, and more.

    71 dummies in all, over six variables whose names share stems (``zone_``/``zone_region_``,
    ``make_``/``make_model_``), the shape that made the dummy-set search slow.
    """
    rng = np.random.default_rng(seed)
    zone = rng.integers(0, 4, rows)
    region = zone * 6 + rng.integers(0, 6, rows)  # 24 regions, 6 per zone
    make = rng.integers(0, 5, rows)
    model = make * 5 + rng.integers(0, 5, rows)  # 25 models, 5 per make
    frame = pd.DataFrame(
        {
            "zone": [f"z{v}" for v in zone],
            "zone_region": [f"r{v:02d}" for v in region],
            "make": [f"m{v}" for v in make],
            "make_model": [f"k{v:02d}" for v in model],
            "fuel": rng.choice(["gas", "diesel", "hybrid", "electric"], rows, p=[0.6, 0.25, 0.1, 0.05]),
            "body": rng.choice(["sedan", "wagon", "suv", "van", "coupe", "pickup"], rows),
            "price": rng.gamma(4.0, 5000.0, rows).round(2),
            "y": rng.integers(0, 2, rows),
        }
    )
    categorical = ["zone", "zone_region", "make", "make_model", "fuel", "body"]
    return pd.get_dummies(frame, columns=categorical, drop_first=True, dtype=int)


def lint_seconds(frame: pd.DataFrame, target: str | None, model: str | None) -> tuple[float, float]:
    """Wall and CPU seconds (this process) of one lint: the CPU time is what other load on the machine does not inflate."""
    start, cpu = time.perf_counter(), time.process_time()
    score.lint(frame, target, model)
    return time.perf_counter() - start, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", action="append", help="table ids or globs (repeatable)")
    parser.add_argument("--synthetic", action="store_true", help="also the nested drop-first table")
    parser.add_argument("--top", type=int, default=8, help="slowest tables listed")
    args = parser.parse_args(argv)
    ids = [i for c in ("round1", "round2") for i, e in build.entries(c).items() if e.available()]
    if args.only:
        ids = [i for i in ids if any(fnmatch.fnmatch(i, p) for p in args.only)]
    lint_seconds(pd.DataFrame({"a": [0, 1, 0, 1], "b": [1.0, 2.5, 3.0, 4.5]}), "a", None)  # imports
    timings = []
    for table_id in ids:
        table = build.build(table_id)
        timings.append((*lint_seconds(table.frame, table.target, table.model), table_id, table.frame.shape))
    if args.synthetic:
        frame = nested_drop_first()
        timings.append((*lint_seconds(frame, "y", None), "synthetic nested drop-first", frame.shape))
    if not timings:
        print("no table available", file=sys.stderr)
        return 1
    timings.sort(reverse=True)
    for seconds, cpu, table_id, shape in timings[: args.top]:
        print(f"{seconds:7.2f} s wall {cpu:6.2f} s CPU  {table_id}  {shape[0]}x{shape[1]}")
    median = statistics.median(t for t, _, _, _ in timings)
    median_cpu = statistics.median(c for _, c, _, _ in timings)
    slowest, slowest_cpu, slowest_id, _ = timings[0]
    read = score.csv_read_seconds(slowest_id) if slowest_id in build._ALL else float("nan")
    load = Path("/proc/loadavg")  # other work on the machine inflates wall time, not CPU time
    print(
        f"{len(timings)} tables: slowest {slowest:.2f} s wall / {slowest_cpu:.2f} s CPU ({slowest_id}, "
        f"CSV read {read:.3f} s), median {median:.3f} s wall / {median_cpu:.3f} s CPU, "
        f"slowest / median {slowest / median:.0f}x"
        + (f"; load average {load.read_text().split()[0]}" if load.exists() else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
