"""Benchmark: memory that does not grow with the rows, and the speed-up from 1 to 2 jobs.

Generates (seeded, cached under bench/out/) the ``long`` shape of ``bench_check.py``
(8 one-hot groups of 3-10 levels, 4 flags, 4 counts, 4 Gaussian columns, a 4-class
target: 65 columns) at 1M and at 10M rows, written to disk 1M rows at a time, so the
10M-row CSV (about 1.5 GB) is never held in memory by this script either.

It then runs, each in a fresh process, ``nblint check PATH --target y --format json``
on both tables and prints each run's peak resident memory next to the size of the
table loaded whole (``pandas.read_csv(..., engine="pyarrow")``'s frame, measured on the
1M table and scaled by 10 for the 10M one, which is not loaded), and the median wall
time of ``--jobs 1`` and ``--jobs 2`` on the 1M table.

    python bench/bench_scale.py                  # 1M and 10M rows, 3 repeats of the jobs timing
    python bench/bench_scale.py --big 3000000    # a quicker look
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_data import make_long_streamed  # noqa: E402  (the one generator of the long shape)

OUT = Path(__file__).resolve().parent / "out"


_WRAPPER = r"""
import resource, sys, json
mode, path = sys.argv[1], sys.argv[2]
code = 0
if mode == "load":
    import pandas as pd
    frame = pd.read_csv(path, engine="pyarrow")
    print(json.dumps({"frame_bytes": int(frame.memory_usage(deep=True).sum())}))
else:
    from nblint.cli import main
    try:
        main(["check", path, "--target", "y", "--format", "json", "--jobs", mode], standalone_mode=False)
    except SystemExit as exc:
        code = exc.code or 0
print("\n__PEAK_KIB__", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, flush=True)
sys.exit(0 if code in (0, 1) else code)
"""


def run(mode: str, path: Path) -> tuple[float, float, str]:
    """Run in a fresh process: wall seconds, peak RSS (MiB), stdout."""
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", _WRAPPER, mode, str(path)], capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{mode} {path} failed: {proc.stderr[-2000:]}")
    stdout, _, peak = proc.stdout.rpartition("\n__PEAK_KIB__ ")
    return wall, float(peak) / 1024.0, stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--small", type=int, default=1_000_000)
    parser.add_argument("--big", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each --jobs timing (median)")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    paths = {}
    for rows in (args.small, args.big):
        path = OUT / f"scale_long_{rows}.csv"
        if not path.exists():
            print(f"generating {path} ...", file=sys.stderr)
            make_long_streamed(path, rows)
        paths[rows] = path

    _, load_peak, load_out = run("load", paths[args.small])
    frame_mib = json.loads(load_out.strip().splitlines()[-1])["frame_bytes"] / 2**20
    scale = args.big / args.small
    memory = {}
    for rows, path in paths.items():
        wall, peak, out = run("2", path)
        memory[rows] = (wall, peak, out)
    codes = {rows: sorted({f["code"] for f in json.loads(out)}) for rows, (_, _, out) in memory.items()}

    print(f"{'rows':>11} {'CSV MB':>8} {'check s':>8} {'peak MiB':>9} {'whole frame MiB':>16}")
    for rows, path in paths.items():
        whole = frame_mib * (rows / args.small)
        print(
            f"{rows:>11,} {path.stat().st_size / 1e6:>8.0f} {memory[rows][0]:>8.1f} {memory[rows][1]:>9.0f} {whole:>16.0f}"
        )
    ratio = memory[args.big][1] / memory[args.small][1]
    print(
        f"peak memory {args.big:,} / {args.small:,} rows: {ratio:.2f}x (bar: <= 1.25x); "
        f"pandas' own peak loading the {args.small:,}-row table: {load_peak:.0f} MiB; "
        f"whole frame at {args.big:,} rows scaled x{scale:.0f} from the {args.small:,}-row one"
    )
    for rows, found in codes.items():
        print(f"finding codes at {rows:,} rows: {','.join(found)}")

    times = {"1": [], "2": []}
    outputs = {}
    for _ in range(args.repeat):
        for jobs in ("1", "2"):
            wall, _, out = run(jobs, paths[args.small])
            times[jobs].append(wall)
            outputs[jobs] = out
    t1, t2 = statistics.median(times["1"]), statistics.median(times["2"])
    print(
        f"--jobs 1: {t1:.2f} s, --jobs 2: {t2:.2f} s (medians of {args.repeat}, {args.small:,} rows): "
        f"speed-up {t1 / t2:.2f}x; identical JSON: {outputs['1'] == outputs['2']}; cpus={os.cpu_count()}"
    )


if __name__ == "__main__":
    main()
