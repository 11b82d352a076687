"""WANBIA: one non-negative weight per Naive Bayes feature, fitted to the conditional log-likelihood.

Naive Bayes multiplies every feature's likelihood as if the features were
independent, so two near-copies of one measurement (minimum and maximum price)
count its evidence twice.  Weighting each feature's log-likelihood,

    log P(c | x) = log pi_c + sum_f w_f log P(x_f | c) - log Z(x),

and choosing ``w >= 0`` to maximise the conditional log-likelihood of the
classes undoes that over-counting (Zaidi, Cerquides, Carman & Webb, "Alleviating
Naive Bayes attribute independence assumption by attribute weighting", JMLR 14,
2013).  The class-conditional parameters stay the Naive Bayes ones; only the
weights are fitted, by L-BFGS-B started from ``w = 1`` (plain Naive Bayes).

Two choices differ from the paper, both against over-fitting on small tables:

* the per-feature log-likelihoods the weights are fitted to are *cross-fitted*
  (each row scored by a model fitted without its fold), so a many-level code
  that merely memorises its training rows does not earn a large weight;
* the penalty ``penalty / 2 * sum_f (w_f - 1) ** 2`` shrinks towards plain
  Naive Bayes rather than towards 0, so with few rows the model stays Naive Bayes.
"""

from __future__ import annotations

import numpy as np

#: Strength of the pull towards w = 1 (in units of the summed log-loss over rows).
PENALTY = 1.0
#: Rows the weights are fitted on, at most (a seeded, class-stratified sample of larger tables).
SAMPLE_ROWS = 50_000
#: Log-likelihoods (rows x features x classes) held at most: fewer rows for wide tables.
SAMPLE_CELLS = 20_000_000


def _objective(w: np.ndarray, L: np.ndarray, y: np.ndarray, log_prior: np.ndarray, penalty: float, row_weights=None):
    """Penalised negative conditional log-likelihood (each row counted as its weight) and its gradient."""
    score = log_prior + np.einsum("nfc,f->nc", L, w)
    top = score.max(axis=1, keepdims=True)
    exp = np.exp(score - top)
    total = exp.sum(axis=1, keepdims=True)
    rows = np.arange(len(y))
    row_weights = np.ones(len(y)) if row_weights is None else row_weights
    loss = -(row_weights * (score[rows, y] - top[:, 0] - np.log(total[:, 0]))).sum()
    residual = exp / total
    residual[rows, y] -= 1.0  # p - 1[c = y]
    residual *= row_weights[:, None]
    grad = np.einsum("nfc,nc->f", L, residual)
    loss += 0.5 * penalty * float(((w - 1.0) ** 2).sum())
    grad += penalty * (w - 1.0)
    return float(loss), grad


def fit_weights(
    L: np.ndarray, y: np.ndarray, log_prior: np.ndarray, penalty: float = PENALTY, row_weights=None
) -> np.ndarray:
    """The weights minimising the penalised negative conditional log-likelihood.

    Parameters
    ----------
    L : ndarray, shape (n, F, C)
        Per-row, per-feature, per-class log-likelihoods (finite).
    y : ndarray of int, shape (n,)
        Class codes.
    log_prior : ndarray, shape (C,)
        Finite where a class may be predicted; a class with ``-inf`` prior is
        given a very low score instead (it never wins and adds no gradient).
    penalty : float
        See :data:`PENALTY`.
    row_weights : ndarray, shape (n,), optional
        How much each row counts (scikit-learn's ``sample_weight``); default 1.

    Returns
    -------
    ndarray, shape (F,), every weight >= 0
    """
    from scipy.optimize import minimize

    n, F, _ = L.shape
    if F == 0 or n == 0:
        return np.ones(F)
    log_prior = np.where(np.isfinite(log_prior), log_prior, -1e6)
    result = minimize(
        _objective,
        np.ones(F),
        args=(
            L,
            np.asarray(y, dtype=np.int64),
            log_prior,
            float(penalty),
            np.ones(n) if row_weights is None else np.asarray(row_weights, dtype=float),
        ),
        jac=True,
        method="L-BFGS-B",
        bounds=[(0.0, None)] * F,
        options={"maxiter": 200},
    )
    return np.maximum(np.asarray(result.x, dtype=float), 0.0)


def stratified_folds(y: np.ndarray, n_folds: int, seed: int = 0) -> np.ndarray:
    """A fold number per row, each class spread evenly over the folds (seeded: deterministic)."""
    rng = np.random.default_rng(seed)
    fold = np.empty(len(y), dtype=np.int64)
    start = 0
    for c in np.unique(y):
        rows = np.flatnonzero(y == c)
        fold[rng.permutation(rows)] = (np.arange(len(rows)) + start) % n_folds
        start += len(rows)
    return fold


def sample_rows(y: np.ndarray, limit: int = SAMPLE_ROWS, seed: int = 0) -> np.ndarray:
    """All rows, or a seeded sample of ``limit`` rows keeping every class's share (sorted)."""
    if len(y) <= limit:
        return np.arange(len(y))
    rng = np.random.default_rng(seed)
    keep = []
    for c in np.unique(y):
        rows = np.flatnonzero(y == c)
        take = max(1, round(limit * len(rows) / len(y)))
        keep.append(rng.choice(rows, min(take, len(rows)), replace=False))
    return np.sort(np.concatenate(keep))
