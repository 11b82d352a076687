"""Naive Bayes maths for nblint, written to be read next to the paper.

Reference: C. K. I. Williams, "Naive Bayes classifiers and one-hot encoding of
categorical variables" (``shared/background/000_10c6e39b2ed1bd36.txt``).
Comments of the form ``(eq. N)`` point at that paper's numbered equations.

The module has four parts.

1. Sufficient statistics of a chunk of rows (class counts, (class, level)
   count tables, counts of set bits, per-class Gaussian moments) and how two
   chunks merge (counts add; moments take Chan et al.'s update,
   :func:`merge_moments`, the one implementation the profile, NB401 and
   :class:`nblint.MixedNB` share).  Everything below is fitted from these
   statistics, never from raw rows, so tables can be streamed in chunks.
2. Parameters from statistics, with scikit-learn's conventions (scikit-learn is
   the test oracle, it is not imported here): class log prior, Lidstone-smoothed
   categorical and Bernoulli parameters, Gaussian moments with ``var_smoothing``.
3. A Naive Bayes model made of components (any number of categorical features,
   blocks of Bernoulli bits, blocks of Gaussian features) with log-space
   posteriors.  Swapping one component lets a caller compare model "CAT" (a
   one-hot group collapsed to a single categorical feature) with model "PoB"
   (the same group as Bernoulli bits), every other component being shared::

       shared = [CategoricalComponent.from_counts(n_colour, alpha),
                 GaussianComponent.from_moments(g_moments)]
       cat = NaiveBayes(log_prior, [*shared,
                                    CategoricalComponent.from_counts(n_group, alpha)])
       pob = cat.with_component(2, BernoulliComponent.from_counts(
                 group_ones, class_count, alpha))
       lp_cat = cat.predict_log_proba([colour_codes, x_real, group_codes])
       lp_pob = pob.predict_log_proba([colour_codes, x_real, group_bits])

4. The paper's own quantities for one categorical variable: Q^{-j} (eqs. 1, 4),
   f_j, the centre-of-simplex optimum (eq. 8), the bounds (eqs. 9, 10), the
   "guaranteed more extreme" test (eq. 13) and the posteriors of eq. 2
   (categorical) and eq. 3 (product of Bernoullis).

Smoothing with ``alpha = 0`` (maximum likelihood, the paper's setting)
-----------------------------------------------------------------------
With ``alpha = 0`` a parameter fitted from a zero count is exactly 0 and its
log is ``-inf``; summing such logs naively gives ``-inf - (-inf) = NaN`` in the
posterior.  This module defines the ``alpha = 0`` posterior as the limit
``alpha -> 0+`` of the smoothed posteriors, which always exists:

* a factor fitted from a zero count behaves like ``alpha / N_c`` as alpha
  shrinks (the count's denominator ``N_c`` is the class size).  We call it a
  *veto* and keep its *leading coefficient* ``1 / N_c``;
* for one row, class ``c`` then carries ``alpha ** v_c * exp(L_c)``, where
  ``v_c`` counts its vetoes and ``L_c`` is the log of (prior x every non-zero
  factor x the leading coefficient of every vetoed factor);
* as ``alpha -> 0+`` only the classes with the fewest vetoes keep posterior
  mass, shared in proportion to ``exp(L_c)`` (the common ``alpha ** v``
  cancels).  Every row therefore has a proper distribution, and a row that
  every class vetoes (for example a level never seen in training) still gets
  one, decided by the rest of the evidence.
* a class whose denominator is itself zero (no rows at all) has the limiting
  parameters 1/K (categorical) and 1/2 (Bernoulli), which is what every
  ``alpha > 0`` gives it, so it is not vetoed.

Classes with a zero *prior* (``log_prior = -inf``) are not a smoothing limit:
they are excluded outright and always get posterior 0.  For ``alpha > 0``
there are no vetoes and all of this reduces to the usual softmax of the joint
log likelihood, equal to scikit-learn's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

import numpy as np

__all__ = [
    # sufficient statistics
    "class_counts",
    "categorical_counts",
    "bernoulli_counts",
    "multinomial_counts",
    "MISSING",
    "Moments",
    "gaussian_moments",
    "merge_moments",
    "pooled_variance",
    # parameters from statistics
    "log_class_prior",
    "categorical_log_theta",
    "gaussian_epsilon",
    "gaussian_log_density",
    # model
    "LogLikelihood",
    "Component",
    "CategoricalComponent",
    "BernoulliComponent",
    "MultinomialComponent",
    "GaussianComponent",
    "NaiveBayes",
    "log_posterior",
    # the paper's quantities
    "log_q_minus_j",
    "q_minus_j",
    "f_j",
    "q_minus_j_at_centre",
    "lower_bound",
    "upper_bound",
    "guaranteed_more_extreme",
    "categorical_posterior",
    "pob_posterior",
]


# ---------------------------------------------------------------------------
# small validation helpers
# ---------------------------------------------------------------------------


def _check_alpha(alpha: float) -> float:
    alpha = float(alpha)
    if not np.isfinite(alpha) or alpha < 0:
        raise ValueError(f"alpha must be a finite number >= 0, got {alpha!r}")
    return alpha


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


# ---------------------------------------------------------------------------
# 1. sufficient statistics of a chunk (they add across chunks)
# ---------------------------------------------------------------------------


def class_counts(y, n_classes: int) -> np.ndarray:
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
    return np.bincount(y, minlength=n_classes).astype(float)


def categorical_counts(codes, y, n_classes: int, n_levels: int) -> np.ndarray:
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
    flat = np.bincount(y[seen] * n_levels + codes[seen], minlength=n_classes * n_levels)
    return flat.reshape(n_classes, n_levels).astype(float)


def bernoulli_counts(bits, y, n_classes: int) -> np.ndarray:
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
    return _class_sums(bits, y, n_classes)


def _class_sums(X, y: np.ndarray, n_classes: int) -> np.ndarray:
    """``sum_{r : y_r = c} X_r`` for every class, (C, D): one (sparse) product, ``Y^T X``."""
    from scipy import sparse

    onehot = sparse.csr_matrix((np.ones(len(y)), (y, np.arange(len(y)))), shape=(n_classes, len(y)))
    return np.asarray((onehot @ X).toarray() if sparse.issparse(X) else onehot @ X, dtype=float).reshape(n_classes, X.shape[1])


def multinomial_counts(X, y, n_classes: int) -> np.ndarray:
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
    return _class_sums(X, y, n_classes)


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


class Moments(NamedTuple):
    """Count, mean and centred second moments of real variables (per class, or overall).

    Attributes
    ----------
    n : ndarray
        Values counted, broadcastable against ``mean`` (one count per class and
        variable where values may be missing).
    mean : ndarray
    m2 : ndarray
        Sums of squared deviations from the mean, ``M2 = sum_r (x_r - mean)**2``
        (same shape as ``mean``), or centred co-moments
        ``M[i, k] = sum_r (x_ri - mean_i)(x_rk - mean_k)`` between every variable i
        and some of them, k (see :func:`merge_moments`).
    """

    n: np.ndarray
    mean: np.ndarray
    m2: np.ndarray

    @property
    def var(self) -> np.ndarray:
        """Population variance ``M2 / n`` (0 where nothing was counted)."""
        n = np.asarray(self.n)
        return np.where(n > 0, self.m2 / np.maximum(n, 1), 0.0)


def gaussian_moments(X, y, n_classes: int) -> Moments:
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
        mean 0 and M2 0.  Chunks merge with :func:`merge_moments`.
    """
    y = _as_class_codes(y, n_classes)
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] != y.shape[0]:
        raise ValueError("X must be 2-D with one row per class code")
    count = np.bincount(y, minlength=n_classes).astype(float)
    mean = np.zeros((n_classes, X.shape[1]))
    m2 = np.zeros((n_classes, X.shape[1]))
    for c in range(n_classes):
        rows = X[y == c]
        if rows.shape[0]:
            mean[c] = rows.mean(axis=0)
            m2[c] = ((rows - mean[c]) ** 2).sum(axis=0)
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
    overall_mean = (n * moments.mean).sum(axis=0) / np.maximum(total, 1)
    m2 = np.sum(moments.m2, axis=0) + (n * (moments.mean - overall_mean) ** 2).sum(axis=0)
    return m2 / np.maximum(total, 1)


