"""Checks and conversions of the arrays the Naive Bayes maths takes (shared by every part of :mod:`nblint.nbmath`)."""

from __future__ import annotations

import numpy as np

from nblint.core.runkeys import RUN_KEYS

#: Level code of a value that is missing, or was never seen in training: the
#: feature then gives no evidence on that row (its factor is summed out, which
#: leaves 1 for every class), so it cannot veto a class.
MISSING = -1


def _check_alpha(alpha: float) -> float:
    """``alpha`` as a float, checked as every face checks a smoothing (:func:`nblint.core.runkeys.smoothing`)."""
    return RUN_KEYS["alpha"].parse(float(alpha), "alpha")


def _as_counts(counts, name: str, ndim: int) -> np.ndarray:
    counts = np.asarray(counts, dtype=float)
    if counts.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-D, got shape {counts.shape}")
    if not np.all(np.isfinite(counts)) or np.any(counts < 0):
        raise ValueError(f"{name} must be finite and non-negative")
    return counts


def _as_class_codes(y, n_classes: int) -> np.ndarray:
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"class codes must be 1-D, got shape {y.shape}")
    if not np.issubdtype(y.dtype, np.integer):
        raise ValueError("class codes must be integers 0..C-1")
    if y.size and (y.min() < 0 or y.max() >= n_classes):
        raise ValueError(f"class codes must lie in 0..{n_classes - 1}")
    return y


def _as_probabilities(p, name: str) -> np.ndarray:
    p = np.asarray(p, dtype=float)
    if np.any(np.isnan(p)) or np.any(p < 0) or np.any(p > 1):
        raise ValueError(f"{name} must lie in [0, 1]")
    return p


def _as_level_codes(codes, n_levels: int) -> np.ndarray:
    codes = np.asarray(codes)
    if codes.ndim != 1:
        raise ValueError(f"level codes must be 1-D, got shape {codes.shape}")
    if codes.size == 0:
        return codes.astype(np.intp)
    if not np.issubdtype(codes.dtype, np.integer):
        raise ValueError("level codes must be integers")
    if codes.min() < MISSING or codes.max() >= n_levels:
        raise ValueError(
            f"level codes must lie in 0..{n_levels - 1} (or {MISSING}: missing); pad the "
            "count table with zero columns for levels unseen in training"
        )
    return codes


def _as_bits(bits):
    if _is_sparse(bits):
        bits = bits.tocsr().astype(float, copy=False)
        if not np.all((bits.data == 0) | (bits.data == 1)):
            raise ValueError("bits must be 0 or 1")
        return bits
    bits = np.asarray(bits)
    if bits.ndim != 2:
        raise ValueError(f"bits must be 2-D (n, D), got shape {bits.shape}")
    bits = bits.astype(float)
    if not np.all((bits == 0) | (bits == 1)):
        raise ValueError("bits must be 0 or 1")
    return bits


def _is_sparse(x) -> bool:
    from scipy import sparse

    return sparse.issparse(x)


def _as_counts_block(X):
    if _is_sparse(X):
        X = X.tocsr().astype(float, copy=False)
        values = X.data
    else:
        X = np.asarray(X, dtype=float)
        if X.ndim != 2:
            raise ValueError(f"counts must be 2-D (n, D), got shape {X.shape}")
        values = X
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise ValueError("counts must be finite and non-negative")
    return X


def _as_row_weights(weights, n_rows: int) -> np.ndarray | None:
    """Row weights as floats (None: every row counts once); finite, non-negative, one per row."""
    if weights is None:
        return None
    weights = np.asarray(weights, dtype=float)
    if weights.shape != (n_rows,):
        raise ValueError(f"weights must be 1-D with one weight per row ({n_rows}), got shape {weights.shape}")
    if not np.all(np.isfinite(weights)) or np.any(weights < 0):
        raise ValueError("weights must be finite numbers >= 0")
    return weights
