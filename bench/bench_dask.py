"""Benchmark: how much of a table the client receives with the Dask engine, and whether it agrees.

Writes (seeded, once, under bench/out/) the ``long`` shape of ``bench/bench_check.py``
(``--rows`` rows x 65 columns: 8 one-hot groups, flags, counts, Gaussians, a 4-class
target) as ``--partitions`` Parquet files and as one Parquet file, starts a
``distributed.LocalCluster`` of ``--workers`` worker processes (one thread each) and
checks the table twice, in this process:

* local: ``nblint.check("whole.parquet", target="y")``;
* dask: ``nblint.check(dd.read_parquet("part-*.parquet"), target="y")`` on the cluster.

Every result the Dask engine brings to the client goes through ``DaskBackend.compute``
or ``DaskBackend.compute_all``; the script adds up the pickled size of each (what
travels, give or take the wire format) and prints it against the pandas frame's
in-memory size (``memory_usage(deep=True)``), with the wall time of each check and
whether the two reports are byte-identical (JSON, the path aside).

    python bench/bench_dask.py                  # 1,000,000 rows, 8 partitions, 4 workers
    python bench/bench_dask.py --rows 200000 --partitions 4
"""

from __future__ import annotations

import argparse
import pickle
import time
from pathlib import Path

import numpy as np
import pandas as pd

OUT = Path(__file__).resolve().parent / "out"


def write_tables(rows: int, partitions: int) -> tuple[Path, str, pd.DataFrame]:
    from bench_check import LONG_GROUP_SIZES, long_columns

    folder = OUT / f"long_parquet_{rows}_{partitions}"
    whole = folder / "whole.parquet"
    rng = np.random.default_rng(0)
    probs = [rng.dirichlet(np.ones(k), size=4) for k in LONG_GROUP_SIZES]
    frame = pd.DataFrame(long_columns(rng, rows, probs))
    if not whole.exists():
        folder.mkdir(parents=True, exist_ok=True)
        for i, part in enumerate(np.array_split(np.arange(rows), partitions)):
            frame.iloc[part].to_parquet(folder / f"part-{i:03d}.parquet", index=False)
        frame.to_parquet(whole, index=False)
    return whole, str(folder / "part-*.parquet"), frame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()

    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    import nblint
    from nblint.dask.backend import DaskBackend

    whole, pattern, frame = write_tables(args.rows, args.partitions)
    table_bytes = int(frame.memory_usage(deep=True).sum())
    del frame

    received: list[tuple[str, int]] = []
    compute, compute_all = DaskBackend.compute, DaskBackend.compute_all

    def counted_compute(self, collection):
        result = compute(self, collection)
        received.append(("compute", len(pickle.dumps(result, protocol=5))))
        return result

    def counted_compute_all(self, tasks):
        results = compute_all(self, tasks)
        received.extend(("compute_all", len(pickle.dumps(r, protocol=5))) for r in results)
        return results

    DaskBackend.compute = counted_compute
    DaskBackend.compute_all = counted_compute_all

    start = time.perf_counter()
    local = nblint.check(str(whole), target="y").to_json()
    local_s = time.perf_counter() - start
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster):
            start = time.perf_counter()
            remote = nblint.check(dd.read_parquet(pattern), target="y").to_json()
            dask_s = time.perf_counter() - start
    total = sum(size for _, size in received)
    largest = max(size for _, size in received)
    identical = remote.replace('"<dask>"', f'"{whole}"') == local
    print(
        f"table: {args.rows:,} rows x 65 columns, {table_bytes / 2**20:.0f} MiB in memory (pandas), "
        f"{args.partitions} partitions, {args.workers} workers"
    )
    print(
        f"received by the client: {total / 2**20:.2f} MiB in {len(received)} results "
        f"({total / table_bytes:.3%} of the table; largest result {largest / 2**10:.0f} KiB, "
        f"{total / args.partitions / 2**10:.0f} KiB per partition)"
    )
    print(f"findings byte-identical to the local engine: {identical}")
    print(f"wall: local {local_s:.1f} s, dask {dask_s:.1f} s (cluster start-up excluded)")


if __name__ == "__main__":
    main()
