"""The table profile: sufficient statistics gathered in one pass and merged.

A :class:`TableProfile` is built from each chunk of rows independently
(:meth:`TableProfile.from_chunk`) and combined with :meth:`TableProfile.merge`.
Merging is associative, so the same code serves a DataFrame in memory, a CSV
read in chunks and partitions computed elsewhere.  Everything a rule needs
comes from here; rules never read rows (a second pass, through
:meth:`nblint.analyses.TableContext.scan`, is kept for per-row results).

What is gathered
----------------
Let ``c`` index the classes of the target (plus one last slot, ``c = C``, for
rows whose target is missing or for every row when no target is given), ``j``
the feature columns.

* per class and numeric column: count of non-missing values ``n_cj``, mean
  ``mu_cj`` and centred sum of squares ``M2_cj`` (merged with Chan et al.'s
  pairwise update, which is exact in exact arithmetic and stable in floats);
* per numeric column: missing count, min, max, whether every value is whole,
  whether every value is 0 or 1;
* per discrete column (up to :data:`DISTINCT_CAP` distinct values): the
  contingency table ``N[level, c]``; 0/1 columns need none, their table is
  ``(n_cj - S_cj, S_cj)`` with ``S_cj`` the class sums;
* the Gram block for the numeric columns that are complete: column means and
  the centred co-moment matrix ``M = sum_r (x_r - mu)(x_r - mu)^T`` (for VIF),
  and for the 0/1 columns among them the exact integer co-occurrence counts
  ``O_ij = #{r : x_ri = x_rj = 1}`` (for one-hot detection, which must be exact).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from nblint.budget import Budget, ProfileCaps
from nblint.errors import InputError
from nblint.hashing import mix64
from nblint.nbmath import Moments, merge_moments
from nblint.parallel import ordered_map
from nblint.readers import Chunk, Names, TableSource
from nblint.suggest import missing_column

#: Distinct values kept per column before it is marked "many" (continuous, identifiers).
DISTINCT_CAP = 1000
#: More complete 0/1 columns than this make a table *wide*: their co-occurrences are
#: kept as a sparse matrix and they stay out of the co-moment (VIF) matrix, whose
#: dense (b x b) float64 form would need 8 b^2 bytes (3.2 GB at b = 20,000).
WIDE_BINARY = 4096
#: Rows with the fewest ones (in the 0/1 block) kept for the wide group search.
SPARSE_ROWS = 32
#: Widest integer range counted with a direct bincount instead of a sort.
_BINCOUNT_RANGE = 1 << 16


# --------------------------------------------------------------------------- level tables


@dataclass
class Levels:
    """A contingency table of one discrete column: ``table[i, c]`` rows with level ``keys[i]`` in class slot ``c``."""

    keys: tuple
    table: np.ndarray  # (L, C+1) int64

    @property
    def totals(self) -> np.ndarray:
        return self.table.sum(axis=1)


def _merge_levels(a: Levels | None, b: Levels | None, cap: int = DISTINCT_CAP) -> Levels | None:
    """Union two level tables with the same class slots; None (more than ``cap`` levels) absorbs."""
    if a is None or b is None:
        return None
    keys = tuple(sorted(set(a.keys) | set(b.keys), key=_sort_key))
    if len(keys) > cap:
        return None
    index = {k: i for i, k in enumerate(keys)}
    table = np.zeros((len(keys), a.table.shape[1]), dtype=np.int64)
    table[[index[k] for k in a.keys]] += a.table
    table[[index[k] for k in b.keys]] += b.table
    return Levels(keys, table)


def _sort_key(value):
    """Numbers before strings, each in natural order: a canonical, deterministic order."""
    if isinstance(value, str):
        return (1, 0.0, value)
    return (0, float(value), "")


# --------------------------------------------------------------------------- distinct-count sketch

#: Hashes kept by the distinct-value sketch (K-minimum-values): relative error about 1/sqrt(K).
SKETCH_SIZE = 1024


def value_hashes(keys) -> np.ndarray:
    """64-bit hashes of level keys (floats or strings), equal for equal values in any chunk."""
    import pandas as pd

    keys = list(keys)
    if keys and isinstance(keys[0], str):
        return pd.util.hash_array(np.array(keys, dtype=object))
    return mix64(np.asarray(keys, dtype=np.float64).view(np.uint64))


def _smallest(hashes: np.ndarray) -> np.ndarray:
    return np.unique(hashes)[:SKETCH_SIZE]


def sketch_of(levels: "Levels | None", sketch: np.ndarray | None) -> np.ndarray | None:
    """The sketch of a column: from its exact levels when it has them."""
    if levels is not None:
        return _smallest(value_hashes(levels.keys))
    return sketch


def estimate_distinct(sketch: np.ndarray) -> float:
    """Distinct values behind a K-minimum-values sketch (exact when fewer than K were seen)."""
    if len(sketch) < SKETCH_SIZE:
        return float(len(sketch))
    kth = float(sketch[-1]) / 2.0**64
    return (SKETCH_SIZE - 1) / kth


def _merge_distinct(la, sa, lb, sb, cap: int = DISTINCT_CAP):
    """Merge (levels, sketch) pairs: exact levels while they fit, else the sketch."""
    levels = _merge_levels(la, lb, cap)
    if levels is not None:
        return levels, None
    a, b = sketch_of(la, sa), sketch_of(lb, sb)
    if a is None or b is None:
        return None, None
    return None, _smallest(np.concatenate([a, b]))


# --------------------------------------------------------------------------- statistics blocks


@dataclass
class NumericStats:
    """Column-wise statistics of the numeric feature columns, as arrays over columns."""

    names: tuple[str, ...]
    integer_dtype: np.ndarray  # (p,) bool
    n_missing: np.ndarray  # (p,) int64
    minimum: np.ndarray  # (p,) float, NaN when all missing
    maximum: np.ndarray  # (p,)
    integral: np.ndarray  # (p,) bool: every non-missing value is whole
    zero_one: np.ndarray  # (p,) bool: every non-missing value is 0 or 1
    class_n: np.ndarray  # (C+1, p) int64
    class_mean: np.ndarray  # (C+1, p)
    class_m2: np.ndarray  # (C+1, p)
    levels: list  # per column: Levels | None; unused (None) where zero_one
    #: per column: distinct-value sketch once the levels overflow (integral columns only)
    sketches: list = field(default_factory=list)
    #: per column: a 64-bit fingerprint of its values (sparse inputs only; see :mod:`nblint.sparse`)
    fingerprints: np.ndarray | None = None

    def __post_init__(self):
        self.names = Names(self.names)  # look-ups by name in O(1)


@dataclass
class TextStats:
    """Statistics of one text column."""

    n_missing: int
    levels: Levels | None  # None: more than DISTINCT_CAP levels
    sketch: np.ndarray | None = None  # distinct-value sketch when levels is None


@dataclass
class Gram:
    """Centred co-moments of the complete numeric columns, and exact 0/1 co-occurrences.

    The 0/1 block of the co-moments is not stored: it follows exactly from the
    integer counts, ``M_bb = O - s s^T / n`` (``s`` the counts of ones), so merging
    two parts adds integers there, and only the ``(q, z)`` columns of the other
    complete columns take Chan et al.'s pairwise update.  :attr:`comoment`
    assembles the whole matrix when it is asked for.

    Attributes
    ----------
    names : tuple of str
        Numeric feature columns with no missing value, in table order.
    n : int
        Rows.
    mean : ndarray (q,)
    moments : ndarray (q, z)
        The columns of ``M = sum_r (x_r - mean)(x_r - mean)^T`` that belong to the
        ``z`` columns of ``names`` that are not 0/1 (in ``names`` order).
    binary : tuple of str
        The 0/1 columns among ``names``.
    counts : ndarray (b, b) int64, or scipy.sparse CSR matrix when ``wide``
        ``O_ij`` = rows where both 0/1 columns are 1 (diagonal: the column's count of
        ones), for ``i <= j`` only when dense (zeros below the diagonal: the products
        are symmetric, so half of them are computed and added); all of them when wide.
    wide : bool
        More than ``wide_binary`` 0/1 columns: ``cooccurrence`` is sparse (only pairs
        that share a row are stored), ``names``/``mean``/``comoment`` cover the
        other complete columns only, and ``sparse_rows`` is kept.
    sparse_rows : list of (ones, row, columns)
        The :data:`SPARSE_ROWS` rows with the fewest ones in the 0/1 block (ties: first
        rows), with the indices into ``binary`` of their ones.  Every one-hot group has
        exactly one member set on each of them: the wide group search starts there.
    """

    names: tuple[str, ...]
    n: int
    mean: np.ndarray
    moments: np.ndarray
    binary: tuple[str, ...]
    counts: "np.ndarray | object"
    wide: bool = False
    sparse_rows: list = field(default_factory=list)

    def __post_init__(self):
        self.names, self.binary = Names(self.names), Names(self.binary)  # look-ups by name in O(1)
        self._comoment = None
        self._cooccurrence = None

    @property
    def cooccurrence(self) -> "np.ndarray | object":
        """The symmetric co-occurrence counts ``O`` (dense int64, or CSR when wide), built once."""
        if self.wide:
            return self.counts
        if self._cooccurrence is None:
            upper = self.counts
            self._cooccurrence = upper + upper.T - np.diag(np.diag(upper))
        return self._cooccurrence

    @property
    def positions(self) -> tuple[np.ndarray, np.ndarray]:
        """Positions in ``names`` of the 0/1 columns (none when wide) and of the others."""
        is_binary = np.array([not self.wide and name in self.binary for name in self.names], dtype=bool)
        return np.flatnonzero(is_binary), np.flatnonzero(~is_binary)

    @property
    def comoment(self) -> np.ndarray:
        """``M = sum_r (x_r - mean)(x_r - mean)^T`` over ``names`` (q, q), assembled once."""
        if self._comoment is None:
            bpos, zpos = self.positions
            q = len(self.names)
            M = np.empty((q, q))
            M[:, zpos] = self.moments
            M[zpos, :] = self.moments.T
            if len(bpos):
                ones = self.diagonal().astype(np.float64)
                # Exact integers minus one rounded product: as exact as the data allow.
                M[np.ix_(bpos, bpos)] = self.cooccurrence - np.outer(ones, ones) / max(self.n, 1)
            self._comoment = M
        return self._comoment

    def diagonal(self) -> np.ndarray:
        """Each 0/1 column's count of ones, ``O_ii``."""
        if self.wide:
            return np.asarray(self.counts.diagonal(), dtype=np.int64)
        return np.diag(self.counts).astype(np.int64) if len(self.binary) else np.zeros(0, dtype=np.int64)


