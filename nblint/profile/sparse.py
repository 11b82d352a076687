"""Sparse matrices (``scipy.sparse``, a document-term matrix) profiled without densifying them.

A :class:`SparseSource` hands the profile row blocks of the matrix as they are
(a CSR :class:`SparseBlock` on the chunk, the target as an ordinary column), and
:func:`profile_block` computes from the stored entries alone the same statistics
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
of more than :data:`MOMENT_COLUMNS` columns they are not gathered for its non-0/1
columns (a 50,000-word count matrix would need 20 GB), and NB106 says so.

Second passes (candidate checks, NB401's scores) ask for a few columns by name;
those come as ordinary dense columns, a chunk of rows at a time.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from nblint.core.hashing import mix64
from nblint.profile.gram import WIDE_BINARY, Gram, sparsest_rows
from nblint.profile.incidence import Incidence
from nblint.profile.levels import DISTINCT_CAP, Levels, smallest, value_hashes
from nblint.profile.numeric import NumericStats
from nblint.profile.target import encode_target
from nblint.readers import Chunk, ColumnData, TableSource, chunk_rows_for

#: Stored entries in one row block of the profile pass (about 100 MB of work arrays;
#: ``jobs + 1`` blocks are in flight).
CHUNK_ENTRIES = 1 << 21
#: Sparse blocks wider than this keep no co-moments for their non-0/1 columns (VIF).
MOMENT_COLUMNS = 4096
#: Weight of row r in the fingerprints: a pseudo-random 64-bit number.
_ROW_SALT = np.uint64(0x9E3779B97F4A7C15)


@dataclass(frozen=True)
class SparseBlock:
    """Rows ``[row_offset, row_offset + n)`` of the sparse feature columns, as CSR.

    ``matrix`` has sorted indices and no stored zeros; ``integer_dtype`` says the
    matrix holds integers (or booleans) by type; ``binary`` marks the columns that
    hold only 0 and 1 in the whole matrix (not just in these rows).
    """

    names: tuple[str, ...]
    matrix: object  # scipy.sparse.csr_matrix (n, p)
    integer_dtype: bool
    binary: np.ndarray  # (p,) bool


class SparseSource(TableSource):
    """A ``scipy.sparse`` matrix of features, and optionally the class of each row.

    Parameters
    ----------
    matrix : scipy.sparse matrix or array (n, p)
    names : sequence of str
        The p feature names.
    target : str, optional
        Name of the class column.
    y : ColumnData, optional
        The classes, one per row (with ``target``).
    path : str
        Display name in findings.
    """

    def __init__(
        self,
        matrix,
        names: Sequence[str],
        target: str | None = None,
        y: ColumnData | None = None,
        path: str = "<array>",
    ):
        from scipy import sparse

        csr = sparse.csr_matrix(matrix)  # shares the caller's arrays when it is CSR already
        if csr.dtype.kind not in "biuf":
            raise TypeError(f"a sparse matrix of {csr.dtype} values cannot be linted (expected numbers or booleans)")
        if not csr.has_canonical_format or not np.all(csr.data):
            csr = csr.copy()  # never change the caller's matrix
            csr.sum_duplicates()
            csr.eliminate_zeros()
        self.matrix = csr
        # Columns with a stored value other than 1 (NaN included) are not 0/1 anywhere: one
        # pass over the entries, so that no row block counts co-occurrences for them.
        other = (csr.data != 1) & (csr.data != 0)
        self.binary = np.bincount(csr.indices[other], minlength=csr.shape[1]) == 0
        self.features = tuple(names)
        self.y = y
        self.target = target
        super().__init__(path, self.features + ((target,) if target is not None else ()), csr.shape[0])
        entries_per_row = max(csr.nnz / max(csr.shape[0], 1), 1.0)
        self.block_rows = int(max(256, min(1 << 20, CHUNK_ENTRIES // entries_per_row)))

    @property
    def limits(self) -> list[str]:
        """What the profile of this source leaves out (reported by NB106)."""
        if len(self.features) <= MOMENT_COLUMNS:
            return []
        return [
            f"sparse input of {len(self.features)} columns (more than {MOMENT_COLUMNS}): VIF (NB104) is not "
            "computed for its columns that are not 0/1, whose dense co-moment matrix would need "
            f"{8 * len(self.features) ** 2 / 2**30:.1f} GiB"
        ]

    def chunks(self, columns: Sequence[str] | None = None) -> Iterator[Chunk]:
        if columns is None:  # the profile pass: row blocks as they are
            yield from self._blocks()
            return
        names = tuple(columns)
        wanted = [self.names.index(n) for n in names if n != self.target]  # (features come first in names)
        position = {self.features[j]: k for k, j in enumerate(wanted)}
        rows = chunk_rows_for(len(names))
        for offset in range(0, self.n_rows, rows):
            length = min(rows, self.n_rows - offset)
            dense = self.matrix[offset : offset + length][:, wanted].toarray() if wanted else None
            yield Chunk(
                names,
                tuple(
                    self._target_slice(offset, length)
                    if n == self.target
                    else self._dense_column(dense[:, position[n]])
                    for n in names
                ),
                offset,
                length,
            )

    def _blocks(self) -> Iterator[Chunk]:
        dense_names = (self.target,) if self.target is not None else ()
        for offset in range(0, self.n_rows, self.block_rows):
            length = min(self.block_rows, self.n_rows - offset)
            columns = (self._target_slice(offset, length),) if self.target is not None else ()
            block = SparseBlock(
                self.features, self.matrix[offset : offset + length], self.matrix.dtype.kind in "biu", self.binary
            )
            yield Chunk(dense_names, columns, offset, length, sparse=block)

    def _target_slice(self, offset: int, length: int) -> ColumnData:
        return slice_column(self.y, offset, length)

    def _dense_column(self, values: np.ndarray) -> ColumnData:
        if self.matrix.dtype.kind in "biu":
            return ColumnData("numeric", values, None, True)
        values = values.astype(np.float64)
        values[np.isinf(values)] = np.nan
        return ColumnData("numeric", values)


def slice_column(col: ColumnData, offset: int, length: int) -> ColumnData:
    """Rows ``[offset, offset + length)`` of a whole column."""
    end = offset + length
    missing = None if col.missing is None else col.missing[offset:end]
    return ColumnData(col.kind, col.values[offset:end], col.labels, col.integer_dtype, missing)


# --------------------------------------------------------------------------- the profile of a block


def in_name_order(chunk: Chunk) -> Chunk:
    """The chunk with its sparse block's columns sorted by name, as the dense path profiles them."""
    block = chunk.sparse
    order = sorted(range(len(block.names)), key=block.names.__getitem__)
    if order == list(range(len(order))):
        return chunk
    sorted_block = SparseBlock(
        tuple(block.names[i] for i in order),
        block.matrix[:, order],
        block.integer_dtype,
        np.asarray(block.binary)[order],
    )
    return Chunk(chunk.names, chunk.columns, chunk.row_offset, chunk.n_rows, sparse=sorted_block)


