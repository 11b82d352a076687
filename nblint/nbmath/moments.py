"""Moments of real variables and their one merge (Chan et al.'s pairwise update).

:func:`merge_moments` is the one implementation of the merge: the profile,
NB401's fold statistics and :class:`nblint.MixedNB` all use it, so chunks,
partitions and folds combine in any order.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from nblint.nbmath._checks import _as_class_codes, _as_row_weights


class Moments(NamedTuple):
    """Count, mean and centred second moments of real variables (per class, or overall).

    Attributes
    ----------
    n : ndarray or int
        Values counted, broadcastable against ``mean`` (one count per class and
        variable where values may be missing; one count for all when none is).
    mean : ndarray
    m2 : ndarray
        Sums of squared deviations from the mean, ``M2 = sum_r (x_r - mean)**2``
        (same shape as ``mean``), or centred co-moments
        ``M[i, k] = sum_r (x_ri - mean_i)(x_rk - mean_k)`` between every variable i
        and some of them, k (see :func:`merge_moments`).
    """

    n: np.ndarray | int
    mean: np.ndarray
    m2: np.ndarray

    @property
    def var(self) -> np.ndarray:
        """Population variance ``M2 / n`` (0 where nothing was counted)."""
        n = np.asarray(self.n)
        return np.where(n > 0, self.m2 / np.maximum(n, 1), 0.0)


def gaussian_moments(X, y, n_classes: int, weights=None) -> Moments:
    """Per-class moments of a block of real features.

    Parameters
    ----------
    X : array_like of float, shape (n, D)
    y : array_like of int, shape (n,)
    n_classes : int

    Returns
    -------
    Moments
        ``n``, ``mean`` and ``m2`` of shape (C, D).  Empty classes get count 0,
        mean 0 and M2 0.  Chunks merge with :func:`merge_moments`.  With ``weights``
        (one per row, >= 0), ``n`` is a class's total weight and the mean and M2 are
        weighted, as scikit-learn's GaussianNB reads ``sample_weight``.
    """
    y = _as_class_codes(y, n_classes)
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] != y.shape[0]:
        raise ValueError("X must be 2-D with one row per class code")
    w = _as_row_weights(weights, len(y))
    count = np.bincount(y, weights=w, minlength=n_classes).astype(float)
    mean = np.zeros((n_classes, X.shape[1]))
    m2 = np.zeros((n_classes, X.shape[1]))
    for c in range(n_classes):
        rows = X[y == c]
        if w is None and rows.shape[0]:
            mean[c] = rows.mean(axis=0)
            m2[c] = ((rows - mean[c]) ** 2).sum(axis=0)
        elif w is not None and count[c] > 0:  # weighted: n is the weights' sum, as GaussianNB's sample_weight
            rows_w = w[y == c]
            mean[c] = rows_w @ rows / count[c]
            m2[c] = rows_w @ (rows - mean[c]) ** 2
    return Moments(np.repeat(count[:, None], X.shape[1], axis=1), mean, m2)


def merge_moments(a: Moments, b: Moments, columns=None) -> Moments:
    """Moments of the union of two disjoint sets of rows: Chan et al.'s pairwise update.

    With ``n = n_a + n_b`` and ``delta = mean_b - mean_a``::

        mean = mean_a + delta * n_b / n
        M2   = M2_a + M2_b + delta delta^T * n_a n_b / n

    (T. F. Chan, G. H. Golub, R. J. LeVeque, "Updating formulae and a pairwise
    algorithm for computing sample variances", 1979).  Exact in exact arithmetic
    and stable in floats, so chunks, partitions and folds merge in any order.
    Read with ``n_b < 0`` and ``M2_b`` negated it takes ``b``'s rows *out* of
    ``a`` (the rows of a fold's complement, from the totals).

    Parameters
    ----------
    a, b : Moments
        Same shapes.  Where ``n`` is 0 the result keeps ``a``'s mean and M2 is
        the sum.
    columns : index, optional
        When given, ``m2`` holds co-moments between every variable and the
        variables ``columns`` (shape ``(q, len(columns))``; ``slice(None)`` for the
        whole ``(q, q)`` matrix), and the correction is the outer product
        ``delta delta[columns]^T``.  Otherwise ``m2`` is per variable.

    Returns
    -------
    Moments
    """
    n = a.n + b.n
    with np.errstate(invalid="ignore", divide="ignore"):
        safe_n = np.where(n != 0, n, 1)
        share_b = np.where(n != 0, b.n / safe_n, 0.0)  # n_b / n
        weight = np.where(n != 0, a.n * b.n / safe_n, 0.0)  # n_a n_b / n
    with np.errstate(over="ignore", invalid="ignore"):  # (as in pooled_variance: near float64's limits)
        delta = b.mean - a.mean
        mean = a.mean + delta * share_b
        cross = delta * delta if columns is None else np.outer(delta, delta[columns])
        return Moments(n, mean, a.m2 + b.m2 + cross * weight)


def pooled_variance(moments: Moments) -> np.ndarray:
    """Variance of each feature over all rows, from per-class moments.

    Law of total variance: the within-class sums of squares plus the
    between-class part, over the total count.

    Parameters
    ----------
    moments : Moments
        Per class: ``n``, ``mean`` and ``m2`` of shape (C, D).

    Returns
    -------
    ndarray, shape (D,)
        Equal (up to rounding) to ``X.var(axis=0)`` over the rows that gave
        the moments; 0 for a feature with no values.
    """
    n = np.broadcast_to(np.asarray(moments.n, dtype=float), np.shape(moments.mean))
    total = n.sum(axis=0)
    # Values near float64's limits (1.8e308) have sums of squares past it: the variance is then
    # inf (or nan from inf - inf), float64's own answer, without numpy's warnings on the way.
    with np.errstate(over="ignore", invalid="ignore"):
        overall_mean = (n * moments.mean).sum(axis=0) / np.maximum(total, 1)
        m2 = np.sum(moments.m2, axis=0) + (n * (moments.mean - overall_mean) ** 2).sum(axis=0)
    return m2 / np.maximum(total, 1)
