"""NB2xx: counts per class (zero cells, separation, rare levels, constant and tiny columns/classes)."""

from __future__ import annotations

import numpy as np


def fmt_value(value) -> str:
    """A level as users wrote it: 3 rather than 3.0."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def fmt_share(p: float) -> str:
    """A probability as a percentage to one decimal, or to its first digit where that shows 0.0% (0.005%)."""
    text = f"{p:.1%}"
    if p > 0 and float(text[:-1]) == 0:
        text = f"{100 * p:.1g}%"
    return text


def fmt_class(label) -> str:
    return repr(fmt_value(label))


def zero_upper_bound(n: int, confidence: float = 0.95) -> float:
    """One-sided exact (Clopper-Pearson) upper bound on a probability seen 0 times in n trials.

    With no successes the Clopper-Pearson bound has a closed form: the ``p`` with
    ``(1 - p)^n = 1 - confidence``, that is ``1 - (1 - confidence)^(1/n)`` (the beta
    quantile statsmodels' ``proportion_confint(0, n, method="beta")`` computes). For
    large n it approaches the rule of three, 3 / n.
    """
    return float(-np.expm1(np.log1p(-confidence) / n))
