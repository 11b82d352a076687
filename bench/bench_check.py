"""Benchmark: `nblint check` against reading the same CSV with pandas (pyarrow engine).

Generates (seeded, once, cached under bench/out/) two tables:

* ``long``: 1,000,000 rows x 65 columns: 8 one-hot groups (52 bits) of 3-10 levels, 4 independent
  binary columns, 4 count columns, 4 Gaussian columns and a 4-class target;
* ``wide``: 100,000 rows x 2,000 binary columns (200 one-hot groups x 10 levels) and a
  4-class target.

For each table it runs, as fresh processes so that all pay the same start-up and
page-fault costs, ``pandas.read_csv(path, engine="pyarrow")`` alone,
``nblint check PATH --target y --format json`` (``--jobs`` at its default, every core,
NB401 included) and the same with ``--ignore NB401`` (the difference is the impact
stage's cost). Each repeat runs the three back to back (the order alternating between
repeats), so each check meets the load its read met: the ratios are taken within a
repeat, then summarised. It prints, per table, the median wall time of each, the
paired ratios check / read of wall time and of CPU time (user + system of the whole
process, every thread) as median (min-max), the impact stage's time, each process's
peak resident memory, whether every generated group was found (NB101 with exactly the
generated members), and the load average before and after.

    python bench/bench_check.py              # both tables, 5 repeats
    python bench/bench_check.py --rows 100000 --repeat 1 --tables long   # quick look
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from make_data import LONG_GROUP_SIZES, long_columns, make_long, make_wide  # noqa: F401  (the bench tables; re-exported)

OUT = Path(__file__).resolve().parent / "out"
#: The processes measured cache their bytecode, as an installed package's is (pip compiles it
#: at install; pandas' was): with PYTHONDONTWRITEBYTECODE set, an editable nblint would be
#: compiled from source in every process (about 0.15 s here) and pandas would not.
INSTALLED_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_measured(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float, float, str]:
    """Run a command in a fresh process (``env`` added to its environment): wall seconds, CPU seconds, peak RSS (MiB), stdout."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-c", _WRAPPER, *argv],
            stdout=out,
            stderr=subprocess.DEVNULL,
            env={**INSTALLED_ENV, **(env or {})},
        )
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in (0, 1):
            raise RuntimeError(f"{argv} failed with exit code {proc.returncode}")
        out.seek(0)
        stdout = out.read().decode()
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0, stdout


# Runs either the read alone or the CLI in-process.
_WRAPPER = r"""
import sys
mode, path = sys.argv[1], sys.argv[2]
code = 0
if mode == "read":
    import pandas as pd
    pd.read_parquet(path) if path.endswith(".parquet") else pd.read_csv(path, engine="pyarrow")
elif mode == "stream":  # the read in bounded memory: pyarrow's streaming reader, every batch
    import pyarrow.csv as pacsv
    for _ in pacsv.open_csv(path):
        pass
else:
    from nblint.cli import main
    extra = ["--ignore", "NB401"] if mode == "check-no-impact" else []
    if mode == "dask":  # --engine dask on the scheduler sys.argv[3]; the bytes the client receives to sys.argv[4]
        import pickle
        from nblint.dask.backend import DaskBackend
        received = []
        compute, compute_all = DaskBackend.compute, DaskBackend.compute_all
        def counted(self, collection):
            result = compute(self, collection)
            received.append(len(pickle.dumps(result, protocol=5)))
            return result
        def counted_all(self, tasks):
            results = compute_all(self, tasks)
            received.extend(len(pickle.dumps(r, protocol=5)) for r in results)
            return results
        DaskBackend.compute, DaskBackend.compute_all = counted, counted_all
        extra = ["--engine", "dask", "--scheduler", sys.argv[3]]
    try:
        main(["check", path, "--target", "y", "--format", "json", *extra], standalone_mode=False)
    except SystemExit as exc:
        code = exc.code or 0
    if mode == "dask":
        with open(sys.argv[4], "w") as out:
            out.write(str(sum(received)))
sys.exit(0 if code in (0, 1) else code)
"""

