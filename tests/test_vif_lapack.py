"""VIF's linear algebra in numpy up to LAPACK's block size: the same as LAPACK's (scipy.linalg, the oracle).

Up to ``LAPACK_BLOCK`` columns the pivoted Cholesky and the triangular solves of
:mod:`nblint.structure.vif` are numpy steps, so a small table's check never imports
scipy.linalg; LAPACK runs the same unblocked algorithm at that size, so the pivots, the rank
and the solutions must be LAPACK's.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.linalg import cho_solve, solve_triangular
from scipy.linalg.lapack import dpstrf

from nblint.structure.vif import LAPACK_BLOCK, RANK_TOLERANCE, _cho_solve, _pivoted_cholesky, _substitute


def correlation(X: np.ndarray) -> np.ndarray:
    Xc = X - X.mean(axis=0)
    M = Xc.T @ Xc
    scale = np.sqrt(np.diag(M))
    R = M / np.outer(scale, scale)
    np.fill_diagonal(R, 1.0)
    return R


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    q=st.integers(2, LAPACK_BLOCK),
    rank=st.integers(1, LAPACK_BLOCK),
    rows=st.integers(3, 120),
)
def test_pivoted_cholesky_is_lapacks_dpstrf(seed, q, rank, rows):
    # Continuous columns spanning ``rank`` dimensions (fewer where the rows allow fewer): the
    # exact dependencies LAPACK must find, with no two residuals tied (a tie is decided by
    # rounding in LAPACK, by order here).
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(rows, min(rank, q))) @ rng.normal(size=(min(rank, q), q))
    R = correlation(X)
    piv, found = _pivoted_cholesky(R, RANK_TOLERANCE)
    _, lapack_piv, lapack_rank, _ = dpstrf(R, tol=RANK_TOLERANCE, lower=1)
    assert found == lapack_rank
    assert list(piv) == list(lapack_piv - 1)


def test_a_full_rank_matrix_has_full_rank_and_the_first_largest_pivot_first():
    R = np.array([[1.0, 0.5, 0.2], [0.5, 1.0, 0.1], [0.2, 0.1, 1.0]])
    piv, rank = _pivoted_cholesky(R, RANK_TOLERANCE)
    assert rank == 3 and piv[0] == 0  # (unit diagonal: every column ties at the first step)
    assert list(piv) == list(dpstrf(R, tol=RANK_TOLERANCE, lower=1)[1] - 1)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), q=st.integers(1, LAPACK_BLOCK), k=st.integers(1, 5))
def test_triangular_solves_agree_with_lapacks(seed, q, k):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(q + 3, q))
    L = np.linalg.cholesky(correlation(A) if q > 1 else np.ones((1, 1)))
    B = rng.normal(size=(q, k))
    np.testing.assert_allclose(_substitute(L, B), solve_triangular(L, B, lower=True), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(
        _substitute(L, B, transposed=True), solve_triangular(L, B, lower=True, trans="T"), rtol=1e-9, atol=1e-12
    )
    np.testing.assert_allclose(_cho_solve(L, B), cho_solve((L, True), B), rtol=1e-9, atol=1e-12)
