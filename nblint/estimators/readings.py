"""How MixedNB reads one measurement: Gaussian, Gaussian on the log scale, or quantile bins, chosen by held-out fit.

A column nblint infers as continuous can be read three ways by a Naive Bayes:

``gaussian``
    one normal density per class (``GaussianNB``'s reading);
``lognormal``
    a normal density of ``log x`` per class, for columns whose values are all
    positive (prices, incomes, lab values: skewed to the right);
``binned``
    a categorical feature over quantile bins, with about ``sqrt(n)`` bins of
    about ``sqrt(n)`` rows each (proportional k-interval discretisation, Yang &
    Webb 2001/2009: the bin count grows with the rows, so the density it
    stands for sharpens as data comes in).  Discretisation usually beats the
    Gaussian assumption for Naive Bayes (Dougherty, Kohavi & Sahami 1995).

:func:`choose_reading` picks the one with the largest *held-out conditional
log-likelihood* of the class given that column alone: 5 folds over the rows
(a seeded permutation, so the choice is deterministic), each reading fitted on
four and scored on the fifth by ``log P(class | x)`` of a one-feature Naive
Bayes with the training fold's class prior.  This compares the readings on what
the classifier uses (posteriors), so a density and a bin probability need no
common scale, and bins that fit the training rows too closely lose on the held
out ones.  On ties the simpler reading wins (the order above).  Large tables are
judged on a deterministic sample of :data:`SAMPLE_ROWS` rows.
"""

from __future__ import annotations

import numpy as np

from nblint.nbmath import categorical_log_theta

#: The readings of a continuous column, simplest first (the order ties are broken in).
READINGS = ("gaussian", "lognormal", "binned")
#: Rows the choice looks at, at most (a seeded sample of larger tables).
SAMPLE_ROWS = 20_000
#: Folds of the held-out comparison.
FOLDS = 5


def n_bins(n_rows: int) -> int:
    """Proportional k-interval discretisation: about ``sqrt(n)`` bins (at least 2)."""
    return max(2, int(np.sqrt(max(n_rows, 1))))


def bin_edges(values: np.ndarray, n_rows: int | None = None) -> np.ndarray:
    """Inner edges of ``n_bins(n)`` quantile bins (repeated values share a bin: edges are unique).

    A value ``x`` falls in bin ``searchsorted(edges, x, side="right")``, so a bin
    holds the values from its lower edge (included) to the next one (excluded).
    """
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    if not len(values):
        return np.array([])
    k = n_bins(len(values) if n_rows is None else n_rows)
    edges = np.unique(np.quantile(values, np.arange(1, k) / k, method="linear"))
    # An edge equal to the smallest value would leave the first bin empty.
    return edges[edges > values.min()]


def bin_codes(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Bin of each value (0 .. len(edges)); -1 for a missing value."""
    values = np.asarray(values, dtype=float)
    codes = np.searchsorted(edges, values, side="right").astype(np.int64)
    codes[~np.isfinite(values)] = -1
    return codes


def _log_softmax_at(score: np.ndarray, y: np.ndarray) -> np.ndarray:
    top = score.max(axis=1, keepdims=True)
    norm = top[:, 0] + np.log(np.exp(score - top).sum(axis=1))
    return score[np.arange(len(y)), y] - norm


def _gaussian_score(train_x, train_y, test_x, n_classes: int, var_smoothing: float) -> np.ndarray:
    """``log p(x | c)`` of the test rows under per-class normals fitted on the training rows, (n, C)."""
    mean = np.zeros(n_classes)
    var = np.ones(n_classes)
    # Values near float64's limits (1.8e308): their squares are inf, float64's own answer, without warnings.
    with np.errstate(over="ignore", invalid="ignore"):
        epsilon = var_smoothing * max(float(np.var(train_x)), 0.0)
        for c in range(n_classes):
            xc = train_x[train_y == c]
            if len(xc):
                mean[c], var[c] = xc.mean(), xc.var()
        var = var + epsilon
        var = np.where(var > 0, var, 1.0)  # a constant class: any variance, it scores the same on every row
        return -0.5 * (np.log(2 * np.pi * var) + (test_x[:, None] - mean) ** 2 / var)


def _binned_score(train_x, train_y, test_x, n_classes: int, alpha: float) -> np.ndarray:
    edges = bin_edges(train_x)
    k = len(edges) + 1
    counts = np.zeros((n_classes, k))
    np.add.at(counts, (train_y, bin_codes(train_x, edges)), 1.0)
    log_theta = categorical_log_theta(counts, alpha)  # (CategoricalNB's, at any alpha)
    return log_theta[:, bin_codes(test_x, edges)].T


def held_out_scores(
    x: np.ndarray, y: np.ndarray, n_classes: int, *, alpha: float = 1.0, var_smoothing: float = 1e-9
) -> dict[str, float]:
    """Held-out conditional log-likelihood (mean per row) of each reading that applies to ``x``.

    Parameters
    ----------
    x : ndarray of float, shape (n,)
        The column, finite.
    y : ndarray of int, shape (n,)
        Class codes 0 .. n_classes - 1.
    alpha : float
        Smoothing of the bins (MixedNB's alpha, at least 1e-3 here so an empty
        bin never vetoes a class in the comparison).
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=np.int64)
    rng = np.random.default_rng(0)
    if len(x) > SAMPLE_ROWS:
        keep = np.sort(rng.choice(len(x), SAMPLE_ROWS, replace=False))
        x, y = x[keep], y[keep]
    fold = rng.permutation(len(x)) % FOLDS
    readings = [r for r in READINGS if r != "lognormal" or np.all(x > 0)]
    totals = dict.fromkeys(readings, 0.0)
    alpha = max(float(alpha), 1e-3)
    for f in range(FOLDS):
        test = fold == f
        train = ~test
        if not test.any() or not train.any():
            continue
        prior = np.bincount(y[train], minlength=n_classes) + 1.0
        log_prior = np.log(prior / prior.sum())
        for reading in readings:
            if reading == "binned":
                loglik = _binned_score(x[train], y[train], x[test], n_classes, alpha)
            elif reading == "lognormal":
                loglik = _gaussian_score(np.log(x[train]), y[train], np.log(x[test]), n_classes, var_smoothing)
            else:
                loglik = _gaussian_score(x[train], y[train], x[test], n_classes, var_smoothing)
            totals[reading] += float(_log_softmax_at(log_prior + loglik, y[test]).sum())
    return {r: totals[r] / max(len(x), 1) for r in readings}


def choose_reading(x: np.ndarray, y: np.ndarray, n_classes: int, scores: dict | None = None, **kwargs) -> str:
    """The reading with the best held-out score (the simplest of those within 1e-9 of it).

    ``scores``: :func:`held_out_scores` already computed for ``x``, ``y``.
    """
    if scores is None:
        scores = held_out_scores(x, y, n_classes, **kwargs)
    # A score is nan or -inf where the values reach float64's limits (their variance is inf):
    # such a reading says nothing; with none left, the simplest reading.
    scored = {r: s for r, s in scores.items() if np.isfinite(s)}
    if not scored:
        return READINGS[0]
    best = max(scored.values())
    return next(r for r in READINGS if r in scored and scored[r] >= best - 1e-9)
