"""Benchmark: how `nblint check`'s time and memory grow with the rows and the columns, against the read.

One command per row of the table, so that each can be run alone on a quiet machine:

    python bench/bench_scale.py rows 100000          # the long shape (65 columns) at 100k rows
    python bench/bench_scale.py rows 1000000
    python bench/bench_scale.py rows 10000000 --memory-budget 1GiB   # a 1.5 GB CSV, streamed within a smaller budget
    python bench/bench_scale.py columns 65           # 100k rows (--rows) of the long shape, 1x
    python bench/bench_scale.py columns 650          # ... its 64 features copied 10 times
    python bench/bench_scale.py columns 6500         # ... 100 times
    python bench/bench_scale.py jobs                 # --jobs 1 against --jobs 2, 1M rows
    python bench/bench_scale.py dask 10000000        # --engine dask, 2 local workers, against the local engine
    python bench/bench_scale.py slopes               # the table of every row recorded, with slopes

Tables are written once (seeded, cached under bench/out/) by ``bench/make_data.py``'s
``make_long_streamed`` a million cells at a time, so this script never holds one whole
either. Each row runs ``--repeat`` rounds (3 by default), each a fresh process per command,
the order alternating: the streamed read (``pyarrow.csv.open_csv``, every batch: the read
in bounded memory, possible at every size), ``pandas.read_csv(engine="pyarrow")`` (when the
CSV is at most ``--pandas-max-mb``: the 10M-row frame would need tens of GiB) and
``nblint check PATH --target y --format json`` (NB401 included, ``--jobs`` at its default;
``--memory-budget`` sets its ``NBLINT_MEMORY_BUDGET``, so the 10M-row CSV is checked within a
budget smaller than the file).
It prints the medians of wall and CPU time (user + system, every thread), the paired
ratios check / read and each process's peak memory, and records the row in
``bench/out/scale.jsonl``. ``slopes`` fits log(time) against log(size) over the rows
recorded along each axis: a slope of 1.00 is linear, and the memory column shows whether
memory stays flat in rows.

``dask N`` starts a ``distributed.LocalCluster`` of 2 worker processes (one thread each) and
runs, alternating, ``nblint check`` on the N-row table with the local engine and with
``--engine dask --scheduler ADDRESS``: wall time of each (the cluster's start-up excluded; the
client's CPU only, the workers' is not counted), the ratio dask / local, the bytes of every
result the client receives (pickled, as ``bench/bench_dask.py`` counts them) against the
table's 8 bytes per cell as pandas holds it, and whether the two JSON reports are identical.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_check import run_measured  # noqa: E402  (a fresh process: wall, CPU, peak memory)

OUT = Path(__file__).resolve().parent / "out"
RECORD = OUT / "scale.jsonl"
#: Columns of the long shape: its 64 features and the target.
LONG_FEATURES = 64


def table_for(axis: str, size: int, rows: int) -> tuple[Path, int, int]:
    """The CSV of one row of the table (written once): path, rows, columns."""
    if axis == "rows":
        n_rows, copies = size, 1
    else:
        copies = max(1, round((size - 1) / LONG_FEATURES))
        n_rows = rows
    path = OUT / (f"scale_long_{n_rows}.csv" if copies == 1 else f"scale_long_{n_rows}_x{copies}.csv")
    if not path.exists():
        print(f"generating {path} ...", file=sys.stderr)
        # In a process of its own: a child's peak memory (wait4's ru_maxrss) starts at the parent's
        # peak (Linux carries it over the vfork and exec of subprocess), so a table generated in this
        # process made every later check and read of the run report at least the generator's peak.
        import subprocess

        subprocess.run(
            [
                sys.executable,
                "-c",
                f"from make_data import make_long_streamed as m; m({str(path)!r}, {n_rows}, copies={copies})",
            ],
            cwd=Path(__file__).resolve().parent,
            check=True,
        )
    return path, n_rows, copies * LONG_FEATURES + 1


def measure(axis: str, size: int, args) -> dict:
    path, n_rows, n_columns = table_for(axis, size, args.rows)
    mb = path.stat().st_size / 1e6
    modes = ["stream", "check"] + (["read"] if mb <= args.pandas_max_mb else [])
    runs: dict[str, list] = {mode: [] for mode in modes}
    budget = {"NBLINT_MEMORY_BUDGET": args.memory_budget} if args.memory_budget else None
    load_before = os.getloadavg()[0]
    for i in range(args.repeat):
        for mode in modes if i % 2 == 0 else modes[::-1]:
            runs[mode].append(run_measured([mode, str(path)], budget if mode == "check" else None)[:3])
    load_after = os.getloadavg()[0]
    row = {"axis": axis, "size": size, "rows": n_rows, "columns": n_columns, "csv_mb": round(mb, 1)}
    for mode, results in runs.items():
        row[f"{mode}_wall"] = statistics.median(r[0] for r in results)
        row[f"{mode}_cpu"] = statistics.median(r[1] for r in results)
        row[f"{mode}_peak_mib"] = max(r[2] for r in results)
    for read in ("stream", "read"):
        if read in runs:
            row[f"wall_ratio_{read}"] = statistics.median(c[0] / r[0] for c, r in zip(runs["check"], runs[read]))
            row[f"cpu_ratio_{read}"] = statistics.median(c[1] / r[1] for c, r in zip(runs["check"], runs[read]))
    row["memory_budget"] = args.memory_budget
    row["load"] = [round(load_before, 2), round(load_after, 2)]
    row["repeat"] = args.repeat
    return row


def record(row: dict) -> None:
    """Keep the latest measurement of each (axis, size) in the record."""
    rows = [json.loads(line) for line in RECORD.read_text().splitlines()] if RECORD.exists() else []
    rows = [r for r in rows if (r["axis"], r["size"]) != (row["axis"], row["size"])] + [row]
    RECORD.write_text("".join(json.dumps(r) + "\n" for r in rows))


def show(row: dict) -> None:
    pandas = (
        f"pandas {row['read_wall']:.2f} s / {row['read_cpu']:.2f} s CPU, {row['read_peak_mib']:.0f} MiB, "
        f"check/pandas {row['wall_ratio_read']:.2f} wall {row['cpu_ratio_read']:.2f} CPU"
        if "read_wall" in row
        else "pandas not run (CSV above --pandas-max-mb)"
    )
    print(
        f"{row['axis']}={row['size']:,}: {row['rows']:,} x {row['columns']:,}, {row['csv_mb']:.0f} MB; "
        f"check {row['check_wall']:.2f} s / {row['check_cpu']:.2f} s CPU, {row['check_peak_mib']:.0f} MiB; "
        f"streamed read {row['stream_wall']:.2f} s / {row['stream_cpu']:.2f} s CPU, {row['stream_peak_mib']:.0f} MiB; "
        f"check/streamed read {row['wall_ratio_stream']:.2f} wall {row['cpu_ratio_stream']:.2f} CPU; {pandas} "
        f"(medians of {row['repeat']}, load {row['load'][0]:.2f}-{row['load'][1]:.2f}, cpus={os.cpu_count()}"
        f"{', memory budget ' + row['memory_budget'] if row.get('memory_budget') else ''})"
    )


def slope(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of log(y) against log(x): the exponent of y ~ x^b."""
    import math

    if len(points) < 2:
        return None
    xs, ys = [math.log(x) for x, _ in points], [math.log(y) for _, y in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def slopes() -> None:
    rows = [json.loads(line) for line in RECORD.read_text().splitlines()] if RECORD.exists() else []
    for axis in ("rows", "columns"):
        along = sorted((r for r in rows if r["axis"] == axis), key=lambda r: r[axis])
        if not along:
            continue
        print(
            f"{axis:<8} {'size':>11} {'MB':>6} {'check s':>8} {'CPU s':>7} {'read s':>7} {'CPU s':>7} "
            f"{'wall x':>7} {'CPU x':>6} {'check MiB':>10} {'read MiB':>9} {'load':>10}"
        )
        for r in along:
            print(
                f"{'':<8} {r[axis]:>11,} {r['csv_mb']:>6.0f} {r['check_wall']:>8.2f} {r['check_cpu']:>7.2f} "
                f"{r['stream_wall']:>7.2f} {r['stream_cpu']:>7.2f} {r['wall_ratio_stream']:>7.2f} "
                f"{r['cpu_ratio_stream']:>6.2f} {r['check_peak_mib']:>10.0f} {r['stream_peak_mib']:>9.0f} "
                f"{r['load'][0]:>4.1f}-{r['load'][1]:<4.1f}"
            )
        fits = {
            key: slope([(r[axis], r[key]) for r in along])  # (the actual rows or columns)
            for key in ("check_wall", "check_cpu", "stream_wall", "stream_cpu", "check_peak_mib")
        }
        print(
            f"{axis}: slopes of log time against log size (1.00 = linear): "
            + ", ".join(f"{key} {value:.2f}" for key, value in fits.items() if value is not None)
        )
    print("(read = pyarrow's streamed read; ratios check / read paired within each round, medians)")


def jobs(args) -> None:
    """--jobs 1 against --jobs 2 on the 1M-row table: wall time and whether the JSON is identical."""
    import subprocess
    import time

    path, _, _ = table_for("rows", 1_000_000, args.rows)
    times: dict[str, list[float]] = {"1": [], "2": []}
    outputs = {}
    for _ in range(args.repeat):
        for n in ("1", "2"):
            start = time.perf_counter()
            proc = subprocess.run(
                [sys.executable, "-m", "nblint", "check", str(path), "--target", "y", "--format", "json", "--jobs", n],
                capture_output=True,
                text=True,
                check=False,
            )
            times[n].append(time.perf_counter() - start)
            outputs[n] = proc.stdout
    t1, t2 = statistics.median(times["1"]), statistics.median(times["2"])
    print(
        f"--jobs 1: {t1:.2f} s, --jobs 2: {t2:.2f} s (medians of {args.repeat}): speed-up {t1 / t2:.2f}x; "
        f"identical JSON: {outputs['1'] == outputs['2']}; cpus={os.cpu_count()}"
    )


def dask_row(args) -> None:
    """--engine dask on a local cluster of 2 workers against the local engine, on the ``rows`` table of ``size`` rows."""
    import tempfile

    from distributed import LocalCluster

    path, n_rows, n_columns = table_for("rows", args.size, args.rows)
    table_bytes = n_rows * n_columns * 8  # (every column of the long shape is int64 or float64 in pandas)
    runs: dict[str, list] = {"check": [], "dask": []}
    received: list[int] = []
    outputs = {}
    load_before = os.getloadavg()[0]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        for i in range(args.repeat):
            for mode in ("check", "dask") if i % 2 == 0 else ("dask", "check"):
                with tempfile.NamedTemporaryFile("r", suffix=".bytes") as count:
                    extra = [cluster.scheduler_address, count.name] if mode == "dask" else []
                    wall, cpu, peak, stdout = run_measured([mode, str(path), *extra])
                    if mode == "dask":
                        received.append(int(count.read() or 0))
                runs[mode].append((wall, cpu, peak))
                outputs[mode] = stdout
    load_after = os.getloadavg()[0]
    local, dask = (statistics.median(r[0] for r in runs[m]) for m in ("check", "dask"))
    ratio = statistics.median(d[0] / c[0] for c, d in zip(runs["check"], runs["dask"]))
    share = max(received) / table_bytes
    print(
        f"dask={n_rows:,}: {n_rows:,} x {n_columns}, 2 workers; local {local:.2f} s, dask {dask:.2f} s wall "
        f"(client CPU {statistics.median(r[1] for r in runs['dask']):.2f} s), dask/local {ratio:.2f} "
        f"(bar <= 1.5); client received {max(received) / 2**20:.2f} MiB = {share:.3%} of the table's "
        f"{table_bytes / 2**20:.0f} MiB (bar < 1%); reports identical: {outputs['check'] == outputs['dask']} "
        f"(medians of {args.repeat}, load {load_before:.2f}-{load_after:.2f}, cpus={os.cpu_count()})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("axis", choices=["rows", "columns", "jobs", "dask", "slopes"])
    parser.add_argument("size", type=int, nargs="?", help="rows (axes rows and dask) or columns (axis columns)")
    parser.add_argument("--rows", type=int, default=100_000, help="rows of the tables of the columns axis")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (fresh processes each)")
    parser.add_argument("--memory-budget", help="the check's NBLINT_MEMORY_BUDGET (e.g. 1GiB); default: nblint's own")
    parser.add_argument("--pandas-max-mb", type=float, default=400.0, help="largest CSV pandas reads whole")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    if args.axis == "slopes":
        slopes()
    elif args.axis == "jobs":
        jobs(args)
    elif args.axis == "dask":
        if args.size is None:
            parser.error("dask needs a size (rows)")
        dask_row(args)
    else:
        if args.size is None:
            parser.error(f"{args.axis} needs a size")
        row = measure(args.axis, args.size, args)
        record(row)
        show(row)


if __name__ == "__main__":
    main()
