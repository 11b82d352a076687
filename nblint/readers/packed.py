"""A wide CSV's small-integer columns packed as the positions of their non-zero cells.

A bag of words read from a CSV is thousands of int8 columns, nearly all 0. Carried
as one Arrow array per column, every step costs per column: regrouping parsed blocks
into chunks, spilling them, converting them to numpy (measured on the 10,000 x 20,025
bench table: 14.8 s, 4.2 s and 9.9 s of a 44 s run). Packed, a parsed block's int8
columns become three list columns, one entry per row: the positions (among the packed
columns) of the row's non-zero cells, their values, and the positions of its missing
cells. The packed table goes through the same regrouping and spill as any table, at
the cost of a handful of columns.

A packed chunk unpacks either to the same :class:`~nblint.readers.chunks.ColumnData`
the columns would have given unpacked (:func:`unpack_columns`), or, for the profile,
with its complete 0/1 columns as one sparse row block (:func:`unpack_chunk`), which
:mod:`nblint.profile.sparse` profiles to the same statistics as
the dense columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from nblint.readers.chunks import Chunk, ColumnData
from nblint.readers.sparse import SparseBlock

#: More int8 columns than this are packed. The profile keeps a table's 0/1 columns as
#: a sparse block past :data:`nblint.profile.gram.WIDE_BINARY` (4,096) of them; below,
#: it would densify them again, and the columns are cheap enough one at a time.
PACK_COLUMNS = 4096
#: Names of the three list columns of a packed table (always its last three: found by position).
NONZERO, VALUES, MISSING = "\x00nblint:nonzero", "\x00nblint:values", "\x00nblint:missing"


@dataclass(frozen=True)
class Packing:
    """Which columns of a table are packed: ``packed`` (in table order) and the others, ``rest``."""

    packed: tuple[str, ...]
    rest: tuple[str, ...]
    #: The three list columns, last in a packed table.
    LISTS = (NONZERO, VALUES, MISSING)

    def __post_init__(self):
        object.__setattr__(self, "_position", {name: j for j, name in enumerate(self.packed)})

    @classmethod
    def of(cls, types: dict, names: Sequence[str]) -> Packing | None:
        """The packing of a table of column ``types`` (name -> pyarrow type), or None: too few int8 columns."""
        import pyarrow as pa

        packed = tuple(name for name in names if types[name] == pa.int8())
        if len(packed) <= PACK_COLUMNS:
            return None
        chosen = set(packed)
        return cls(packed, tuple(name for name in names if name not in chosen))

    def position(self, name: str) -> int | None:
        """The position of ``name`` among the packed columns, or None."""
        return self._position.get(name)  # type: ignore[attr-defined]

    def positions(self, names: Sequence[str]) -> np.ndarray:
        """:meth:`position` of each of ``names`` (-1: not packed), kept for the few lists of names asked about."""
        cache = self.__dict__.setdefault("_positions", {})
        key = tuple(names)
        found = cache.get(key)
        if found is None:
            found = np.array([self._position.get(name, -1) for name in key], dtype=np.int64)  # type: ignore[attr-defined]
            if len(cache) >= 8:
                cache.clear()
            cache[key] = found
        return found.copy()

    def spilled(self, names: Sequence[str]) -> list[str]:
        """The columns of a packed table (its rest, then the three lists) that hold ``names``."""
        wanted = set(names)
        rest = [name for name in self.rest if name in wanted]
        return rest + ([NONZERO, VALUES, MISSING] if any(self.position(n) is not None for n in names) else [])

    def pack(self, table):
        """A parsed table with its packed columns replaced by the three list columns (None stays None)."""
        import pyarrow as pa

        from nblint.readers.arrow_numpy import to_numpy  # (pyarrow's own conversions import pandas)

        if table is None:
            return None
        n = table.num_rows
        part = table.select(list(self.packed)).combine_chunks()
        missing_cols: list[np.ndarray] = []
        missing_rows: list[np.ndarray] = []
        for j, column in enumerate(part.columns):
            if column.null_count:  # (rare) the missing cells are listed apart, their slots read as 0
                rows = np.flatnonzero(to_numpy(column.is_null()))
                missing_rows.append(rows)
                missing_cols.append(np.full(len(rows), j, dtype=np.int32))
                part = part.set_column(j, part.field(j), _arrow(to_numpy(column, fill=0), pa.int8()))
        if missing_rows:
            part = part.combine_chunks()
        batches = part.to_batches()
        if n and batches:
            dense = np.asarray(batches[0].to_tensor(row_major=True)) if len(batches) == 1 else None
            if dense is None:
                dense = np.vstack([np.asarray(b.to_tensor(row_major=True)) for b in batches if b.num_rows])
        else:
            dense = np.zeros((n, len(self.packed)), dtype=np.int8)
        rows, cols = np.nonzero(dense)  # in row order, each row's columns in order
        gaps = None
        if missing_rows:
            m_rows, m_cols = np.concatenate(missing_rows), np.concatenate(missing_cols)
            order = np.lexsort((m_cols, m_rows))
            gaps = _lists(m_rows[order], m_cols[order], n)
        rest = [table.column(name) for name in self.rest]
        return self._packed_table(rest, rows, cols, dense[rows, cols].astype(np.int8, copy=False), n, gaps)

    def pack_digits(self, digits: np.ndarray, types: dict):
        """:meth:`pack` of the table whose columns (every one, in order) hold ``digits`` (rows, columns).

        The values of a block read by :func:`nblint.readers.digits.single_digits`, made the
        arrays of ``types`` that pyarrow would have parsed; None when an unpacked column's
        type is not a number type (then the block is parsed).
        """
        import pyarrow as pa

        names = (*self.rest, *self.packed)
        index = {name: j for j, name in enumerate(types)}
        if len(index) != digits.shape[1] or len(names) != len(index):
            return None
        arrays = []
        for name in self.rest:
            kind = types[name]
            if not (pa.types.is_integer(kind) or pa.types.is_floating(kind)):
                return None
            arrays.append(_arrow(digits[:, index[name]].astype(kind.to_pandas_dtype()), kind))
        n = digits.shape[0]
        position = np.full(digits.shape[1], -1, dtype=np.int32)
        position[[index[name] for name in self.packed]] = np.arange(len(self.packed), dtype=np.int32)
        flat = np.flatnonzero(digits)  # in row order, each row's columns in order
        rows, cols = np.divmod(flat, digits.shape[1])
        at = position[cols]
        kept = at >= 0
        if not kept.all():
            flat, rows, at = flat[kept], rows[kept], at[kept]
        return self._packed_table(arrays, rows, at, digits.ravel()[flat].view(np.int8), n)

    def _packed_table(self, rest: list, rows: np.ndarray, cols: np.ndarray, values: np.ndarray, n: int, gaps=None):
        """The unpacked columns ``rest``, then the three list columns: each row's non-zero cells (``rows``,
        ``cols`` in row order), their int8 ``values``, and its missing cells (``gaps``; none by default)."""
        import pyarrow as pa

        nonzero = _lists(rows, cols, n)
        filled = pa.ListArray.from_arrays(nonzero.offsets, _arrow(values, pa.int8()))
        if gaps is None:
            gaps = _lists(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32), n)
        return pa.table([*rest, nonzero, filled, gaps], names=[*self.rest, NONZERO, VALUES, MISSING])

    # ------------------------------------------------------------- unpacking a chunk of rows

    def unpack_table(self, table, names: Sequence[str]):
        """A packed table as the Arrow table of ``names`` it was packed from (int8 columns, missing cells null)."""
        import pyarrow as pa

        X, gaps = self.matrix(table)
        dense = X.toarray(order="F")
        holes = gaps.tocsc()
        columns = {}
        for j, name in enumerate(self.packed):
            start, stop = holes.indptr[j], holes.indptr[j + 1]
            if stop > start:
                mask = np.zeros(table.num_rows, dtype=bool)
                mask[holes.indices[start:stop]] = True
                columns[name] = pa.array(dense[:, j], mask=mask, type=pa.int8())
            else:
                columns[name] = _arrow(dense[:, j], pa.int8())
        return pa.table([columns[n] if n in columns else table.column(n) for n in names], names=list(names))

    def matrix(self, table):
        """The packed columns of a (regrouped) packed table as a CSR int8 matrix, and the missing cells' CSR."""
        from scipy import sparse

        n = table.num_rows
        k = len(self.packed)
        arrays = [_flat_list(table.column(i)) for i in (-3, -2, -1)]
        (indptr, cols), (_, values), (gap_ptr, gap_cols) = arrays
        X = sparse.csr_matrix((values.astype(np.int8, copy=False), cols, indptr), shape=(n, k))
        gaps = sparse.csr_matrix((np.ones(len(gap_cols), dtype=bool), gap_cols, gap_ptr), shape=(n, k))
        return X, gaps


