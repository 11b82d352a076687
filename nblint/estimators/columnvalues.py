"""The values of :class:`~nblint.estimators.mixednb.MixedNB`'s input columns, as each event model reads them.

A frame's dtype, the checked sample weights, a block of columns (sparse stays sparse),
numeric blocks checked finite, missing values, levels and their codes (a group's
collapsed variable among them), and the labels of a binned measurement's bins.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

from nblint import nbmath


def frame_dtype(X):
    """The dtype a DataFrame is read as: None (numpy's choice) when its columns are all numbers, else object.

    A frame mixing categories, booleans, text and numbers has no common numpy type
    (scikit-learn's validation would try float and fail): as objects, each column keeps
    its own values. Dates and durations have no reading here, and are refused by name.

    Raises
    ------
    ValueError
        For a column of dates, times or durations.
    """
    dtypes = getattr(X, "dtypes", None)
    if dtypes is None or not hasattr(X, "columns"):
        return None
    import pandas as pd

    for name, dtype in dtypes.items():
        if pd.api.types.is_datetime64_any_dtype(dtype) or pd.api.types.is_timedelta64_dtype(dtype):
            raise ValueError(
                f"column {name!r} holds dates or durations ({dtype}): MixedNB reads numbers and categories; "
                "convert it first (to a number, such as days since a date, or to a category, such as the month)"
            )
    numeric = all(pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype) for dtype in dtypes)
    return None if numeric else object


def checked_sample_weight(sample_weight, X) -> np.ndarray | None:
    """scikit-learn's check of ``sample_weight`` (one finite number >= 0 per row), or None."""
    if sample_weight is None:
        return None
    from sklearn.utils.validation import _check_sample_weight

    weights = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
    return np.asarray(weights, dtype=float)


def block(X, positions: list[int]):
    """Columns ``positions`` of ``X`` (sparse stays sparse; all of them in order: ``X`` itself, no copy)."""
    if len(positions) == X.shape[1] and positions == list(range(X.shape[1])):
        return X
    return X[:, positions]


def numeric(X, positions: list[int], model: str):
    """A block of a numeric event model: finite numbers (ValueError naming the model if not)."""
    picked = block(X, positions)
    values = picked.data if sparse.issparse(picked) else picked
    try:
        finite = np.all(np.isfinite(np.asarray(values, dtype=float)))
    except (TypeError, ValueError):
        raise ValueError(f"the {model} columns must hold numbers") from None
    if not finite:
        raise ValueError(
            f"Input contains NaN or inf in the {model} columns: only categorical columns may "
            "have missing values (impute them, or declare the column categorical or 'drop')"
        )
    return picked


def isna(values: np.ndarray) -> np.ndarray:
    """Missing values of one column: NaN, None, pandas' NA."""
    if values.dtype == object:
        import pandas as pd

        return np.asarray(pd.isna(values), dtype=bool)
    if values.dtype.kind == "f":
        return np.isnan(values)
    return np.zeros(len(values), dtype=bool)


def dense(block) -> np.ndarray:
    """A block as a dense array; object columns of numbers become float."""
    block = block.toarray() if sparse.issparse(block) else np.asarray(block)
    if block.dtype == object:
        try:
            return block.astype(float)
        except (TypeError, ValueError):
            return block
    return block


def levels(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_inverse=True)``, also for a column mixing numbers and text.

    Values of different types do not compare (``1 < "x"``): they are then ordered by
    type name, then value within a type, so the levels are the same on every run.
    """
    try:
        return np.unique(values, return_inverse=True)
    except TypeError:
        distinct = sorted(set(values.tolist()), key=lambda v: (type(v).__name__, repr(v)))
        position = {value: k for k, value in enumerate(distinct)}
        inverse = np.fromiter((position[v] for v in values.tolist()), dtype=np.int64, count=len(values))
        return np.array(distinct, dtype=object), inverse


def known_codes(values: np.ndarray, index: dict) -> np.ndarray:
    """Codes of numeric values by binary search among the known levels (no sort of the rows)."""
    keys = np.array(list(index), dtype=float)
    order = np.argsort(keys)
    keys, codes_of = keys[order], np.array(list(index.values()), dtype=np.int64)[order]
    if not len(keys):
        return np.full(len(values), nbmath.MISSING, dtype=np.int64)
    position = np.minimum(np.searchsorted(keys, values), len(keys) - 1)
    return np.where(keys[position] == values, codes_of[position], nbmath.MISSING)


def group_codes(bits: np.ndarray, kind: str) -> np.ndarray:
    """The collapsed variable of a group: which member is set (the reference for a dummy row of zeros).

    Rows with several members set, or none in a one-hot group, are not a level of
    the variable: they get :data:`nbmath.MISSING` (no evidence).
    """
    bits = np.asarray(bits, dtype=float)
    on = bits == 1
    n_on = on.sum(axis=1)
    codes = np.argmax(on, axis=1).astype(np.int64)
    if kind == "dummy":
        codes[n_on == 0] = bits.shape[1]  # the reference level, last
        valid = n_on <= 1
    else:
        valid = n_on == 1
    valid &= np.all(on | (bits == 0), axis=1)
    codes[~valid] = nbmath.MISSING
    return codes


def bin_labels(edges: np.ndarray) -> np.ndarray:
    """The bins' intervals as text: ``< e0``, ``[e0, e1)``, ..., ``>= e_last``."""
    if not len(edges):
        return np.array(["all"], dtype=object)
    inner = [f"[{a:.6g}, {b:.6g})" for a, b in zip(edges[:-1], edges[1:])]
    return np.array([f"< {edges[0]:.6g}", *inner, f">= {edges[-1]:.6g}"], dtype=object)