# --------------------------------------------------------------------------- the profile


@dataclass
class TableProfile:
    """Mergeable sufficient statistics of one table (see the module docstring)."""

    names: tuple[str, ...]
    target: str | None
    n_rows: int
    classes: tuple  # sorted class labels (float for a numeric target, str for text)
    class_count: np.ndarray  # (C,) int64
    target_missing: int
    numeric: NumericStats
    text: dict[str, TextStats]
    gram: Gram
    kinds: dict[str, str] = field(default_factory=dict)  # column -> "numeric" | "text"
    #: What the profile left out to stay within its memory budget (reported by NB106).
    limits: tuple[str, ...] = ()
    #: Distinct values kept exactly per column (DISTINCT_CAP, or fewer within the budget).
    level_cap: int = DISTINCT_CAP
    #: The budget's caps (None: no budget, as for a profile built by hand).
    caps: ProfileCaps | None = None

    # ---------------------------------------------------------------- building

    @classmethod
    def from_source(cls, source: TableSource, target: str | None = None, jobs: int = 1,
                    wide_binary: int | None = None, budget: Budget | None = None) -> "TableProfile":
        """Profile a whole source, chunk by chunk, merging as it goes.

        Parameters
        ----------
        source : TableSource
        target : str, optional
        jobs : int
            Chunks profiled at once, on as many threads (numpy's and pyarrow's
            kernels release the GIL).  The chunks and the order of the merges are
            the same for every ``jobs``, so the profile is too, bit for bit.
        wide_binary : int, optional
            More complete 0/1 columns than this make the table *wide* (default
            :data:`WIDE_BINARY`): see :class:`Gram`.
        budget : Budget, optional
            The memory the profile may take (default :meth:`Budget.default`): past
            it, structures are capped (see :class:`~nblint.budget.ProfileCaps`) and
            ``limits`` says how.
        """
        caps = ProfileCaps.for_table(budget, len(source.names), DISTINCT_CAP)
        if target is not None and target in source.skipped:
            raise InputError(f"target column {target!r} cannot be read: it holds {source.skipped[target]}")
        if target is not None and target not in source.names:
            raise InputError(missing_column("target column", target, list(source.names)))

        def fold(chunks) -> "TableProfile | None":
            profile = None
            for part in ordered_map(lambda chunk: cls.from_chunk(chunk, target, wide_binary, caps), chunks, jobs, "nblint-profile"):
                # The running profile is ours alone: merging may reuse its arrays.
                profile = part if profile is None else profile.merge(part, in_place=True)
            return profile

        # A CSV source may restart the pass when a column's type widens mid-file: each
        # attempt folds from scratch (the restart protocol of TableSource.settled_pass).
        profile = source.settled_pass(fold)
        if profile is None:
            raise InputError("no data rows")
        profile.limits += _level_note(profile, caps)
        return profile

    @classmethod
    def from_chunk(cls, chunk: Chunk, target: str | None = None, wide_binary: int | None = None,
                   caps: ProfileCaps | None = None) -> "TableProfile":
        """Profile one chunk of rows (``wide_binary``, ``caps``: see :meth:`from_source`).

        Columns are profiled in name order, whatever their order in the table: every
        sum, matrix factorisation and search below then sees the same columns in the
        same order, so findings do not depend on column order, to the last bit.
        """
        if chunk.sparse is not None:
            from nblint.sparse import in_name_order, profile_block

            return profile_block(cls, in_name_order(chunk), target, wide_binary)
        chunk = _in_name_order(chunk)
        n = chunk.n_rows
        classes, y, class_count, target_missing = _encode_target(chunk, target)
        slots = len(classes) + 1
        numeric_idx = [i for i, (name, col) in enumerate(zip(chunk.names, chunk.columns)) if col.kind == "numeric" and name != target]
        text_idx = [i for i, (name, col) in enumerate(zip(chunk.names, chunk.columns)) if col.kind == "text" and name != target]
        kinds = {chunk.names[i]: "numeric" for i in numeric_idx} | {chunk.names[i]: "text" for i in text_idx}
        _check_class_cells(caps, target, slots, len(numeric_idx))
        cap = caps.levels(slots) if caps is not None else DISTINCT_CAP

        numeric, gram, limits = _profile_numeric(chunk, numeric_idx, y, slots, wide_binary, cap, caps)
        text = {}
        for i in text_idx:
            col = chunk.columns[i]
            present = col.values >= 0
            levels, sketch = None, None
            if len(col.labels) > cap:
                sketch = _smallest(value_hashes(col.labels))
            else:
                table = _bincount2(col.values[present], y[present], len(col.labels), slots)
                used = table.sum(axis=1) > 0
                keys = [col.labels[k] for k in np.flatnonzero(used)]
                order = sorted(range(len(keys)), key=lambda k: keys[k])
                levels = Levels(tuple(keys[k] for k in order), table[used][order])
            text[chunk.names[i]] = TextStats(int(n - present.sum()), levels, sketch)
        return cls(chunk.names, target, n, classes, class_count, target_missing, numeric, text, gram, kinds,
                   limits, cap, caps)

    # ---------------------------------------------------------------- merging

    def merge(self, other: "TableProfile", in_place: bool = False) -> "TableProfile":
        """Combine the profiles of two disjoint sets of rows of the same table.

        With ``in_place`` the result may share (and has changed) this profile's
        largest arrays: for a running total that nobody else holds.
        """
        if self.names != other.names or self.target != other.target:
            raise ValueError("cannot merge profiles of different tables")
        for name, kind in self.kinds.items():
            if other.kinds.get(name) != kind:
                raise InputError(f"column {name!r} is numeric in one part of the table and text in another")
        classes = tuple(sorted(set(self.classes) | set(other.classes), key=_sort_key))
        caps = self.caps or other.caps
        _check_class_cells(caps, self.target, len(classes) + 1, len(self.numeric.names))
        cap = min(self.level_cap, other.level_cap, caps.levels(len(classes) + 1) if caps is not None else DISTINCT_CAP)
        a_slots, b_slots = _slot_map(self.classes, classes), _slot_map(other.classes, classes)
        a_num, b_num = _remap_numeric(self.numeric, a_slots, len(classes)), _remap_numeric(other.numeric, b_slots, len(classes))
        class_count = np.zeros(len(classes), dtype=np.int64)
        class_count[a_slots[:-1]] += self.class_count
        class_count[b_slots[:-1]] += other.class_count
        text = {}
        for name, a in self.text.items():
            b = other.text[name]
            levels, sketch = _merge_distinct(
                _remap_levels(a.levels, a_slots, len(classes)), a.sketch,
                _remap_levels(b.levels, b_slots, len(classes)), b.sketch, cap,
            )
            text[name] = TextStats(a.n_missing + b.n_missing, levels, sketch)
        gram, gram_limits = _merge_gram(self.gram, other.gram, in_place, caps)
        return TableProfile(
            self.names,
            self.target,
            self.n_rows + other.n_rows,
            classes,
            class_count,
            self.target_missing + other.target_missing,
            _merge_numeric(a_num, b_num, cap),
            text,
            gram,
            dict(self.kinds),
            _ordered_union(self.limits, other.limits, gram_limits),
            cap,
            caps,
        )

    # ---------------------------------------------------------------- views

    @property
    def features(self) -> tuple[str, ...]:
        """Every column but the target, in table order."""
        return tuple(n for n in self.names if n != self.target)

    def levels(self, name: str) -> Levels | None:
        """The contingency table of a discrete column (0/1 columns included), or None."""
        if name in self.text:
            return self.text[name].levels
        j = self.numeric.names.index(name)
        if self.numeric.zero_one[j]:
            return _zero_one_levels(self.numeric, j)
        return self.numeric.levels[j]

    def n_distinct(self, name: str) -> float | None:
        """Distinct non-missing values: exact up to the cap, else estimated; None if unknown."""
        levels = self.levels(name)
        if levels is not None:
            return float(len(levels.keys))
        sketch = self.text[name].sketch if name in self.text else self.numeric.sketches[self.numeric.names.index(name)]
        return None if sketch is None else estimate_distinct(sketch)

    def n_missing(self, name: str) -> int:
        if name in self.text:
            return self.text[name].n_missing
        return int(self.numeric.n_missing[self.numeric.names.index(name)])


