"""Sparse matrices (``scipy.sparse``, a document-term matrix) profiled without densifying them.

A :class:`~nblint.readers.sparse.SparseSource` hands the profile row blocks of the
matrix as they are (a CSR :class:`~nblint.readers.sparse.SparseBlock` on the chunk,
the target as an ordinary column), and :func:`profile_block` computes from the stored entries alone the same statistics
:meth:`nblint.profile.table.TableProfile.from_chunk` computes from dense columns. Every
implicit zero is a value 0, so each statistic is "what the stored entries say,
plus the zeros":

* class sums and sums of squares: bincounts over the entries (zeros add nothing);
  centred sums of squares ``M2_cj = sum_nonzero (x - mu_cj)^2 + z_cj mu_cj^2``, with
  ``z_cj`` the class's zeros in column j, exactly as accurate as the dense path;
* minimum and maximum: of the stored values, and 0 where the column has a zero;
* contingency tables: the distinct (column, value) pairs of the entries, with one
  level 0 holding the zeros;
* 0/1 co-occurrences ``O = B^T B`` as a sparse product (its cost is
  ``sum_r m_r^2``, ``m_r`` the ones of row r), kept sparse when the table is wide;
* a 64-bit fingerprint per column, the sum over the stored entries of
  ``h(value, row) - h(0, row)``: the fingerprint the dense candidate check would
  compute, minus the same constant for every column. Equal columns have equal
  fingerprints, so identical columns (NB105) are found without a pass over rows.

The co-moments behind VIF (NB104) are a dense ``q x q`` matrix; for a sparse block
of more than :data:`~nblint.readers.sparse.MOMENT_COLUMNS` columns they are not gathered for its non-0/1
columns (a 50,000-word count matrix would need 20 GB), and NB106 says so.

Second passes (candidate checks, NB401's scores) ask for a few columns by name;
those come as ordinary dense columns, a chunk of rows at a time.
"""

from __future__ import annotations

import numpy as np

from nblint.core.hashing import EXACT_INTEGERS, float_hashes, mix64, row_weights, segment_sums, whole_hashes
from nblint.core.records import Record
from nblint.profile.gram import WIDE_BINARY, Gram, _cooccurrence_note, sparse_chunk_gram
from nblint.profile.levels import DISTINCT_CAP, PackedLevels, column_bounds, smallest, value_hashes
from nblint.profile.numeric import NumericStats
from nblint.profile.target import encode_target
from nblint.readers import Chunk, ColumnData
from nblint.readers.sparse import SparseBlock, columns_taken

# --------------------------------------------------------------------------- the profile of a block


def in_name_order(chunk: Chunk) -> Chunk:
    """The chunk with its sparse block's columns sorted by name, as the dense path profiles them."""
    block = chunk.sparse
    assert block is not None, "a chunk with no sparse block"
    order = sorted(range(len(block.names)), key=block.names.__getitem__)
    if order == list(range(len(order))):
        return chunk
    at = np.array(order, dtype=np.intp)
    sorted_block = SparseBlock(
        tuple(map(block.names.__getitem__, order)),
        columns_taken(block.matrix, at),
        block.integer_dtype,
        np.asarray(block.binary)[at],
        words=None if block.words is None else block.words[at],
    )
    return Chunk(chunk.names, chunk.columns, chunk.row_offset, chunk.n_rows, sparse=sorted_block)


class BlockParts(Record):
    """The parts of the profile of one chunk carrying a sparse block; :class:`~nblint.profile.table.TableProfile`
    assembles them (it has no text columns: the chunk's other columns are the target at most).

    A record written out (as :class:`~nblint.readers.chunks.Chunk`): a named tuple's class costs a first
    check ~0.4 ms to create, and nothing here reads the parts as a tuple.
    """

    __slots__ = ("names", "n_rows", "classes", "class_count", "target_missing", "numeric", "gram", "kinds")

    def __init__(
        self,
        names: tuple[str, ...],
        n_rows: int,
        classes: tuple,
        class_count: np.ndarray,
        target_missing: int,
        numeric: NumericStats,
        gram: Gram,
        kinds: dict[str, str],
    ) -> None:
        self.names = names
        self.n_rows = n_rows
        self.classes = classes
        self.class_count = class_count
        self.target_missing = target_missing
        self.numeric = numeric
        self.gram = gram
        self.kinds = kinds


