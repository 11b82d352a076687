"""A cheap, vectorised 64-bit mixing function shared by the profile and the analyses, and the recipes built on it.

The recipes are written here once: an order-free hash of a column sums
``mix64(value hash ^ row weight)`` over its rows, and the dense row pass, the sparse
profile and the wide incidence must agree on the row weights and on the value
bits (``tests/test_architecture.py`` keeps their constants in this module).
"""

from __future__ import annotations

import numpy as np


def mix64(x: np.ndarray, in_place: bool = False) -> np.ndarray:
    """splitmix64's finaliser applied elementwise (wrapping uint64 arithmetic).

    Deterministic across runs and machines, so anything keyed on it (distinct-value
    sketches, column fingerprints, cross-validation folds) is reproducible. ``in_place``:
    ``x`` is the caller's own uint64 array, mixed where it is (a sum of hashes made for
    this: no copy of a hundred thousand entries).
    """
    with np.errstate(over="ignore"):
        x = x if in_place else np.asarray(x).astype(np.uint64, copy=True)
        x ^= x >> np.uint64(30)
        x *= np.uint64(0xBF58476D1CE4E5B9)
        x ^= x >> np.uint64(27)
        x *= np.uint64(0x94D049BB133111EB)
        x ^= x >> np.uint64(31)
    return x


#: splitmix64's increment (2**64 over the golden ratio): the salt of the row weights, and the step
#: between cross-validation seeds.
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
#: The bits every NaN is hashed as (NaNs differ in their payload bits).
CANONICAL_NAN = np.uint64(0x7FF8000000000001)


def row_weights(rows: np.ndarray) -> np.ndarray:
    """Each global row number's weight in an order-free column hash: ``mix64(row + GOLDEN_GAMMA)``."""
    with np.errstate(over="ignore"):
        return mix64(np.asarray(rows).astype(np.uint64) + np.uint64(GOLDEN_GAMMA))


def float_hashes(values: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each float value (``mix64`` of its bits), every NaN hashed alike."""
    bits = values.view(np.uint64).copy()
    bits[np.isnan(values)] = CANONICAL_NAN
    return mix64(bits)


#: Integers up to this magnitude are float64 values exactly (a table's levels are made as floats).
EXACT_INTEGERS = 2**53


def whole_hashes(values: np.ndarray) -> np.ndarray:
    """``mix64`` of each value's float64 bits (so 3 and 3.0 agree); integers through a table of their span.

    A vocabulary's counts are a few dozen distinct values over a hundred thousand entries: each
    integer of their span is hashed once (``mix64``'s five passes over the span) and each entry
    reads its hash from the table (one gather). Integers spanning more values than there are
    entries or beyond float64's exact integers, and other values, are hashed one by one (a NaN by
    its own bits: :func:`float_hashes` hashes every NaN alike).
    """
    if values.dtype.kind in "iu" and len(values):
        low, high = int(values.min()), int(values.max())
        if high - low < len(values) and -EXACT_INTEGERS <= low and high <= EXACT_INTEGERS:
            table = mix64(np.arange(low, high + 1, dtype=np.int64).astype(np.float64).view(np.uint64))
            return table[values.astype(np.intp, copy=False) - low]  # (as intp first: an int8's span overflows int8)
    return mix64(np.ascontiguousarray(values, dtype=np.float64).view(np.uint64))


def segment_sums(terms: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """Each segment's sum of uint64 ``terms``, wrapping: ``terms[bounds[k]:bounds[k + 1]]`` for each k.

    How an order-free hash sums its terms per column or per row (CSR/CSC ``indptr``; ``bounds[-1]``
    is ``len(terms)``). Sums mod 2^64 do not depend on their order, so one ``np.add.reduceat``
    over the non-empty segments gives what a running sum's differences give, without the
    running sum (a copy of the terms); an empty segment sums to 0.
    """
    bounds = np.asarray(bounds)
    starts = bounds[:-1]
    sums = np.zeros(len(starts), dtype=np.uint64)
    filled = bounds[1:] > starts
    if filled.any():  # (each non-empty segment ends where the next one starts: empty ones hold no term)
        sums[filled] = np.add.reduceat(terms, starts[filled])
    return sums
