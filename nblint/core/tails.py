"""Upper tail probabilities of the binomial and chi-square distributions, from ``math`` alone.

The train/test rules weigh their counts against chance with a binomial tail (NB603: test rows
found in training) and a chi-square tail (NB604: class proportions). scipy gives both, but
importing ``scipy.special`` or ``scipy.stats`` costs a linter's start-up more than the whole
comparison of a test table; these are the textbook forms, exact up to floating point:

* ``P(X > k)`` for ``X ~ Binomial(n, p)`` is the regularized incomplete beta function
  ``I_p(k + 1, n - k)`` (Abramowitz and Stegun 26.5.24), evaluated by its continued
  fraction (A&S 26.5.8) with the modified Lentz method (Press et al., *Numerical Recipes*,
  6.4), on the side of ``x`` where the fraction converges fast;
* ``P(chi2_nu > x)`` for an integer ``nu`` is a finite sum (A&S 26.4.4, 26.4.5): with
  ``h = x / 2``, ``exp(-h) sum_{i < nu/2} h^i / i!`` for even ``nu``; for odd ``nu``,
  ``erfc(sqrt(h)) + exp(-h) sum_{i < (nu - 1)/2} h^(i + 1/2) / Gamma(i + 3/2)``. The sum
  is taken in logs, so a tiny tail is not lost to underflow before it is added.

scipy's ``binom.sf(k, n, p)`` and ``chi2.sf(x, nu)`` agree to about 1e-8 relative above 1e-280
(the log-gamma of a million rows alone is good to about 1e-9; findings print six significant
digits); ``tests/test_tails.py`` checks them as the oracle.
"""

from __future__ import annotations

import math

#: The continued fraction stops when a step changes it by less than this (relative).
_EPSILON = 1e-15
#: Its denominators are kept away from zero by this much (the Lentz method's guard).
_TINY = 1e-300
#: Steps at most: the fraction needs about ``sqrt(max(a, b))`` of them.
_MAX_STEPS = 100_000


def binomial_sf(k: int, n: int, p: float) -> float:
    """``P(X > k)`` for ``X ~ Binomial(n, p)`` (scipy's ``binom.sf(k, n, p)``)."""
    if k < 0:
        return 1.0
    if k >= n or p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    return regularized_beta(k + 1.0, float(n - k), p)


def regularized_beta(a: float, b: float, x: float) -> float:
    """``I_x(a, b)``, the regularized incomplete beta function, for ``a, b > 0`` and ``0 <= x <= 1``."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    # The fraction converges fast below the mean-like point (a + 1) / (a + b + 2); above it, I_x(a, b)
    # is 1 - I_{1-x}(b, a), whose fraction does.
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of ``I_x(a, b)`` (A&S 26.5.8), by the modified Lentz method."""
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    fraction = d
    for m in range(1, _MAX_STEPS + 1):
        # Two terms per step: the even one d_2m, then the odd one d_2m+1.
        for term in (
            m * (b - m) * x / ((a + 2 * m - 1.0) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1.0)),
        ):
            d = 1.0 + term * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + term / c
            c = c if abs(c) > _TINY else _TINY
            change = c * d
            fraction *= change
        if abs(change - 1.0) < _EPSILON:
            break
    return fraction


def chi2_sf(x: float, dof: int) -> float:
    """``P(chi2_dof > x)`` for an integer number of degrees of freedom (scipy's ``chi2.sf(x, dof)``)."""
    if dof < 1:
        raise ValueError(f"degrees of freedom must be a positive integer, not {dof}")
    half = x / 2.0
    if not half > 0.0:  # (x at most 0, or so small that half of it is)
        return 1.0
    log_half = math.log(half)
    if dof % 2 == 0:
        logs = [i * log_half - math.lgamma(i + 1.0) for i in range(dof // 2)]
        head = 0.0
    else:
        logs = [(i + 0.5) * log_half - math.lgamma(i + 1.5) for i in range((dof - 1) // 2)]
        head = math.erfc(math.sqrt(half))
    if not logs:
        return head
    top = max(logs)
    total = head + math.exp(top - half) * math.fsum(math.exp(v - top) for v in logs)
    return min(total, 1.0)
