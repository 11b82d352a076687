"""A fuzzer over random tables: CSV, Parquet and DataFrame give the same findings, and planted groups are found.

Hypothesis builds small tables of mixed kinds (whole numbers, floats with NaN,
text with empty and NA-like cells, columns mixing numbers and text, integers
that float64 would merge (past 2^53, uint64 past int64), float64's extremes, a target
that may be missing) with a planted one-hot group. The table is written as CSV;
the oracle is pandas reading that CSV whole, linted as a DataFrame and written
to Parquet. All three must give the same findings, and the planted group must
be reported by NB101, or an equally valid group: one that splits the rows into
the same levels. The run is derandomised with a small fixed budget, so CI runs
the same examples in a few seconds.

A second fuzzer starts from DataFrames holding what a CSV cannot say (Decimal
objects, nullable Int64 and boolean, uint64 past int64): the DataFrame, its
Parquet file and its CSV give the same findings.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nblint

#: Both fuzzers: a few derandomised examples, so CI runs the same ones in seconds (raise max_examples by hand).
FUZZ = settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
TEXT = st.sampled_from(["a", "b", "c", "", "NA", "null", "x y", "1", "with,comma", 'q"uote', "line\nbreak"])


@st.composite
def tables(draw):
    n = draw(st.integers(12, 40))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    k = draw(st.integers(2, 4))
    levels = rng.integers(0, k, n)
    levels[:k] = np.arange(k)  # every level is used
    columns = {f"g_{j}": (levels == j).astype(int) for j in range(k)}
    for i in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["int", "float", "text", "mixed", "bool", "bigint", "uint64", "extreme"]))
        if kind == "int":
            values = pd.Series(rng.integers(-2, 6, n))
        elif kind == "bigint":  # (issue 24) integers float64 would merge: 2^53 and 2^53 + 1, int64's ends
            big = np.array([2**53, 2**53 + 1, 2**53 + 2, np.iinfo(np.int64).max, np.iinfo(np.int64).min])
            values = pd.Series(big[rng.integers(0, draw(st.integers(2, 5)), n)])
        elif kind == "uint64":  # (issue 24) hashed ids past int64: 2^63 and 2^63 + 1 are two values
            big = np.array([2**63, 2**63 + 1, 2**64 - 1, 0, 7], dtype=np.uint64)
            values = pd.Series(big[rng.integers(0, draw(st.integers(2, 5)), n)])
        elif kind == "extreme":  # (issue 24) float64's ends beside ordinary values, whole or not
            ends = np.array([1.79e308, -1.79e308, 1e300, 0.0, 1.0, 0.5, -1e-300])
            picked = ends[: draw(st.sampled_from([3, 5, 7]))]  # the first five are all whole numbers
            values = pd.Series(picked[rng.integers(0, len(picked), n)]).mask(rng.random(n) < 0.1)
        elif kind == "float":
            values = pd.Series(np.round(rng.normal(size=n), 3)).mask(rng.random(n) < 0.2)
        elif kind == "bool":
            values = pd.Series(rng.random(n) < 0.4)
        else:
            cells = [draw(TEXT) for _ in range(n)]
            if kind == "mixed":
                cells = [int(rng.integers(0, 3)) if rng.random() < 0.5 else cell for cell in cells]
            values = pd.Series(cells, dtype=object)
        columns[f"{kind}_{i}"] = values
    target = pd.Series(rng.choice(["yes", "no", "maybe"][: draw(st.integers(2, 3))], n), dtype=object)
    if draw(st.booleans()):
        target[rng.random(n) < 0.1] = ""  # empty target cells: missing, not a class ''
    columns["y"] = target
    order = draw(st.permutations(list(columns)))
    return pd.DataFrame({name: columns[name] for name in order}), [f"g_{j}" for j in range(k)]


def findings(data) -> list[dict]:
    report = nblint.check(data, target="y")
    return [{key: value for key, value in f.items() if key != "path"} for f in json.loads(report.to_json())]


@pytest.mark.slow
@FUZZ
@given(table=tables())
def test_csv_parquet_and_dataframe_agree_and_planted_groups_are_found(tmp_path_factory, table):
    frame, planted = table
    folder = tmp_path_factory.mktemp("fuzz")
    csv_path = folder / "t.csv"
    frame.to_csv(csv_path, index=False)
    oracle = pd.read_csv(csv_path)  # the values and missing cells of the CSV, read whole
    parquet_path = folder / "t.parquet"
    oracle.to_parquet(parquet_path, index=False)

    from_csv = findings(str(csv_path))
    assert from_csv == findings(oracle)
    assert from_csv == findings(str(parquet_path))

    # The planted group, or an equally valid one: its columns sum to one on every
    # row and split the rows into the same levels.
    groups = [f["columns"] for f in from_csv if f["code"] == "NB101"]
    planted_levels = oracle[planted].to_numpy().argmax(axis=1)
    for columns in groups:
        bits = oracle[columns].to_numpy()
        assert (bits.sum(axis=1) == 1).all(), columns  # every reported group is one-hot
    assert any(_same_split(oracle[columns].to_numpy().argmax(axis=1), planted_levels) for columns in groups), groups


def _same_split(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two level codings put the rows into the same classes (up to renaming the levels)."""
    pairs = set(zip(a.tolist(), b.tolist()))
    return len(pairs) == len(set(a.tolist())) == len(set(b.tolist()))


@st.composite
def typed_tables(draw):
    """A planted group beside columns whose dtype the DataFrame keeps and a CSV does not (no text: its
    empty and NA-like cells are missing in a CSV only, which the test above covers)."""
    import decimal

    n = draw(st.integers(12, 40))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    levels = rng.integers(0, 3, n)
    levels[:3] = np.arange(3)
    frame = pd.DataFrame({f"g_{j}": (levels == j).astype(int) for j in range(3)})
    for i in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["decimal", "Int64", "boolean", "uint64", "float"]))
        missing = rng.random(n) < 0.15
        if kind == "decimal":  # (issue 24) Decimal objects are numbers, as Parquet's decimal128 reads them
            cells = [decimal.Decimal(str(v)) for v in rng.choice([0, 1, 2.5, -3.25, 12345678.5], n)]
            values = pd.Series([None if m else c for m, c in zip(missing, cells)], dtype=object)
        elif kind == "Int64":
            values = pd.Series(rng.integers(0, 4, n), dtype="Int64").mask(missing)
        elif kind == "boolean":
            values = pd.Series(rng.random(n) < 0.3, dtype="boolean").mask(missing)
        elif kind == "uint64":
            values = pd.Series(np.array([2**63, 2**63 + 1, 5], dtype=np.uint64)[rng.integers(0, 3, n)])
        else:
            values = pd.Series(np.round(rng.normal(size=n), 2)).mask(missing)
        frame.insert(int(rng.integers(0, len(frame.columns) + 1)), f"{kind}_{i}", values)
    frame["y"] = rng.choice(["yes", "no"], n)
    return frame, ["g_0", "g_1", "g_2"]


@pytest.mark.slow
@FUZZ
@given(table=typed_tables())
def test_a_dataframe_with_decimal_nullable_and_uint64_columns_agrees_with_its_csv_and_parquet(tmp_path_factory, table):
    frame, _ = table
    folder = tmp_path_factory.mktemp("typed")
    frame.to_csv(folder / "t.csv", index=False)
    frame.to_parquet(folder / "t.parquet", index=False)
    from_frame = findings(frame)
    assert findings(str(folder / "t.parquet")) == from_frame
    assert findings(str(folder / "t.csv")) == from_frame
