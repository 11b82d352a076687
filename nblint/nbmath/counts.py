"""Sufficient statistics of a chunk of rows that are counts: they add across chunks.

Class sizes ``N_c``, (class, level) contingency tables ``N_ck``, set bits per
class ``N_cd`` and per-class feature totals.  Everything the models fit is
fitted from these (and from :mod:`nblint.nbmath.moments`), never from raw rows,
so tables can be streamed in chunks and the counts of two chunks simply add.
Each takes optional row weights (scikit-learn's ``sample_weight``): a row then
counts as its weight, as in scikit-learn's naive Bayes classes.
"""

from __future__ import annotations

import numpy as np

from nblint.nbmath._checks import (
    MISSING,
    _as_bits,
    _as_class_codes,
    _as_counts_block,
    _as_level_codes,
    _as_row_weights,
)


def class_counts(y, n_classes: int, weights=None) -> np.ndarray:
    """Number of rows of each class.

    Parameters
    ----------
    y : array_like of int, shape (n,)
        Class codes in ``0 .. n_classes - 1``.
    n_classes : int
        Number of classes C.

    Returns
    -------
    ndarray of float, shape (C,)
        ``N_c``.  Counts of two chunks add.
    """
    y = _as_class_codes(y, n_classes)
    return np.bincount(y, weights=_as_row_weights(weights, len(y)), minlength=n_classes).astype(float)


def categorical_counts(codes, y, n_classes: int, n_levels: int, weights=None) -> np.ndarray:
    """Contingency table of (class, level) for one categorical feature.

    Parameters
    ----------
    codes : array_like of int, shape (n,)
        Level codes in ``0 .. n_levels - 1``; rows with :data:`MISSING` are not counted.
    y : array_like of int, shape (n,)
        Class codes in ``0 .. n_classes - 1``.
    n_classes, n_levels : int
        C and K.

    Returns
    -------
    ndarray of float, shape (C, K)
        ``N_ck`` = number of rows of class c with level k.  Tables add.
    """
    y = _as_class_codes(y, n_classes)
    codes = _as_level_codes(codes, n_levels)
    if codes.shape != y.shape:
        raise ValueError("codes and y must have the same length")
    seen = codes != MISSING
    w = _as_row_weights(weights, len(y))
    flat = np.bincount(
        y[seen] * n_levels + codes[seen], weights=None if w is None else w[seen], minlength=n_classes * n_levels
    )
    return flat.reshape(n_classes, n_levels).astype(float)


def bernoulli_counts(bits, y, n_classes: int, weights=None) -> np.ndarray:
    """Number of rows of each class with each bit set.

    Parameters
    ----------
    bits : array_like, shape (n, D)
        0/1 values.
    y : array_like of int, shape (n,)
        Class codes.
    n_classes : int
        C.

    Returns
    -------
    ndarray of float, shape (C, D)
        ``N_cd`` = number of rows of class c with bit d equal to 1.
    """
    y = _as_class_codes(y, n_classes)
    bits = _as_bits(bits)
    if bits.shape[0] != y.shape[0]:
        raise ValueError("bits and y must have the same number of rows")
    return _class_sums(bits, y, n_classes, weights)


def _class_sums(X, y: np.ndarray, n_classes: int, weights=None) -> np.ndarray:
    """``sum_{r : y_r = c} w_r X_r`` for every class, (C, D): one (sparse) product, ``(W Y)^T X``."""
    from scipy import sparse

    w = _as_row_weights(weights, len(y))
    entries = np.ones(len(y)) if w is None else w
    onehot = sparse.csr_matrix((entries, (y, np.arange(len(y)))), shape=(n_classes, len(y)))
    return np.asarray((onehot @ X).toarray() if sparse.issparse(X) else onehot @ X, dtype=float).reshape(
        n_classes, X.shape[1]
    )


def multinomial_counts(X, y, n_classes: int, weights=None) -> np.ndarray:
    """Total count of each feature in each class (MultinomialNB's ``feature_count_``).

    Parameters
    ----------
    X : array_like or scipy.sparse matrix, shape (n, D)
        Non-negative counts (or frequencies such as tf-idf).
    y : array_like of int, shape (n,)
    n_classes : int

    Returns
    -------
    ndarray of float, shape (C, D)
        ``N_cd = sum_{r in c} x_rd``.  Tables add.
    """
    y = _as_class_codes(y, n_classes)
    X = _as_counts_block(X)
    if X.shape[0] != y.shape[0]:
        raise ValueError("X and y must have the same number of rows")
    return _class_sums(X, y, n_classes, weights)
