"""Table generators shared by the tests (seeded; no hidden randomness)."""

from __future__ import annotations

import numpy as np
import pandas as pd


def onehot(codes: np.ndarray, k: int, names: list[str]) -> pd.DataFrame:
    return pd.DataFrame({names[j]: (codes == j).astype(int) for j in range(k)})


def mixed_table(seed: int, n: int = 300) -> tuple[pd.DataFrame, dict]:
    """A table with every structure NB1xx knows, with meaningless names, shuffled.

    Returns the frame and the truth: the one-hot group(s), the dummy group, the
    identical pair and the exact linear combination.
    """
    rng = np.random.default_rng(seed)
    names = iter(rng.permutation([f"v{i:02d}" for i in range(40)]).tolist())
    y = rng.integers(0, 3, n)
    parts, truth = [], {"onehot": [], "dummy": []}
    for k in (3, 5):
        codes = rng.integers(0, k, n)
        cols = [next(names) for _ in range(k)]
        parts.append(onehot(codes, k, cols))
        truth["onehot"].append(set(cols))
    codes = rng.integers(0, 4, n)
    cols = [next(names) for _ in range(4)]
    parts.append(onehot(codes, 4, cols).iloc[:, 1:])  # drop the first level
    truth["dummy"].append(set(cols[1:]))
    a, b, s = next(names), next(names), next(names)
    x1, x2 = rng.normal(size=n), rng.normal(size=n)
    parts.append(pd.DataFrame({a: x1, b: x2, s: x1 + x2}))
    truth["combination"] = {a, b, s}
    c, d = next(names), next(names)
    z = rng.normal(size=n)
    parts.append(pd.DataFrame({c: z, d: z}))
    truth["identical"] = {c, d}
    for _ in range(3):
        parts.append(pd.DataFrame({next(names): (rng.random(n) < 0.5).astype(int)}))
    parts.append(pd.DataFrame({next(names): rng.choice(["p", "q", "r"], n)}))
    frame = pd.concat(parts, axis=1)
    frame = frame[rng.permutation(frame.columns)]
    frame["target"] = y
    return frame, truth


def to_csv(frame: pd.DataFrame, path) -> None:
    """Write ``frame`` as ``frame.to_csv(path, index=False)`` does, byte for byte, fast when every cell is a digit.

    pandas writes a CSV column by column within each chunk of rows: a table of thousands of 0/1
    columns took 80% of the CPU of the test that wrote it (a 5,200 x 5,001 table: 209 s of a
    258 s profile under load). A table of integer columns whose values are all 0-9, under names
    that need no quoting, is written here as one block of bytes (each cell one digit, then a comma
    or the line end); any other table goes to pandas. ``tests/test_tables.py`` checks the two
    agree, with pandas as the oracle.
    """
    values = frame.to_numpy() if len(frame.columns) else None
    plain_names = all(isinstance(c, str) and c and not set(c) & set(',"\r\n') for c in frame.columns)
    digits = (
        values is not None
        and all(pd.api.types.is_integer_dtype(t) and not pd.api.types.is_extension_array_dtype(t) for t in frame.dtypes)
        and values.size > 0
        and values.min() >= 0
        and values.max() <= 9
    )
    if not (digits and plain_names):
        frame.to_csv(path, index=False)
        return
    rows, columns = values.shape
    cells = np.empty((rows, 2 * columns), dtype=np.uint8)
    cells[:, 0::2] = values.astype(np.uint8) + ord("0")
    cells[:, 1::2] = ord(",")
    cells[:, -1] = ord("\n")
    with open(path, "wb") as handle:
        handle.write((",".join(frame.columns) + "\n").encode())
        handle.write(cells.tobytes())