# --------------------------------------------------------------------------- helpers


def _ordered_union(*notes: tuple[str, ...]) -> tuple[str, ...]:
    """The notes of every part, each once, in order."""
    return tuple(dict.fromkeys(note for part in notes for note in part))


def _level_note(profile: "TableProfile", caps: ProfileCaps | None) -> tuple[str, ...]:
    """NB106's note when the budget lowered the distinct-value cap and a column went past it (none otherwise)."""
    cap = profile.level_cap
    numeric = profile.numeric
    past = any(stats.levels is None for stats in profile.text.values()) or any(
        levels is None and not zero_one for levels, zero_one in zip(numeric.levels, numeric.zero_one))
    if cap >= DISTINCT_CAP or caps is None or not past:
        return ()
    return (f"distinct values counted exactly up to {cap:,} per column (not {DISTINCT_CAP:,}) to keep "
            f"{caps.n_columns:,} columns within the memory budget: a column with more is read as having many values",)


def _check_class_cells(caps: ProfileCaps | None, target: str | None, slots: int, columns: int) -> None:
    """Refuse a target whose per-class statistics (class slots x numeric columns) cannot fit the budget."""
    if caps is None or target is None or slots * columns <= caps.class_cells:
        return
    raise InputError(f"target {target!r} has {slots - 1:,}+ classes over {columns:,} numeric columns: their per-class "
                     f"statistics would take {caps.describe(80.0 * slots * columns)} (raise memory-budget in the "
                     "configuration, or lint fewer columns)")


