"""Parameters from sufficient statistics, with scikit-learn's conventions.

Class log prior, Lidstone-smoothed categorical and Bernoulli parameters (with
their ``alpha -> 0+`` limit: see :mod:`nblint.nbmath`) and the Gaussian variance
floor.  scikit-learn is the test oracle; it is not imported here.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from nblint.nbmath._checks import _as_counts, _check_alpha


def log_class_prior(class_count, *, fit_prior: bool = True, class_prior=None) -> np.ndarray:
    """Log prior of each class, log pi.

    Parameters
    ----------
    class_count : array_like, shape (C,)
        ``N_c``.
    fit_prior : bool, default True
        If True, the empirical prior ``N_c / N``; if False, uniform ``1 / C``.
    class_prior : array_like, shape (C,), optional
        Given prior; takes precedence.  Must be non-negative and sum to 1.

    Returns
    -------
    ndarray, shape (C,)
        ``log pi``; ``-inf`` for a class with zero prior (an empty class under
        ``fit_prior``), as in scikit-learn's ``class_log_prior_``.
    """
    class_count = _as_counts(class_count, "class_count", 1)
    n_classes = class_count.shape[0]
    if class_prior is not None:
        prior = np.asarray(class_prior, dtype=float)
        if prior.shape != (n_classes,):
            raise ValueError("class_prior must have one entry per class")
        if np.any(~np.isfinite(prior)) or np.any(prior < 0):
            raise ValueError("class_prior must be finite and non-negative")
        if not np.isclose(prior.sum(), 1.0):
            raise ValueError(f"class_prior must sum to 1, sums to {prior.sum()!r}")
        with np.errstate(divide="ignore"):
            return np.log(prior)
    if fit_prior:
        total = class_count.sum()
        if total <= 0:
            raise ValueError("cannot fit a prior from zero rows")
        with np.errstate(divide="ignore"):
            return np.log(class_count) - np.log(total)
    return np.full(n_classes, -np.log(n_classes))


class _Smoothed(NamedTuple):
    """A Lidstone-smoothed probability table in the form the model needs.

    ``log_theta``: the log probability itself (``-inf`` where it is 0).
    ``vetoed``: where it is 0 (only possible with alpha = 0).
    ``log_lead``: ``log_theta`` where it is positive; where it is 0, the log
    of the leading coefficient of the probability as alpha -> 0+.
    """

    log_theta: np.ndarray
    log_lead: np.ndarray
    vetoed: np.ndarray


def _lidstone(hits: np.ndarray, trials: np.ndarray, alpha: float, n_outcomes: int) -> _Smoothed:
    """``(hits + alpha) / (trials + alpha * n_outcomes)`` with its alpha -> 0+ limit.

    ``hits`` has shape (C, M) and ``trials`` shape (C, 1).  A class with no
    trials has probability ``1 / n_outcomes`` for every alpha > 0, hence also
    in the limit.  A zero hit count at alpha = 0 gives probability 0, whose
    value for small alpha is ``alpha / trials``: leading coefficient
    ``1 / trials``. An alpha so large that ``alpha * n_outcomes`` overflows
    is divided out of both (it then leaves every outcome its share ``1 / n_outcomes``).
    """
    numerator = hits + alpha
    denominator = trials + alpha * n_outcomes
    if not np.all(np.isfinite(denominator)):  # an alpha near the float maximum: the same ratio, divided by alpha
        numerator = hits / alpha + 1.0
        denominator = trials / alpha + float(n_outcomes)
    no_trials = np.broadcast_to(trials == 0, hits.shape)
    vetoed = (numerator == 0) & ~no_trials
    safe_num = np.where(vetoed | no_trials, 1.0, numerator)
    safe_den = np.where(denominator > 0, denominator, 1.0)
    log_lead = np.where(no_trials, -np.log(n_outcomes), np.log(safe_num) - np.log(safe_den))
    log_theta = np.where(vetoed, -np.inf, log_lead)
    return _Smoothed(log_theta, log_lead, vetoed)


def _categorical_smoothed(counts, alpha: float) -> _Smoothed:
    counts = _as_counts(counts, "counts", 2)
    alpha = _check_alpha(alpha)
    n_levels = counts.shape[1]
    if n_levels < 1:
        raise ValueError("a categorical feature needs at least one level")
    class_size = counts.sum(axis=1, keepdims=True)  # N_c
    return _lidstone(counts, class_size, alpha, n_levels)


def categorical_log_theta(counts, alpha: float) -> np.ndarray:
    """Smoothed log P(x = k | y = c) of one categorical feature.

    ``theta_ck = (N_ck + alpha) / (N_c + alpha * K)`` (Lidstone), where
    ``N_c = sum_k N_ck``.  This is ``theta_ji`` of the paper (value j, class
    i), here indexed [class, level].

    Parameters
    ----------
    counts : array_like, shape (C, K)
        ``N_ck``.  K is the number of levels; pad with zero columns for levels
        never seen (scikit-learn's ``min_categories``).
    alpha : float >= 0
        Additive smoothing.

    Returns
    -------
    ndarray, shape (C, K)
        Equal to ``CategoricalNB(alpha=alpha, force_alpha=True)
        .feature_log_prob_[i]``.  With alpha = 0, ``-inf`` for zero counts and
        ``log(1/K)`` for a class with no rows (the alpha -> 0+ limit).
    """
    return _categorical_smoothed(counts, alpha).log_theta


def _bernoulli_smoothed(ones, class_count, alpha: float) -> tuple[_Smoothed, _Smoothed]:
    ones = _as_counts(ones, "ones", 2)
    class_count = _as_counts(class_count, "class_count", 1)
    alpha = _check_alpha(alpha)
    if ones.shape[0] != class_count.shape[0]:
        raise ValueError("ones and class_count must have the same number of classes")
    trials = class_count[:, None]
    if np.any(ones > trials):
        raise ValueError("a bit cannot be set in more rows than the class has")
    on = _lidstone(ones, trials, alpha, 2)
    off = _lidstone(trials - ones, trials, alpha, 2)
    return on, off


def gaussian_epsilon(overall_var, var_smoothing: float) -> float:
    """Variance floor added to every class variance, as in GaussianNB.

    ``epsilon = var_smoothing * max_d Var(x_d)`` over all rows.

    Parameters
    ----------
    overall_var : array_like, shape (D,)
        Per-feature variance over the whole table (see :func:`pooled_variance`).
    var_smoothing : float >= 0

    Returns
    -------
    float
    """
    overall_var = np.asarray(overall_var, dtype=float)
    if var_smoothing < 0:
        raise ValueError("var_smoothing must be >= 0")
    return float(var_smoothing * overall_var.max()) if overall_var.size else 0.0
