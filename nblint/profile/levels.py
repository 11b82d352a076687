"""Distinct values of one column: exact level tables up to a cap, a sketch past it.

A discrete column's :class:`Levels` is its contingency table ``N[level, c]`` over
the class slots of the profile.  Past a cap on distinct values the exact table is
dropped and a K-minimum-values sketch of value hashes estimates how many there
are.  Both merge across chunks, partitions and class slots, in any order.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

import numpy as np

from nblint.core.hashing import mix64
from nblint.core.records import Record

#: Distinct values kept per column before it is marked "many" (continuous, identifiers).
DISTINCT_CAP = 1000


class Levels:
    """A contingency table of one discrete column: ``table[i, c]`` rows with level ``keys[i]`` in class slot ``c``.

    (A class written out: a dataclass's generated methods cost a first check in a fresh process ~1 ms each.)
    """

    __slots__ = ("keys", "table")

    def __init__(self, keys: tuple, table: np.ndarray) -> None:
        self.keys = keys
        self.table = table  # (L, C+1) int64

    @property
    def totals(self) -> np.ndarray:
        return self.table.sum(axis=1)

    def counts_of(self, key) -> np.ndarray:
        """Rows with level ``key`` in each class slot, (C+1,): zeros where the column never takes it."""
        if key in self.keys:
            return self.table[self.keys.index(key)]
        return np.zeros(self.table.shape[1], dtype=np.int64)


class PairLevels(Record):
    """A contingency table of one discrete column kept by its non-empty cells (any number of levels).

    Past the cap the dense ``N[level, c]`` of :class:`Levels` would be levels x classes
    (10,000 levels of a 10,000-class target: 10^8 cells); its non-empty cells are at most
    the rows. Cell ``i`` holds ``rows[i]`` rows with level ``keys[level[i]]`` in class
    ``klass[i]``, the cells ordered by level, then class.

    Parameters
    ----------
    keys : tuple
        The levels, in :func:`sort_key` order.
    level, klass, rows : ndarray of int64, (P,)
        Each non-empty cell's level (index into ``keys``), class and rows.

    (Written out: a named tuple's class costs a fresh process ~0.15 ms to create; none reads this as a tuple.)
    """

    __slots__ = ("keys", "level", "klass", "rows")

    def __init__(self, keys: tuple, level: np.ndarray, klass: np.ndarray, rows: np.ndarray) -> None:
        self.keys = keys
        self.level = level
        self.klass = klass
        self.rows = rows

    @property
    def totals(self) -> np.ndarray:
        """Rows of each level, (L,)."""
        return np.bincount(self.level, weights=self.rows, minlength=len(self.keys)).astype(np.int64)

    def zero_cells(self, counted: np.ndarray, class_rows: np.ndarray, skip=frozenset(), limit: int = 0):
        """The (level, class) cells with no row, for the classes in ``counted``, from the non-empty ones.

        A level with ``m`` of the counted classes among its cells has ``sum(counted) - m``
        zero cells; they would veto the rows of the classes they miss. Levels in ``skip``
        are left out (NB202's).

        Returns
        -------
        count, vetoed : int
            The zero cells, and the rows of the classes they miss summed over them.
        cells : list of (key, class)
            The first ``limit`` cells, by level then class.
        """
        counted = np.asarray(counted, dtype=bool)
        class_rows = np.asarray(class_rows, dtype=np.int64)
        kept = np.ones(len(self.keys), dtype=bool)
        if skip:
            kept[[i for i, key in enumerate(self.keys) if key in skip]] = False
        seen = counted[self.klass] & kept[self.level]  # the non-empty cells that are counted
        present = np.bincount(self.level[seen], minlength=len(self.keys))  # counted classes per level
        present_rows = np.bincount(self.level[seen], weights=class_rows[self.klass[seen]], minlength=len(self.keys))
        levels = np.flatnonzero(kept)
        missing = int(counted.sum()) - present[levels]
        count = int(missing.sum())
        vetoed = int(len(levels) * int(class_rows[counted].sum()) - round(float(present_rows[levels].sum())))
        cells: list[tuple[object, int]] = []
        starts = np.searchsorted(self.level, np.arange(len(self.keys) + 1))
        for i in levels[missing > 0].tolist():
            if len(cells) >= limit:
                break
            has = np.zeros(len(counted), dtype=bool)
            has[self.klass[starts[i] : starts[i + 1]]] = True
            cells += [(self.keys[i], int(c)) for c in np.flatnonzero(counted & ~has)[: limit - len(cells)]]
        return count, vetoed, cells


class PackedLevels(Sequence):
    """Every column's :class:`Levels` of one block, in a few arrays; each column's object made when asked for.

    A bag of words has tens of thousands of columns: one object per word costs more than the
    arrays it is made from, and the analyses that read every word read the arrays instead
    (:func:`key_counts`, :func:`level_sizes`). As a sequence it is the list of ``Levels | None``
    the profile keeps per column, with the same objects each time an item is asked for.

    The class counts of the stored values are kept by their non-empty cells, as
    :class:`PairLevels` keeps them: a block of weights (tf-idf, a hashed block) has about one
    level per stored entry, each seen in a class or two, and a dense levels x class slots table
    of them (357,000 levels x 53 slots on hashed Reuters-52) was most of its profile's time and
    memory. Each column's level 0 (its zeros, in nearly every class) is one column of a dense
    ``zero_counts`` block instead.

    Parameters
    ----------
    keys : ndarray of float, (L,)
        The levels of every column, column after column, each column's in increasing order.
    cells : tuple of three ndarrays of int64
        ``(level, slot, rows)``: each non-empty cell's level (index into ``keys``), class slot
        and rows, ordered by level, then slot; none for the levels of ``zero_level``.
    slots : int
        The class slots (the classes, and one for rows with no class).
    bounds : ndarray of int64, (p + 1,)
        Column j's levels are ``keys[bounds[j]:bounds[j + 1]]``.
    known : ndarray of bool, (p,)
        Columns with an exact table (the others are None: 0/1 columns, or past the cap).
    zero_level : ndarray of int64, (z,), optional
        The levels (increasing, each a column's level 0) whose class counts are a block, not cells.
    zero_counts : ndarray of int64, (slots, z), optional
        Level ``zero_level[i]``'s rows in each class slot: ``zero_counts[:, i]``.
    """

    def __init__(
        self,
        keys: np.ndarray,
        cells: tuple,
        slots: int,
        bounds: np.ndarray,
        known: np.ndarray,
        zero_level: np.ndarray | None = None,
        zero_counts: np.ndarray | None = None,
    ):
        self.keys, self.cells, self.slots, self.bounds, self.known = keys, cells, slots, bounds, known
        self.zero_level = np.zeros(0, dtype=np.int64) if zero_level is None else zero_level
        self.zero_counts = np.zeros((slots, 0), dtype=np.int64) if zero_counts is None else zero_counts
        #: Level i's cells are ``cells[k][starts[i]:starts[i + 1]]``.
        self.starts = np.concatenate([[0], np.cumsum(np.bincount(cells[0], minlength=len(keys)))])
        self._made: dict[int, Levels] = {}

    def rows_of(self, at: np.ndarray) -> np.ndarray:
        """``table[at]``: the rows of the levels ``at`` in each class slot, dense (len(at), slots)."""
        at = np.asarray(at, dtype=np.int64)
        first = self.starts[at]
        count = self.starts[at + 1] - first  # (not np.diff of every level's start: a column asks for its own)
        owner = np.repeat(np.arange(len(at)), count)
        cell = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count) + first[owner]
        out = np.zeros((len(at), self.slots), dtype=np.int64)
        out[owner, self.cells[1][cell]] = self.cells[2][cell]
        if len(self.zero_level):
            place = np.minimum(np.searchsorted(self.zero_level, at), len(self.zero_level) - 1)
            hit = self.zero_level[place] == at
            out[hit] = self.zero_counts[:, place[hit]].T
        return out

    def remapped(self, slots: np.ndarray, n_classes: int) -> PackedLevels:
        """These tables with class slot ``k`` moved to ``slots[k]`` among ``n_classes + 1`` (what merging two parts of
        a table does to each column's :func:`remap_levels`, for every column at once).

        ``slots`` is increasing (both parts' classes are sorted alike, the missing-target slot last), so the
        cells stay ordered by level, then slot.
        """
        level, slot, rows = self.cells
        return PackedLevels(
            self.keys,
            (level, slots[slot], rows),
            n_classes + 1,
            self.bounds,
            self.known,
            self.zero_level,
            remap_rows(self.zero_counts, slots, n_classes),
        )

    @property
    def table(self) -> np.ndarray:
        """The dense ``table[level, slot]`` of every level (levels x slots: prefer the readers below)."""
        return self.rows_of(np.arange(len(self.keys)))

    def zero_columns(self) -> np.ndarray:
        """The column of each level of ``zero_level``."""
        return np.searchsorted(self.bounds, self.zero_level, side="right") - 1

    def level_rows(self, n_classes: int) -> np.ndarray:
        """Each level's rows in the first ``n_classes`` slots (the classes, not the rows with none), (L,)."""
        level, slot, rows = self.cells
        kept = slot < n_classes
        out = np.bincount(level[kept], weights=rows[kept], minlength=len(self.keys)).astype(np.int64)
        out[self.zero_level] += self.zero_counts[:n_classes].sum(axis=0)
        return out

    def level_best(self, n_classes: int) -> np.ndarray:
        """Each level's rows in its commonest of the first ``n_classes`` slots, (L,) (0: none there)."""
        level, slot, rows = self.cells
        kept = slot < n_classes
        best = np.zeros(len(self.keys), dtype=np.int64)
        np.maximum.at(best, level[kept], rows[kept])
        best[self.zero_level] = self.zero_counts[:n_classes].max(axis=0, initial=0)
        return best

    def level_classes(self, n_classes: int) -> tuple[np.ndarray, np.ndarray]:
        """Each level's number of the first ``n_classes`` slots with rows, and the last such slot, (L,) each."""
        level, slot, _ = self.cells
        kept = slot < n_classes
        seen = np.bincount(level[kept], minlength=len(self.keys))
        last = np.zeros(len(self.keys), dtype=np.int64)
        last[level[kept]] = slot[kept]  # (cells in slot order: the last write is the last slot)
        zeros = self.zero_counts[:n_classes] > 0
        seen[self.zero_level] = zeros.sum(axis=0)
        last[self.zero_level] = n_classes - 1 - zeros[::-1].argmax(axis=0) if n_classes else 0
        return seen, last

    def __len__(self) -> int:
        return len(self.known)

    def __getitem__(self, j):
        if isinstance(j, slice):
            return [self[i] for i in range(*j.indices(len(self)))]
        j = operator.index(j)
        if j < 0:
            j += len(self)
        if not 0 <= j < len(self):
            raise IndexError(j)
        if not self.known[j]:
            return None
        made = self._made.get(j)
        if made is None:
            start, stop = int(self.bounds[j]), int(self.bounds[j + 1])
            made = self._made[j] = Levels(tuple(self.keys[start:stop].tolist()), self.rows_of(np.arange(start, stop)))
        return made

    def __reduce__(self):
        return (
            PackedLevels,
            (self.keys, self.cells, self.slots, self.bounds, self.known, self.zero_level, self.zero_counts),
        )


def column_bounds(column: np.ndarray, p: int) -> np.ndarray:
    """Where each of ``p`` columns starts among sorted column numbers ``column`` (``bounds[j]:bounds[j + 1]``).

    ``np.searchsorted(column, np.arange(p + 1))``, by counting: one pass, not a binary search per column.
    """
    return np.concatenate([[0], np.cumsum(np.bincount(column, minlength=p))]).astype(np.int64)


def key_counts(levels: Sequence, key: float, slots: int) -> np.ndarray:
    """``out[c, j]``: the rows of column j with level ``key`` in class slot c (0 where j has no table or no such level).

    For every column at once: ``levels[j].counts_of(key)`` where ``levels[j]`` is not None.
    """
    out = np.zeros((slots, len(levels)), dtype=np.int64)
    if isinstance(levels, PackedLevels):
        at = np.flatnonzero(levels.keys == key)
        column = np.searchsorted(levels.bounds, at, side="right") - 1
        kept = levels.known[column]
        out[:, column[kept]] = levels.rows_of(at[kept]).T
        return out
    for j, lv in enumerate(levels):
        if lv is not None:
            out[:, j] = lv.counts_of(key)
    return out


def counts_below(levels: Sequence, bound: float, slots: int, inclusive: bool = False) -> np.ndarray:
    """``out[c, j]``: the rows of column j in class slot c at levels below ``bound`` (or at it, ``inclusive``).

    For every column at once (0 where j has no table): a signed word's negative cells, or the
    rows Bernoulli's binarisation at 0 reads as absent (levels up to 0).
    """
    out = np.zeros((slots, len(levels)), dtype=np.int64)
    if isinstance(levels, PackedLevels):
        under = levels.keys <= bound if inclusive else levels.keys < bound
        column = np.repeat(np.arange(len(levels)), np.diff(levels.bounds))  # (each level's column)
        level, slot, rows = levels.cells
        kept = under[level] & levels.known[column[level]]
        # (one bincount over the cells' (slot, column) places: np.add.at took most of a hashed block's search)
        place = slot[kept] * len(levels) + column[level[kept]]
        out += np.rint(np.bincount(place, weights=rows[kept], minlength=out.size)).astype(np.int64).reshape(out.shape)
        if (0.0 <= bound) if inclusive else (0.0 < bound):  # (the levels 0 kept as a block: one column each)
            zero_column = levels.zero_columns()
            known = levels.known[zero_column]
            out[:, zero_column[known]] += levels.zero_counts[:, known]
        return out
    for j, lv in enumerate(levels):
        if lv is not None:
            below = [i for i, key in enumerate(lv.keys) if (key <= bound if inclusive else key < bound)]
            out[:, j] = lv.table[below].sum(axis=0)
    return out


def level_sizes(levels: Sequence) -> np.ndarray:
    """Each column's number of levels, -1 where it has no table (None)."""
    if isinstance(levels, PackedLevels):
        return np.where(levels.known, np.diff(levels.bounds), -1)
    return np.array([-1 if lv is None else len(lv.keys) for lv in levels], dtype=np.int64)


def level_reading_right(levels: Sequence, n_classes: int) -> np.ndarray:
    """Each column's rows its levels get right at best, ``sum_levels max_c table[level, c]``; -1 where it has no table.

    Giving each level its commonest class is the best any reading of the column's values can do
    (a threshold groups levels, so it can only do worse): ``rows - right`` is a lower bound on every
    reading's errors, read for every column at once (``n_classes``: the class slots counted).
    """
    if isinstance(levels, PackedLevels):
        right = np.full(len(levels), -1, dtype=np.int64)
        best = levels.level_best(n_classes)
        sums = np.add.reduceat(np.r_[best, 0], levels.bounds[:-1]) if len(levels) else best[:0]
        filled = levels.known & (np.diff(levels.bounds) > 0)  # (reduceat of an empty range is not 0)
        right[filled] = sums[filled]
        right[levels.known & ~filled] = 0
        return right
    return np.array(
        [-1 if lv is None else int(lv.table[:, :n_classes].max(axis=1, initial=0).sum()) for lv in levels],
        dtype=np.int64,
    )


def merge_levels(a: Levels | None, b: Levels | None, cap: int = DISTINCT_CAP) -> Levels | None:
    """Union two level tables with the same class slots; None (more than ``cap`` levels) absorbs."""
    if a is None or b is None:
        return None
    keys = tuple(sorted(set(a.keys) | set(b.keys), key=sort_key))
    if len(keys) > cap:
        return None
    index = {k: i for i, k in enumerate(keys)}
    table = np.zeros((len(keys), a.table.shape[1]), dtype=np.int64)
    table[[index[k] for k in a.keys]] += a.table
    table[[index[k] for k in b.keys]] += b.table
    return Levels(keys, table)


def sort_key(value):
    """Numbers before strings, each in natural order: a canonical, deterministic order.

    Numbers compare as they are (Python compares an int and a float exactly):
    ``float(2**53 + 1)`` would tie with ``2**53``.
    """
    if isinstance(value, str):
        return (1, 0.0, value)
    return (0, value, "")


def exact_key(value: int):
    """A level key for an integer: a float within +-2^53 (where float64 is exact), else the int itself."""
    return float(value) if -(2**53) <= value <= 2**53 else value


# --------------------------------------------------------------------------- distinct-count sketch

#: Hashes kept by the distinct-value sketch (K-minimum-values): relative error about 1/sqrt(K).
SKETCH_SIZE = 1024


def value_hashes(keys) -> np.ndarray:
    """64-bit hashes of level keys (floats or strings), equal for equal values in any chunk."""
    import pandas as pd

    keys = list(keys)
    if keys and isinstance(keys[0], str):
        return pd.util.hash_array(np.array(keys, dtype=object))
    big = [i for i, k in enumerate(keys) if isinstance(k, int) and not -(2**53) <= k <= 2**53]
    if not big:
        return mix64(np.asarray(keys, dtype=np.float64).view(np.uint64))
    # Integers past 2^53 hash by their own 64 bits (tagged apart from a float's bits): exact, never rounded.
    bits = np.asarray([0.0 if i in set(big) else k for i, k in enumerate(keys)], dtype=np.float64).view(np.uint64)
    bits[big] = np.array([keys[i] & 0xFFFFFFFFFFFFFFFF for i in big], dtype=np.uint64) ^ np.uint64(0x5BD1E995)
    return mix64(bits)


def smallest(hashes: np.ndarray) -> np.ndarray:
    return np.unique(hashes)[:SKETCH_SIZE]


def sketch_of(levels: Levels | None, sketch: np.ndarray | None) -> np.ndarray | None:
    """The sketch of a column: from its exact levels when it has them."""
    if levels is not None:
        return smallest(value_hashes(levels.keys))
    return sketch


def estimate_distinct(sketch: np.ndarray) -> float:
    """Distinct values behind a K-minimum-values sketch (exact when fewer than K were seen)."""
    if len(sketch) < SKETCH_SIZE:
        return float(len(sketch))
    kth = float(sketch[-1]) / 2.0**64
    return (SKETCH_SIZE - 1) / kth


def merge_distinct(la, sa, lb, sb, cap: int = DISTINCT_CAP):
    """Merge (levels, sketch) pairs: exact levels while they fit, else the sketch."""
    levels = merge_levels(la, lb, cap)
    if levels is not None:
        return levels, None
    a, b = sketch_of(la, sa), sketch_of(lb, sb)
    if a is None or b is None:
        return None, None
    return None, smallest(np.concatenate([a, b]))


def remap_rows(arr: np.ndarray, slots: np.ndarray, n_classes: int) -> np.ndarray:
    out = np.zeros((n_classes + 1,) + arr.shape[1:], dtype=arr.dtype)
    out[slots] = arr
    return out


def remap_levels(levels: Levels | None, slots, n_classes) -> Levels | None:
    if levels is None:
        return None
    return Levels(levels.keys, remap_rows(levels.table.T, slots, n_classes).T)