def _in_name_order(chunk: Chunk) -> Chunk:
    """The chunk with its columns sorted by name (stable, so repeated names keep their order)."""
    order = sorted(range(len(chunk.names)), key=lambda i: chunk.names[i])
    if order == list(range(len(order))):
        return chunk
    return Chunk(tuple(chunk.names[i] for i in order), tuple(chunk.columns[i] for i in order), chunk.row_offset, chunk.n_rows)


def _encode_target(chunk: Chunk, target: str | None):
    """Class labels (sorted), per-row slot index (C for missing) and class counts."""
    n = chunk.n_rows
    if target is None:
        return (), np.zeros(n, dtype=np.int64), np.zeros(0, dtype=np.int64), 0
    col = chunk.column(target)
    if col.kind == "text":
        codes = col.values
        present = codes >= 0
        used = np.flatnonzero(np.bincount(codes[present], minlength=len(col.labels)))
        labels = [col.labels[k] for k in used]
        order = np.argsort(np.array(labels, dtype=object), kind="stable") if labels else np.zeros(0, dtype=np.int64)
        classes = tuple(labels[k] for k in order)
        local = np.full(len(col.labels), -1, dtype=np.int64)
        local[used[order]] = np.arange(len(classes))
        y = np.where(present, local[np.where(present, codes, 0)], len(classes))
    else:
        values = col.as_float()
        present = ~np.isnan(values)
        uniques, inverse = np.unique(values[present], return_inverse=True)
        classes = tuple(float(u) for u in uniques)
        y = np.full(n, len(classes), dtype=np.int64)
        y[present] = inverse
    class_count = np.bincount(y, minlength=len(classes) + 1)[: len(classes)].astype(np.int64)
    return classes, y.astype(np.int64), class_count, int(n - present.sum())