# ---------------------------------------------------------------------------
# 2. parameters from sufficient statistics
# ---------------------------------------------------------------------------


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
    ``1 / trials``.
    """
    numerator = hits + alpha
    denominator = trials + alpha * n_outcomes
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


def gaussian_log_density(X, mean, var) -> np.ndarray:
    """Sum over features of the log normal density, for every class.

    ``log p(x | y = c) = -1/2 sum_d [log(2 pi s2_cd) + (x_d - m_cd)**2 / s2_cd]``

    Parameters
    ----------
    X : array_like, shape (n, D)
    mean, var : array_like, shape (C, D)
        Class means and (already smoothed, positive) variances.

    Returns
    -------
    ndarray, shape (n, C)
    """
    X = np.asarray(X, dtype=float)
    mean = np.asarray(mean, dtype=float)
    var = np.asarray(var, dtype=float)
    log_norm = -0.5 * np.log(2.0 * np.pi * var).sum(axis=1)  # (C,)
    n, C = X.shape[0], mean.shape[0]
    out = np.empty((n, C))
    if C <= 64:
        for c in range(C):  # loop over classes keeps memory at n x D
            out[:, c] = log_norm[c] - 0.5 * (((X - mean[c]) ** 2) / var[c]).sum(axis=1)
        return out
    # Many classes: blocks of classes at once (a loop over 10,000 classes of a few rows
    # each is all overhead), each block's (n, b, D) work array kept near 2**20 cells.
    step = max(1, (1 << 20) // max(n * X.shape[1], 1))
    for start in range(0, C, step):
        block = slice(start, start + step)
        out[:, block] = log_norm[block] - 0.5 * (((X[:, None, :] - mean[block]) ** 2) / var[block]).sum(axis=2)
    return out


# ---------------------------------------------------------------------------
# 3. the model: components, log likelihood with vetoes, posteriors
# ---------------------------------------------------------------------------


#: :attr:`LogLikelihood.vetoes` of a log likelihood with no vetoed factor.
NO_VETOES = np.int64(0)


@dataclass(frozen=True)
class LogLikelihood:
    """Per-row, per-class log likelihood, split for the alpha -> 0+ limit.

    The likelihood of row r under class c is taken to be
    ``alpha ** vetoes[r, c] * exp(finite[r, c])`` as alpha -> 0+ (see the
    module docstring).  With alpha > 0, ``vetoes`` is all zero and ``finite``
    is the ordinary log likelihood.

    Attributes
    ----------
    finite : ndarray of float, shape (n, C)
        Always finite.
    vetoes : ndarray, shape (n, C), or 0
        Number of factors fitted from a zero count at alpha = 0 (whole numbers;
        a multinomial block counts each such factor once per occurrence); the
        scalar 0 when no factor can be vetoed (every alpha > 0), which spares
        building and adding arrays of zeros.
    """

    finite: np.ndarray
    vetoes: np.ndarray

    def __add__(self, other: LogLikelihood) -> LogLikelihood:
        """Naive Bayes: independent features multiply, so their logs add."""
        return LogLikelihood(self.finite + other.finite, self.vetoes + other.vetoes)

    @property
    def value(self) -> np.ndarray:
        """The log likelihood itself: ``-inf`` wherever a factor is 0."""
        return np.where(self.vetoes > 0, -np.inf, self.finite)


class Component(Protocol):
    """What :class:`NaiveBayes` needs from a feature block.

    A component may also have an ``empty`` boolean (C,) attribute naming
    classes it cannot score; :class:`NaiveBayes` then requires their prior
    to be zero.
    """

    @property
    def n_classes(self) -> int: ...

    def log_likelihood(self, x) -> LogLikelihood: ...


#: Level code of a value that is missing, or was never seen in training: the
#: feature then gives no evidence on that row (its factor is summed out, which
#: leaves 1 for every class), so it cannot veto a class.
MISSING = -1


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


@dataclass(frozen=True)
class CategoricalComponent:
    """One categorical feature (a column of integer level codes).

    Attributes
    ----------
    log_theta : ndarray, shape (C, K)
        Smoothed log P(x = k | y = c); ``-inf`` for zero counts at alpha = 0.
    log_lead : ndarray, shape (C, K)
        Finite version used for the alpha -> 0+ limit.
    vetoed : ndarray of bool, shape (C, K)
    """

    log_theta: np.ndarray
    log_lead: np.ndarray
    vetoed: np.ndarray

    @classmethod
    def from_counts(cls, counts, alpha: float = 1.0) -> CategoricalComponent:
        """Fit from a (class, level) count table; see :func:`categorical_log_theta`."""
        return cls(*_categorical_smoothed(counts, alpha))

    @property
    def n_classes(self) -> int:
        return self.log_theta.shape[0]

    @property
    def n_levels(self) -> int:
        return self.log_theta.shape[1]

    def log_likelihood(self, codes) -> LogLikelihood:
        """``log theta[c, x_r]`` for every row r and class c (0 where ``x_r`` is missing).

        Parameters
        ----------
        codes : array_like of int, shape (n,)
            Level codes, :data:`MISSING` for a value missing or unseen in training.

        Returns
        -------
        LogLikelihood
        """
        codes = _as_level_codes(codes, self.n_levels)
        finite = self.log_lead[:, codes].T.copy()
        missing = codes == MISSING
        finite[missing] = 0.0  # no evidence: the factor sums to 1 over the levels
        if not self.vetoed.any():
            return LogLikelihood(finite, NO_VETOES)
        vetoes = self.vetoed[:, codes].T.astype(np.int64)
        vetoes[missing] = 0
        return LogLikelihood(finite, vetoes)


@dataclass(frozen=True)
class BernoulliComponent:
    """A block of D independent Bernoulli bits.

    Attributes
    ----------
    log_p, log_1mp : ndarray, shape (C, D)
        Smoothed log P(bit = 1 | y) and log P(bit = 0 | y) (``-inf`` where 0).
    lead_p, lead_1mp : ndarray, shape (C, D)
        Finite versions used for the alpha -> 0+ limit.
    vetoed_p, vetoed_1mp : ndarray of bool, shape (C, D)
    """

    log_p: np.ndarray
    log_1mp: np.ndarray
    lead_p: np.ndarray
    lead_1mp: np.ndarray
    vetoed_p: np.ndarray
    vetoed_1mp: np.ndarray

    @classmethod
    def from_counts(cls, ones, class_count, alpha: float = 1.0) -> BernoulliComponent:
        """Fit from set-bit counts ``N_cd`` and class sizes ``N_c``.

        ``p_cd = (N_cd + alpha) / (N_c + 2 alpha)``, and ``1 - p_cd`` is computed as
        ``(N_c - N_cd + alpha) / (N_c + 2 alpha)`` (not ``log1p(-p)``), so it keeps
        full precision.  ``log_p`` equals ``BernoulliNB(alpha=alpha, force_alpha=True,
        binarize=None).feature_log_prob_``.
        """
        on, off = _bernoulli_smoothed(ones, class_count, alpha)
        return cls(on.log_theta, off.log_theta, on.log_lead, off.log_lead, on.vetoed, off.vetoed)

    @property
    def n_classes(self) -> int:
        return self.log_p.shape[0]

    @property
    def n_bits(self) -> int:
        return self.log_p.shape[1]

    def log_likelihood(self, bits) -> LogLikelihood:
        """``sum_d [b_d log p_cd + (1 - b_d) log(1 - p_cd)]`` per row and class.

        Parameters
        ----------
        bits : array_like or scipy.sparse matrix, shape (n, D), values 0/1
            NaN (dense only) for a missing bit, which gives no evidence.

        Returns
        -------
        LogLikelihood
        """
        missing = None
        if not _is_sparse(bits) and np.isnan(np.asarray(bits, dtype=float)).any():
            missing = np.isnan(np.asarray(bits, dtype=float))
            bits = np.where(missing, 0.0, bits)
        bits = _as_bits(bits)
        if bits.shape[1] != self.n_bits:
            raise ValueError(f"expected {self.n_bits} bits per row, got {bits.shape[1]}")
        # Every bit off, then each set bit swaps its "off" factor for its "on" one:
        # a product with the set bits only, so a sparse block stays sparse.
        finite = bits @ (self.lead_p - self.lead_1mp).T + self.lead_1mp.sum(axis=1)
        if missing is not None:  # a missing bit gives no evidence: take its "off" factor out again
            finite = finite - missing @ self.lead_1mp.T
        if not (self.vetoed_p.any() or self.vetoed_1mp.any()):
            return LogLikelihood(np.asarray(finite), NO_VETOES)
        vetoes = (bits @ (self.vetoed_p.astype(float) - self.vetoed_1mp).T
                  + self.vetoed_1mp.sum(axis=1))
        if missing is not None:
            vetoes = vetoes - missing @ self.vetoed_1mp.T.astype(float)
        return LogLikelihood(np.asarray(finite), np.rint(np.asarray(vetoes)).astype(np.int64))


@dataclass(frozen=True)
class MultinomialComponent:
    """A block of D counts drawn from one multinomial per class (``MultinomialNB``).

    ``p(x | c) ~ prod_d theta_cd ** x_d`` with ``theta_cd = (N_cd + alpha) /
    (N_c + alpha D)``, ``N_cd`` the class's total count of feature d and ``N_c =
    sum_d N_cd``; the multinomial coefficient is the same for every class and
    cancels in the posterior, so it is left out (as scikit-learn does).

    Attributes
    ----------
    log_theta : ndarray, shape (C, D)
        ``-inf`` for zero counts at alpha = 0.
    log_lead : ndarray, shape (C, D)
        Finite version for the alpha -> 0+ limit (``theta ~ alpha / N_c`` there,
        so a count x_d of a vetoed feature contributes x_d vetoes).
    vetoed : ndarray of bool, shape (C, D)
    """

    log_theta: np.ndarray
    log_lead: np.ndarray
    vetoed: np.ndarray

    @classmethod
    def from_counts(cls, feature_count, alpha: float = 1.0) -> MultinomialComponent:
        """Fit from per-class feature totals (:func:`multinomial_counts`).

        Equal to ``MultinomialNB(alpha=alpha, force_alpha=True).feature_log_prob_``.
        """
        counts = _as_counts(feature_count, "feature_count", 2)
        alpha = _check_alpha(alpha)
        if counts.shape[1] < 1:
            raise ValueError("a multinomial block needs at least one feature")
        return cls(*_lidstone(counts, counts.sum(axis=1, keepdims=True), alpha, counts.shape[1]))

    @property
    def n_classes(self) -> int:
        return self.log_theta.shape[0]

    def log_likelihood(self, X) -> LogLikelihood:
        """``sum_d x_d log theta_cd`` per row and class (a sparse ``X`` stays sparse).

        Parameters
        ----------
        X : array_like or scipy.sparse matrix, shape (n, D), non-negative

        Returns
        -------
        LogLikelihood
            With alpha = 0, ``vetoes`` sums the counts of vetoed features (the
            power of alpha as alpha -> 0+).
        """
        X = _as_counts_block(X)
        if X.shape[1] != self.log_theta.shape[1]:
            raise ValueError(f"expected {self.log_theta.shape[1]} features per row, got {X.shape[1]}")
        finite = np.asarray(X @ self.log_lead.T)
        if not self.vetoed.any():
            return LogLikelihood(finite, NO_VETOES)
        return LogLikelihood(finite, np.asarray(X @ self.vetoed.T.astype(float)))


@dataclass(frozen=True)
class GaussianComponent:
    """A block of D real features, one normal density per (class, feature).

    Attributes
    ----------
    mean : ndarray, shape (C, D)
    var : ndarray, shape (C, D)
        Class variances with the epsilon of :func:`gaussian_epsilon` added.
    empty : ndarray of bool, shape (C,)
        Classes without rows.  Their density is undefined; they score 0 and
        :class:`NaiveBayes` accepts them only with a zero prior (as
        ``fit_prior`` gives them), which excludes them from every posterior.
    """

    mean: np.ndarray
    var: np.ndarray
    empty: np.ndarray

    @classmethod
    def from_moments(
        cls,
        moments: Moments,
        *,
        var_smoothing: float = 1e-9,
        overall_var=None,
    ) -> GaussianComponent:
        """Fit from per-class moments (count, mean, M2; see :func:`gaussian_moments`).

        Parameters
        ----------
        moments : Moments
            ``mean`` and ``m2`` of shape (C, D), ``n`` broadcastable to them.
            The class variances are the population variances ``M2 / n``.
        var_smoothing : float, default 1e-9
            As in ``GaussianNB``: ``var_smoothing * max_d overall_var[d]`` is
            added to every class variance.
        overall_var : array_like, shape (D,), optional
            Per-feature variance over all rows; by default derived from the
            class moments with :func:`pooled_variance`.

        Raises
        ------
        ValueError
            If a smoothed variance of a class with rows is not positive.
        """
        mean = np.asarray(moments.mean, dtype=float)
        if mean.ndim != 2 or np.shape(moments.m2) != mean.shape:
            raise ValueError("mean and m2 must be (C, D)")
        n = np.broadcast_to(np.asarray(moments.n, dtype=float), mean.shape)
        if np.any(n < 0) or not np.all(np.isfinite(n)):
            raise ValueError("counts must be finite and non-negative")
        var = moments.var
        empty = ~np.any(n > 0, axis=1) if mean.shape[1] else np.zeros(mean.shape[0], dtype=bool)
        if overall_var is None:
            overall_var = pooled_variance(moments)
        smoothed = var + gaussian_epsilon(overall_var, var_smoothing)
        if not np.all(smoothed[~empty] > 0):
            raise ValueError(
                "a class variance is zero after smoothing; raise var_smoothing "
                "or drop constant features"
            )
        # placeholders for empty classes, never used in a posterior
        mean = np.where(empty[:, None], 0.0, mean)
        smoothed = np.where(empty[:, None], 1.0, smoothed)
        return cls(mean, smoothed, empty)

    @property
    def n_classes(self) -> int:
        return self.mean.shape[0]

    def log_likelihood(self, X) -> LogLikelihood:
        """Log density of each row under each class (never vetoed).

        Parameters
        ----------
        X : array_like, shape (n, D)

        Returns
        -------
        LogLikelihood
        """
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] != self.mean.shape[1]:
            raise ValueError(f"X must be (n, {self.mean.shape[1]})")
        finite = gaussian_log_density(X, self.mean, self.var)
        finite[:, self.empty] = 0.0
        return LogLikelihood(finite, NO_VETOES)


def log_posterior(log_prior, loglik: LogLikelihood) -> np.ndarray:
    """Log posterior of every class for every row, in log space.

    ``log p(y = c | x) = log pi_c + log p(x | c) - logsumexp_c'(...)``, taken
    in the alpha -> 0+ sense when some factors are vetoed: only the allowed
    classes (finite prior) with the fewest vetoes keep mass.

    Parameters
    ----------
    log_prior : array_like, shape (C,)
    loglik : LogLikelihood
        Shapes (n, C).

    Returns
    -------
    ndarray, shape (n, C)
        Never NaN; ``-inf`` for classes with no mass.  Rows sum to 1 after
        ``exp``.
    """
    log_prior = np.asarray(log_prior, dtype=float)
    allowed = np.isfinite(log_prior)
    if not allowed.any():
        raise ValueError("every class has zero prior")
    if loglik.finite.shape[0] == 0:
        return np.empty((0, log_prior.shape[0]))
    if np.ndim(loglik.vetoes) == 0 and loglik.vetoes == 0:  # nothing vetoed: the plain softmax
        score = log_prior + loglik.finite
        return score - _logsumexp_rows(score)
    # vetoes of excluded classes are irrelevant: make them lose every contest
    vetoes = np.where(allowed, loglik.vetoes, np.iinfo(np.int64).max)
    fewest = vetoes.min(axis=1, keepdims=True)
    keeps_mass = vetoes == fewest
    score = np.where(keeps_mass, log_prior + loglik.finite, -np.inf)
    return score - _logsumexp_rows(score)


def _logsumexp_rows(score: np.ndarray) -> np.ndarray:
    """``log sum_c exp(score[r, c])`` per row, (n, 1), shifted by the row's largest term.

    Every row has a finite term here (an allowed class), so the shift is finite.
    scipy's ``logsumexp`` gives the same but took 1 s of 1.5 on a million rows.
    """
    top = score.max(axis=1, keepdims=True)
    return top + np.log(np.exp(score - top).sum(axis=1, keepdims=True))


class NaiveBayes:
    """A Naive Bayes classifier: a log prior and a sequence of components.

    Parameters
    ----------
    log_prior : array_like, shape (C,)
        From :func:`log_class_prior`.
    components : sequence of Component
        Each consumes its own input (level codes, a bit block or a real block).

    Notes
    -----
    Inputs to the methods are a sequence aligned with ``components``.  Build
    two models that differ in one component with :meth:`with_component`; if
    many rows or models share components, compute their
    :meth:`Component.log_likelihood` once, add, and call
    :func:`log_posterior` directly.
    """

    def __init__(self, log_prior, components: Sequence[Component] = ()):
        self.log_prior = np.asarray(log_prior, dtype=float)
        if self.log_prior.ndim != 1:
            raise ValueError("log_prior must be 1-D")
        self.components = tuple(components)
        for comp in self.components:
            if comp.n_classes != self.n_classes:
                raise ValueError("every component must have as many classes as the prior")
            empty = getattr(comp, "empty", None)
            if empty is not None and np.any(empty & np.isfinite(self.log_prior)):
                raise ValueError(
                    "a Gaussian component has a class without rows but that class "
                    "has a non-zero prior: its density is undefined"
                )

    @property
    def n_classes(self) -> int:
        return self.log_prior.shape[0]

    def with_component(self, index: int, component: Component) -> NaiveBayes:
        """A copy with ``components[index]`` replaced (e.g. CAT -> PoB)."""
        comps = list(self.components)
        comps[index] = component
        return NaiveBayes(self.log_prior, comps)

    def log_likelihood(self, inputs: Sequence) -> LogLikelihood:
        """Sum of the components' log likelihoods (no prior)."""
        if len(inputs) != len(self.components):
            raise ValueError(f"expected {len(self.components)} inputs, got {len(inputs)}")
        if not self.components:
            raise ValueError("a model without components has no rows to score")
        total = None
        for comp, x in zip(self.components, inputs, strict=True):
            term = comp.log_likelihood(x)
            if total is not None and term.finite.shape != total.finite.shape:
                raise ValueError("all inputs must have the same number of rows")
            total = term if total is None else total + term
        return total

    def joint_log_likelihood(self, inputs: Sequence) -> np.ndarray:
        """``log pi_c + log p(x_r | c)``, shape (n, C); ``-inf`` where a factor is 0.

        For alpha > 0 this is scikit-learn's ``predict_joint_log_proba``.
        """
        return self.log_prior + self.log_likelihood(inputs).value

    def predict_log_proba(self, inputs: Sequence) -> np.ndarray:
        """Log posteriors, shape (n, C); see :func:`log_posterior`."""
        return log_posterior(self.log_prior, self.log_likelihood(inputs))

    def predict_proba(self, inputs: Sequence) -> np.ndarray:
        """Posteriors, shape (n, C)."""
        return np.exp(self.predict_log_proba(inputs))


