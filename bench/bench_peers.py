"""Benchmark nblint against what a user would run without it, on the same tables, in one run.

Tables: the ``long`` and ``wide`` generators of ``bench_check.py`` (seeded, cached under
bench/out/). For each table, in one run, it times and prints ratios for:

* **VIF**: nblint's closed form (one profile pass over the frame, then
  :func:`nblint.structure.variance_inflation`) against statsmodels'
  ``variance_inflation_factor`` looped over the columns (with a constant column, as
  the DESIGN bar says), on the regressors nblint keeps (one level of each exact one-hot
  group dropped: statsmodels' numbers for the full groups are floating-point noise,
  1e5-1e15). It reports the largest relative difference where both are finite (bar: 1e-6).
  On the wide table statsmodels is run on the first ``--vif-columns`` regressors only
  (one OLS per column over every row is O(rows x columns^2) each); nblint's VIF of the
  same columns is computed on that same set.
* **check**: ``nblint check PATH --target y`` against ``ydata-profiling``'s
  ``ProfileReport(df, minimal=True)`` (its description computed) after ``pandas.read_csv``,
  and against a hand-written pandera schema checking that each known group's columns sum
  to one on every row (what a user would write without nblint; it needs the groups
  given, nblint finds them). Each runs in a fresh process (wall time includes start-up
  and reading the file).

The peers are installed only in the benchmark's own environment, never as nblint
dependencies:

    python -m venv /tmp/venv-peers
    /tmp/venv-peers/bin/pip install -e . ydata-profiling statsmodels pandera
    /tmp/venv-peers/bin/python bench/bench_peers.py            # long 100k rows, wide 5k rows
    /tmp/venv-peers/bin/python bench/bench_peers.py --rows 20000 --wide-rows 1000   # quick
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_check import OUT, make_long, make_wide  # noqa: E402

_CHECKERS = {
    "nblint": r"""
import sys
from nblint.cli import main
try:
    main(["check", sys.argv[1], "--target", "y", "--format", "json"], standalone_mode=False)
except SystemExit:
    pass
""",
    "ydata": r"""
import sys, warnings
warnings.filterwarnings("ignore")
import pandas as pd
from ydata_profiling import ProfileReport
frame = pd.read_csv(sys.argv[1], engine="pyarrow")
ProfileReport(frame, minimal=True, progress_bar=False).get_description()
""",
    "pandera": r"""
import json, sys
import pandas as pd
import pandera.pandas as pa
groups = json.loads(open(sys.argv[2]).read())
frame = pd.read_csv(sys.argv[1], engine="pyarrow")
schema = pa.DataFrameSchema(checks=[
    pa.Check(lambda df, cols=cols: df[cols].sum(axis=1) == 1, name="row_sum_is_one:" + cols[0]) for cols in groups
])
schema.validate(frame, lazy=True)
""",
}


def timed(name: str, path: Path, meta: Path) -> float:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _CHECKERS[name], str(path), str(meta)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{name} failed: {proc.stderr[-2000:]}")
    return time.perf_counter() - start


def vif_comparison(path: Path, max_columns: int) -> dict:
    """nblint's VIF against statsmodels' loop, on the same regressors and rows."""
    import pandas as pd
    import statsmodels.api as sm
    from statsmodels.stats.outliers_influence import variance_inflation_factor

    from nblint.analysis.context import TableContext
    from nblint.engine import resolved_options
    from nblint.profile.table import TableProfile
    from nblint.readers import DataFrameSource
    from nblint.structure import variance_inflation

    frame = pd.read_csv(path, engine="pyarrow").drop(columns=["y"])
    start = time.perf_counter()
    source = DataFrameSource(frame)
    ctx = TableContext(source, TableProfile.from_source(source, None), None, resolved_options())
    full = ctx.vif
    nblint_full_s = time.perf_counter() - start
    regressors = [c for c in ctx.profile.gram.names if c not in full.dropped][:max_columns]
    # nblint on exactly the regressors statsmodels gets (a subset when capped).
    start = time.perf_counter()
    sub = DataFrameSource(frame[regressors])
    sub_profile = TableProfile.from_source(sub, None)
    ours = variance_inflation(sub_profile.gram.names, sub_profile.gram.comoment, []).vif
    nblint_s = time.perf_counter() - start
    exog = sm.add_constant(frame[regressors].to_numpy(dtype=np.float64), has_constant="add")
    start = time.perf_counter()
    theirs = {name: variance_inflation_factor(exog, j + 1) for j, name in enumerate(regressors)}
    statsmodels_s = time.perf_counter() - start
    finite = [c for c in regressors if np.isfinite(ours[c]) and np.isfinite(theirs[c])]
    worst = max((abs(ours[c] - theirs[c]) / abs(theirs[c]) for c in finite), default=0.0)
    return {
        "columns": len(regressors),
        "dropped": len(full.dropped),
        "finite": len(finite),
        "nblint_s": nblint_s,
        "nblint_all_columns_s": nblint_full_s,
        "statsmodels_s": statsmodels_s,
        "max_rel_diff": worst,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    # statsmodels' loop is the slow peer: 124 s for the 56 regressors of 100k long rows (measured).
    parser.add_argument("--rows", type=int, default=100_000, help="rows of the long table")
    parser.add_argument("--wide-rows", type=int, default=5_000, help="rows of the wide table")
    parser.add_argument("--vif-columns", type=int, default=100, help="regressors given to statsmodels (the first ones)")
    parser.add_argument("--tables", default="long,wide")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    rows_out = []
    for name in args.tables.split(","):
        rows = args.rows if name == "long" else args.wide_rows
        path = OUT / f"{name}_{rows}.csv"
        meta = path.with_suffix(".groups.json")
        if not path.exists() or not meta.exists():
            meta.write_text(json.dumps((make_long if name == "long" else make_wide)(path, rows)))
        vif = vif_comparison(path, args.vif_columns)
        times = {checker: timed(checker, path, meta) for checker in ("nblint", "ydata", "pandera")}
        rows_out.append((name, rows, path, vif, times))

    print(
        f"{'table':<6} {'rows':>9} {'MB':>5} | {'VIF cols':>8} {'nblint s':>8} {'statsm. s':>9} {'speed-up':>8} "
        f"{'max rel diff':>12} | {'nblint check s':>14} {'ydata s':>8} {'pandera s':>9} {'ydata/nblint':>12} {'pandera/nblint':>14}"
    )
    for name, rows, path, vif, t in rows_out:
        print(
            f"{name:<6} {rows:>9,} {path.stat().st_size / 1e6:>5.0f} | {vif['columns']:>8} {vif['nblint_s']:>8.2f} "
            f"{vif['statsmodels_s']:>9.2f} {vif['statsmodels_s'] / vif['nblint_s']:>7.0f}x {vif['max_rel_diff']:>12.1e} | "
            f"{t['nblint']:>14.2f} {t['ydata']:>8.2f} {t['pandera']:>9.2f} {t['ydata'] / t['nblint']:>11.2f}x "
            f"{t['pandera'] / t['nblint']:>13.2f}x"
        )
    print(
        "VIF: nblint and statsmodels on the same regressors (one level of each exact one-hot group left out, "
        "reported infinite by nblint); max rel diff over the columns finite in both (bar 1e-6)."
    )
    print(
        "check: wall time of a fresh process each, reading the CSV included; the pandera schema is told the groups, "
        "nblint finds them."
    )


if __name__ == "__main__":
    main()
