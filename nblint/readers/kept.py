"""The first pass's chunks kept in memory, so later passes neither parse the CSV again nor read a spill back.

A CSV's later passes (NB401's rows, a verification) read the rows the first pass
parsed.  When those rows' values are expected to fit :func:`keep_limit`, the first
pass's chunks themselves are kept: a later pass takes their columns as they are,
numpy arrays already, with no spill written, read back and converted to numpy
again.  On the 1,000,000 x 65 bench table that took 0.4 s of CPU of about 7 (the
spill's write 0.12 s; NB401's read of it, regrouped and converted, 0.30 s, now
0.04 s); its kept columns take little (0/1 columns as bits, small integers in
one byte: 44 MB) where its spill took 128 MB of disk.  A table whose values are expected
past the limit spills (:mod:`nblint.readers.spill`) as before, so memory stays
bounded whatever the number of rows; one that outgrows the estimate drops what it
kept, and its later passes parse the file again, as after a dropped spill.  (The
rows as Arrow tables, :meth:`~nblint.readers.csvfile.CsvSource.arrow_tables`, are
parsed again.)

The chunks are those the first pass made, so a later pass sees exactly the
columns, chunk boundaries and values a spill's read would have given it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from nblint.readers.chunks import Chunk, ColumnData, Names

#: Bytes of values kept in memory at most (the spill's bound for being written uncompressed).
KEEP_BYTES = 1 << 28
#: ... and at most this share of the memory budget (``NBLINT_MEMORY_BUDGET``, else the machine's share).
BUDGET_SHARE = 0.125


def keep_limit(bound: int = KEEP_BYTES, budget: int | None = None) -> int:
    """The bytes of values a table's kept chunks may take: ``bound``, within a share of the memory budget.

    ``budget`` is the run's (``memory-budget`` in the configuration, :attr:`TableSource.memory_budget`);
    None: ``NBLINT_MEMORY_BUDGET``, else the machine's share.
    """
    from nblint.core.resources import MemoryBudget

    memory = budget if budget is not None else MemoryBudget.default().memory
    return min(bound, int(BUDGET_SHARE * memory))


def expected_bytes(first, text_bytes: int, text_per_row: float | None) -> float | None:
    """The values' bytes of the whole file, from its first parsed table (None: no estimate).

    ``first``'s bytes of values per row times the file's rows, ``text_bytes`` over
    ``text_per_row`` (bytes of text per row of the first parsed block).  Compressed
    text and UTF-16/32 text give no estimate of the rows.
    """
    if text_per_row is None or not first.num_rows:
        return None
    return first.nbytes / first.num_rows * text_bytes / text_per_row


def keeper(
    first,
    text_bytes: int,
    text_per_row: float | None,
    bound: int = KEEP_BYTES,
    budget: int | None = None,
    packed: object = None,
) -> KeptChunks | None:
    """What keeps a full pass's chunks when the values of the file whose first parsed table is ``first``
    are expected within :func:`keep_limit` of ``budget`` (see :func:`expected_bytes`), else None.

    None too for a pass that packs its 0/1 columns (``packed``, its packing): it spills instead.
    """
    if packed is not None:
        return None
    expected = expected_bytes(first, text_bytes, text_per_row)
    limit = keep_limit(bound, budget)
    # The estimate is the first block's: the chunks are let go only past twice the limit.
    return KeptChunks(2 * limit) if expected is not None and expected <= limit else None


@dataclass(frozen=True)
class KeptColumn:
    """One column of one kept chunk, in as few bytes as give it back exactly.

    Whole numbers all 0 or 1 (most cells of a one-hot table) are kept as bits, other
    whole numbers in the narrowest integer type that holds them, the rest as they are;
    :meth:`column` restores the values' own type.
    """

    data: ColumnData  # ``values`` as stored
    dtype: np.dtype  # the values' own type
    n: int
    bits: bool = False

    @classmethod
    def of(cls, column: ColumnData) -> KeptColumn:
        values = column.values
        n, dtype = len(values), values.dtype
        if column.kind == "numeric" and dtype.kind in "iub" and n:
            low, high = int(values.min()), int(values.max())
            if 0 <= low and high <= 1:
                return cls(column._replace(values=np.packbits(values.astype(bool, copy=False))), dtype, n, True)
            narrow = np.result_type(np.min_scalar_type(low), np.min_scalar_type(high))
            if narrow.itemsize < dtype.itemsize:
                return cls(column._replace(values=values.astype(narrow)), dtype, n)
        # An array of its own (a view would hold the whole parsed block), read-only: every pass reads it.
        own = values if values.base is None else values.copy()
        own.flags.writeable = False
        return cls(column._replace(values=own), dtype, n)

    @property
    def nbytes(self) -> int:
        """The bytes kept: the values, the missing mask, the text labels."""
        data = self.data
        size = data.values.nbytes + (data.missing.nbytes if data.missing is not None else 0)
        return size + (sum(len(label) for label in data.labels) if data.labels else 0)

    def column(self) -> ColumnData:
        """The column as the first pass read it (the same values and type)."""
        values = self.data.values
        if self.bits:
            values = np.unpackbits(values, count=self.n)
            values = values.view(self.dtype) if self.dtype.itemsize == 1 else values.astype(self.dtype)
        elif values.dtype != self.dtype:
            values = values.astype(self.dtype)
        else:
            return self.data
        return self.data._replace(values=values)


class KeptChunks:
    """The chunks of one full pass, kept while their bytes stay within ``limit``.

    Attributes
    ----------
    dropped : bool
        The chunks outgrew ``limit`` and were let go.
    """

    def __init__(self, limit: int):
        self.limit = limit
        #: Each kept chunk: its columns' positions by name, its first row, its rows, its columns.
        self.chunks: list[tuple[dict, int, int, tuple[KeptColumn, ...]]] = []
        self.nbytes = 0
        self.n_rows = 0
        self.dropped = False
        #: Rows handed on by the pass under way (for progress).
        self.read_rows = 0

    def add(self, chunk: Chunk) -> None:
        """Keep ``chunk`` (one with no sparse block: a packed table spills instead)."""
        if self.dropped:
            return
        if chunk.sparse is not None:  # (a packed table spills instead)
            self.dropped, self.chunks = True, []
            return
        columns = tuple(KeptColumn.of(column) for column in chunk.columns)
        self.nbytes += sum(column.nbytes for column in columns)
        if self.nbytes > self.limit:
            self.dropped, self.chunks = True, []
            return
        # (not the chunk itself: its columns are views that would hold every parsed block)
        self.chunks.append((Names(chunk.names).positions(), chunk.row_offset, chunk.n_rows, columns))
        self.n_rows += chunk.n_rows

    def progress(self, size_bytes: int) -> int:
        """The bytes of a file of ``size_bytes`` the pass under way stands for (the share of its rows handed on)."""
        return size_bytes * self.read_rows // max(self.n_rows, 1)

    def read(self, names: Sequence[str]) -> Iterator[Chunk]:
        """The kept chunks with the columns ``names`` only, in that order."""
        names = Names(names)  # (one look-up table for every chunk)
        self.read_rows = 0
        for position, row_offset, n_rows, columns in self.chunks:
            yield Chunk(names, tuple(columns[position[name]].column() for name in names), row_offset, n_rows)
            self.read_rows += n_rows


def kept_pass(source, kept: KeptChunks, columns: Sequence[str] | None) -> Iterator[Chunk]:
    """A later pass of ``source`` (a :class:`~nblint.readers.sources.StreamSource`) over its kept chunks.

    Counted and reported as a pass over the file is (``source.passes``, its progress).
    """
    names = tuple(columns) if columns is not None else source.names
    source.passes += 1
    pass_number = source.passes
    for chunk in kept.read(names):
        yield chunk
        source._report(pass_number, kept.read_rows)
    source._report(pass_number, kept.read_rows)