# ---------------------------------------------------------------------------
# 4. the paper's quantities for one categorical variable
# ---------------------------------------------------------------------------


def log_q_minus_j(theta) -> np.ndarray:
    """``log Q^{-j}(theta) = sum_{k != j} log(1 - theta_k)`` for every j (eqs. 1, 4).

    Computed as an exclusive prefix sum plus an exclusive suffix sum of
    ``log1p(-theta_k)`` along the last axis, so nothing is subtracted: a
    ``theta_k = 1`` (log term ``-inf``) makes every *other* ``Q^{-j}`` zero
    and leaves its own finite, with no ``inf - inf``.

    Parameters
    ----------
    theta : array_like, shape (..., K)
        Probabilities in [0, 1] (for eq. 1 they need not sum to 1).

    Returns
    -------
    ndarray, shape (..., K)
    """
    theta = _as_probabilities(theta, "theta")
    with np.errstate(divide="ignore"):
        log_off = np.log1p(-theta)  # log(1 - theta_k)
    zero = np.zeros_like(log_off[..., :1])
    before = np.cumsum(np.concatenate([zero, log_off[..., :-1]], axis=-1), axis=-1)
    rev = log_off[..., ::-1]
    after = np.cumsum(np.concatenate([zero, rev[..., :-1]], axis=-1), axis=-1)[..., ::-1]
    return before + after