def profile_block(chunk: Chunk, target: str | None, wide_binary: int | None, fingerprints: bool = True) -> BlockParts:
    """The parts of the :class:`~nblint.profile.table.TableProfile` of one chunk carrying a sparse block.

    ``fingerprints``: compute the columns' fingerprints (a matrix input's; a dense table's profile has none).
    """
    block = chunk.sparse
    assert block is not None, "a chunk with no sparse block"
    X = block.matrix
    n, p = X.shape
    classes, y, class_count, target_missing = encode_target(chunk, target)
    slots = len(classes) + 1
    csc = X.tocsc() if block.by_column is None else block.by_column  # (the source's, where it made them)
    csc.sort_indices()
    values = csc.data.astype(np.float64)
    cols = np.repeat(np.arange(p), np.diff(csc.indptr))
    rows = csc.indices.astype(np.int64)
    row_class = y[rows]
    # Integers (a vectorizer's counts) are never missing and always whole: the masks below would be all true.
    missing = None if block.integer_dtype else np.isnan(values)
    if missing is not None:
        missing |= np.isinf(values)
        values[missing] = np.nan  # infinities are missing, as in the dense path
    present = None if missing is None else ~missing
    class_n, n_missing, class_sum, class_mean, class_m2, zeros, clean = _class_moments(
        values, cols, row_class, y, missing, p, slots
    )

    minimum, maximum = _column_extremes(values, csc.indptr, n)
    if present is None:
        integral = np.ones(p, dtype=bool)
    else:
        whole = present & (values == np.floor(clean))
        integral = np.bincount(cols[present & ~whole], minlength=p) == 0
    zero_one = integral & ~(minimum < 0) & ~(maximum > 1)
    # For 0/1 values x^2 = x: the dense path's exact form of M2 (so both paths agree to the bit).
    with np.errstate(invalid="ignore", divide="ignore"):
        class_m2[:, zero_one] = np.maximum(
            class_sum[:, zero_one] - class_sum[:, zero_one] ** 2 / np.maximum(class_n[:, zero_one], 1), 0.0
        )
    own = csc.data if csc.data.dtype.kind in "iu" else None  # (a vectorizer's counts, as integers)
    levels, sketches = _levels(values, cols, row_class, zeros, zero_one, integral, p, slots, own)
    numeric = NumericStats(
        block.names,
        np.full(p, block.integer_dtype),
        n_missing,
        minimum,
        maximum,
        integral,
        zero_one,
        class_n,
        class_mean,
        class_m2,
        levels,
        sketches,
        _fingerprints(values if own is None else own, csc.indptr, rows, chunk.row_offset) if fingerprints else None,
    )
    gram = sparse_chunk_gram(
        X,
        block.names,
        n_missing == 0,
        zero_one & block.binary,
        WIDE_BINARY if wide_binary is None else wide_binary,
        block.words,
    )
    names = tuple(block.names) + tuple(chunk.names)
    kinds = dict.fromkeys(block.names, "numeric")
    return BlockParts(names, n, classes, class_count, target_missing, numeric, gram, kinds)


def _class_moments(values, cols, row_class, y, missing, p: int, slots: int):
    """Per (class slot, column): rows, sums, means and centred sums of squares, from the stored entries.

    ``missing`` marks the entries that are missing (None: none can be). Returns ``class_n``,
    ``n_missing`` (per column), ``class_sum``, ``class_mean``, ``class_m2``, ``zeros`` (each
    class's implicit zeros per column) and ``clean`` (the values, 0 where missing).
    """
    cell = cols * slots + row_class  # each entry's (column, class slot)

    def per_class(weights, mask=None) -> np.ndarray:
        """``sum over entries of weights``, per (class slot, column): (slots, p)."""
        index = cell
        if mask is not None:
            index, weights = index[mask], (weights[mask] if weights is not None else None)
        return np.bincount(index, weights=weights, minlength=p * slots).reshape(p, slots).T

    slot_rows = np.bincount(y, minlength=slots).astype(np.int64)
    present = None if missing is None else ~missing
    nan_count = np.zeros((slots, p), dtype=np.int64) if missing is None else per_class(None, missing).astype(np.int64)
    class_n = slot_rows[:, None] - nan_count
    n_missing = nan_count.sum(axis=0)
    stored = per_class(None, present).astype(np.int64)  # present nonzero entries
    clean = values if present is None else np.where(present, values, 0.0)
    class_sum = per_class(clean)
    with np.errstate(invalid="ignore", divide="ignore"):
        class_mean = np.where(class_n > 0, class_sum / np.maximum(class_n, 1), 0.0)
    deviation = clean - class_mean.T.ravel()[cell]  # (each entry's class mean: one gather by its cell)
    if present is not None:
        deviation[missing] = 0.0
    zeros = class_n - stored
    class_m2 = per_class(deviation * deviation) + zeros * class_mean**2
    return class_n, n_missing, class_sum, class_mean, class_m2, zeros, clean