def class_slots(chunk: Chunk, target: str, classes: tuple) -> np.ndarray:
    """Each row's index into the table's ``classes`` (``len(classes)`` where the target is missing)."""
    local, y, _, _ = _encode_target(chunk, target)
    index = {label: k for k, label in enumerate(classes)}
    slots = np.array([index[label] for label in local] + [len(classes)], dtype=np.int64)
    return slots[y]


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
            self.Y = np.zeros((len(y), slots), dtype=np.float64)
            self.Y[np.arange(len(y)), y] = 1.0
        else:
            self.Y = None
            self.order = np.argsort(y, kind="stable")
            sorted_y = y[self.order]
            self.starts = np.flatnonzero(np.r_[True, sorted_y[1:] != sorted_y[:-1]]) if len(y) else np.zeros(0, dtype=np.int64)
            self.present = sorted_y[self.starts]

    def __call__(self, M: np.ndarray) -> np.ndarray:
        if self.Y is not None:
            return self.Y.T @ M
        out = np.zeros((self.slots, M.shape[1]))
        if len(self.starts):
            out[self.present] = np.add.reduceat(M[self.order], self.starts, axis=0)
        return out


def _bincount2(codes: np.ndarray, y: np.ndarray, n_codes: int, slots: int) -> np.ndarray:
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


def _profile_numeric(chunk: Chunk, idx: list[int], y: np.ndarray, slots: int, wide_binary: int | None = None,
                     cap: int = DISTINCT_CAP, caps: ProfileCaps | None = None):
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
    for k in np.flatnonzero(~integer):
        integral[k] = bool(np.all(X0[:, k] == np.floor(X0[:, k])))
    zero_one = integral & ~(minimum < 0) & ~(maximum > 1)

    # Within-class sums of squares: for 0/1 values x^2 = x, so M2 = S - S^2 / n exactly
    # enough from the sums; other columns are centred on their class means first.
    class_m2 = np.empty_like(class_sum)
    with np.errstate(invalid="ignore", divide="ignore"):
        class_m2[:, zero_one] = np.maximum(class_sum[:, zero_one] - class_sum[:, zero_one] ** 2 / np.maximum(class_n[:, zero_one], 1), 0.0)
    other = np.flatnonzero(~zero_one)
    if len(other):
        deviation = X0[:, other] - class_mean[y][:, other]
        gappy_other = np.flatnonzero(n_missing[other])
        if len(gappy_other):
            deviation[:, gappy_other] *= ~np.isnan(X[:, other[gappy_other]])
        class_m2[:, other] = by_class(deviation * deviation)

    levels: list = []
    sketches: list = []
    for k in range(p):
        if zero_one[k]:
            levels.append(None)
            sketches.append(None)
            continue
        lv, sk = _numeric_levels(X[:, k], np.isnan(X[:, k]) if n_missing[k] else None, y, slots, integral[k], minimum[k],
                                 maximum[k], cap)
        levels.append(lv)
        sketches.append(sk)

    numeric = NumericStats(
        names, integer, n_missing, minimum, maximum, integral, zero_one,
        np.rint(class_n).astype(np.int64), class_mean, class_m2, levels, sketches,
    )
    gram, limits = _chunk_gram(X, names, n_missing == 0, zero_one, chunk.row_offset,
                               WIDE_BINARY if wide_binary is None else wide_binary, caps)
    return numeric, gram, limits