def q_minus_j(theta) -> np.ndarray:
    """``Q^{-j}(theta) = prod_{k != j} (1 - theta_k)`` for every j (eqs. 1, 4).

    Parameters
    ----------
    theta : array_like, shape (..., K)

    Returns
    -------
    ndarray, shape (..., K)
    """
    return np.exp(log_q_minus_j(theta))


def f_j(theta) -> np.ndarray:
    """``f_j(theta) = theta_j Q^{-j}(theta)`` for every j (sec. 2; eq. 1).

    Under the product-of-Bernoullis model this is the probability of the
    one-hot vector e_j (eq. 1).

    Parameters
    ----------
    theta : array_like, shape (..., K)

    Returns
    -------
    ndarray, shape (..., K)
    """
    theta = _as_probabilities(theta, "theta")
    return theta * q_minus_j(theta)


def q_minus_j_at_centre(theta_j, K: int) -> np.ndarray:
    """Largest ``Q^{-j}`` given ``theta_j``, at the centre of the simplex (eq. 8).

    With the other K - 1 entries all equal to ``(1 - theta_j) / (K - 1)``
    (eq. 7), ``Q^{-j} = ((K - 2 + theta_j) / (K - 1)) ** (K - 1)``.

    Parameters
    ----------
    theta_j : array_like, values in [0, 1]
    K : int >= 2

    Returns
    -------
    ndarray
    """
    if K < 2:
        raise ValueError("K must be at least 2")
    theta_j = _as_probabilities(theta_j, "theta_j")
    one_minus_other = (K - 2 + theta_j) / (K - 1)  # eq. 7
    return one_minus_other ** (K - 1)  # eq. 8