def table_block_rest(chunk: Chunk, target: str | None, wide_binary: int) -> tuple[Chunk, int] | None:
    """How a chunk of a dense table whose complete 0/1 columns come as a sparse block is profiled.

    Exactly as :meth:`~nblint.profile.table.TableProfile.from_chunk` would profile the same
    rows with every column dense (a test holds both to the bit), at the cost of the stored
    entries instead of rows x columns: the chunk's other columns (``rest``) are profiled as
    usual, the block by :func:`profile_block`, and the two are put side by side in name order
    (:func:`side_by_side`). The block's columns being 0/1 and complete here, they are the
    chunk's wide 0/1 block: what the dense path keeps of them is their class counts and sums
    and their incidence, none of which involves the other columns.

    Returns
    -------
    (rest, numeric_columns) or None
        The chunk without its block, and how many numeric columns the whole chunk has (for
        the dense path's check of the per-class statistics); None where the block is too
        small to be wide: the chunk is profiled dense (:func:`densified`). So is a chunk
        whose ``rest`` has 0/1 columns of its own (of another type), which the caller sees
        in the profile of ``rest``.
    """
    block = chunk.sparse
    assert block is not None, "a chunk with no sparse block"
    if len(block.names) <= wide_binary:
        return None
    rest = Chunk(chunk.names, chunk.columns, chunk.row_offset, chunk.n_rows)
    kinds = {name: col.kind for name, col in zip(rest.names, rest.columns) if name != target}
    numeric_columns = sum(kind == "numeric" for kind in kinds.values()) + len(block.names)
    return rest, numeric_columns


def densified(chunk: Chunk) -> Chunk:
    """The chunk with its sparse block's columns as ordinary int8 columns."""
    block = chunk.sparse
    assert block is not None, "a chunk with no sparse block"
    dense = block.matrix.toarray(order="F").astype(np.int8, copy=False)
    columns = tuple(ColumnData("numeric", dense[:, j], None, True) for j in range(len(block.names)))
    return Chunk(tuple(chunk.names) + tuple(block.names), chunk.columns + columns, chunk.row_offset, chunk.n_rows)


class SideBySide(Record):
    """What the sparse block changes in the profile of a chunk's other columns (:func:`side_by_side`); a record
    written out, as :class:`BlockParts`."""

    __slots__ = ("names", "numeric", "gram", "kinds", "limits")

    def __init__(
        self, names: tuple[str, ...], numeric: NumericStats, gram: Gram, kinds: dict[str, str], limits: tuple[str, ...]
    ) -> None:
        self.names = names
        self.numeric = numeric
        self.gram = gram
        self.kinds = kinds
        self.limits = limits


def side_by_side(chunk: Chunk, other, target: str | None, wide_binary: int, caps) -> SideBySide:
    """The parts of ``other`` (the profile of the chunk's ordinary columns) with the sparse block's columns put in."""
    block = in_name_order(chunk).sparse
    assert block is not None, "a chunk with no sparse block"
    only_target = (target,) if target is not None else ()
    head = Chunk(only_target, tuple(chunk.column(t) for t in only_target), chunk.row_offset, chunk.n_rows)
    with_block = Chunk(head.names, head.columns, head.row_offset, head.n_rows, sparse=block)
    part = profile_block(with_block, target, wide_binary, fingerprints=False)
    gram: Gram | None = part.gram
    limits = other.limits
    if caps is not None:  # the dense path's cap on the co-occurrences of a wide block (chunk_gram)
        row_ones = np.diff(block.matrix.indptr).astype(np.float64)
        pairs = min(float(row_ones @ row_ones), float(len(block.names)) ** 2)
        if pairs > caps.cooccurrences:
            limits += (_cooccurrence_note(len(block.names), pairs, caps),)
            gram = None
    if gram is None:
        gram = other.gram
    else:
        kept = other.gram
        gram = Gram(kept.names, kept.n, kept.mean, kept.moments, gram.binary, gram.counts, True)
    numeric = _join_numeric(other.numeric, part.numeric)
    names = tuple(sorted(tuple(other.names) + tuple(block.names)))
    kinds = dict.fromkeys(numeric.names, "numeric") | {
        name: kind for name, kind in other.kinds.items() if kind == "text"
    }
    return SideBySide(names, numeric, gram, kinds, limits)