MODES = ("read", "check", "check-no-impact")


def bench(name: str, path: Path, groups: list[list[str]], repeat: int) -> dict:
    runs: dict[str, list] = {mode: [] for mode in MODES}
    for i in range(repeat):
        for mode in MODES if i % 2 == 0 else MODES[::-1]:
            runs[mode].append(run_measured([mode, str(path)]))
    findings = json.loads(runs["check"][-1][3])
    found = {frozenset(f["columns"]) for f in findings if f["code"] == "NB101"}
    expected = {frozenset(g) for g in groups}

    def median(mode: str, k: int) -> float:
        return statistics.median(r[k] for r in runs[mode])

    wall_ratios = [c[0] / r[0] for c, r in zip(runs["check"], runs["read"])]
    cpu_ratios = [c[1] / r[1] for c, r in zip(runs["check"], runs["read"])]
    return {
        "table": name,
        "size_mb": path.stat().st_size / 1e6,
        "read_s": median("read", 0),
        "check_s": median("check", 0),
        "read_cpu": median("read", 1),
        "check_cpu": median("check", 1),
        "wall_ratios": wall_ratios,
        "cpu_ratios": cpu_ratios,
        # The impact stage (NB401's extra passes), paired within each repeat.
        "impact_s": statistics.median(c[0] - n[0] for c, n in zip(runs["check"], runs["check-no-impact"])),
        "read_peak_mib": max(r[2] for r in runs["read"]),
        "check_peak_mib": max(c[2] for c in runs["check"]),
        "groups_found": f"{len(found & expected)}/{len(expected)}",
        "other_findings": sorted({f["code"] for f in findings} - {"NB101"}),
    }


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows of the long table")
    parser.add_argument("--wide-rows", type=int, default=100_000, help="rows of the wide table")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--tables", default="long,wide")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    results = []
    load_before = os.getloadavg()
    for name in args.tables.split(","):
        rows = args.rows if name == "long" else args.wide_rows
        path = OUT / f"{name}_{rows}.csv"
        meta = path.with_suffix(".groups.json")
        if not path.exists() or not meta.exists():
            # In a process of its own: a child's peak memory (wait4) starts at its parent's peak,
            # so a table generated here would show as every later read's and check's peak.
            make = "make_long" if name == "long" else "make_wide"
            script = f"import json, make_data; print(json.dumps(make_data.{make}({str(path)!r}, {rows})))"
            made = subprocess.run(
                [sys.executable, "-c", script],
                cwd=Path(__file__).resolve().parent,
                check=True,
                capture_output=True,
                text=True,
            )
            meta.write_text(made.stdout.strip())
        groups = json.loads(meta.read_text())
        results.append(bench(name, path, groups, args.repeat))
    load_after = os.getloadavg()
    header = (
        f"{'table':<6} {'MB':>5} {'read s':>7} {'check s':>8} {'wall ratio (min-max)':>21} "
        f"{'read cpu':>9} {'check cpu':>10} {'cpu ratio (min-max)':>20} {'impact s':>9} "
        f"{'read MiB':>9} {'check MiB':>10} {'groups':>7}  other"
    )
    print(header)
    for r in results:
        print(
            f"{r['table']:<6} {r['size_mb']:>5.0f} {r['read_s']:>7.2f} {r['check_s']:>8.2f} {_spread(r['wall_ratios']):>21} "
            f"{r['read_cpu']:>9.2f} {r['check_cpu']:>10.2f} {_spread(r['cpu_ratios']):>20} {r['impact_s']:>9.2f} "
            f"{r['read_peak_mib']:>9.0f} {r['check_peak_mib']:>10.0f} {r['groups_found']:>7}  {','.join(r['other_findings'])}"
        )
    print(
        f"(times: medians of {args.repeat} runs, each a fresh process; ratios: check / read within each run, "
        f"median (min-max); cpus={os.cpu_count()}; load average {load_before[0]:.2f} before, "
        f"{load_after[0]:.2f} after)"
    )


if __name__ == "__main__":
    main()
