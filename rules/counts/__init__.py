"""NB2xx: counts per class (zero cells, separation, rare levels, constant and tiny columns/classes)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

#: Kinds whose values are levels (cells of a contingency table).
DISCRETE_KINDS = ("binary", "group-member", "categorical", "count")


def fmt_value(value) -> str:
    """A level as users wrote it: 3 rather than 3.0."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def fmt_class(label) -> str:
    return repr(fmt_value(label))


def class_table(ctx, column):
    """(level keys, counts[level, class]) for the classes that have rows; None if unknown."""
    levels = ctx.profile.levels(column)
    if levels is None:
        return None
    n_classes = len(ctx.profile.classes)
    return levels.keys, levels.table[:, :n_classes]


def separating_levels(ctx, column, min_rows: int) -> list[tuple[object, int, int]]:
    """Levels seen in exactly one class, with at least ``min_rows`` rows: (level, class index, rows)."""
    table = class_table(ctx, column)
    if table is None or len(ctx.profile.classes) < 2:
        return []
    keys, counts = table
    out = []
    for key, row in zip(keys, counts):
        present = np.flatnonzero(row)
        if len(present) == 1 and row[present[0]] >= min_rows:
            out.append((key, int(present[0]), int(row[present[0]])))
    return out


@lru_cache(maxsize=1024)
def zero_upper_bound(n: int, confidence: float = 0.95) -> float:
    """One-sided exact (Clopper-Pearson) upper bound on a probability seen 0 times in n trials.

    Computed with statsmodels' ``proportion_confint`` (method "beta"); for large n it
    approaches the rule of three, 3 / n. Memoised: it depends on the class size only,
    and a 50,000-word table asks for it once per zero cell (80 s of 140 uncached).
    """
    from statsmodels.stats.proportion import proportion_confint

    _, upper = proportion_confint(0, n, alpha=2 * (1 - confidence), method="beta")
    return float(upper)
