"""Per-class statistics of a table's numeric columns: one chunk's, and their merge.

For each numeric feature column: missing count, range, whether every value is
whole or 0/1, per class slot the count, mean and centred sum of squares (merged
with :func:`nblint.nbmath.merge_moments`), and its levels (:mod:`nblint.profile.levels`).
A chunk's :func:`profile_numeric` also gives its Gram block (:mod:`nblint.profile.gram`).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from nblint.core.blas import dense_blas
from nblint.core.resources import ProfileCaps
from nblint.profile.gram import WIDE_BINARY, chunk_gram
from nblint.profile.levels import (
    DISTINCT_CAP,
    Levels,
    PackedLevels,
    exact_key,
    merge_distinct,
    remap_levels,
    remap_rows,
    smallest,
    value_hashes,
)
from nblint.readers import Chunk, Names

#: Widest integer range counted with a direct bincount instead of a sort.
_BINCOUNT_RANGE = 1 << 16


class NumericStats:
    """Column-wise statistics of the numeric feature columns, as arrays over columns.

    (A class written out: a dataclass's generated methods cost a first check in a fresh process ~1 ms.)
    """

    def __init__(
        self,
        names: tuple[str, ...],
        integer_dtype: np.ndarray,
        n_missing: np.ndarray,
        minimum: np.ndarray,
        maximum: np.ndarray,
        integral: np.ndarray,
        zero_one: np.ndarray,
        class_n: np.ndarray,
        class_mean: np.ndarray,
        class_m2: np.ndarray,
        levels: list | PackedLevels,
        sketches: list | None = None,
        fingerprints: np.ndarray | None = None,
    ) -> None:
        self.names = Names(names)  # look-ups by name in O(1)
        self.integer_dtype = integer_dtype  # (p,) bool
        self.n_missing = n_missing  # (p,) int64
        self.minimum = minimum  # (p,) float, NaN when all missing
        self.maximum = maximum  # (p,)
        self.integral = integral  # (p,) bool: every non-missing value is whole
        self.zero_one = zero_one  # (p,) bool: every non-missing value is 0 or 1
        self.class_n = class_n  # (C+1, p) int64
        self.class_mean = class_mean  # (C+1, p)
        self.class_m2 = class_m2  # (C+1, p)
        self.levels = levels  # per column: Levels | None; unused (None) where zero_one
        #: per column: distinct-value sketch once the levels overflow (integral columns only)
        self.sketches: list = [] if sketches is None else sketches
        #: per column: a 64-bit fingerprint of its values (sparse inputs only; see :mod:`nblint.profile.sparse`)
        self.fingerprints = fingerprints

    @cached_property
    def level_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """``(zeros, ones)``, each (C+1, p): the rows of each class slot where a 0/1 column is 0, and 1.

        The contingency tables of every 0/1 column at once, from the class counts and sums
        (zero for the other columns); a wide table reads them as matrices rather
        than as one small table per column.
        """
        with np.errstate(invalid="ignore", over="ignore"):  # other columns' means may be infinite
            sums = np.where(self.zero_one[None, :], self.class_mean * self.class_n, 0.0)
        ones = np.rint(sums).astype(np.int64)
        return np.where(self.zero_one[None, :], self.class_n - ones, 0), ones

    def zero_one_table(self, j: int) -> Levels:
        """:func:`zero_one_levels` of column ``j``, made once: a wide table's analyses ask for it several times."""
        tables = self.__dict__.setdefault("_zero_one_tables", {})
        if j not in tables:
            tables[j] = zero_one_levels(self, j)
        return tables[j]


class _ClassSums:
    """Column sums of a matrix's rows within each class slot, ``S[c, j] = sum_{r: y_r = c} M[r, j]``.

    With few slots, one GEMM with the class one-hot design ``Y`` (n x slots);
    with many, ``Y`` would be huge (70,000 rows x 10,000 classes is 5.6 GB), so
    the rows are sorted by class and summed per run (``np.add.reduceat``):
    O(n p) time and no memory beyond the sorted matrix.
    """

    #: Class slots up to which the one-hot GEMM is used (the sums of ordinary targets).
    GEMM_SLOTS = 64

    def __init__(self, y: np.ndarray, slots: int):
        self.slots = slots
        if slots <= self.GEMM_SLOTS:
            Y = np.zeros((len(y), slots), dtype=np.float64)
            Y[np.arange(len(y)), y] = 1.0
            self.Y: np.ndarray | None = Y
        else:
            self.Y = None
            self.order = np.argsort(y, kind="stable")
            sorted_y = y[self.order]
            self.starts = (
                np.flatnonzero(np.r_[True, sorted_y[1:] != sorted_y[:-1]]) if len(y) else np.zeros(0, dtype=np.int64)
            )
            self.present = sorted_y[self.starts]

    def __call__(self, M: np.ndarray) -> np.ndarray:
        if self.Y is not None:
            with dense_blas(float(self.Y.size) * M.shape[1]):  # (n K p multiply-adds)
                return self.Y.T @ M
        out = np.zeros((self.slots, M.shape[1]))
        if len(self.starts):
            out[self.present] = np.add.reduceat(M[self.order], self.starts, axis=0)
        return out


def bincount2(codes: np.ndarray, y: np.ndarray, n_codes: int, slots: int) -> np.ndarray:
    """Contingency table ``N[code, slot]`` by one bincount over the pair index."""
    flat = np.bincount(codes * slots + y, minlength=n_codes * slots)
    return flat.reshape(n_codes, slots).astype(np.int64)


def _numeric_matrix(chunk: Chunk, idx: list[int]):
    """Stack the numeric columns into one Fortran-ordered float64 matrix (NaN = missing).

    Also returns which columns were integers by type, and which may hold NaN at all
    (float columns, and integer columns that came with a missing mask): the others
    skip every missing-value pass.
    """
    n = chunk.n_rows
    X = np.empty((n, len(idx)), dtype=np.float64, order="F")
    integer = np.zeros(len(idx), dtype=bool)
    may_miss = np.zeros(len(idx), dtype=bool)
    for k, i in enumerate(idx):
        col = chunk.columns[i]
        X[:, k] = col.values
        if col.missing is not None:
            X[col.missing, k] = np.nan
        integer[k] = col.integer_dtype
        may_miss[k] = col.missing is not None or col.values.dtype.kind == "f"
    return X, integer, may_miss


def profile_numeric(
    chunk: Chunk,
    idx: list[int],
    y: np.ndarray,
    slots: int,
    wide_binary: int | None = None,
    cap: int = DISTINCT_CAP,
    caps: ProfileCaps | None = None,
):
    names = tuple(chunk.names[i] for i in idx)
    n, p = chunk.n_rows, len(idx)
    X, integer, may_miss = _numeric_matrix(chunk, idx)
    n_missing = np.zeros(p, dtype=np.int64)
    check = np.flatnonzero(may_miss)
    if len(check):
        n_missing[check] = np.isnan(X[:, check]).sum(axis=0)
    gappy = np.flatnonzero(n_missing)  # columns with at least one missing value here

    by_class = _ClassSums(y, slots)
    slot_rows = np.bincount(y, minlength=slots).astype(np.float64)
    X0 = X
    class_n = np.repeat(slot_rows[:, None], p, axis=1)
    if len(gappy):
        X0 = X.copy(order="F")
        sub = X0[:, gappy]
        present = ~np.isnan(sub)
        X0[:, gappy] = np.where(present, sub, 0.0)
        class_n[:, gappy] = by_class(present)
    class_sum = by_class(X0)
    with np.errstate(invalid="ignore", divide="ignore"):
        class_mean = np.where(class_n > 0, class_sum / np.maximum(class_n, 1), 0.0)

    with np.errstate(invalid="ignore"):
        minimum = np.fmin.reduce(X, axis=0) if n else np.full(p, np.nan)
        maximum = np.fmax.reduce(X, axis=0) if n else np.full(p, np.nan)
    integral = integer.copy()
    for k in np.flatnonzero(~integer).tolist():
        integral[k] = bool(np.all(X0[:, k] == np.floor(X0[:, k])))
    zero_one = integral & ~(minimum < 0) & ~(maximum > 1)

    # Within-class sums of squares: for 0/1 values x^2 = x, so M2 = S - S^2 / n exactly
    # enough from the sums; other columns are centred on their class means first.
    class_m2 = np.empty_like(class_sum)
    with np.errstate(invalid="ignore", divide="ignore"):
        class_m2[:, zero_one] = np.maximum(
            class_sum[:, zero_one] - class_sum[:, zero_one] ** 2 / np.maximum(class_n[:, zero_one], 1), 0.0
        )
    other = np.flatnonzero(~zero_one)
    if len(other):
        # Each row's class means of these columns only (not an n x p array of every column's);
        # the deviations Fortran-ordered, as the class sums' product has always read them.
        deviation = np.subtract(X0[:, other], class_mean[:, other][y], out=np.empty((n, len(other)), order="F"))
        gappy_other = np.flatnonzero(n_missing[other])
        if len(gappy_other):
            deviation[:, gappy_other] *= ~np.isnan(X[:, other[gappy_other]])
        with np.errstate(over="ignore", invalid="ignore"):  # values near 1e308: the moments are inf, said by NB rules
            class_m2[:, other] = by_class(deviation * deviation)

    levels, sketches = _column_levels(
        chunk, idx, X, y, slots, cap, integer, n_missing, minimum, maximum, integral, zero_one
    )
    numeric = NumericStats(
        names,
        integer,
        n_missing,
        minimum,
        maximum,
        integral,
        zero_one,
        np.rint(class_n).astype(np.int64),
        class_mean,
        class_m2,
        levels,
        sketches,
    )
    gram, limits = chunk_gram(
        X, names, n_missing == 0, zero_one, WIDE_BINARY if wide_binary is None else wide_binary, caps
    )
    return numeric, gram, limits


def _column_levels(chunk, idx, X, y, slots, cap, integer, n_missing, minimum, maximum, integral, zero_one):
    """Each column's levels and distinct sketch (none for a 0/1 column: its levels come from its class sums)."""
    levels: list = []
    sketches: list = []
    for k in range(len(idx)):
        if zero_one[k]:
            levels.append(None)
            sketches.append(None)
            continue
        col = chunk.columns[idx[k]]
        if integer[k] and col.values.dtype.kind in "iu" and not (-EXACT < minimum[k] and maximum[k] < EXACT):
            lv, sk = _integer_levels(col, y, slots, cap)  # float64 would merge neighbours past 2^53
        else:
            lv, sk = _numeric_levels(
                X[:, k], np.isnan(X[:, k]) if n_missing[k] else None, y, slots, integral[k], minimum[k], maximum[k], cap
            )
        levels.append(lv)
        sketches.append(sk)
    return levels, sketches


#: Integers float64 holds exactly: past them, levels of an integer column are counted as integers.
EXACT = float(2**53)


def _integer_levels(col, y, slots, cap: int = DISTINCT_CAP) -> tuple[Levels | None, np.ndarray | None]:
    """Exact levels of an int64/uint64 column with values past 2^53, counted as integers (never through float64).

    Keys within +-2^53 stay floats, as :func:`_numeric_levels` gives them (one level
    for equal values in any chunk); keys past it are Python ints, exact.
    """
    values, classes = (col.values[~col.missing], y[~col.missing]) if col.missing is not None else (col.values, y)
    uniques, inverse = np.unique(values, return_inverse=True)
    keys = tuple(exact_key(int(u)) for u in uniques)
    if len(uniques) > cap:
        return None, smallest(value_hashes(keys))
    return Levels(keys, bincount2(inverse.reshape(-1), classes, len(uniques), slots)), None


def _numeric_levels(
    x, missing, y, slots, integral, lo, hi, cap: int = DISTINCT_CAP
) -> tuple[Levels | None, np.ndarray | None]:
    """Exact levels (up to the cap) and, past it, a distinct sketch for integral columns."""
    if not np.isfinite(lo):
        return Levels((), np.zeros((0, slots), dtype=np.int64)), None
    values, classes = (x[~missing], y[~missing]) if missing is not None else (x, y)
    if integral and hi - lo < _BINCOUNT_RANGE:
        offset = (values - lo).astype(np.int64)
        table = bincount2(offset, classes, int(hi - lo) + 1, slots)
        used = np.flatnonzero(table.sum(axis=1))
        if len(used) > cap:
            return None, smallest(value_hashes(lo + used))
        return Levels(tuple(float(lo + u) for u in used), table[used]), None
    if not integral:
        # A continuous column: stop at the cap without sorting the whole chunk.
        head = np.unique(values[: 4 * cap])
        if len(head) > cap:
            return None, None
    uniques, inverse = np.unique(values, return_inverse=True)
    if len(uniques) > cap:
        return None, smallest(value_hashes(uniques)) if integral else None
    return Levels(tuple(float(u) for u in uniques), bincount2(inverse, classes, len(uniques), slots)), None


def remap_numeric(s: NumericStats, slots, n_classes) -> NumericStats:
    """``s`` with its class slots moved to ``slots`` among ``n_classes`` classes (and the missing-target slot).

    A part of the table that saw every class has them in the same slots already (classes are sorted in
    every part): it is returned as it is, not copied column by column (a vocabulary's level tables).
    """
    if len(slots) == n_classes + 1 and bool((np.asarray(slots) == np.arange(n_classes + 1)).all()):
        return s
    return NumericStats(
        s.names,
        s.integer_dtype,
        s.n_missing,
        s.minimum,
        s.maximum,
        s.integral,
        s.zero_one,
        remap_rows(s.class_n, slots, n_classes),
        remap_rows(s.class_mean, slots, n_classes),
        remap_rows(s.class_m2, slots, n_classes),
        _remap_all_levels(s, slots, n_classes),
        s.sketches,
        s.fingerprints,
    )


def _remap_all_levels(s: NumericStats, slots, n_classes) -> list | PackedLevels:
    """Every column's levels with its class slots remapped (0/1 columns keep none: a vocabulary's are skipped)."""
    if isinstance(s.levels, PackedLevels):
        return s.levels.remapped(np.asarray(slots, dtype=np.int64), n_classes)  # (every column at once)
    levels = list(s.levels)
    for j in np.flatnonzero(~s.zero_one).tolist():
        levels[j] = remap_levels(levels[j], slots, n_classes)
    return levels


def zero_one_levels(s: NumericStats, j: int) -> Levels:
    """The contingency table of a 0/1 column, from its class counts and class sums."""
    zeros, ones = (counts[:, j] for counts in s.level_counts)
    keys, rows = [], []
    for key, row in ((0.0, zeros), (1.0, ones)):
        if row.sum():
            keys.append(key)
            rows.append(row)
    table = np.array(rows, dtype=np.int64).reshape(len(rows), s.class_n.shape[0])
    return Levels(tuple(keys), table)


def merge_numeric(a: NumericStats, b: NumericStats, cap: int = DISTINCT_CAP) -> NumericStats:
    from nblint.nbmath import Moments, merge_moments  # (a merge's: a table read in one chunk has none)

    n, mean, m2 = merge_moments(
        Moments(a.class_n, a.class_mean, a.class_m2), Moments(b.class_n, b.class_mean, b.class_m2)
    )
    zero_one = a.zero_one & b.zero_one
    levels: list = [None] * len(a.names)  # (none for the columns 0/1 in both parts: a vocabulary's)
    sketches: list = [None] * len(a.names)
    integral = a.integral & b.integral
    for j in np.flatnonzero(~zero_one).tolist():
        la = zero_one_levels(a, j) if a.zero_one[j] else a.levels[j]
        lb = zero_one_levels(b, j) if b.zero_one[j] else b.levels[j]
        lv, sk = merge_distinct(la, a.sketches[j], lb, b.sketches[j], cap)
        levels[j] = lv
        sketches[j] = sk if integral[j] else None
    return NumericStats(
        a.names,
        a.integer_dtype & b.integer_dtype,
        a.n_missing + b.n_missing,
        np.fmin(a.minimum, b.minimum),
        np.fmax(a.maximum, b.maximum),
        integral,
        zero_one,
        np.asarray(n),  # (per class and column here: an array already)
        mean,
        m2,
        levels,
        sketches,
        None if a.fingerprints is None or b.fingerprints is None else a.fingerprints + b.fingerprints,
    )
