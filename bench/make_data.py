"""The bench tables, generated from a seed: one generator per shape, shared by every bench script and by
``tests/test_bench_findings.py`` (which checks nblint's findings on small tables of the same shapes).

Shapes (each seeded, so the same arguments write the same bytes):

* ``long``: ``n`` rows x 65 columns: 8 one-hot groups (52 bits) of 3-10 levels whose level
  probabilities depend on the class, 4 independent flags, 4 Poisson counts, 4 Gaussian columns
  and a 4-class target ``y``, the columns in a shuffled order (:func:`make_long`);
  :func:`make_long_streamed` writes the same shape a million rows at a time, so a table larger
  than memory is never held whole;
* ``wide``: ``n`` rows x (``groups`` one-hot groups x ``k`` levels) 0/1 columns and a 4-class
  target (:func:`make_wide`): 200 x 10 is the 2,001-column bench table;
* ``small``: a 60-row mixed table of about 2 KB (:func:`small_table`), the start-up bench's.

    python bench/make_data.py long 1000000 /tmp/long.csv      # write one table
    python bench/make_data.py wide 100000 /tmp/wide.csv --groups 20
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

LONG_GROUP_SIZES = (3, 4, 5, 6, 7, 8, 9, 10)
#: Rows written at a time by :func:`make_long_streamed`.
PIECE = 1_000_000


def long_columns(
    rng: np.random.Generator, n: int, probs: list[np.ndarray], y: np.ndarray | None = None
) -> dict[str, np.ndarray]:
    """``n`` rows of the long shape: one-hot groups whose level probabilities ``probs[g][y]``
    depend on the class (so the groups carry signal), flags, counts, Gaussians and ``y``
    (drawn here unless given: the copies of a wider table share the first copy's)."""
    y = rng.integers(0, 4, n) if y is None else y
    columns: dict[str, np.ndarray] = {}
    for g, k in enumerate(LONG_GROUP_SIZES):
        codes = (rng.random(n)[:, None] > np.cumsum(probs[g][y], axis=1)).sum(axis=1)
        for j in range(k):
            columns[f"g{g}_l{j}"] = (codes == j).astype(np.int8)
    for j in range(4):
        columns[f"flag{j}"] = (rng.random(n) < 0.3 + 0.1 * j).astype(np.int8)
    for j in range(4):
        columns[f"count{j}"] = rng.poisson(1.0 + y + j)
    for j in range(4):
        columns[f"gauss{j}"] = np.round(rng.normal(y * 0.5, 1.0 + j), 4)
    columns["y"] = y
    return columns


def long_groups() -> list[list[str]]:
    """The one-hot groups of the long shape, as column names."""
    return [[f"g{g}_l{j}" for j in range(k)] for g, k in enumerate(LONG_GROUP_SIZES)]


def make_long(path: Path, n: int, seed: int = 0) -> list[list[str]]:
    """Write the long table of ``n`` rows to ``path`` (held whole while written); its groups."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    rng = np.random.default_rng(seed)
    probs = [rng.dirichlet(np.ones(k), size=4) for k in LONG_GROUP_SIZES]
    columns = long_columns(rng, n, probs)
    # shuffle the column order so that nothing depends on group members being adjacent
    order = rng.permutation(list(columns))
    pacsv.write_csv(pa.table({name: columns[name] for name in order}), path)
    return long_groups()


def long_names(copies: int = 1) -> list[str]:
    """The columns of the long shape with ``copies`` copies of its 64 features (copy i > 0 suffixed ``_c{i}``)."""
    features = [m for g in long_groups() for m in g]
    features += [f"flag{j}" for j in range(4)] + [f"count{j}" for j in range(4)] + [f"gauss{j}" for j in range(4)]
    return features + [f"{name}_c{i}" for i in range(1, copies) for name in features] + ["y"]


def make_long_streamed(path: Path, rows: int, piece: int = PIECE, copies: int = 1) -> list[list[str]]:
    """Write the long table of ``rows`` rows to ``path``, ``piece`` rows at a time (memory flat in rows).

    The level probabilities and the column order come from seed 0, piece i's rows from seed
    1 + i: the rows differ from :func:`make_long`'s, the shape is the same.  With ``copies``
    > 1 the table is ``copies`` times as wide (65, 650, 6,500 columns for 1, 10, 100): copy
    c > 0 of the features is drawn from seed (1 + i, c) given the same classes, so each copy's
    groups carry the same kind of signal; a piece then holds ``piece / copies`` rows.
    """
    import pyarrow as pa
    import pyarrow.csv as pacsv

    rng = np.random.default_rng(0)
    probs = [rng.dirichlet(np.ones(k), size=4) for k in LONG_GROUP_SIZES]
    order = rng.permutation(long_names(copies)).tolist()
    piece = max(1, piece // copies)
    tmp = Path(path).with_suffix(".partial")  # (bench_scale passes a str)
    writer = None
    for start in range(0, rows, piece):
        n = min(piece, rows - start)
        columns = long_columns(np.random.default_rng(1 + start // piece), n, probs)
        for c in range(1, copies):
            copy = long_columns(np.random.default_rng([1 + start // piece, c]), n, probs, y=columns["y"])
            columns.update((f"{name}_c{c}", values) for name, values in copy.items() if name != "y")
        table = pa.table({name: columns[name] for name in order})
        if writer is None:
            writer = pacsv.CSVWriter(str(tmp), table.schema)
        writer.write_table(table)
    assert writer is not None, "rows must be positive"
    writer.close()
    tmp.rename(path)
    return long_groups() + [[f"{m}_c{c}" for m in g] for c in range(1, copies) for g in long_groups()]


def make_wide(path: Path, n: int, n_groups: int = 200, k: int = 10, seed: int = 1) -> list[list[str]]:
    """Write ``n`` rows of ``n_groups`` uniform one-hot groups of ``k`` levels and a 4-class ``y``; the groups."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    rng = np.random.default_rng(seed)
    y = rng.integers(0, 4, n)
    columns, groups = {}, []
    for g in range(n_groups):
        codes = rng.integers(0, k, n)
        names = [f"w{g}_{j}" for j in range(k)]
        for j, name in enumerate(names):
            columns[name] = (codes == j).astype(np.int8)
        groups.append(names)
    columns["y"] = y
    pacsv.write_csv(pa.table(columns), path)
    return groups


def small_table(path: Path, seed: int, n: int = 60) -> None:
    """A small mixed table: a 0/1 flag, a measurement, a count, a 3-level code and the target."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    lines = ["flag,measure,visits,code,y"]
    for i in range(n):
        lines.append(
            f"{int(rng.random() < 0.3 + 0.2 * y[i])},{rng.normal(y[i], 1.0):.3f},"
            f"{rng.poisson(2 + y[i])},{rng.integers(0, 3)},{y[i]}"
        )
    path.write_text("\n".join(lines) + "\n")


def small_folder(folder: Path, files: int) -> Path:
    """A folder of ``files`` small tables, ``t000.csv`` ... (table i from seed i + 1); made once."""
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(files):
        if not (folder / f"t{i:04d}.csv").exists():
            small_table(folder / f"t{i:04d}.csv", i + 1)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("shape", choices=["long", "long-streamed", "wide", "small"])
    parser.add_argument("rows", type=int)
    parser.add_argument("path", type=Path)
    parser.add_argument("--groups", type=int, default=200, help="wide: one-hot groups of 10 levels")
    args = parser.parse_args()
    if args.shape == "small":
        small_table(args.path, 0, args.rows)
        return
    make = {"long": make_long, "long-streamed": make_long_streamed}.get(args.shape)
    groups = make(args.path, args.rows) if make else make_wide(args.path, args.rows, args.groups)
    args.path.with_suffix(".groups.json").write_text(json.dumps(groups))


if __name__ == "__main__":
    main()