def _lists(rows: np.ndarray, values: np.ndarray, n: int):
    """A list array of ``n`` rows: row r's list holds ``values[rows == r]`` (``rows`` sorted)."""
    import pyarrow as pa

    offsets = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(np.bincount(rows, minlength=n), out=offsets[1:])
    return pa.ListArray.from_arrays(
        _arrow(offsets, pa.int32()), _arrow(values.astype(np.int32, copy=False), pa.int32())
    )


def _arrow(values: np.ndarray, kind):
    """A numpy array of numbers as an Arrow array of ``kind`` (its own dtype), no missing values.

    From the buffer: ``pyarrow.array`` of a numpy array imports pandas (a second of a check's start).
    """
    import pyarrow as pa

    values = np.ascontiguousarray(values)
    return pa.Array.from_buffers(kind, len(values), [None, pa.py_buffer(values)])


def _flat_list(column) -> tuple[np.ndarray, np.ndarray]:
    """A (chunked, possibly sliced) list column as CSR-style ``(indptr, flat values)``."""
    import pyarrow.compute as pc

    from nblint.readers.arrow_numpy import to_numpy

    array = column.combine_chunks() if hasattr(column, "combine_chunks") else column
    lengths = to_numpy(pc.list_value_length(array), fill=0).astype(np.int64)
    indptr = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=indptr[1:])
    return indptr, to_numpy(array.flatten())