def profile_block(cls, chunk: Chunk, target: str | None, wide_binary: int | None):
    """The :class:`~nblint.profile.table.TableProfile` of one chunk carrying a sparse block."""
    block = chunk.sparse
    X = block.matrix
    n, p = X.shape
    classes, y, class_count, target_missing = encode_target(chunk, target)
    slots = len(classes) + 1
    csc = X.tocsc()
    csc.sort_indices()
    values = csc.data.astype(np.float64)
    values[np.isinf(values)] = np.nan  # infinities are missing, as in the dense path
    cols = np.repeat(np.arange(p), np.diff(csc.indptr))
    rows = csc.indices.astype(np.int64)
    row_class = y[rows]
    missing = np.isnan(values)

    def per_class(weights, mask=None) -> np.ndarray:
        """``sum over entries of weights``, per (class slot, column): (slots, p)."""
        index = cols * slots + row_class
        if mask is not None:
            index, weights = index[mask], (weights[mask] if weights is not None else None)
        return np.bincount(index, weights=weights, minlength=p * slots).reshape(p, slots).T

    slot_rows = np.bincount(y, minlength=slots).astype(np.int64)
    nan_count = per_class(None, missing).astype(np.int64)
    class_n = slot_rows[:, None] - nan_count
    n_missing = nan_count.sum(axis=0)
    present = ~missing
    stored = per_class(None, present).astype(np.int64)  # present nonzero entries
    clean = np.where(present, values, 0.0)
    class_sum = per_class(clean)
    with np.errstate(invalid="ignore", divide="ignore"):
        class_mean = np.where(class_n > 0, class_sum / np.maximum(class_n, 1), 0.0)
    deviation = np.where(present, values - class_mean[row_class, cols], 0.0)
    zeros = class_n - stored
    class_m2 = per_class(deviation * deviation) + zeros * class_mean**2

    minimum, maximum = _column_extremes(values, csc.indptr, n)
    whole = present & (values == np.floor(np.where(present, values, 0.0)))
    integral = np.bincount(cols[present & ~whole], minlength=p) == 0
    zero_one = integral & ~(minimum < 0) & ~(maximum > 1)
    # For 0/1 values x^2 = x: the dense path's exact form of M2 (so both paths agree to the bit).
    with np.errstate(invalid="ignore", divide="ignore"):
        class_m2[:, zero_one] = np.maximum(
            class_sum[:, zero_one] - class_sum[:, zero_one] ** 2 / np.maximum(class_n[:, zero_one], 1), 0.0
        )
    levels, sketches = _levels(values, cols, row_class, zeros, zero_one, integral, p, slots)
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
        _fingerprints(values, cols, rows + chunk.row_offset, p),
    )
    gram = _gram(
        X,
        block.names,
        n_missing == 0,
        zero_one & block.binary,
        chunk.row_offset,
        WIDE_BINARY if wide_binary is None else wide_binary,
    )
    names = tuple(block.names) + tuple(chunk.names)
    kinds = dict.fromkeys(block.names, "numeric")
    return cls(names, target, n, classes, class_count, target_missing, numeric, {}, gram, kinds)


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