def _numeric_levels(x, missing, y, slots, integral, lo, hi, cap: int = DISTINCT_CAP) -> tuple[Levels | None, np.ndarray | None]:
    """Exact levels (up to the cap) and, past it, a distinct sketch for integral columns."""
    if not np.isfinite(lo):
        return Levels((), np.zeros((0, slots), dtype=np.int64)), None
    values, classes = (x[~missing], y[~missing]) if missing is not None else (x, y)
    if integral and hi - lo < _BINCOUNT_RANGE:
        offset = (values - lo).astype(np.int64)
        table = _bincount2(offset, classes, int(hi - lo) + 1, slots)
        used = np.flatnonzero(table.sum(axis=1))
        if len(used) > cap:
            return None, _smallest(value_hashes(lo + used))
        return Levels(tuple(float(lo + u) for u in used), table[used]), None
    if not integral:
        # A continuous column: stop at the cap without sorting the whole chunk.
        head = np.unique(values[: 4 * cap])
        if len(head) > cap:
            return None, None
    uniques, inverse = np.unique(values, return_inverse=True)
    if len(uniques) > cap:
        return None, _smallest(value_hashes(uniques)) if integral else None
    return Levels(tuple(float(u) for u in uniques), _bincount2(inverse, classes, len(uniques), slots)), None


def _chunk_gram(X: np.ndarray, names, complete: np.ndarray, zero_one: np.ndarray, row_offset: int = 0,
                wide_binary: int = WIDE_BINARY, caps: ProfileCaps | None = None) -> tuple[Gram, tuple[str, ...]]:
    """Co-moments of the complete columns; exact co-occurrences of the 0/1 ones among them.

    Within ``caps``: the continuous columns' co-moments are left out when their
    matrix would not fit, and the 0/1 columns' co-occurrences when their count
    would not (then the returned notes say so, for NB106).
    """
    n = X.shape[0]
    q_idx = np.flatnonzero(complete)
    b_mask = zero_one[q_idx]
    b_idx, z_idx = q_idx[b_mask], q_idx[~b_mask]
    limits: tuple[str, ...] = ()
    if caps is not None and len(z_idx) > caps.comoment_columns:
        limits += (_comoment_note(len(z_idx), caps),)
        z_idx = z_idx[:0]
    wide = len(b_idx) > wide_binary or (caps is not None and 24.0 * len(b_idx) ** 2 > caps.share)
    if caps is not None and wide and len(b_idx):
        row_ones = X[:, b_idx].sum(axis=1)
        pairs = min(float(row_ones @ row_ones), float(len(b_idx)) ** 2)  # O = B^T B has at most these
        if pairs > caps.cooccurrences:
            limits += (_cooccurrence_note(len(b_idx), pairs, caps),)
            b_idx, wide = b_idx[:0], False
    q_idx = np.sort(np.concatenate([b_idx, z_idx]))
    b_mask = np.isin(q_idx, b_idx)
    # Take the 0/1 block without a copy when it is all of X (an indicator table).
    bits = X if len(b_idx) == X.shape[1] else X[:, b_idx]
    sparse_rows: list = []
    if len(b_idx):
        cooc, sparse_rows = _cooccurrence(bits, wide, row_offset)
        ones = np.asarray(cooc.diagonal(), dtype=np.float64)
    else:
        cooc = np.zeros((0, 0), dtype=np.int64)
        ones = np.zeros(0)
    Z = X[:, z_idx]
    z_mean = Z.mean(axis=0) if len(z_idx) else np.zeros(0)
    Zc = Z - z_mean
    binary = tuple(names[i] for i in b_idx)
    if wide:
        return Gram(tuple(names[i] for i in z_idx), n, z_mean, Zc.T @ Zc, binary, cooc, True, sparse_rows), limits
    # M_bz = B^T Zc because Zc sums to 0; M_zz = Zc^T Zc; M_bb is left to the counts.
    bpos, zpos = np.flatnonzero(b_mask), np.flatnonzero(~b_mask)
    mean = np.empty(len(q_idx))
    mean[bpos], mean[zpos] = ones / n, z_mean
    moments = np.empty((len(q_idx), len(z_idx)))
    moments[zpos] = Zc.T @ Zc
    if len(b_idx):
        moments[bpos] = bits.T @ Zc
    return Gram(tuple(names[i] for i in q_idx), n, mean, moments, binary, cooc), limits


def _comoment_note(columns: int, caps: ProfileCaps) -> str:
    return (f"VIF (NB104) leaves out the {columns:,} complete continuous columns: their co-moment matrix would take "
            f"{caps.describe(32.0 * columns ** 2)}; identical columns among them are still found, by hashing")


def _cooccurrence_note(columns: int, pairs: float, caps: ProfileCaps) -> str:
    return (f"one-hot, dummy and broken groups (NB101-NB103, NB105) and identical 0/1 columns are not searched among "
            f"the {columns:,} complete 0/1 columns: their co-occurrence counts would take {caps.describe(40.0 * pairs)}")


