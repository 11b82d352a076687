"""Benchmark: the shapes that used to exhaust memory or time (issue 17), against reading them with pandas.

Generates (seeded, once, cached under bench/out/):

* ``classes_1000`` and ``classes_10000``: 100,000 rows (``--rows``) of a 4-level one-hot
  group, 6 Gaussian and 4 code columns, with a target of 1,000 or 10,000 classes
  (NB401 and ``impact`` were quadratic in the classes: 66 s and over 300 s);
* ``floats_50000``: 200 rows (``--wide-rows``) x 50,000 float columns (grew to 23.6 GB);
* ``bits_50000``: 200 rows x 50,000 random 0/1 columns (tried to allocate 18.6 GiB);
* ``onehot_2000``: 1,000 rows (``--onehot-rows``) of bench_check's wide table, 200 one-hot
  groups of 10 levels (2,001 columns, more than rows: NB104 fitted each of the ~800 columns
  past the rank by its own least-squares solve and ran over 10 minutes; CSV only).

The wide tables are written as Parquet and as CSV. For each file it measures, each in
a fresh process so that all pay the same start-up costs: the read alone
(``pandas.read_parquet`` or ``pandas.read_csv(engine="pyarrow")``), ``nblint check PATH
--target y --format json``, and, for the class tables, the same with ``--ignore NB401``
(the impact stage's cost). It prints the median wall time of ``--repeat`` runs, the
check/read ratio (min-max of the paired ratios), each process's peak resident memory
against nblint's memory budget, and the NB106 notes (what the budget left out).

    python bench/bench_hostile.py                       # every table, 1 run each
    python bench/bench_hostile.py --tables classes_10000 --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
from pathlib import Path

import numpy as np
from bench_check import run_measured  # (a fresh process per run; bench/ is on the path when run as a script)

OUT = Path(__file__).resolve().parent / "out"
TABLES = ("classes_1000", "classes_10000", "floats_50000", "bits_50000", "onehot_2000")


def make_classes(path: Path, n: int, classes: int, seed: int = 0) -> None:
    import pandas as pd

    rng = np.random.default_rng(seed)
    level = rng.integers(0, 4, n)
    frame = pd.DataFrame({f"g{k}": (level == k).astype(np.int8) for k in range(4)})
    for j in range(6):
        frame[f"x{j}"] = rng.normal(size=n)
    for j in range(4):
        frame[f"c{j}"] = rng.integers(0, 10, n)
    frame["y"] = rng.integers(0, classes, n)
    frame.to_parquet(path, index=False)


def make_wide(path: Path, n: int, kind: str, columns: int = 50_000, seed: int = 0) -> None:
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    data = {
        f"c{i}": rng.random(n) if kind == "floats" else rng.integers(0, 2, n).astype(np.int8) for i in range(columns)
    }
    data["y"] = rng.integers(0, 2, n)
    table = pa.table(data)
    pq.write_table(table, path.with_suffix(".parquet"))
    pacsv.write_csv(table, path.with_suffix(".csv"))


def bench(path: Path, repeat: int, impact: bool) -> dict:
    reads, checks, no_impact = [], [], []
    for _ in range(repeat):
        reads.append(run_measured(["read", str(path)]))
        checks.append(run_measured(["check", str(path)]))
        if impact:
            no_impact.append(run_measured(["check-no-impact", str(path)]))
    # run_measured gives (wall s, CPU s, peak MiB, stdout)
    findings = json.loads(checks[-1][3])
    ratios = [c[0] / r[0] for c, r in zip(checks, reads)]
    return {
        "file": path.name,
        "size_mb": path.stat().st_size / 1e6,
        "read_s": statistics.median(r[0] for r in reads),
        "check_s": statistics.median(c[0] for c in checks),
        "ratio": statistics.median(ratios),
        "ratio_range": (min(ratios), max(ratios)),
        "impact_s": statistics.median(c[0] for c in checks) - statistics.median(c[0] for c in no_impact)
        if impact
        else None,
        "check_cpu_s": statistics.median(c[1] for c in checks),
        "read_peak_mib": max(r[2] for r in reads),
        "check_peak_mib": max(c[2] for c in checks),
        "notes": [f["message"] for f in findings if f["code"] == "NB106"],
        "codes": sorted({f["code"] for f in findings}),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=100_000, help="rows of the class tables")
    parser.add_argument("--wide-rows", type=int, default=200, help="rows of the 50,000-column tables")
    parser.add_argument("--onehot-rows", type=int, default=1_000, help="rows of the one-hot table (fewer than columns)")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--tables", default=",".join(TABLES))
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    from nblint.core.resources import MemoryBudget

    results = []
    for name in args.tables.split(","):
        kind, count = name.split("_")
        if kind == "classes":
            paths = [OUT / f"{name}_{args.rows}.parquet"]
            if not paths[0].exists():
                make_classes(paths[0], args.rows, int(count))
        elif kind == "onehot":
            from make_data import make_wide as make_onehot  # (bench_check's wide generator)

            paths = [OUT / f"{name}_{args.onehot_rows}.csv"]
            if not paths[0].exists():
                make_onehot(paths[0], args.onehot_rows, n_groups=int(count) // 10)
        else:
            stem = OUT / f"{name}_{args.wide_rows}"
            paths = [stem.with_suffix(".parquet"), stem.with_suffix(".csv")]
            if not all(p.exists() for p in paths):
                make_wide(stem, args.wide_rows, kind, int(count))
        results += [bench(path, args.repeat, impact=kind == "classes") for path in paths]
    print(
        f"{'file':<32} {'MB':>6} {'read s':>7} {'check s':>8} {'CPU s':>6} {'ratio':>6} {'(min-max)':>13} {'impact s':>9} "
        f"{'read MiB':>9} {'check MiB':>10}  codes"
    )
    for r in results:
        impact = f"{r['impact_s']:>9.1f}" if r["impact_s"] is not None else f"{'-':>9}"
        low, high = r["ratio_range"]
        print(
            f"{r['file']:<32} {r['size_mb']:>6.0f} {r['read_s']:>7.1f} {r['check_s']:>8.1f} {r['check_cpu_s']:>6.1f} "
            f"{r['ratio']:>6.1f} "
            f"{f'({low:.1f}-{high:.1f})':>13} {impact} {r['read_peak_mib']:>9.0f} {r['check_peak_mib']:>10.0f}  "
            f"{','.join(r['codes'])}"
        )
        for note in r["notes"]:
            print(f"    NB106: {note}")
    print(
        f"(medians of {args.repeat} runs, each in a fresh process; cpus={os.cpu_count()}; "
        f"memory budget {MemoryBudget.default().memory / 2**30:.1f} GiB)"
    )


if __name__ == "__main__":
    main()
