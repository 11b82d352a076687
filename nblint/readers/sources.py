"""Table sources: in memory (a pyarrow Table, a pandas DataFrame) and streamed from a file.

A streamed source reads its file again on every pass and regroups the reader's
record batches, of whatever size, into chunks of exactly ``chunk_rows`` rows, so
memory is bounded by a few chunks whatever the number of rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from nblint.readers.chunks import Chunk, Restart, TableSource
from nblint.readers.conversions import (
    arrow_column_data,
    nested_arrow_type,
    nested_values,
    numeric_array_column_data,
    series_column_data,
    table_column_data,
)

R = TypeVar("R")


class ArrowSource(TableSource):
    """A table held as a :class:`pyarrow.Table` (read from CSV or Parquet)."""

    def __init__(self, path: str, table, chunk_rows: int | None = None):
        self.table = table
        self.skipped = {
            f.name: f"nested values ({nested_arrow_type(f.type)})" for f in table.schema if nested_arrow_type(f.type)
        }
        super().__init__(path, [n for n in table.column_names if n not in self.skipped], table.num_rows, chunk_rows)

    def _column(self, name, offset, length):
        return arrow_column_data(self.table.column(self.names.index(name)).slice(offset, length))


class DataFrameSource(TableSource):
    """A pandas DataFrame given through the Python API, or a part of a table (a Dask partition).

    Parameters
    ----------
    row_offset : int
        The table row of the frame's first row: chunks are numbered from it, so a part
        of a table (a Dask partition) names its rows as the whole table does.
    """

    def __init__(self, frame, path: str = "<dataframe>", chunk_rows: int | None = None, row_offset: int = 0):
        self.frame = frame
        self.row_offset = row_offset
        names = [str(c) for c in frame.columns]
        nested = {
            i: nested_values(frame.iloc[:, i]) if dtype == object else None  # noqa: E721 (numpy dtypes compare by ==)
            for i, dtype in enumerate(frame.dtypes)
        }
        self.skipped = {names[i]: f"nested values ({kind}s)" for i, kind in nested.items() if kind}
        self._positions = [i for i in range(len(names)) if not nested[i]]  # column positions in the frame
        # Columns of numbers (integers, booleans, reals): their chunks are cut from the column's array
        # (its ``.array``, taken once: a view of the frame's values, not a copy).
        from pandas.api.types import is_numeric_dtype

        self._numeric = [dtype != object and is_numeric_dtype(dtype) for dtype in frame.dtypes]  # noqa: E721
        self._arrays: dict[int, Any] = {}  # (pandas arrays)
        super().__init__(path, [names[i] for i in self._positions], len(frame), chunk_rows)

    @classmethod
    def part(cls, frame, row_offset: int, chunk_rows: int) -> DataFrameSource:
        """Rows of a larger table (a Dask partition) whose first is the table's row ``row_offset``."""
        return cls(frame.reset_index(drop=True), "<partition>", chunk_rows, row_offset=row_offset)

    def row_labels(self, positions: Sequence[int]) -> list | None:
        """The frame's index labels at these positions; None for the default 0, 1, 2, ... index."""
        import numpy as np

        index = self.frame.index
        if index.dtype.kind in "iu" and np.array_equal(np.asarray(index), np.arange(len(index))):
            return None
        return [label.item() if hasattr(label, "item") else label for label in index[list(positions)]]

    def _column(self, name, offset, length):
        position = self._positions[self.names.index(name)]
        if self._numeric[position]:  # (a slice of the column's array: no Series made per chunk)
            if position not in self._arrays:
                self._arrays[position] = self.frame.iloc[:, position].array
            numbers = numeric_array_column_data(self._arrays[position][offset : offset + length])
            if numbers is not None:
                return numbers
        return series_column_data(self.frame.iloc[offset : offset + length, position])


class StreamSource(TableSource):
    """A table on disk, read again from the file on every pass.

    Subclasses yield pyarrow record batches of any size (:meth:`_batches`);
    this class regroups them into chunks of exactly ``chunk_rows`` rows (the
    last one shorter), so the chunk boundaries are those of the in-memory
    path whatever the reader's block size.  Memory is bounded by a few chunks,
    whatever the number of rows.

    Attributes
    ----------
    size_bytes : int
        Bytes of the file on disk (compressed bytes for gzip), for progress.
    on_progress : callable or None
        Called after every chunk as ``on_progress(pass_number, bytes_read, rows_read)``.
    passes : int
        Passes started so far (1 for the profile, more for verifications and impact).
    """

    size_bytes: int = 0

    def __init__(self, path: str, names: Sequence[str], n_rows: int | None, chunk_rows: int | None = None):
        super().__init__(path, names, n_rows or 0, chunk_rows)  # (0 until a first pass has counted them: CSV)
        self.on_progress: Callable[[int, int, int], None] | None = None
        self.passes = 0
        #: Whether every column's type is known for the whole table (see :meth:`settled_pass`).
        self.settled = True

    def chunks(self, columns: Sequence[str] | None = None) -> Iterator[Chunk]:
        if not self.settled:  # types not known yet: settle them with a full pass first
            self.settled_pass(_drain)
        return self._pass(columns)

    def settled_pass(self, consume: Callable[[Iterator[Chunk]], R], sparse_except: Sequence[str] | None = None) -> R:
        while True:  # each restart widened a type, and types only widen: this ends
            try:
                return consume(self._pass(None, sparse_except))
            except Restart:
                continue

    def _pass(self, columns: Sequence[str] | None, sparse_except: Sequence[str] | None = None) -> Iterator[Chunk]:
        """One pass over the rows; it raises :class:`Restart` where the source must widen a type."""
        names = tuple(columns) if columns is not None else self.names
        self.passes += 1
        pass_number = self.passes
        rows = 0
        for table in self._tables(names):
            yield self._chunk(table, names, rows, sparse_except)
            rows += table.num_rows
            self._report(pass_number, rows)
        self._report(pass_number, rows)
        if columns is None:
            self.n_rows = rows

    def _chunk(self, table, names: tuple[str, ...], row_offset: int, sparse_except: Sequence[str] | None) -> Chunk:
        """The chunk of a pyarrow table of rows (``sparse_except``: see :meth:`settled_pass`)."""
        return Chunk(names, table_column_data(table, names), row_offset, table.num_rows)

    def _tables(self, names: tuple[str, ...]) -> Iterator:
        """The rows as pyarrow tables of exactly ``chunk_rows`` rows (the last one shorter)."""
        yield from regroup(self._batches(names), self.chunk_rows)

    def _report(self, pass_number: int, rows: int) -> None:
        if self.on_progress is not None:
            self.on_progress(pass_number, self._bytes_read(), rows)

    def _batches(self, names: tuple[str, ...]) -> Iterator:  # pragma: no cover
        raise NotImplementedError

    def _bytes_read(self) -> int:
        return 0


def regroup(batches, chunk_rows: int) -> Iterator:
    """Regroup record batches of any sizes into tables of ``chunk_rows`` rows (the last one shorter)."""
    import pyarrow as pa

    pending: list = []
    pending_rows = 0
    for batch in batches:
        pending.append(batch)
        pending_rows += batch.num_rows
        while pending_rows >= chunk_rows:
            table = pa.Table.from_batches(pending)
            yield table.slice(0, chunk_rows)
            rest = table.slice(chunk_rows)
            pending, pending_rows = rest.to_batches(), rest.num_rows
    if pending_rows:
        yield pa.Table.from_batches(pending)


def _drain(chunks: Iterator[Chunk]) -> None:
    for _ in chunks:
        pass