def _cooccurrence(bits: np.ndarray, wide: bool, row_offset: int):
    """Exact co-occurrence counts ``O = B^T B`` of a block of 0/1 columns.

    Dense 0/1 blocks use one SSYRK, the upper triangle of ``B^T B`` (half a
    matrix product; float32 sums of 0/1 products are exact integers while
    n < 2**24).  Sparse ones use a sparse product, whose cost is ``sum_r m_r^2``
    (``m_r`` ones in row r) instead of ``n b^2``; it is taken when that is
    clearly cheaper, and always for a wide block, whose result stays sparse.
    Both give the same integers.

    Returns
    -------
    (O, sparse_rows)
        ``O`` (dense int64 upper triangle, or all of it as CSR when ``wide``) and
        (for ``wide``) the chunk's :data:`SPARSE_ROWS` rows with the fewest ones.
    """
    from scipy import sparse
    from scipy.linalg.blas import ssyrk

    n, b = bits.shape
    B32 = bits.astype(np.float32, order="F")
    row_ones = B32.sum(axis=1, dtype=np.float64)
    if not wide and float(np.dot(row_ones, row_ones)) * 250 >= float(n) * b * b:
        # (B32.T is C-ordered (b, n): SSYRK computes it times its transpose without a copy.)
        return ssyrk(1.0, B32.T, trans=0, lower=0).astype(np.int64), []
    rows, cols = np.nonzero(B32)
    B = sparse.csr_matrix((np.ones(len(rows), dtype=np.int64), (rows, cols)), shape=(n, b))
    O = (B.T.tocsr() @ B).tocsr()
    O.sort_indices()
    if not wide:
        return np.triu(O.toarray()), []
    order = np.lexsort((np.arange(n), row_ones))[:SPARSE_ROWS]
    sparse_rows = [(int(row_ones[r]), row_offset + int(r), B.indices[B.indptr[r]:B.indptr[r + 1]].copy()) for r in order]
    return O, sparse_rows


def _merge_sparse_rows(a: list, b: list) -> list:
    """The :data:`SPARSE_ROWS` rows with the fewest ones of two parts (ties: the first rows)."""
    return sorted(a + b, key=lambda item: (item[0], item[1]))[:SPARSE_ROWS]


def _merge_gram(a: Gram, b: Gram, in_place: bool = False, caps: ProfileCaps | None = None) -> tuple[Gram, tuple[str, ...]]:
    """:func:`_merge_grams`, then the sparse co-occurrences dropped if they outgrew ``caps`` (with NB106's note)."""
    merged = _merge_grams(a, b, in_place)
    if caps is not None and merged.wide and merged.binary and merged.counts.nnz > caps.cooccurrences:
        note = _cooccurrence_note(len(merged.binary), merged.counts.nnz, caps)
        return Gram(merged.names, merged.n, merged.mean, merged.moments, (), np.zeros((0, 0), dtype=np.int64)), (note,)
    return merged, ()


def _merge_grams(a: Gram, b: Gram, in_place: bool = False) -> Gram:
    """Merge the Gram blocks of two disjoint sets of rows.

    Co-occurrence counts add; the ``(q, z)`` co-moment columns take Chan et al.'s
    pairwise update.  ``in_place`` lets the result reuse (and change) ``a``'s
    count matrix, sparing a fresh ``(b, b)`` array per merge while a table is
    profiled chunk after chunk.
    """
    n = a.n + b.n
    if a.names == b.names and a.binary == b.binary and a.wide == b.wide:
        # The common case (every chunk has the same complete columns): no re-indexing.
        _, zpos = a.positions
        _, mean, moments = merge_moments(Moments(a.n, a.mean, a.moments), Moments(b.n, b.mean, b.moments), zpos)
        if in_place and not a.wide:
            a.counts += b.counts
            a._cooccurrence = a._comoment = None  # (built from the counts before this merge)
            cooc = a.counts
        else:
            cooc = a.counts + b.counts
        return Gram(a.names, n, mean, moments, a.binary, cooc, a.wide,
                    _merge_sparse_rows(a.sparse_rows, b.sparse_rows) if a.wide else [])
    # Different complete or 0/1 columns in the two parts (rare: a column with a
    # missing value, or a value other than 0/1, in one part only): merge the whole
    # co-moment matrices over the columns complete in both, then split again.
    in_b = {nm: i for i, nm in enumerate(b.names)}
    in_a = {nm: i for i, nm in enumerate(a.names)}
    names = tuple(nm for nm in a.names if nm in in_b)
    ia = [in_a[nm] for nm in names]
    ib = [in_b[nm] for nm in names]
    _, mean, comoment = merge_moments(Moments(a.n, a.mean[ia], a.comoment[np.ix_(ia, ia)]),
                                      Moments(b.n, b.mean[ib], b.comoment[np.ix_(ib, ib)]), slice(None))
    bin_a = {nm: i for i, nm in enumerate(a.binary)}
    bin_b = {nm: i for i, nm in enumerate(b.binary)}
    binary = tuple(nm for nm in a.binary if nm in bin_b)
    ja = [bin_a[nm] for nm in binary]
    jb = [bin_b[nm] for nm in binary]
    wide = a.wide or b.wide
    if wide:
        # Rows of the sparsest-rows sample are re-indexed to the common 0/1 columns.
        from scipy import sparse

        cooc = sparse.csr_matrix(_take(a.cooccurrence, ja)) + sparse.csr_matrix(_take(b.cooccurrence, jb))
        rows = []
        for part, index in ((a, ja), (b, jb)):
            position = np.full(len(part.binary), -1)
            position[index] = np.arange(len(index))
            for ones, row, cols in part.sparse_rows:
                kept = position[cols]
                rows.append((ones, row, kept[kept >= 0]))
        # A column dropped from one part may have been set on a row: count what is left.
        rows = _merge_sparse_rows([(len(c), r, c) for _, r, c in rows], [])
        # A dense part kept its 0/1 columns among the co-moments; a wide table does not.
        keep = [i for i, nm in enumerate(names) if nm not in bin_a and nm not in bin_b]
        names = tuple(names[i] for i in keep)
        mean, comoment = mean[keep], comoment[np.ix_(keep, keep)]
        return Gram(names, n, mean, comoment, binary, cooc.tocsr(), True, rows)
    # (the kept 0/1 columns stay in order: the upper triangle of the sum is the counts)
    cooc = np.triu(a.cooccurrence[np.ix_(ja, ja)] + b.cooccurrence[np.ix_(jb, jb)])
    merged = Gram(names, n, mean, np.zeros((len(names), 0)), binary, cooc)
    _, zpos = merged.positions
    merged.moments = comoment[:, zpos]
    return merged


