"""The binomial and chi-square tails of :mod:`nblint.core.tails`, against scipy.stats as the oracle."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom, chi2

from nblint.core.tails import binomial_sf, chi2_sf, regularized_beta


def close(ours: float, oracle: float) -> bool:
    """Equal to 1e-7 relative (1e-6 below 1e-200, where scipy's own tail loses digits: see
    :func:`test_a_deep_tail_is_the_exact_sum`), or both below the range where float64 keeps its digits."""
    rtol = 1e-6 if abs(oracle) < 1e-200 else 1e-7
    return abs(ours - oracle) <= rtol * abs(oracle) or (abs(oracle) < 1e-280 and abs(ours) < 1e-270)


@settings(max_examples=400, deadline=None)
@given(
    n=st.integers(1, 2_000_000),
    k_share=st.floats(0, 1),
    p=st.one_of(st.floats(0, 1), st.floats(1e-9, 1e-3), st.sampled_from([0.0, 1.0])),
)
def test_binomial_sf_is_scipys(n, k_share, p):
    k = int(k_share * n) - 1  # (from -1: every row is beyond it)
    assert close(binomial_sf(k, n, p), float(binom.sf(k, n, p)))


@settings(max_examples=400, deadline=None)
@given(x=st.floats(0, 5000), dof=st.integers(1, 200))
def test_chi2_sf_is_scipys(x, dof):
    assert close(chi2_sf(x, dof), float(chi2.sf(x, dof)))


def test_a_deep_tail_is_the_exact_sum():
    """Where scipy's ``binom.sf`` is off by 2.3e-7 relative (n=603, k=564, p=9/32, found by hypothesis), ours
    is the exact rational sum to float precision."""
    n, k, p = 603, 564, Fraction(9, 32)
    exact = sum(comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k + 1, n + 1))
    assert abs(binomial_sf(k, n, float(p)) - float(exact)) <= 1e-12 * float(exact)


def test_ends():
    assert binomial_sf(-1, 10, 0.3) == 1.0 and binomial_sf(10, 10, 0.3) == 0.0
    assert binomial_sf(3, 10, 0.0) == 0.0 and binomial_sf(3, 10, 1.0) == 1.0
    assert regularized_beta(2.0, 3.0, 0.0) == 0.0 and regularized_beta(2.0, 3.0, 1.0) == 1.0
    assert chi2_sf(0.0, 3) == 1.0
    with pytest.raises(ValueError):
        chi2_sf(1.0, 0)
