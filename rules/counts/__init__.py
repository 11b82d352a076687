"""NB2xx: counts per class (zero cells, separation, rare levels, constant and tiny columns/classes)."""

from __future__ import annotations

import numpy as np

from nblint.engine.messages import fmt_class, fmt_value

#: What every rule of this family reads (keys of nblint.engine.rule.INPUTS): the engine imports the family's
#: modules only for a run that offers one of them (nblint.engine.registry.family_reads).
INPUTS = ("table",)

__all__ = ["fmt_class", "fmt_value", "zero_upper_bound"]


def zero_upper_bound(n: int, confidence: float = 0.95) -> float:
    """One-sided exact (Clopper-Pearson) upper bound on a probability seen 0 times in n trials.

    With no successes the Clopper-Pearson bound has a closed form: the ``p`` with
    ``(1 - p)^n = 1 - confidence``, that is ``1 - (1 - confidence)^(1/n)`` (the beta
    quantile statsmodels' ``proportion_confint(0, n, method="beta")`` computes). For
    large n it approaches the rule of three, 3 / n.
    """
    return float(-np.expm1(np.log1p(-confidence) / n))