def _take(matrix, index):
    """Rows and columns ``index`` of a dense or sparse square matrix."""
    if isinstance(matrix, np.ndarray):
        return matrix[np.ix_(index, index)]
    return matrix[index][:, index]


def _slot_map(old: tuple, new: tuple) -> np.ndarray:
    """Index of each old class slot (and the trailing missing-target slot) in the new classes."""
    index = {c: i for i, c in enumerate(new)}
    return np.array([index[c] for c in old] + [len(new)], dtype=np.int64)


def _remap_rows(arr: np.ndarray, slots: np.ndarray, n_classes: int) -> np.ndarray:
    out = np.zeros((n_classes + 1,) + arr.shape[1:], dtype=arr.dtype)
    out[slots] = arr
    return out


def _remap_levels(levels: Levels | None, slots, n_classes) -> Levels | None:
    if levels is None:
        return None
    return Levels(levels.keys, _remap_rows(levels.table.T, slots, n_classes).T)


def _remap_numeric(s: NumericStats, slots, n_classes) -> NumericStats:
    return NumericStats(
        s.names, s.integer_dtype, s.n_missing, s.minimum, s.maximum, s.integral, s.zero_one,
        _remap_rows(s.class_n, slots, n_classes), _remap_rows(s.class_mean, slots, n_classes),
        _remap_rows(s.class_m2, slots, n_classes), [_remap_levels(lv, slots, n_classes) for lv in s.levels],
        s.sketches, s.fingerprints,
    )


def _zero_one_levels(s: NumericStats, j: int) -> Levels:
    """The contingency table of a 0/1 column, from its class counts and class sums."""
    ones = np.rint(s.class_mean[:, j] * s.class_n[:, j]).astype(np.int64)
    zeros = s.class_n[:, j] - ones
    keys, rows = [], []
    for key, row in ((0.0, zeros), (1.0, ones)):
        if row.sum():
            keys.append(key)
            rows.append(row)
    table = np.array(rows, dtype=np.int64).reshape(len(rows), s.class_n.shape[0])
    return Levels(tuple(keys), table)


def _merge_numeric(a: NumericStats, b: NumericStats, cap: int = DISTINCT_CAP) -> NumericStats:
    n, mean, m2 = merge_moments(Moments(a.class_n, a.class_mean, a.class_m2), Moments(b.class_n, b.class_mean, b.class_m2))
    zero_one = a.zero_one & b.zero_one
    levels, sketches = [], []
    integral = a.integral & b.integral
    for j in range(len(a.names)):
        if zero_one[j]:
            levels.append(None)
            sketches.append(None)
            continue
        la = _zero_one_levels(a, j) if a.zero_one[j] else a.levels[j]
        lb = _zero_one_levels(b, j) if b.zero_one[j] else b.levels[j]
        lv, sk = _merge_distinct(la, a.sketches[j], lb, b.sketches[j], cap)
        levels.append(lv)
        sketches.append(sk if integral[j] else None)
    return NumericStats(
        a.names,
        a.integer_dtype & b.integer_dtype,
        a.n_missing + b.n_missing,
        np.fmin(a.minimum, b.minimum),
        np.fmax(a.maximum, b.maximum),
        integral,
        zero_one,
        n,
        mean,
        m2,
        levels,
        sketches,
        None if a.fingerprints is None or b.fingerprints is None else a.fingerprints + b.fingerprints,
    )