def _join_numeric(a: NumericStats, b: NumericStats) -> NumericStats:
    """The statistics of two disjoint sets of columns of the same rows, in name order."""
    names = tuple(a.names) + tuple(b.names)
    order = sorted(range(len(names)), key=names.__getitem__)
    at = np.array(order, dtype=np.int64)

    def cat(x, y, axis=0):
        return np.concatenate([x, y], axis=axis).take(at, axis=axis)

    levels, sketches = _as_list(a.levels) + _as_list(b.levels), list(a.sketches) + list(b.sketches)
    return NumericStats(
        tuple(names[i] for i in order),
        cat(a.integer_dtype, b.integer_dtype),
        cat(a.n_missing, b.n_missing),
        cat(a.minimum, b.minimum),
        cat(a.maximum, b.maximum),
        cat(a.integral, b.integral),
        cat(a.zero_one, b.zero_one),
        cat(a.class_n, b.class_n, 1),
        cat(a.class_mean, b.class_mean, 1),
        cat(a.class_m2, b.class_m2, 1),
        [levels[i] for i in order],
        [sketches[i] for i in order],
    )


def _as_list(levels) -> list:
    """A profile's levels as a list (a block's :class:`PackedLevels` of 0/1 columns only: all None)."""
    if isinstance(levels, PackedLevels) and not levels.known.any():
        return [None] * len(levels)
    return list(levels)