def lower_bound(theta_j) -> np.ndarray:
    """``l(theta_j) = theta_j ** 2`` (eq. 9): ``f_j`` at a corner of the simplex.

    At a corner one other entry is ``1 - theta_j`` and the rest are 0, so
    ``Q^{-j} = theta_j``, its smallest value.
    """
    theta_j = _as_probabilities(theta_j, "theta_j")
    return theta_j**2


def upper_bound(theta_j, K: int) -> np.ndarray:
    """``u(theta_j) = theta_j ((K - 2 + theta_j) / (K - 1)) ** (K - 1)`` (eq. 10).

    ``theta_j`` times the centre optimum of eq. 8.
    """
    theta_j = _as_probabilities(theta_j, "theta_j")
    return theta_j * q_minus_j_at_centre(theta_j, K)


def guaranteed_more_extreme(theta_jc, theta_jd, K: int) -> np.ndarray:
    """True where ``f_j(theta_c) / f_j(theta_d) > theta_jc / theta_jd`` is certain (eq. 13).

    From eq. 12, ``f_j(theta_c) / f_j(theta_d) >= l(theta_jc) / u(theta_jd)
    = (theta_jc / theta_jd) * theta_jc / Q*(theta_jd)``; the ratio is
    therefore pushed further from 1 whenever ``theta_jc`` exceeds the centre
    optimum ``Q*(theta_jd)`` of eq. 8 -- the condition of eq. 13.

    Parameters
    ----------
    theta_jc, theta_jd : array_like (broadcastable), values in [0, 1]
        P(x = j | c) and P(x = j | d) for two classes.
    K : int >= 2

    Returns
    -------
    ndarray of bool
    """
    theta_jc = _as_probabilities(theta_jc, "theta_jc")
    return theta_jc > q_minus_j_at_centre(theta_jd, K)