def _levels(values, cols, row_class, zeros, zero_one, integral, p: int, slots: int):
    """Contingency tables of the columns that are not 0/1: stored values, plus the level 0.

    One sort for the whole matrix: the stored entries, and for each (class, column) with
    zeros one entry of value 0 weighing that many rows, are sorted by (column, value); the
    runs of equal pairs are the levels, their class counts one weighted bincount.
    """

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
    bounds = np.searchsorted(pair_col, np.arange(p + 1))
    levels: list = [None] * p
    sketches: list = [None] * p
    for j in np.flatnonzero(~zero_one).tolist():
        start, stop = int(bounds[j]), int(bounds[j + 1])
        if stop - start > DISTINCT_CAP:
            sketches[j] = smallest(value_hashes(pair_value[start:stop])) if integral[j] else None
        else:
            levels[j] = Levels(tuple(pair_value[start:stop].tolist()), table[start:stop])
    return levels, sketches


def _by_column_then_value(c: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The order sorting entries by column, then value: ``np.lexsort((v, c))``.

    Whole values (counts) within a span that fits are sorted as one integer key,
    ``c * span + (v - min)``, about four times faster than the two-key sort.
    """
    if len(v) and np.all(np.mod(v, 1) == 0):
        low, high = float(v.min()), float(v.max())
        span = high - low + 1
        if span * (int(c.max()) + 1) < 2.0**62:
            key = c.astype(np.int64) * np.int64(span) + (v - low).astype(np.int64)
            return np.argsort(key, kind="stable")
    return np.lexsort((v, c))


def _fingerprints(values, cols, rows, p: int) -> np.ndarray:
    """Per column, ``sum over stored entries of h(value, row) - h(0, row)`` (uint64, wrapping)."""
    weight = mix64(rows.astype(np.uint64) + _ROW_SALT)
    bits = values.view(np.uint64).copy()
    bits[np.isnan(values)] = np.uint64(0x7FF8000000000001)  # one canonical NaN
    zero = mix64(np.zeros(1, dtype=np.uint64))[0]
    with np.errstate(over="ignore"):
        terms = mix64(mix64(bits) ^ weight) - mix64(zero ^ weight)
    out = np.zeros(p, dtype=np.uint64)
    np.add.at(out, cols, terms)
    return out


def _gram(X, names, complete: np.ndarray, zero_one: np.ndarray, row_offset: int, wide_binary: int):
    """:func:`nblint.profile.gram.chunk_gram` from sparse columns (never densified).

    ``zero_one`` marks the columns that are 0/1 in the whole matrix: a column that is
    0/1 in these rows only takes the co-moments, as it does once the dense path has
    merged its blocks, and a word counted twice somewhere never fills the co-occurrences.
    """
    from scipy import sparse

    n = X.shape[0]
    b_idx = np.flatnonzero(complete & zero_one)
    z_idx = np.flatnonzero(complete & ~zero_one) if X.shape[1] <= MOMENT_COLUMNS else np.zeros(0, dtype=np.int64)
    wide = len(b_idx) > wide_binary
    B = X[:, b_idx].tocsr()
    B.sort_indices()
    B = sparse.csr_matrix((np.ones(B.nnz, dtype=np.int64), B.indices, B.indptr), shape=B.shape)
    binary = tuple(names[i] for i in b_idx)
    Z = X[:, z_idx].astype(np.float64)
    z_mean = np.asarray(Z.sum(axis=0)).ravel() / max(n, 1)
    zz = (Z.T @ Z).toarray() - n * np.outer(z_mean, z_mean)
    if wide:  # the incidence, not O = B^T B: a bag of words' pairs of words are hundreds of millions
        return Gram(
            tuple(names[i] for i in z_idx), n, z_mean, zz, binary, Incidence(B), True, sparsest_rows(B, row_offset)
        )
    O = (B.T.tocsr() @ B).tocsr()
    ones = np.asarray(O.diagonal(), dtype=np.float64)
    q_idx = np.sort(np.concatenate([b_idx, z_idx]))
    b_mask = zero_one[q_idx]
    bpos, zpos = np.flatnonzero(b_mask), np.flatnonzero(~b_mask)
    mean = np.empty(len(q_idx))
    mean[bpos], mean[zpos] = ones / max(n, 1), z_mean
    moments = np.empty((len(q_idx), len(z_idx)))
    moments[zpos] = zz
    if len(b_idx):
        moments[bpos] = (B.T @ Z).toarray() - np.outer(ones, z_mean)
    return Gram(tuple(names[i] for i in q_idx), n, mean, moments, binary, np.triu(O.toarray()).astype(np.int64))
