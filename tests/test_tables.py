"""The shared table helpers of tests/tables.py agree with pandas, their oracle."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from tables import to_csv


@settings(max_examples=60, deadline=None)
@given(
    rows=st.integers(0, 6),
    columns=st.integers(1, 5),
    high=st.sampled_from([1, 9, 10, -1]),
    dtype=st.sampled_from(["int8", "int64", "uint8", "float64", "bool", "Int64"]),
    names=st.sampled_from(["plain", "comma", "quote", "newline", "numbers"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_to_csv_writes_the_bytes_pandas_writes(tmp_path_factory, rows, columns, high, dtype, names, seed):
    """Digit tables take the fast path, every other table pandas' own: the bytes are pandas' either way."""
    rng = np.random.default_rng(seed)
    values = rng.integers(min(high, 0), max(high, 0) + 1, (rows, columns))
    label = {"plain": "c{}", "comma": "c,{}", "quote": 'c"{}', "newline": "c\n{}", "numbers": "{}"}[names]
    header = [label.format(j) if names != "numbers" else j for j in range(columns)]
    frame = pd.DataFrame(values, columns=header).astype(dtype if dtype != "bool" else "int64")
    if dtype == "bool":
        frame = frame > 0
    folder = tmp_path_factory.mktemp("csv")
    to_csv(frame, folder / "fast.csv")
    frame.to_csv(folder / "pandas.csv", index=False)
    assert (folder / "fast.csv").read_bytes() == (folder / "pandas.csv").read_bytes()
