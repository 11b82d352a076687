"""The feature blocks a :class:`~nblint.nbmath.model.NaiveBayes` is made of, each fitted from sufficient statistics.

One categorical feature (level codes), a block of Bernoulli bits, a block of
multinomial counts and a block of Gaussian features.  Each gives a
:class:`~nblint.nbmath.model.LogLikelihood` per row and class; swapping one
component for another compares two encodings of the same variable (CAT and PoB).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nblint.nbmath._checks import (
    MISSING,
    _as_bits,
    _as_counts,
    _as_counts_block,
    _as_level_codes,
    _check_alpha,
    _is_sparse,
)
from nblint.nbmath.model import NO_VETOES, LogLikelihood
from nblint.nbmath.moments import Moments, pooled_variance
from nblint.nbmath.parameters import _bernoulli_smoothed, _categorical_smoothed, _lidstone, gaussian_epsilon


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
        vetoes = bits @ (self.vetoed_p.astype(float) - self.vetoed_1mp).T + self.vetoed_1mp.sum(axis=1)
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
            raise ValueError("a class variance is zero after smoothing; raise var_smoothing or drop constant features")
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