def _column_extremes(values: np.ndarray, indptr: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Each column's minimum and maximum, its zeros included (NaN: every value missing)."""
    p = len(indptr) - 1
    counts = np.diff(indptr)
    minimum, maximum = np.full(p, np.nan), np.full(p, np.nan)
    filled = np.flatnonzero(counts)
    if len(filled):
        with np.errstate(invalid="ignore"):
            minimum[filled] = np.fmin.reduceat(values, indptr[filled])
            maximum[filled] = np.fmax.reduceat(values, indptr[filled])
    has_zero = counts < n
    minimum[has_zero] = np.fmin(minimum[has_zero], 0.0)
    maximum[has_zero] = np.fmax(maximum[has_zero], 0.0)
    return minimum, maximum


def _levels(values, cols, row_class, zeros, zero_one, integral, p: int, slots: int, own=None):
    """Contingency tables of the columns that are not 0/1: stored values, plus the level 0.

    One sort of the stored entries by (column, value, class slot) (:func:`_sorted_cells`): the
    runs of equal triples are the levels' non-empty class cells, the runs of equal pairs among
    them the levels. The level 0 of each column with zeros is its class counts of zeros, put in at
    its place among the column's levels (after the negative ones) rather than sorted as one
    more entry per (class, column): a vocabulary has hundreds of thousands of those. ``own``: the
    block's own integers beside their floats ``values`` (a vectorizer's counts), sorted as they are.
    """
    keep = ~zero_one[cols] if own is not None else ~np.isnan(values) & ~zero_one[cols]
    v = values[keep] if own is None else own[keep]
    c, k = cols[keep].astype(np.int64, copy=False), row_class[keep].astype(np.int64, copy=False)
    if np.any(v == 0):  # (stored zeros: a matrix that was not made canonical; count them with the zeros)
        return _levels_with_stored_zeros(values, cols, row_class, zeros, zero_one, integral, p, slots)
    cell_col, cell_value, cell_slot, cell_rows = _sorted_cells(
        c, v, k, slots, whole=bool(integral[~zero_one].all()) or None
    )
    new_pair = np.ones(len(cell_col), dtype=bool)
    new_pair[1:] = (cell_col[1:] != cell_col[:-1]) | (cell_value[1:] != cell_value[:-1])
    pair = np.cumsum(new_pair) - 1
    pair_value, pair_col = cell_value[new_pair].astype(np.float64, copy=False), cell_col[new_pair]
    # The level 0: before the first non-negative level of its column.
    zero_col = np.flatnonzero(~zero_one & (zeros != 0).any(axis=0))
    first = column_bounds(pair_col, p)  # (each column's first level)
    start, negative = first[zero_col], np.concatenate([[0], np.cumsum(pair_value < 0)])
    at = start + negative[first[zero_col + 1]] - negative[start]
    # Each stored level's row once the zeros are in (``np.insert``'s places: the k-th zero level
    # goes to ``at[k] + k``). The class counts of the stored levels are kept by their non-empty
    # cells: a tf-idf or hashed block's levels are nearly its entries, each in a class or two, and a
    # dense levels x slots table of them was most of its profile's time and memory. The cells come
    # sorted by (column, value, class slot): in (level, slot) order.
    row_of_pair = np.arange(len(pair_value)) + np.cumsum(np.bincount(at, minlength=len(pair_value) + 1))[:-1]
    cells = (row_of_pair[pair], cell_slot, cell_rows)
    # The levels 0 are the columns' zeros per class slot, a block the profile has already.
    zero_block = (at + np.arange(len(zero_col)), zeros[:, zero_col])
    pair_value = np.insert(pair_value, at, 0.0)
    pair_col = np.insert(pair_col, at, zero_col)
    return _packed(pair_value, pair_col, cells, slots, zero_one, integral, p, zero_block)


def _levels_with_stored_zeros(values, cols, row_class, zeros, zero_one, integral, p: int, slots: int):
    """:func:`_levels` when some stored entries are 0: every entry and each (class, column)'s zeros sorted at once."""
    keep = ~np.isnan(values) & ~zero_one[cols]
    zero_class, zero_col = np.nonzero(zeros * ~zero_one[None, :])
    v = np.concatenate([values[keep], np.zeros(len(zero_col))])
    c = np.concatenate([cols[keep].astype(np.int64), zero_col])
    k = np.concatenate([row_class[keep].astype(np.int64), zero_class])
    weight = np.concatenate([np.ones(int(keep.sum())), zeros[zero_class, zero_col].astype(np.float64)])
    order = _by_column_then_value(c, v)
    v, c, k, weight = v[order], c[order], k[order], weight[order]
    new_pair = np.ones(len(v), dtype=bool)
    new_pair[1:] = (c[1:] != c[:-1]) | (v[1:] != v[:-1])
    pair = np.cumsum(new_pair) - 1
    pair_value, pair_col = v[new_pair], c[new_pair]
    table = np.rint(np.bincount(pair * slots + k, weights=weight, minlength=len(pair_value) * slots))
    table = table.astype(np.int64).reshape(len(pair_value), slots)
    level, slot = np.nonzero(table)
    return _packed(pair_value, pair_col, (level, slot, table[level, slot]), slots, zero_one, integral, p)


def _packed(pair_value, pair_col, cells: tuple, slots: int, zero_one, integral, p: int, zero_block=(None, None)):
    """The levels as :class:`PackedLevels` (up to the cap), and the sketches of integral columns past it.

    ``cells`` are the levels' non-empty class cells by level then slot, but for the levels
    ``zero_block[0]``, whose class counts are the columns of ``zero_block[1]``.
    """
    bounds = column_bounds(pair_col, p)
    sizes = np.diff(bounds)
    sketches: list = [None] * p
    for j in np.flatnonzero(~zero_one & (sizes > DISTINCT_CAP) & integral).tolist():
        sketches[j] = smallest(value_hashes(pair_value[int(bounds[j]) : int(bounds[j + 1])]))
    # (each column's Levels object is made when asked for: a vocabulary is tens of thousands of them)
    known = ~zero_one & (sizes <= DISTINCT_CAP)
    return PackedLevels(pair_value, cells, slots, bounds, known, *zero_block), sketches


def _by_column_then_value(c: np.ndarray, v: np.ndarray, whole: bool | None = None) -> np.ndarray:
    """The order sorting entries by column, then value: ``np.lexsort((v, c))``.

    Whole values (counts) within a span that fits are sorted as one integer key,
    ``c * span + (v - min)``, about four times faster than the two-key sort (the same
    order: both sorts are stable). ``whole``: the values are known to be whole (else looked at).
    """
    if len(v) and (whole or np.all(np.mod(v, 1) == 0)):
        low, high = float(v.min()), float(v.max())
        span = high - low + 1
        if span * (int(c.max()) + 1) < 2.0**62:
            key = c.astype(np.int64) * np.int64(span) + (v - low).astype(np.int64)
            return np.argsort(key, kind="stable")
    return np.lexsort((v, c))


def _sorted_cells(
    c: np.ndarray, v: np.ndarray, k: np.ndarray, slots: int, whole: bool | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The distinct (column ``c``, value ``v``, class slot ``k``) of the entries, sorted by column, then value,
    then class slot, and the entries of each: ``(columns, values, slots, entries)``.

    The levels' non-empty class cells, in (level, slot) order. Whole values (counts) whose span fits
    are packed with their column and class slot into one integer, ``c << (V + K) | (v - min) << K | k``,
    sorted as values (not arg-sorted); the runs of one key are the cells, unpacked with shifts and
    masks (five times faster than a three-key sort and three gathers). Other values are packed by their
    rank among the distinct values (``-0.0`` and ``0.0`` are one: the caller keeps zeros out). ``whole``:
    the values are known to be whole. Integers past float64's exact ones are read as floats, as the dense path reads them.
    """
    if not len(v):
        return c, v, k, np.zeros(0, dtype=np.int64)
    slot_bits = (slots - 1).bit_length()
    slot_mask = np.int64((1 << slot_bits) - 1)
    integers = v.dtype.kind in "iu"
    if whole or integers or np.all(np.mod(v, 1) == 0):
        low, high = v.min(), v.max()
        if integers and not (-EXACT_INTEGERS <= low and high <= EXACT_INTEGERS):
            v, low, high = v.astype(np.float64), float(low), float(high)  # (neighbours past 2^53 are one float)
        value_bits = int(high - low).bit_length()
        if int(c.max()).bit_length() + value_bits + slot_bits <= 62:
            shift = np.int64(value_bits + slot_bits)
            offset = (v - low).astype(np.int64, copy=False)
            key = (c.astype(np.int64, copy=False) << shift) | (offset << np.int64(slot_bits)) | k
            key.sort()
            cell, entries = _runs(key)
            offset = (cell >> np.int64(slot_bits)) & np.int64((1 << value_bits) - 1)
            return cell >> shift, offset.astype(v.dtype, copy=False) + low, cell & slot_mask, entries
    # Other values (tf-idf weights) are packed by their rank among the distinct values: one sort
    # of the values and one of the integer keys, several times faster than a sort by two keys.
    distinct, rank = np.unique(v, return_inverse=True)
    rank_bits = (len(distinct) - 1).bit_length()
    if int(c.max()).bit_length() + rank_bits + slot_bits <= 62:
        shift = np.int64(rank_bits + slot_bits)
        key = (c.astype(np.int64) << shift) | (rank.astype(np.int64).ravel() << np.int64(slot_bits)) | k
        key.sort()
        cell, entries = _runs(key)
        rank = (cell >> np.int64(slot_bits)) & np.int64((1 << rank_bits) - 1)
        return cell >> shift, distinct[rank], cell & slot_mask, entries
    order = np.lexsort((k, v, c))
    c, v, k = c[order], v[order], k[order]
    new = np.ones(len(v), dtype=bool)
    new[1:] = (c[1:] != c[:-1]) | (v[1:] != v[:-1]) | (k[1:] != k[:-1])
    starts = np.flatnonzero(new)
    return c[starts], v[starts], k[starts], np.diff(np.append(starts, len(v)))


def _runs(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of a sorted array, and how many times each occurs."""
    new = np.ones(len(key), dtype=bool)
    new[1:] = key[1:] != key[:-1]
    starts = np.flatnonzero(new)
    return key[starts], np.diff(np.append(starts, len(key)))


def _fingerprints(values, indptr, rows, offset: int) -> np.ndarray:
    """Per column (CSC ``indptr``), ``sum over stored entries of h(value, row) - h(0, row)`` (uint64, wrapping).

    ``values``: floats, or the block's own integers (hashed as their floats, through a table of their span);
    ``rows``: each entry's row in the block, whose first row is the table's row ``offset``.
    """
    # (every NaN alike; integers hold none)
    value_hash = whole_hashes(values) if values.dtype.kind in "iu" else float_hashes(values)
    zero = mix64(np.zeros(1, dtype=np.uint64))[0]
    # The row terms once per row of the block, not once per entry (a document has hundreds of words).
    first = int(rows.min()) if len(rows) else 0
    row_weight = row_weights(np.arange(offset + first, offset + (int(rows.max()) + 1 if len(rows) else first)))
    at = rows - first if first else rows
    weight = row_weight[at]
    with np.errstate(over="ignore"):
        terms = mix64(value_hash ^ weight, in_place=True) - mix64(zero ^ row_weight)[at]
    return segment_sums(terms, indptr)  # (each column's sum: entries come column by column)
