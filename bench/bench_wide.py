"""Benchmark: a bag-of-words table with 20,000 sparse 0/1 columns.

Generates (seeded, cached under bench/out/) ``--rows`` documents over a 20,000-word
vocabulary (Zipf-like word frequencies, about ``--words-per-row`` words per document),
plus 5 one-hot groups (3-7 levels) and a 2-class target, as a CSV. Runs
``nblint check PATH --target y --format json`` in a fresh process and prints its wall
and CPU time and peak resident memory against the floor measured in the same run
(pyarrow reading the whole CSV once, in a fresh process), how many planted groups NB101 found, and NB106's note
(what was checked in full and what was capped). A dense 20,000 x 20,000 float64
matrix alone would be 3.2 GB.

    python bench/bench_wide.py                   # 10,000 rows x 20,000 words
    python bench/bench_wide.py --rows 2000       # a quicker look
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent / "out"


def make_bag_of_words(path: Path, rows: int, words: int, per_row: int, seed: int = 0) -> list[list[str]]:
    import pyarrow as pa
    import pyarrow.csv as pacsv

    rng = np.random.default_rng(seed)
    frequency = 1.0 / np.arange(1, words + 1)
    frequency /= frequency.sum()
    bits = np.zeros((rows, words), dtype=np.int8)
    for r in range(rows):
        bits[r, rng.choice(words, size=rng.poisson(per_row) + 1, replace=False, p=frequency)] = 1
    columns = {f"word{j:05d}": bits[:, j] for j in range(words)}
    groups = []
    for g, k in enumerate((3, 4, 5, 6, 7)):
        codes = rng.integers(0, k, rows)
        names = [f"field{g}_{j}" for j in range(k)]
        for j, name in enumerate(names):
            columns[name] = (codes == j).astype(np.int8)
        groups.append(names)
    columns["y"] = rng.integers(0, 2, rows)
    pacsv.write_csv(pa.table(columns), path)
    return groups


#: The floor: pyarrow reading the whole CSV once, in a fresh process, with blocks as large as
#: nblint's (its default 1 MiB blocks hold 25 rows of this table: 111-181 s and 6.8 GB measured).
_FLOOR = r"""
import resource, sys, time
import pyarrow.csv as pacsv
table = pacsv.read_csv(sys.argv[1], read_options=pacsv.ReadOptions(block_size=1 << 26))
usage = resource.getrusage(resource.RUSAGE_SELF)
print(table.num_rows, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
"""

_WRAPPER = r"""
import resource, sys
from nblint.cli import main
code = 0
try:
    main(["check", sys.argv[1], "--target", "y", "--format", "json"], standalone_mode=False)
except SystemExit as exc:
    code = exc.code or 0
usage = resource.getrusage(resource.RUSAGE_SELF)
print("\n__PEAK_KIB__", usage.ru_maxrss, usage.ru_utime + usage.ru_stime, flush=True)
sys.exit(0 if code in (0, 1) else code)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--words", type=int, default=20_000)
    parser.add_argument("--words-per-row", type=int, default=50)
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    path = OUT / f"bow_{args.rows}x{args.words}.csv"
    meta = path.with_suffix(".groups.json")
    if not path.exists() or not meta.exists():
        meta.write_text(json.dumps(make_bag_of_words(path, args.rows, args.words, args.words_per_row)))
    groups = json.loads(meta.read_text())
    load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    start = time.perf_counter()
    floor = subprocess.run([sys.executable, "-c", _FLOOR, str(path)], capture_output=True, text=True, check=True)
    floor_wall = time.perf_counter() - start
    _, floor_cpu, floor_peak = floor.stdout.split()
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _WRAPPER, str(path)], capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(proc.stderr[-2000:])
    stdout, _, measured = proc.stdout.rpartition("\n__PEAK_KIB__ ")
    peak, cpu = measured.split()
    findings = json.loads(stdout)
    found = {frozenset(f["columns"]) for f in findings if f["code"] == "NB101"}
    notes = [f["message"] for f in findings if f["code"] == "NB106"]
    codes = sorted({f["code"] for f in findings})
    print(
        f"table: {args.rows:,} rows x {args.words:,} words + 5 one-hot groups ({path.stat().st_size / 1e6:.0f} MB CSV)"
    )
    print(
        f"floor, pyarrow.csv.read_csv of the whole file (64 MiB blocks): {floor_wall:.1f} s wall, "
        f"{float(floor_cpu):.1f} s CPU, peak {float(floor_peak) / 1024:.0f} MiB (load average {load})"
    )
    print(
        f"check: {wall:.1f} s wall, {float(cpu):.1f} s CPU, peak {float(peak) / 1024:.0f} MiB (a dense "
        f"{args.words:,}^2 float64 matrix: {8 * args.words**2 / 2**30:.1f} GiB)"
    )
    print(f"check / floor: {wall / floor_wall:.2f} wall, {float(cpu) / float(floor_cpu):.2f} CPU")
    print(
        f"planted one-hot groups found by NB101: {len(found & {frozenset(g) for g in groups})}/{len(groups)}; codes: {','.join(codes)}"
    )
    for note in notes:
        print(f"NB106: {note}")


if __name__ == "__main__":
    main()
