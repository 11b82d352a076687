"""A cheap, vectorised 64-bit mixing function shared by the profile and the analyses."""

from __future__ import annotations

import numpy as np


def mix64(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser applied elementwise (wrapping uint64 arithmetic).

    Deterministic across runs and machines, so anything keyed on it (distinct-value
    sketches, column fingerprints, cross-validation folds) is reproducible.
    """
    with np.errstate(over="ignore"):
        x = np.asarray(x).astype(np.uint64, copy=True)
        x ^= x >> np.uint64(30)
        x *= np.uint64(0xBF58476D1CE4E5B9)
        x ^= x >> np.uint64(27)
        x *= np.uint64(0x94D049BB133111EB)
        x ^= x >> np.uint64(31)
    return x
