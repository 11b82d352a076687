"""Benchmark: a pandera schema with one nblint check against one with every nblint check.

The checks of one ``validate`` call share the table's profile (``nblint.pandera``), so a
schema holding every table rule costs one profile plus each rule's own work, not one
profile per check. This script builds (seeded) the ``long`` shape of
``bench/bench_check.py`` as a pandas DataFrame (``--rows`` rows, 65 columns: 8 one-hot
groups, flags, counts, Gaussians, a 4-class target), then times, in this process,
``schema.validate(frame)`` for

* ``one``: ``Check.nblint_nb101`` alone;
* ``all``: every table rule's check (``raise_warning=True``, so validation runs them all),
  with NB401 (the impact measurement, two more passes) and without it,

``--repeat`` times each, interleaved, and prints the medians (min-max), the ratio to
``one`` and how many profiles each validation built.

    python bench/bench_pandera.py                   # 200,000 rows, 5 repeats
    python bench/bench_pandera.py --rows 50000 --repeat 3
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings

import numpy as np
import pandas as pd


def long_frame(n: int, seed: int = 0) -> pd.DataFrame:
    from bench_check import LONG_GROUP_SIZES, long_columns

    rng = np.random.default_rng(seed)
    probs = [rng.dirichlet(np.ones(k), size=4) for k in LONG_GROUP_SIZES]
    return pd.DataFrame(long_columns(rng, n, probs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    import pandera.pandas as pa

    import nblint.pandera as nbpa
    from nblint.profile.table import TableProfile

    frame = long_frame(args.rows)
    codes = list(nbpa.table_rules())

    def checks(selected):
        return [getattr(pa.Check, nbpa.check_name(c))(target="y", raise_warning=True) for c in selected]

    schemas = {
        "one (NB101)": pa.DataFrameSchema(checks=checks(["NB101"])),
        f"all {len(codes)} rules": pa.DataFrameSchema(checks=checks(codes)),
        f"all but NB401 ({len(codes) - 1})": pa.DataFrameSchema(checks=checks([c for c in codes if c != "NB401"])),
    }
    profiles: dict[str, int] = {}
    built = [0]
    original = TableProfile.from_source.__func__

    def counting(cls, *a, **k):
        built[0] += 1
        return original(cls, *a, **k)

    TableProfile.from_source = classmethod(counting)
    times: dict[str, list[float]] = {name: [] for name in schemas}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, schema in schemas.items():  # warm up (imports, rule loading)
            built[0] = 0
            schema.validate(frame)
            profiles[name] = built[0]
        for _ in range(args.repeat):
            for name, schema in schemas.items():
                start = time.perf_counter()
                schema.validate(frame)
                times[name].append(time.perf_counter() - start)
    one = statistics.median(next(iter(times.values())))
    print(f"{'schema':<24} {'median s (min-max)':>22} {'x one':>6} {'profiles':>9}")
    for name, values in times.items():
        spread = f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"
        print(f"{name:<24} {spread:>22} {statistics.median(values) / one:>6.2f} {profiles[name]:>9}")
    print(f"({args.rows:,} rows x {frame.shape[1]} columns, medians of {args.repeat} validations)")


if __name__ == "__main__":
    main()