def unpack_columns(packing: Packing, table, names: Sequence[str], convert, matrices=None) -> tuple[ColumnData, ...]:
    """The columns ``names`` of a packed table as :class:`ColumnData`, as they would be unpacked.

    ``convert(table, names)`` converts the unpacked (rest) columns; a packed column is
    int8 values (0 where missing) with a mask when some are missing, as
    :func:`~nblint.readers.conversions.arrow_column_data` makes an int8 column.
    ``matrices``: :meth:`Packing.matrix` of the table, when known.
    """
    positions = packing.positions(names)
    packed = np.flatnonzero(positions >= 0).tolist()
    out: list = [None] * len(names)
    if packed:
        X, gaps = matrices if matrices is not None else packing.matrix(table)
        at = positions[packed]
        out_cols = _dense(X, gaps, at)
        for k, col in zip(packed, out_cols):
            out[k] = col
    rest = [name for k, name in enumerate(names) if out[k] is None]
    if rest:
        converted = iter(convert(table, rest))
        out = [col if col is not None else next(converted) for col in out]
    return tuple(out)


def _dense(X, gaps, at: np.ndarray) -> list[ColumnData]:
    """Packed columns ``at`` of a chunk as dense int8 :class:`ColumnData` (a missing mask where some are missing)."""
    block = X[:, at].toarray(order="F") if len(at) else np.zeros((X.shape[0], 0), dtype=np.int8)
    holes = gaps[:, at].tocsc() if gaps.nnz else None
    columns = []
    for j in range(len(at)):
        missing = None
        if holes is not None and holes.indptr[j + 1] > holes.indptr[j]:
            missing = np.zeros(X.shape[0], dtype=bool)
            missing[holes.indices[holes.indptr[j] : holes.indptr[j + 1]]] = True
        columns.append(ColumnData("numeric", block[:, j], None, True, missing))
    return columns


def unpack_chunk(packing: Packing, table, names: Sequence[str], row_offset: int, convert, dense=()) -> Chunk:
    """A chunk of ``names`` whose complete 0/1 packed columns (but ``dense``) come as a sparse block.

    A packed column that is missing somewhere in these rows, or holds a value other than
    0 and 1 here, is an ordinary column of the chunk, as are the unpacked ones.
    """
    X, gaps = packing.matrix(table)
    at = packing.positions(names)
    other = np.zeros(len(packing.packed), dtype=bool)
    other[X.indices[X.data != 1]] = True
    other[gaps.indices] = True
    other[[j for j in (packing.position(name) for name in dense) if j is not None]] = True
    in_block = at >= 0
    in_block[in_block] = ~other[at[in_block]]
    if not in_block.any():
        return Chunk(
            tuple(names), unpack_columns(packing, table, names, convert, (X, gaps)), row_offset, table.num_rows
        )
    block_at = at[in_block]
    dense_names = tuple(np.asarray(names, dtype=object)[~in_block].tolist())
    columns = unpack_columns(packing, table, dense_names, convert, (X, gaps))
    B = X[:, block_at]
    B.sort_indices()
    block_names = tuple(np.asarray(names, dtype=object)[in_block].tolist())
    block = SparseBlock(block_names, B, True, np.ones(len(block_at), dtype=bool), table_columns=True)
    return Chunk(dense_names, columns, row_offset, table.num_rows, sparse=block)
