"""Variance inflation factors in closed form, with exact dependencies found exactly.

For standardised predictors with correlation matrix ``R``, the variance inflation
factor of column ``j`` in a regression with an intercept is

    VIF_j = 1 / (1 - R_j^2) = [R^{-1}]_jj,

which is what statsmodels' ``variance_inflation_factor`` computes with a constant
column, one regression per column.  Here it is one Cholesky factorisation of ``R``
after exact dependencies are taken out: one level of each exact one-hot group
(it is one minus the others: VIF infinite), then the columns a pivoted Cholesky
finds dependent within :data:`RANK_TOLERANCE`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nblint.structure.groups import Group

#: Residual variance share (1 / VIF) at or below which a column is an exact
#: linear combination of the others: VIF >= 1e10.
RANK_TOLERANCE = 1e-10

@dataclass
class VifResult:
    """Variance inflation factors of the complete, non-constant numeric columns.

    Attributes
    ----------
    vif : dict
        Column -> VIF (``inf`` for exact linear combinations).
    dependencies : dict
        Column -> the columns it is an exact linear combination of, with coefficients
        (for every column with infinite VIF that is not explained by a one-hot group).
    dropped : dict
        One-hot group member left out of the regressors -> its group label.
    """

    vif: dict[str, float]
    dependencies: dict[str, dict[str, float]]
    dropped: dict[str, str]
    tolerance: float = RANK_TOLERANCE
    #: Columns of ``inverse`` and the inverse correlation matrix over them (independent set).
    independent: tuple[str, ...] = ()
    inverse: np.ndarray | None = None

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


def variance_inflation(names: tuple[str, ...], comoment: np.ndarray, onehot: list[Group]) -> VifResult:
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

    Returns
    -------
    VifResult
    """
    diag = np.diag(comoment) if len(names) else np.zeros(0)
    scale = np.sqrt(np.abs(diag))
    varying = diag > 1e-12 * max(1.0, float(np.max(np.abs(diag))) if len(diag) else 1.0)
    dropped = {}
    for group in onehot:
        present = [m for m in group.members if m in names]
        if len(present) == len(group.members):
            dropped[present[-1]] = group.label
    keep = [j for j, name in enumerate(names) if varying[j] and name not in dropped]
    vif = {name: float("inf") for name in dropped}
    dependencies: dict[str, dict[str, float]] = {}
    if not keep:
        return VifResult(vif, dependencies, dropped)
    k = np.array(keep)
    R = comoment[np.ix_(k, k)] / np.outer(scale[k], scale[k])
    np.fill_diagonal(R, 1.0)
    independent, dependent = _independent_columns(R)
    if dependent:
        S = np.array(independent)
        for d in dependent:
            beta, *_ = np.linalg.lstsq(R[np.ix_(S, S)], R[S, d], rcond=None)
            # beta is on the standardised scale; report coefficients on the columns' own.
            dependencies[names[k[d]]] = {
                names[k[s]]: float(b * scale[k[d]] / scale[k[s]]) for s, b in zip(S, beta) if abs(b) > 1e-8
            }
            vif[names[k[d]]] = float("inf")
    inverse = None
    if independent:
        S = np.array(independent)
        L = np.linalg.cholesky(R[np.ix_(S, S)])
        Linv = _triangular_inverse(L)
        # R^{-1} = L^{-T} L^{-1}; its diagonal is the VIF of each column.
        inverse = Linv.T @ Linv
        for s, v in zip(S, np.diag(inverse)):
            vif[names[k[s]]] = float(v)
    kept = tuple(names[k[s]] for s in independent)
    return VifResult(vif, dependencies, dropped, RANK_TOLERANCE, kept, inverse)


def _independent_columns(R: np.ndarray) -> tuple[list[int], list[int]]:
    """Split columns into a maximal independent set and the exactly dependent rest.

    Fast path: a plain Cholesky whose pivots all exceed the tolerance.  Otherwise
    LAPACK's pivoted Cholesky (``dpstrf``) with the tolerance stated in
    :data:`RANK_TOLERANCE`.
    """
    try:
        L = np.linalg.cholesky(R)
        if np.min(np.diag(L)) ** 2 > RANK_TOLERANCE:
            return list(range(len(R))), []
    except np.linalg.LinAlgError:
        pass
    from scipy.linalg.lapack import dpstrf

    _, piv, rank, _ = dpstrf(R, tol=RANK_TOLERANCE, lower=1)
    piv = piv - 1
    independent = sorted(int(p) for p in piv[:rank])
    dependent = sorted(int(p) for p in piv[rank:])
    return independent, dependent


def _triangular_inverse(L: np.ndarray) -> np.ndarray:
    from scipy.linalg import solve_triangular

    return solve_triangular(L, np.eye(len(L)), lower=True)
