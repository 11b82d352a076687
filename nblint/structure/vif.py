"""Variance inflation factors in closed form, with exact dependencies found exactly.

For standardised predictors with correlation matrix ``R``, the variance inflation
factor of column ``j`` in a regression with an intercept is

    VIF_j = 1 / (1 - R_j^2) = [R^{-1}]_jj,

which is what statsmodels' ``variance_inflation_factor`` computes with a constant
column, one regression per column.  Here it is one Cholesky factorisation of ``R``
after exact dependencies are taken out: one level of each exact one-hot group
(it is one minus the others: VIF infinite), then the columns a pivoted Cholesky
finds dependent within :data:`RANK_TOLERANCE`.

Up to :data:`LAPACK_BLOCK` columns the factorisations and solves are numpy's and the
substitutions here (the algorithms LAPACK itself runs at that size); beyond it, scipy.linalg's.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from nblint.core.blas import dense_blas
from nblint.structure.groups import Group

#: Residual variance share (1 / VIF) at or below which a column is an exact
#: linear combination of the others: VIF >= 1e10.
RANK_TOLERANCE = 1e-10

#: Columns up to which the pivoted Cholesky and the triangular solves are done here in numpy
#: (:func:`_pivoted_cholesky`, :func:`_substitute`) rather than by scipy.linalg: LAPACK's dpstrf runs
#: its unblocked algorithm, dpstf2, below its block size (ILAENV's 64 for xPOTRF), and the one
#: here is that algorithm step for step.  Importing scipy.linalg costs 0.06-0.1 s of CPU, more than
#: a small table's whole check; a few dozen numpy steps cost a millisecond.
LAPACK_BLOCK = 64

#: Relative error allowed for the screen of :meth:`VifResult.may_exceed`: a numpy
#: inverse of the Cholesky factor agrees with LAPACK's to about ``cond(R) * 1e-16``,
#: and ``cond(R) <= q^2 max VIF``, so below a threshold of 1e3 for 1e4 columns the
#: estimate is good to 1e-6 or better; 1e-3 leaves a wide margin.
SCREEN_MARGIN = 1e-3

#: Longest support refitted by least squares when a dependent column's combination is
#: pruned of rounding noise (the refit costs the support's cube; the full fit from the
#: shared factor is kept beyond it).  Ordinary tables' combinations are far shorter.
MAX_REFIT_TERMS = 200

#: On a table whose rows set the rank, a combination of at most this many columns is
#: still a finding (a copy, a total of a few parts: it holds whatever the rows) ...
MAX_SHORT_TERMS = 5
#: ... and of at most this share of the independent columns (on a handful of rows, a
#: combination of two columns can be chance).
SHORT_SHARE = 0.1


def short_terms(rank: int) -> int:
    """Most terms of a combination that is a finding when the rows set the rank ``rank``."""
    return min(MAX_SHORT_TERMS, int(rank * SHORT_SHARE))


class VifResult:
    """Variance inflation factors of the complete, non-constant numeric columns.

    Attributes
    ----------
    vif : dict
        Column -> VIF (``inf`` for exact linear combinations), computed on first use
        (the inverse of the independent columns' Cholesky factor by LAPACK).
    dependencies : dict
        Column -> the columns it is an exact linear combination of, with coefficients
        (for every column with infinite VIF that is not explained by a one-hot group).
    dropped : dict
        One-hot group member left out of the regressors -> its group label.
    by_rows : tuple of str
        On a table whose rows set the rank (:func:`short_terms`), the dependent columns whose
        only combinations found are long: dependent by the table's shape, with no
        combination kept (VIF infinite; not in :attr:`dependencies`).
    """

    def __init__(  # (a plain class: a dataclass exec's its methods at import, which a first check pays)
        self,
        infinite: dict[str, float],
        dependencies: dict[str, dict[str, float]],
        dropped: dict[str, str],
        tolerance: float = RANK_TOLERANCE,
        independent: tuple[str, ...] = (),
        factor: np.ndarray | None = None,
        by_rows: tuple[str, ...] = (),
    ):
        self.infinite = infinite
        self.dependencies = dependencies
        self.dropped = dropped
        self.tolerance = tolerance
        #: Columns of ``inverse`` (the independent set) and the Cholesky factor of their correlations.
        self.independent = independent
        self.factor = factor
        self.by_rows = by_rows

    @cached_property
    def inverse(self) -> np.ndarray | None:
        """``R^{-1}`` over :attr:`independent`: ``L^{-T} L^{-1}``, whose diagonal is the VIFs."""
        if self.factor is None:
            return None
        with dense_blas(float(len(self.factor)) ** 3):
            Linv = _triangular_inverse(self.factor)
            return Linv.T @ Linv

    @cached_property
    def vif(self) -> dict[str, float]:
        values = dict(self.infinite)
        inverse = self.inverse  # None exactly when there is no factor
        if inverse is not None:
            values.update(zip(self.independent, (float(v) for v in np.diag(inverse))))
        return values

    def correlation(self, a: str, b: str) -> float:
        """The correlation of two independent columns, from the factor (``R = L L^T``); 0 where unknown."""
        if self.factor is None or a not in self.independent or b not in self.independent:
            return 0.0
        i, j = self.independent.index(a), self.independent.index(b)
        return float(self.factor[i] @ self.factor[j])

    def partners(self, column: str, top: int = 3) -> list[str]:
        """The columns that explain most of ``column``: largest standardised coefficients.

        Regressing standardised column j on the others gives coefficients
        ``beta_k = -[R^{-1}]_jk / [R^{-1}]_jj``.
        """
        if column in self.dependencies:
            ranked = sorted(self.dependencies[column].items(), key=lambda kv: -abs(kv[1]))
            return [name for name, _ in ranked[:top]]
        if self.inverse is None or column not in self.independent:
            return []
        j = self.independent.index(column)
        beta = -self.inverse[j] / self.inverse[j, j]
        beta[j] = 0.0
        order = np.argsort(-np.abs(beta), kind="stable")[:top]
        return [self.independent[k] for k in order if abs(beta[k]) > 1e-3]

    def may_exceed(self, threshold: float) -> bool:
        """Whether some column's VIF may be over ``threshold`` (False: none is).

        Screened with numpy's inverse of the factor, so that a table whose VIFs are
        all well under the threshold never loads LAPACK's triangular solver (scipy.linalg,
        a tenth of a second or more of a small table's check); the VIFs reported are
        always :attr:`vif`'s.
        """
        if any(name not in self.dropped for name in self.infinite):  # exact dependencies
            return True
        if self.factor is None:
            return False
        with dense_blas(float(len(self.factor)) ** 3):
            estimate = np.linalg.inv(self.factor)
        return bool(np.max(np.einsum("ij,ij->j", estimate, estimate)) > threshold * (1.0 - SCREEN_MARGIN))


def profile_variance_inflation(gram, left_out: frozenset[str], onehot: list[Group], n_rows: int) -> VifResult:
    """:func:`variance_inflation` of a profile's complete numeric columns (its ``gram``), ``left_out`` aside.

    The words of a document-term block are left out: a bag of words has more words than
    documents, or words seen in a few documents each, so exact linear dependencies among
    them are certain and say nothing about the table (and finding each would take a
    least-squares fit per word).
    """
    names = gram.names
    if left_out and any(name in left_out for name in names):
        keep = [i for i, name in enumerate(names) if name not in left_out]
        return variance_inflation(
            tuple(names[i] for i in keep), gram.comoment_of(keep), onehot, n_rows, np.asarray(gram.mean)[keep]
        )
    return variance_inflation(names, gram.comoment, onehot, n_rows, np.asarray(gram.mean))


def variance_inflation(
    names: tuple[str, ...], comoment: np.ndarray, onehot: list[Group], n_rows: int | None = None, mean=None
) -> VifResult:
    """VIF of every column, in closed form from the centred co-moment matrix.

    Parameters
    ----------
    names : tuple of str
        Columns of ``comoment`` (complete numeric features).
    comoment : ndarray (q, q)
        Centred co-moments ``M``; constant columns (``M_jj = 0``) are skipped.
    onehot : list of Group
        Exact one-hot groups: their last member is left out of the regressors
        (it is ``1 - sum`` of the others) and reported with ``VIF = inf``.
    n_rows : int, optional
        Rows behind ``comoment``.  When the independent columns reach ``n_rows - 1``
        (the most the centred rows can span), the split into independent and dependent
        columns is made in name order, so that it does not depend on the columns' order.
    mean : ndarray (q,), optional
        The columns' means, which tell which columns are constant (:func:`_varying`).

    Returns
    -------
    VifResult
    """
    diag = np.diag(comoment) if len(names) else np.zeros(0)
    scale, varying = np.sqrt(np.abs(diag)), _varying(diag, n_rows, mean)
    dropped = _dropped_members(onehot, names)
    keep = [j for j, name in enumerate(names) if varying[j] and name not in dropped]
    infinite = {name: float("inf") for name in dropped}
    dependencies: dict[str, dict[str, float]] = {}
    if not keep:
        return VifResult(infinite, dependencies, dropped)
    # Its factorisations and solves take at most q^3 multiply-adds over the q columns kept.
    with dense_blas(float(len(keep)) ** 3):
        return _inflation(names, comoment, scale, np.array(keep), n_rows, infinite, dropped)


def _inflation(
    names: tuple[str, ...],
    comoment: np.ndarray,
    scale: np.ndarray,
    k: np.ndarray,
    n_rows: int | None,
    infinite: dict[str, float],
    dropped: dict[str, str],
) -> VifResult:
    """:func:`variance_inflation` of the columns ``k`` (varying, not a group's dropped member), BLAS settled."""
    dependencies: dict[str, dict[str, float]] = {}
    R = comoment[np.ix_(k, k)] / np.outer(scale[k], scale[k])
    np.fill_diagonal(R, 1.0)
    independent, dependent = _independent_columns(R)
    by_rows = bool(dependent) and n_rows is not None and len(independent) >= n_rows - 1
    if by_rows:
        # The rows, not the data, set the rank here (n rows centred span n - 1 dimensions):
        # which columns come out dependent is then a matter of pivoting ties, so take them
        # in one order fixed by the names, and the result does not depend on column order.
        canonical = np.array(sorted(range(len(k)), key=lambda j: names[k[j]]))
        if np.any(canonical != np.arange(len(k))):  # (a profile's columns are in name order already)
            k, R = k[canonical], R[np.ix_(canonical, canonical)]
            independent, dependent = _independent_columns(R)
    S = np.array(independent)
    # R = L L^T, so R^{-1} = L^{-T} L^{-1}: its diagonal, the VIFs, is VifResult.vif.
    factor = np.linalg.cholesky(R[np.ix_(S, S)]) if independent else None
    kept = tuple(names[k[s]] for s in independent)
    result = VifResult(infinite, dependencies, dropped, RANK_TOLERANCE, kept, factor)
    # A dependent column always has independent ones (so an inverse), whose diagonal,
    # computed once here, serves both the VIFs and the pruning of each combination.
    if dependent and factor is not None and result.inverse is not None:
        D = np.array(dependent)
        # Every dependent column's fit over S from the one factor: R_SS B = R_SD, two
        # triangular solves with |D| right-hand sides, not a least-squares fit per column.
        coefficients = _cho_solve(factor, R[np.ix_(S, D)])
        inverse_diagonal = np.diag(result.inverse)
        # Terms each combination keeps before any refit (a refit only drops some): when the
        # rows set the rank, a column with more than short_terms of them is the shape's.
        support = np.count_nonzero(coefficients**2 > RANK_TOLERANCE * inverse_diagonal[:, None], axis=0)
        short = short_terms(len(independent)) if by_rows else len(independent)
        for i, d in enumerate(dependent):
            infinite[names[k[d]]] = float("inf")
            if support[i] > short:
                continue
            terms = _combination(R, S, d, coefficients[:, i], inverse_diagonal)
            # The coefficients are on the standardised scale; report them on the columns' own.
            dependencies[names[k[d]]] = {names[k[s]]: float(b * scale[k[d]] / scale[k[s]]) for s, b in terms}
        if by_rows and short >= 1:  # (a pair is a one-term combination: short too)
            _add_copied_pairs(R, D, k, names, scale, dependencies)
        if by_rows:
            result.by_rows = tuple(names[k[d]] for d in dependent if names[k[d]] not in dependencies)
    return result


def _dropped_members(onehot: list[Group], names) -> dict[str, str]:
    """Member -> group label: the last member of each exact one-hot group whose members are all among ``names``."""
    dropped = {}
    for group in onehot:
        present = [m for m in group.members if m in names]
        if len(present) == len(group.members):
            dropped[present[-1]] = group.label
    return dropped


def _add_copied_pairs(
    R: np.ndarray, D: np.ndarray, k: np.ndarray, names, scale: np.ndarray, dependencies: dict
) -> None:
    """Copies among the dependent columns ``D``, added to ``dependencies`` (the second of each pair, on the first).

    Two columns past the rank that are copies of each other (x and 2x + 1) are each
    a long combination of the independent columns, but their pair holds whatever the
    rows: find it from the correlations (|r| = 1 within the tolerance), one product.
    """
    Rd = R[np.ix_(D, D)]
    for a, b in zip(*np.nonzero(np.triu(1.0 - Rd**2 <= RANK_TOLERANCE, k=1))):
        first, second = k[D[a]], k[D[b]]
        if names[second] not in dependencies:
            dependencies[names[second]] = {names[first]: float(Rd[a, b] * scale[second] / scale[first])}


def _varying(diag: np.ndarray, n_rows: int | None, mean) -> np.ndarray:
    """Which columns vary: ``M_jj > 1e-12 (M_jj + n mean_j^2)``, nothing beside each column's own size.

    Whatever the other columns' scale: a 0/1 column beside a population count varies.  Without
    the means (or the rows), beside the largest variation in the table.
    """
    if mean is not None and n_rows is not None:
        # (In square roots, so that a column of values near float64's limit does not overflow its own size:
        # sqrt(M_jj) > 1e-6 max(1, hypot(sqrt|M_jj|, sqrt(n) |mean_j|)), the same comparison.)
        with np.errstate(over="ignore", invalid="ignore"):
            size = np.hypot(np.sqrt(np.abs(diag)), np.sqrt(n_rows) * np.abs(np.asarray(mean, dtype=float)))
            return (diag > 0) & (np.sqrt(np.maximum(diag, 0.0)) > 1e-6 * np.maximum(1.0, size))
    return diag > 1e-12 * max(1.0, float(np.max(np.abs(diag))) if len(diag) else 1.0)


def _combination(
    R: np.ndarray, S: np.ndarray, d: int, beta: np.ndarray, inverse_diagonal: np.ndarray
) -> list[tuple[int, float]]:
    """Column ``d`` as a combination of the independent columns ``S``: (column, coefficient) pairs.

    ``beta`` is the fit over all of ``S`` (``R_SS beta = R_Sd``).  It also gives rounding
    noise a small weight on every other column (a centred copy ``x - mean`` beside ``x``
    would otherwise come out as a combination of every identifier in the table).
    Dropping term ``s`` raises the residual variance share by ``b_s^2 / [R_SS^{-1}]_ss``;
    terms that raise it by less than :data:`RANK_TOLERANCE` are noise, and the rest are
    refitted, provided they still leave ``d`` dependent within that tolerance.  The
    refit is a least-squares fit over the support, so it is done only for supports of
    at most :data:`MAX_REFIT_TERMS` columns (its cost is the support's cube): a longer
    combination keeps the full fit's coefficients.
    """
    support = np.flatnonzero(beta**2 / inverse_diagonal > RANK_TOLERANCE)
    if 0 < len(support) < len(S) and len(support) <= MAX_REFIT_TERMS:
        T = S[support]
        refit, *_ = np.linalg.lstsq(R[np.ix_(T, T)], R[T, d], rcond=None)
        if R[d, d] - R[d, T] @ refit <= RANK_TOLERANCE:
            return [(int(s), float(b)) for s, b in zip(T, refit)]
    return [(int(s), float(b)) for s, b in zip(S, beta) if abs(b) > 1e-8]


def _independent_columns(R: np.ndarray) -> tuple[list[int], list[int]]:
    """Split columns into a maximal independent set and the exactly dependent rest.

    Fast path: a plain Cholesky whose pivots all exceed the tolerance.  Otherwise
    LAPACK's pivoted Cholesky (``dpstrf``; :func:`_pivoted_cholesky` up to
    :data:`LAPACK_BLOCK` columns) with the tolerance stated in :data:`RANK_TOLERANCE`.
    """
    try:
        L = np.linalg.cholesky(R)
        if np.min(np.diag(L)) ** 2 > RANK_TOLERANCE:
            return list(range(len(R))), []
    except np.linalg.LinAlgError:
        pass
    if len(R) <= LAPACK_BLOCK:
        piv, rank = _pivoted_cholesky(R, RANK_TOLERANCE)
    else:
        from scipy.linalg.lapack import dpstrf

        _, piv, rank, _ = dpstrf(R, tol=RANK_TOLERANCE, lower=1)
        piv = piv - 1
    independent = sorted(int(p) for p in piv[:rank])
    dependent = sorted(int(p) for p in piv[rank:])
    return independent, dependent


def _pivoted_cholesky(R: np.ndarray, tolerance: float) -> tuple[np.ndarray, int]:
    """LAPACK's unblocked pivoted Cholesky of ``R`` (``dpstf2``, lower triangle): the pivot order and the rank.

    Step ``j`` takes, of the columns not yet taken, the first whose residual variance
    ``R_ii - sum_{k<j} L_ik^2`` is largest, and stops (rank ``j``) when that is at or
    below ``tolerance`` (at the first step: at or below 0); else it swaps that column
    into place and computes column ``j`` of the factor ``L``, as dpstf2 does
    (``L_jj = sqrt(residual)``, then the matrix-vector update and the scaling by ``1 / L_jj``).
    The update runs in the reference BLAS's order with numpy's exactly rounded operations, so
    the result is the same on every machine.  Where two residuals tie to within rounding (an
    exact tie of the data: measured, at most 1e-15 apart), LAPACK's pick follows its BLAS
    kernel's rounding, which differs between CPUs; here it is the first of them.

    Returns
    -------
    piv : ndarray of int
        Column order, 0-based: ``piv[:rank]`` are independent.
    rank : int
    """
    A = np.tril(R) + np.tril(R, -1).T  # (LAPACK reads the lower triangle only)
    n = len(A)
    piv = np.arange(n)
    squares = np.zeros(n)  # sum_{k<j} L_ik^2 of each row i >= j
    for j in range(n):
        if j:
            squares[j:] += A[j:, j - 1] ** 2
        residual = np.diagonal(A)[j:] - squares[j:]
        p = j + int(np.argmax(residual))
        pivot = float(residual[p - j])
        if pivot <= (tolerance if j else 0.0) or np.isnan(pivot):
            return piv, j
        if p != j:
            A[[j, p]] = A[[p, j]]
            A[:, [j, p]] = A[:, [p, j]]
            squares[[j, p]] = squares[[p, j]]
            piv[[j, p]] = piv[[p, j]]
        ajj = np.sqrt(pivot)
        A[j, j] = ajj
        if j + 1 < n:
            for k in range(j):  # the reference DGEMV's order, one column at a time: y += (-x_k) * a_k
                A[j + 1 :, j] += (-A[j, k]) * A[j + 1 :, k]
            A[j + 1 :, j] *= 1.0 / ajj
    return piv, n


def _substitute(L: np.ndarray, B: np.ndarray, transposed: bool = False) -> np.ndarray:
    """``X`` with ``L X = B`` (``L^T X = B`` when ``transposed``), ``L`` lower triangular: substitution row by row."""
    X = np.array(B, dtype=float)
    T = L.T if transposed else L
    n = len(L)
    for i in range(n - 1, -1, -1) if transposed else range(n):
        solved = slice(i + 1, n) if transposed else slice(0, i)
        X[i] -= T[i, solved] @ X[solved]
        X[i] /= T[i, i]
    return X


def _cho_solve(L: np.ndarray, B: np.ndarray) -> np.ndarray:
    """``X`` with ``L L^T X = B``: two triangular solves."""
    if len(L) <= LAPACK_BLOCK:
        return _substitute(L, _substitute(L, B), transposed=True)
    from scipy.linalg import cho_solve

    return cho_solve((L, True), B)


def _triangular_inverse(L: np.ndarray) -> np.ndarray:
    if len(L) <= LAPACK_BLOCK:
        return _substitute(L, np.eye(len(L)))
    from scipy.linalg import solve_triangular

    return solve_triangular(L, np.eye(len(L)), lower=True)
