"""Sufficient statistics of NB401's models: all rows, and each cross-validation fold.

Everything the models need is a count table or a set of per-class moments, so
the statistics of the rows outside a fold are the totals minus the fold's own
(:meth:`Counts.minus`).  The totals come from the profile; each fold's are
gathered in the first pass over the rows (:class:`FoldCounts`), the fold of a row
being a hash of its row number, so it does not depend on chunking.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nblint import nbmath
from nblint.core.hashing import GOLDEN_GAMMA, mix64
from nblint.impact.design import MULTINOMIAL, Design, RowInputs


@dataclass
class Counts:
    """Sufficient statistics of the rows of one set (all rows, or one fold)."""

    class_count: np.ndarray  # (C,)
    group_counts: list[np.ndarray]  # per group (C, K_g): rows of class c at level k
    categorical: list[np.ndarray]  # per categorical column (C, K)
    gauss_n: np.ndarray  # (C, D)
    gauss_mean: np.ndarray  # (C, D)
    gauss_m2: np.ndarray  # (C, D)
    terms: np.ndarray | None = None  # (C, words): per class, the words' total counts (weights), or rows present

    def minus(self, part: Counts) -> Counts:
        """The statistics of the rows of ``self`` not in ``part`` (exact for counts).

        Gaussian moments are taken apart by Chan's pairwise update read backwards
        (:func:`nbmath.merge_moments` with the part's count and M2 negated).
        """
        n, mean, m2 = nbmath.merge_moments(self.moments, nbmath.Moments(-part.gauss_n, part.gauss_mean, -part.gauss_m2))
        return Counts(
            self.class_count - part.class_count,
            [a - b for a, b in zip(self.group_counts, part.group_counts)],
            [a - b for a, b in zip(self.categorical, part.categorical)],
            np.asarray(n),  # (per class and column: an array already)
            mean,
            np.maximum(m2, 0.0),
            # (weights, tf-idf, are floats: a total minus its part may round below zero)
            None if self.terms is None else np.maximum(self.terms - part.terms, 0.0),
        )

    @property
    def moments(self) -> nbmath.Moments:
        """The Gaussian features' per-class moments."""
        return nbmath.Moments(self.gauss_n, self.gauss_mean, self.gauss_m2)


def profile_counts(ctx, design: Design) -> Counts:
    """All-rows statistics, straight from the profile (no pass over the rows)."""
    profile = ctx.profile
    C = len(profile.classes)
    numeric = profile.numeric
    group_counts = []
    for group in design.groups:
        table = np.zeros((C, group.n_levels), dtype=np.int64)
        for k, member in enumerate(group.members):
            j = numeric.names.index(member)
            table[:, k] = np.rint(numeric.class_mean[:C, j] * numeric.class_n[:C, j]).astype(np.int64)
        if group.kind == "dummy":
            table[:, -1] = profile.class_count - table[:, :-1].sum(axis=1)
        group_counts.append(table)
    categorical = [profile.levels(c).table[:, :C].T.astype(np.int64) for c in design.categorical]
    idx = [numeric.names.index(c) for c in design.gaussian]
    return Counts(
        profile.class_count.astype(np.int64),
        group_counts,
        categorical,
        numeric.class_n[:C][:, idx].astype(np.float64),
        numeric.class_mean[:C][:, idx],
        numeric.class_m2[:C][:, idx],
        _term_totals(profile, design) if design.terms else None,
    )


def _term_totals(profile, design: Design) -> np.ndarray:
    """Per class, each word's total (multinomial) or the rows where it is present (Bernoulli), (C, words)."""
    C = len(profile.classes)
    numeric = profile.numeric
    idx = np.array([numeric.names.index(c) for c in design.terms], dtype=np.int64)
    totals = numeric.class_mean[:C][:, idx] * numeric.class_n[:C][:, idx]
    if design.term_model == MULTINOMIAL:
        # Counts' totals are whole numbers: rounded, they are exact whatever the chunks the profile
        # merged (weights, tf-idf, keep the last bits of their merged means, as Gaussian moments do).
        whole = numeric.integral[idx]
        totals[:, whole] = np.rint(totals[:, whole])
        return np.maximum(totals, 0.0)
    present = np.rint(totals)  # a 0/1 word's total is its rows with a 1
    for k in np.flatnonzero(~numeric.zero_one[idx]).tolist():
        # A count read as presence: its rows minus those where it is 0.
        levels = numeric.levels[idx[k]]
        zeros = levels.counts_of(0.0)[:C] if levels is not None else 0
        present[:, k] = numeric.class_n[:C, idx[k]] - zeros
    return present


def fold_of(rows: np.ndarray, k: int, seed: int) -> np.ndarray:
    """Fold of each row: a hash of its global row number (independent of chunking)."""
    # The seed shifts the row numbers by seed times the golden-ratio constant, modulo 2**64:
    # computed on Python integers, whose product does not overflow (numpy's uint64 scalars
    # would warn about the wrap for every seed past 1).
    offset = np.uint64(seed * GOLDEN_GAMMA % 2**64)
    return (mix64(rows.astype(np.uint64) + offset) % np.uint64(k)).astype(np.int64)


class FoldCounts:
    """Per-fold statistics, gathered with one bincount per feature over ``fold * C + y``."""

    def __init__(self, like: Counts, k: int):
        C, D = like.gauss_n.shape
        self.k, self.C = k, C
        self.classes = np.zeros((k, C), dtype=np.int64)
        self.groups = [np.zeros((k,) + t.shape, dtype=np.int64) for t in like.group_counts]
        self.categorical = [np.zeros((k,) + t.shape, dtype=np.int64) for t in like.categorical]
        self.n = np.zeros((k, C, D))
        self.sum = np.zeros((k, C, D))
        self.sumsq = np.zeros((k, C, D))
        self.shift = like.gauss_mean  # all-rows class means: deviations from them subtract stably
        self.terms = None if like.terms is None else np.zeros((k,) + like.terms.shape)

    def add(self, inputs: RowInputs, folds: np.ndarray) -> None:
        k, C = self.k, self.C
        cell = folds * C + inputs.y  # (fold, class) of each row
        self.classes += np.bincount(cell, minlength=k * C).reshape(k, C)
        for acc, codes in zip(self.groups + self.categorical, [*inputs.group_codes, *inputs.categorical]):
            K = acc.shape[2]
            acc += np.bincount(cell * K + codes, minlength=k * C * K).reshape(k, C, K)
        if self.terms is not None:
            from scipy import sparse

            # The (fold, class) cells' word totals: one sparse product with the rows' cell indicators.
            cells = sparse.csr_matrix((np.ones(len(cell)), (cell, np.arange(len(cell)))), shape=(k * C, len(cell)))
            self.terms += (cells @ inputs.terms).toarray().reshape(self.terms.shape)
        if inputs.gaussian.shape[1]:
            dev = inputs.gaussian - self.shift[inputs.y]
            self.n += np.bincount(cell, minlength=k * C).reshape(k, C)[:, :, None]
            for d in range(dev.shape[1]):
                self.sum[:, :, d] += np.bincount(cell, weights=dev[:, d], minlength=k * C).reshape(k, C)
                self.sumsq[:, :, d] += np.bincount(cell, weights=dev[:, d] ** 2, minlength=k * C).reshape(k, C)

    def merge(self, other: FoldCounts) -> None:
        """Add the statistics of later rows (gathered apart, e.g. one window's): in row order,
        each float sum is the one adding those rows here would have made."""
        self.add_counts(other)
        self.add_sums(other.sum, other.sumsq)

    def add_counts(self, other: FoldCounts) -> None:
        """Add another part's counts (integers: in any order, with the same result)."""
        self.classes += other.classes
        for acc, part in zip(self.groups + self.categorical, other.groups + other.categorical):
            acc += part
        self.n += other.n  # (whole numbers in floats: exact)
        if self.terms is not None:
            assert other.terms is not None  # parts of one design: both have the term block or neither
            self.terms += other.terms  # (counts exact; weights added part after part, in row order)

    def add_sums(self, total: np.ndarray, squares: np.ndarray) -> None:
        """Add another part's sums of deviations (floats: in row order, as they were gathered)."""
        self.sum += total
        self.sumsq += squares

    def counts(self, f: int) -> Counts:
        """Fold ``f``'s statistics."""
        n = self.n[f]
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_dev = np.where(n > 0, self.sum[f] / np.maximum(n, 1), 0.0)
        m2 = np.maximum(self.sumsq[f] - n * mean_dev**2, 0.0)
        return Counts(
            self.classes[f],
            [g[f] for g in self.groups],
            [c[f] for c in self.categorical],
            n,
            self.shift + mean_dev,
            m2,
            None if self.terms is None else self.terms[f],
        )


def drop_unmeasurable(design: Design, totals: Counts, overall_var: np.ndarray, var_smoothing: float) -> bool:
    """Leave out Gaussian columns whose class variance stays zero after smoothing; whether any were.

    Values such as 1e-320 and 0 have a variance that underflows to zero, and so
    does ``var_smoothing`` times it: no Gaussian density can be fitted (GaussianNB
    divides by zero).  Such a column is a constant to both models.
    """
    if not design.gaussian:
        return False
    epsilon = var_smoothing * float(np.max(overall_var))
    with np.errstate(invalid="ignore", divide="ignore"):
        var = np.where(totals.gauss_n > 0, totals.gauss_m2 / np.maximum(totals.gauss_n, 1), np.inf)
    unusable = ~np.all(var + epsilon > 0, axis=0)
    for j in np.flatnonzero(unusable):
        design.left_out[design.gaussian[j]] = "variance too small for double precision"
    design.gaussian = [c for c, bad in zip(design.gaussian, unusable) if not bad]
    return bool(unusable.any())