def _normalise_over_classes(log_numerator: np.ndarray) -> np.ndarray:
    """(..., C, K) unnormalised log numerators -> (..., K, C) posteriors."""
    # Imported here: scipy.special costs a linter's start-up (it loads scipy's array-API
    # layer), and only the paper's closed forms need it, never a table check.
    from scipy.special import logsumexp

    with np.errstate(invalid="ignore"):
        log_post = log_numerator - logsumexp(log_numerator, axis=-2, keepdims=True)
    return np.swapaxes(np.exp(log_post), -1, -2)


def _pi_theta(pi, theta) -> tuple[np.ndarray, np.ndarray]:
    pi = _as_probabilities(pi, "pi")
    theta = _as_probabilities(theta, "theta")
    if theta.ndim < 2 or pi.shape[-1] != theta.shape[-2]:
        raise ValueError("pi must be (..., C) and theta (..., C, K)")
    with np.errstate(divide="ignore"):
        return np.log(pi)[..., :, None], np.log(theta)


def categorical_posterior(pi, theta) -> np.ndarray:
    """Categorical model posterior p(y = i | x = j) for every j at once (eq. 2).

    ``p(y = i | x = j) = pi_i theta_ji / sum_c pi_c theta_jc``, computed in
    log space.

    Parameters
    ----------
    pi : array_like, shape (..., C)
        Class prior.
    theta : array_like, shape (..., C, K)
        ``theta[..., c, j] = P(x = j | y = c)``; each row on the simplex.

    Returns
    -------
    ndarray, shape (..., K, C)
        Row j is the posterior after observing x = j.  A value that no class
        can produce (all ``pi_c theta_jc = 0``) has an undefined posterior and
        gives a NaN row.
    """
    log_pi, log_theta = _pi_theta(pi, theta)
    return _normalise_over_classes(log_pi + log_theta)


def pob_posterior(pi, theta) -> np.ndarray:
    """Product-of-Bernoullis posterior p(y = i | x~ = e_j) for every j (eq. 3).

    ``pi_i Q_i^{-j} theta_ji / sum_c pi_c Q_c^{-j} theta_jc``: eq. 2 with the
    extra factor ``Q^{-j}`` of eq. 1 for every class.  With maximum-likelihood
    parameters the PoB model has the same pi and Theta as the categorical one
    (paper, after eq. 3), so the same arguments are passed to both.

    Parameters
    ----------
    pi : array_like, shape (..., C)
    theta : array_like, shape (..., C, K)
        Bit probabilities ``P(x~(j) = 1 | y = c)``; rows need not sum to 1.

    Returns
    -------
    ndarray, shape (..., K, C)
        As :func:`categorical_posterior`.
    """
    log_pi, log_theta = _pi_theta(pi, theta)
    return _normalise_over_classes(log_pi + log_theta + log_q_minus_j(theta))
