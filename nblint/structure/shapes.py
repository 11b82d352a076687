"""The shape of a numeric column's values: how keys, codes, counts and measurements spread.

The column kinds (:mod:`nblint.structure.kinds`) read these shapes as evidence: keys sit
evenly along their range, codes of a design leave holes anywhere and have flat
frequencies, counts fall from zero like a Poisson's, magnitudes reported roughly heap on
fives and tens, and a measurement's frequencies rise to one peak and fall after it.
"""

from __future__ import annotations

import numpy as np

#: Unused whole numbers between two used ones beyond this many read as this many (see frequencies).
WIDEST_GAP = 10_000


def spread_evenly(numeric, j: int) -> bool:
    """Mean near the middle of the range and spread as a uniform's: how keys sit, not measurements.

    A key numbers units along its range; a measurement or a count with as many values
    piles up somewhere (incomes and sizes are skewed, ages are humped), which moves the
    mean off the middle or shrinks the spread below a uniform's ``range / sqrt(12)``.
    """
    n = numeric.class_n[:, j].astype(np.float64)
    total = n.sum()
    if total < 20:
        return False
    lo, hi = float(numeric.minimum[j]), float(numeric.maximum[j])
    width = hi - lo
    if not 0 < width < np.inf:  # (values near float64's ends: their moments overflow)
        return False
    # Moments of the values scaled by the range, so the squares stay finite.
    means = (numeric.class_mean[:, j] - lo) / width
    mean = float(means @ n / total)
    m2 = float(numeric.class_m2[:, j].sum() / width / width + n @ (means - mean) ** 2)
    if not np.isfinite(m2):
        return False
    # A uniform's spread is range / sqrt(12): compared in the scaled units (no square of the range).
    sd, uniform_sd = (m2 / total) ** 0.5, 1 / 12**0.5
    return abs(mean - 0.5) <= 0.05 and abs(sd - uniform_sd) <= 0.05 * uniform_sd


def frequencies(keys: np.ndarray, totals: np.ndarray) -> np.ndarray:
    """Rows per whole number from the smallest to the largest value, unused numbers as zeros.

    A gap wider than ``WIDEST_GAP`` unused numbers is kept at that width: the shape tests
    ask where values are missing and whether frequencies rise or fall, which a gap of a
    billion answers as one of ten thousand does, and the array stays small whatever the
    range (int64's or float64's ends as values would otherwise ask for exabytes).
    """
    order = np.argsort(keys)
    keys, totals = keys[order], totals[order]
    with np.errstate(over="ignore"):  # (the step from -1.8e308 to 1.8e308 is inf: a wide gap)
        steps = np.minimum(np.diff(keys), WIDEST_GAP + 1).astype(np.int64)
    positions = np.concatenate([[0], np.cumsum(steps)])
    freq = np.zeros(int(positions[-1]) + 1)
    freq[positions] = totals
    return freq


def holes_in_the_middle(freq: np.ndarray) -> bool:
    """Unused values inside the central 90% of the rows: codes skip values, magnitudes thin out at the tails.

    A count or a measurement has its unused values in its sparse tails (nobody with one
    or two years of schooling); codes of a category leave holes anywhere (1, 2, 5, 9).
    """
    cumulative = np.cumsum(freq) / freq.sum()
    first = int(np.searchsorted(cumulative, 0.05))
    last = int(np.searchsorted(cumulative, 0.95))
    central = freq[first : last + 1]
    return bool((central == 0).sum() >= max(1, 0.25 * len(central)))


def heaped(keys: np.ndarray, totals: np.ndarray) -> bool:
    """Most rows on fives and tens (0, 5, 10, 20, 40 cigarettes a day): a magnitude reported roughly."""
    positive = keys > 0
    if positive.sum() < 3:
        return False
    on_fives = (keys % 5 == 0) & positive
    return float(totals[on_fives].sum() / totals[positive].sum()) >= 0.75


def falls_from(freq: np.ndarray, lo: float, slack: float = 0.05) -> bool:
    """Poisson-like: the peak is at the smallest value (or the next) and frequencies fall after it."""
    if lo > 1 or len(freq) < 3:
        return False
    peak = int(np.argmax(freq))
    return peak <= 1 and unimodal(freq, slack) and freq[-1] < freq[peak]


def unimodal(freq: np.ndarray, slack: float = 0.05) -> bool:
    """Frequencies that rise to one peak and fall after it (small wiggles allowed)."""
    peak = int(np.argmax(freq))
    tol = slack * freq.max()
    rising = np.all(np.diff(freq[: peak + 1]) >= -tol)
    falling = np.all(np.diff(freq[peak:]) <= tol)
    return bool(rising and falling)
