"""Read tables into a :class:`TableSource` that yields fixed-size column chunks.

Every input (CSV, TSV, gzip-compressed CSV, Parquet, stdin, a pandas DataFrame)
is turned into the same two column representations, so the profile code sees
only:

* ``numeric``: float64 values with NaN for missing (integers and booleans are
  cast; ``integer_dtype`` remembers that they were whole numbers by type);
* ``text``: int64 codes into a list of string labels, -1 for missing.

Files are streamed, never loaded whole: CSV/TSV/gzip CSV through pyarrow's
streaming CSV reader (:class:`CsvSource`), Parquet by row groups
(:class:`ParquetSource`), and every pass over the table reads the file again.
Rows are regrouped into chunks of a fixed number of rows, so the chunk
boundaries (and therefore every merged statistic) do not depend on how the
bytes happened to be split.  Standard input is spooled to a temporary file
first, so that it too can be read more than once.

Files are opened read-only and never written.  Nothing is executed or
unpickled: CSV is parsed by pyarrow's CSV reader and Parquet by pyarrow.
"""

from __future__ import annotations

import codecs
import csv
import gzip
import io
import os
import re
import shutil
import sys
import tempfile
import weakref
import zlib
from collections.abc import Callable, Iterator, Sequence
from collections import Counter, deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from nblint.errors import InputError

#: Cells (rows x columns) in one chunk of a table that is not wide.  1M float64
#: cells are 8 MiB: large enough for efficient matrix products, small enough to
#: bound memory (measured on the 1M x 65 bench table, --jobs 2: peak 269 MiB at 1M
#: cells, 321 MiB at 2M, same output).
CHUNK_CELLS = 1 << 20
#: Rows per chunk are clamped to this range whatever the width of the table (256 rows
#: of a 20,000-column table are 41 MB as float64; 1024 were 164 MB, times the chunks in flight).
MIN_CHUNK_ROWS, MAX_CHUNK_ROWS = 256, 1 << 17
#: Wide tables: rows per chunk wanted, and the cells a chunk may then take.
WIDE_CHUNK_ROWS, WIDE_CHUNK_CELLS = 4096, 1 << 23

TABLE_SUFFIXES = (".csv", ".tsv", ".tab", ".csv.gz", ".tsv.gz", ".parquet", ".pq")


class Names(tuple):
    """A tuple of column names whose ``index`` is a dictionary look-up.

    Rules and analyses look columns up by name; on a 20,000-column table a linear
    ``tuple.index`` per look-up makes every per-column loop quadratic.
    """

    def _positions(self) -> dict:
        try:
            return self.__dict__["_by_name"]
        except KeyError:
            positions = self.__dict__["_by_name"] = {}
            for i, n in enumerate(self):
                positions.setdefault(n, i)
            return positions

    def index(self, name, *args):  # noqa: D102 - tuple.index, in O(1)
        if args:
            return super().index(name, *args)
        try:
            return self._positions()[name]
        except (KeyError, TypeError):
            return super().index(name)

    def __contains__(self, name) -> bool:  # ``in``, in O(1) too
        try:
            return name in self._positions()
        except TypeError:
            return super().__contains__(name)

    def __reduce__(self):
        return (Names, (tuple(self),))


@dataclass(frozen=True)
class ColumnData:
    """One column of one chunk, in one of the two representations.

    For ``numeric`` columns ``values`` keeps the source dtype (int64, bool or
    float64) so that the profile can copy it straight into its own buffers;
    missing values are NaN (float columns) or flagged in ``missing``.
    """

    kind: str  # "numeric" or "text"
    values: np.ndarray  # int/bool/float (numeric) or int64 codes (text)
    labels: tuple[str, ...] | None = None  # text only
    integer_dtype: bool = False  # numeric stored as int/bool by its type
    missing: np.ndarray | None = None  # numeric only: boolean mask, when values cannot hold NaN

    def as_float(self) -> np.ndarray:
        """The values as float64 with NaN for missing (numeric columns)."""
        values = self.values.astype(np.float64, copy=self.missing is not None)
        if self.missing is not None:
            values[self.missing] = np.nan
        return values


@dataclass(frozen=True)
class Chunk:
    """A run of consecutive rows; ``row_offset`` is the 0-based index of its first row."""

    names: tuple[str, ...]
    columns: tuple[ColumnData, ...]
    row_offset: int
    n_rows: int
    #: Feature columns held as a sparse row block (:class:`nblint.sparse.SparseBlock`), before ``names``.
    sparse: object = None

    def __post_init__(self):
        if not isinstance(self.names, Names):
            object.__setattr__(self, "names", Names(self.names))

    def column(self, name: str) -> ColumnData:
        return self.columns[self.names.index(name)]


def chunk_rows_for(n_columns: int) -> int:
    """Rows per chunk for a table of ``n_columns`` columns (deterministic).

    ``CHUNK_CELLS`` cells, but at least ``WIDE_CHUNK_ROWS`` rows while that stays
    within ``WIDE_CHUNK_CELLS``: a chunk costs some Python work per column, which
    a 2,000-column table should pay per 4,096 rows rather than per 1,048.
    """
    columns = max(n_columns, 1)
    rows = max(CHUNK_CELLS // columns, min(WIDE_CHUNK_ROWS, WIDE_CHUNK_CELLS // columns))
    return int(min(MAX_CHUNK_ROWS, max(MIN_CHUNK_ROWS, rows)))


class TableSource:
    """A table that can be scanned, in chunks, as often as a rule needs.

    Parameters
    ----------
    path : str
        Display name used in findings (the file path, ``-`` or ``<dataframe>``).
    names : sequence of str
        Column names, in order.
    n_rows : int
    chunk_rows : int, optional
        Rows per chunk; by default :func:`chunk_rows_for` the width.
    """

    #: Threads that work at once (reading, profiling, scoring), set from ``--jobs``
    #: by the runner: with 1, nblint computes on one thread in all.
    jobs: int = 1
    #: What the profile of this source leaves out, as sentences (reported by NB106).
    limits: tuple[str, ...] = ()

    def __init__(self, path: str, names: Sequence[str], n_rows: int, chunk_rows: int | None = None):
        self.path = path
        self.names = Names(names)
        self.n_rows = int(n_rows)
        self.chunk_rows = int(chunk_rows or chunk_rows_for(len(self.names)))
        duplicated = sorted(n for n, count in Counter(self.names).items() if count > 1)
        if duplicated:
            raise InputError(f"duplicate column names: {', '.join(map(repr, duplicated))}")

    def chunks(self, columns: Sequence[str] | None = None) -> Iterator[Chunk]:
        """Yield the table in row order, restricted to ``columns`` if given."""
        names = tuple(columns) if columns is not None else self.names
        for offset in range(0, self.n_rows, self.chunk_rows):
            length = min(self.chunk_rows, self.n_rows - offset)
            yield Chunk(names, tuple(self._column(n, offset, length) for n in names), offset, length)

    def _column(self, name: str, offset: int, length: int) -> ColumnData:  # pragma: no cover
        raise NotImplementedError


class ArrowSource(TableSource):
    """A table held as a :class:`pyarrow.Table` (read from CSV or Parquet)."""

    def __init__(self, path: str, table, chunk_rows: int | None = None):
        self.table = table
        super().__init__(path, table.column_names, table.num_rows, chunk_rows)

    def _column(self, name, offset, length):
        return arrow_column_data(self.table.column(self.names.index(name)).slice(offset, length))


class DataFrameSource(TableSource):
    """A pandas DataFrame given through the Python API."""

    def __init__(self, frame, path: str = "<dataframe>", chunk_rows: int | None = None):
        self.frame = frame
        super().__init__(path, [str(c) for c in frame.columns], len(frame), chunk_rows)

    def _column(self, name, offset, length):
        series = self.frame.iloc[offset : offset + length, self.names.index(name)]
        return series_column_data(series)


# --------------------------------------------------------------------------- conversions


def arrow_column_data(array) -> ColumnData:
    """Convert a pyarrow (Chunked)Array to :class:`ColumnData`."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from nblint.arrow_numpy import to_numpy  # (pyarrow's own to_numpy imports pandas)

    kind = array.type
    if pa.types.is_dictionary(kind):
        array = array.cast(kind.value_type)
        kind = kind.value_type
    if pa.types.is_null(kind):
        return ColumnData("numeric", np.full(len(array), np.nan))
    if pa.types.is_integer(kind) or pa.types.is_boolean(kind):
        if array.null_count:
            missing = to_numpy(array.is_null())
            values = to_numpy(array, fill=0)
            return ColumnData("numeric", values, None, True, missing)
        return ColumnData("numeric", to_numpy(array), None, True)
    if pa.types.is_floating(kind) or pa.types.is_decimal(kind):
        values = to_numpy(array.cast(pa.float64()))
        return ColumnData("numeric", _finite_or_nan(values))
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    encoded = pc.dictionary_encode(array)
    codes = to_numpy(encoded.indices, fill=-1).astype(np.int64)
    labels = tuple(_label(v) for v in encoded.dictionary.to_pylist())
    return ColumnData("text", codes, labels)


def series_column_data(series) -> ColumnData:
    """Convert a pandas Series to :class:`ColumnData`."""
    import pandas as pd
    from pandas.api import types as ptypes

    dtype = series.dtype
    if ptypes.is_bool_dtype(dtype) or (ptypes.is_numeric_dtype(dtype) and not ptypes.is_complex_dtype(dtype)):
        integer = bool(ptypes.is_integer_dtype(dtype) or ptypes.is_bool_dtype(dtype))
        values = series.to_numpy(dtype=np.float64, na_value=np.nan)
        return ColumnData("numeric", _finite_or_nan(values), None, integer)
    codes, uniques = pd.factorize(series, use_na_sentinel=True)
    return ColumnData("text", np.asarray(codes, dtype=np.int64), tuple(_label(v) for v in uniques))


def _finite_or_nan(values: np.ndarray) -> np.ndarray:
    """Float values with infinities made NaN: they cannot enter counts or moments."""
    values = np.asarray(values, dtype=np.float64)
    infinite = np.isinf(values)
    if infinite.any():
        values = np.where(infinite, np.nan, values)
    return values


def _label(value) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "backslashreplace")
    return str(value)


# --------------------------------------------------------------------------- files


def is_table_path(path: str) -> bool:
    """Whether ``path`` names a table nblint reads (by suffix)."""
    return path == "-" or path.lower().endswith(TABLE_SUFFIXES)


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
        super().__init__(path, names, n_rows or 0, chunk_rows)
        self.n_rows = n_rows  # None until a first pass has counted them (CSV)
        self.on_progress: Callable[[int, int, int], None] | None = None
        self.passes = 0

    def chunks(self, columns: Sequence[str] | None = None) -> Iterator[Chunk]:
        names = tuple(columns) if columns is not None else self.names
        self.passes += 1
        pass_number = self.passes
        rows = 0
        for table in self._tables(names):
            yield Chunk(names, tuple(arrow_column_data(table.column(n)) for n in names), rows, table.num_rows)
            rows += table.num_rows
            self._report(pass_number, rows)
        self._report(pass_number, rows)
        if columns is None:
            self.n_rows = rows

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


class TypesWidened(Exception):
    """A CSV column held a value its inferred type cannot: the pass must start again.

    Raised by :meth:`CsvSource.chunks` after it has widened the column's type;
    :meth:`nblint.profile.TableProfile.from_source` restarts the profile.  The
    whole-file reader infers each column's type from every value; the streaming
    reader infers it from the first block, so a later value that does not fit
    (``1.5`` in a column of integers, ``abc`` in a column that was empty so far)
    widens that column to the type the whole-file reader would have chosen.
    """


class CsvSource(StreamSource):
    """A CSV/TSV (optionally gzip-compressed) file, streamed by :func:`pyarrow.csv.open_csv`.

    Parameters
    ----------
    path : str
        The file to read (``display`` is shown in messages instead, e.g. ``-``).
    delimiter, encoding : str
    display : str, optional
    keep : object, optional
        Kept alive with the source (the spooled copy of standard input).
    """

    #: Bytes parsed per block by the streaming reader (pyarrow's default; measured
    #: faster than 8 MiB blocks, which leave less room to overlap reading and parsing).
    BLOCK_SIZE = 1 << 20
    #: Bytes of an uncompressed UTF-8 file parsed at once by the block reader.
    PARSE_BLOCK = 1 << 22
    #: Rows a parsed block holds at least (estimated from the header's length).
    BLOCK_ROWS = 1024
    #: Keep the parsed rows of the first pass in a temporary Arrow IPC file
    #: (LZ4-compressed) so that later passes need not parse the CSV again.
    SPILL = True
    #: Rows per record batch of the spill, at least: LZ4 compresses each column's
    #: buffer of a batch apart, and short buffers (a chunk of a 2,000-column table
    #: has ~1,000 rows) cost more in per-buffer set-up than in compression (measured
    #: 8x slower to write and read at one such chunk per batch than at eight).
    SPILL_BATCH_ROWS = 8192

    def __init__(self, path: str, delimiter: str = ",", encoding: str = "utf-8", display: str | None = None,
                 chunk_rows: int | None = None, keep=None):
        self.file = path
        self.delimiter = delimiter
        self.encoding = encoding
        self.codec = _codec(encoding)
        self.gz = path.lower().endswith(".gz")
        self.size_bytes = os.path.getsize(path)
        self._keep = keep
        self._raw = None
        self._spill = None  # tempfile holding the parsed rows, once a full pass completed
        self._spill_progress = (0, 1)
        self._consumed: int | None = None  # bytes of parsed blocks handed on (block reader)
        #: Column name -> pyarrow type: fixed after a widening and after the first full pass.
        self.types: dict = {}
        display = display or path
        super().__init__(display, self._header(), None, chunk_rows)

    def _header(self) -> list[str]:
        """The column names, from the first line alone (pyarrow would parse a whole block)."""
        opener = gzip.open if self.gz else open
        encoding = "utf-8-sig" if self.codec == "utf8" else self.encoding
        try:
            with opener(self.file, "rt", encoding=encoding, newline="") as handle:
                header = next(csv.reader(handle, delimiter=self.delimiter), None)
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"not a readable {'gzip file' if self.gz else 'file'} ({_first_line(exc)})") from None
        except UnicodeDecodeError:
            raise InputError(f"bytes not valid in {self.encoding} in the header; "
                             "pass --encoding (for example --encoding latin-1)") from None
        except csv.Error as exc:
            raise InputError(f"unreadable header ({_first_line(exc)})") from None
        if not header:
            raise InputError("file is empty")
        return header

    def _open(self, names):
        import pyarrow as pa
        import pyarrow.csv as pacsv

        self._raw = pa.OSFile(self.file, "rb")
        stream = pa.CompressedInputStream(self._raw, "gzip") if self.gz else self._raw
        convert = pacsv.ConvertOptions(
            include_columns=list(names) if names is not None else None,
            column_types={k: v for k, v in self.types.items() if names is None or k in names},
        )
        with self._errors():
            return pacsv.open_csv(
                stream,
                read_options=pacsv.ReadOptions(encoding=self.codec, block_size=self.BLOCK_SIZE, use_threads=self.jobs > 1),
                parse_options=pacsv.ParseOptions(delimiter=self.delimiter),
                convert_options=convert,
            )

    def _tables(self, names):
        """Parse the CSV (first pass, spilling the parsed rows) or read the spill (later passes)."""
        import pyarrow as pa

        if self._spill is not None:
            yield from regroup(self._spilled_batches(names), self.chunk_rows)
            return
        spilling = self.SPILL and names == self.names
        if not spilling:
            yield from super()._tables(names)
            return
        spill = tempfile.NamedTemporaryFile(prefix="nblint-spill-", suffix=".arrow")
        weakref.finalize(spill, spill.close)
        writer = sink = None
        pending: list = []  # chunks not yet written: the spill's record batches hold several

        def write():
            writer.write_table(pa.concat_tables(pending).combine_chunks())
            pending.clear()

        try:
            for table in super()._tables(names):
                if writer is None:
                    # Through a native file: a Python file object would take one call per buffer.
                    sink = pa.OSFile(spill.name, "wb")
                    writer = pa.ipc.new_file(sink, table.schema, options=pa.ipc.IpcWriteOptions(compression="lz4"))
                pending.append(table)
                if sum(t.num_rows for t in pending) >= self.SPILL_BATCH_ROWS:
                    write()
                yield table
            if writer is not None:
                if pending:
                    write()
                writer.close()
                self._spill = spill
        finally:
            if sink is not None:
                sink.close()
            if self._spill is None:
                spill.close()

    def _spilled_batches(self, names):
        import pyarrow as pa

        wanted = [self.names.index(n) for n in names]
        # Plain reads, not a memory map: mapped pages would count as resident memory, growing with the rows.
        options = pa.ipc.IpcReadOptions(included_fields=sorted(wanted), use_threads=self.jobs > 1)
        reader = pa.ipc.open_file(pa.OSFile(self._spill.name), options=options)
        for i in range(reader.num_record_batches):
            self._spill_progress = (i + 1, reader.num_record_batches)
            yield reader.get_batch(i)

    def _bytes_read(self) -> int:
        if self._spill is not None:
            done, total = self._spill_progress
            return self.size_bytes * done // max(total, 1)
        if self._consumed is not None:
            return self._consumed
        try:
            return self._raw.tell() if self._raw is not None else 0
        except Exception:  # a closed file: the pass is over
            return self.size_bytes

    def _batches(self, names):
        if self.gz or self.codec != "utf8":
            return self._streamed_batches(names)
        return self._block_batches(names)

    def _block_batches(self, names):
        """Parse an uncompressed UTF-8 file in blocks cut at line ends, ``jobs`` blocks at a time.

        pyarrow's CSV reader assumes no newline inside a quoted value unless told
        otherwise (``newlines_in_values``), so a block cut just after a newline
        holds whole rows.  The first block's inferred types are fixed for the
        rest; a later value that does not fit widens its column (:class:`TypesWidened`).
        Measured faster than the streaming reader, even on one thread: each block
        is parsed and converted in one go.
        """
        import pyarrow as pa
        import pyarrow.csv as pacsv

        parse_options = pacsv.ParseOptions(delimiter=self.delimiter)
        # The names are given, so a block needs no header line of its own.
        read_options = pacsv.ReadOptions(encoding="utf8", use_threads=False, column_names=list(self.names))

        def parse(block, types: dict):
            convert = pacsv.ConvertOptions(include_columns=list(names), column_types=types)
            with self._errors():
                return pacsv.read_csv(pa.BufferReader(block), read_options=read_options,
                                      parse_options=parse_options, convert_options=convert)

        with open(self.file, "rb") as handle:
            start = len(handle.readline())
        # Wide rows: a block holds at least BLOCK_ROWS rows (taking the header's length per
        # row), so that per-column costs are paid per thousand rows at least.
        blocks = _line_blocks(self.file, start, max(self.PARSE_BLOCK, start * self.BLOCK_ROWS))
        try:
            first = next(blocks, None)
            if first is None:
                return
            table = _narrow_zero_one(parse(first, {k: v for k, v in self.types.items() if k in names}), self.types)
            types = {field.name: field.type for field in table.schema}
            rows = 0
            self._consumed = start

            def emit(table, size: int):
                nonlocal rows
                _check_utf8(table, self.encoding, rows)
                rows += table.num_rows
                self._consumed += size  # progress counts the bytes handed on, not those read ahead
                return table.to_batches()

            yield from emit(table, first.size)
            jobs = max(1, self.jobs)
            if jobs == 1:  # one thread in all: parse here, between the chunks' profiles
                for block in blocks:
                    yield from emit(parse(block, types), block.size)
            else:
                with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="nblint-parse") as pool:
                    in_flight: deque = deque()
                    try:
                        for block in blocks:
                            in_flight.append((pool.submit(parse, block, types), block.size))
                            if len(in_flight) > jobs:
                                future, size = in_flight.popleft()
                                yield from emit(future.result(), size)
                        while in_flight:
                            future, size = in_flight.popleft()
                            yield from emit(future.result(), size)
                    finally:
                        for future, _ in in_flight:
                            future.cancel()
            if names == self.names:
                self.types = types
        finally:
            blocks.close()

    def _streamed_batches(self, names):
        reader = self._open(names)
        rows = 0
        try:
            while True:
                with self._errors():
                    try:
                        batch = reader.read_next_batch()
                    except StopIteration:
                        break
                _check_utf8(batch, self.encoding, rows)
                rows += batch.num_rows
                yield batch
        finally:
            reader.close()
        if names == self.names:
            # The first full pass fixes every column's type for the passes after it.
            self.types = {field.name: field.type for field in reader.schema}

    def _errors(self):
        return _CsvErrors(self)

    def _widen(self, message: str) -> bool:
        """Widen the column named in a conversion error; False when it is not one."""
        found = _CONVERSION_ERROR.search(message)
        if not found or "UTF8" in message:
            return False
        column = self.names[int(found.group("column"))]
        wider = _wider_type(found.group("type"), found.group("value"))
        if wider is None:
            return False
        self.types[column] = wider
        return True


def _line_blocks(path: str, start: int, size: int) -> Iterator:
    """The bytes of ``path`` from offset ``start`` in blocks of about ``size`` bytes.

    Each block ends at a line end (the last at the end of the file) and is a
    pyarrow buffer read straight from the file: no copy passes through Python
    bytes objects, which would hold a block's size several times over.  The next
    block is read from where the last one was cut.
    """
    import pyarrow as pa

    with pa.OSFile(path) as handle:
        total = handle.size()
        position = start
        while position < total:
            want = size
            while True:
                handle.seek(position)
                buffer = handle.read_buffer(min(want, total - position))
                if position + buffer.size >= total:
                    cut = buffer.size
                    break
                cut = _last_newline(buffer) + 1
                if cut:
                    break
                want *= 2  # a line longer than the block: read more of it
            block = buffer.slice(0, cut)
            position += cut
            if position < total or bytes(block).strip():  # (a last block of blank space holds no row)
                yield block


def _last_newline(buffer, window: int = 1 << 16) -> int:
    """Index of the last ``\\n`` in ``buffer`` (-1: none), looking back a window at a time."""
    view = memoryview(buffer)
    end = len(view)
    while end > 0:
        begin = max(0, end - window)
        found = bytes(view[begin:end]).rfind(b"\n")
        if found >= 0:
            return begin + found
        end = begin
    return -1


class _CsvErrors:
    """Turn pyarrow's CSV errors into one-line :class:`InputError` s (or a restart)."""

    def __init__(self, source: CsvSource):
        self.source = source

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        import pyarrow as pa

        if exc is None or isinstance(exc, (StopIteration, GeneratorExit, InputError, TypesWidened)):
            return False
        s = self.source
        if isinstance(exc, pa.ArrowInvalid):
            message = str(exc)
            if s._widen(message):
                raise TypesWidened(message) from None
            if s.gz and ("gzip" in message.lower() or "compress" in message.lower() or "zlib" in message.lower()):
                raise InputError(f"not a readable gzip file ({_first_line(exc)})") from None
            raise InputError(_explain_csv_error(message, s.file, s.delimiter, s.encoding)) from None
        if isinstance(exc, (OSError, EOFError, zlib.error)):
            what = "gzip file" if s.gz else "file"
            raise InputError(f"not a readable {what} ({_first_line(exc)})") from None
        if isinstance(exc, (UnicodeDecodeError, ValueError)):
            raise InputError(f"cannot decode as {s.encoding}: {_first_line(exc)}") from None
        return False


_CONVERSION_ERROR = re.compile(r"In CSV column #(?P<column>\d+): (?:Row #\d+: )?CSV conversion error to (?P<type>[\w\[\], ]+?): invalid value '(?P<value>.*)'")


def _narrow_zero_one(table, fixed: dict):
    """``table`` with its inferred int64 columns that hold only 0 and 1 cast to int8.

    0/1 indicator columns are most of a one-hot table's cells: int8 makes every
    later step (regrouping blocks into chunks, the spill, conversion to numpy)
    move an eighth of the bytes.  The values are unchanged, and the type is fixed
    for the rest of the file like any inferred type; a later value past int8's
    range widens the column to int64 (:func:`_wider_type`) and restarts the pass.
    Columns whose type is already ``fixed`` are left alone.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    fields, columns = list(table.schema), table.columns
    for i, field in enumerate(fields):
        if field.name in fixed or field.type != pa.int64():
            continue
        bounds = pc.min_max(columns[i])
        low, high = bounds["min"].as_py(), bounds["max"].as_py()
        if low is not None and 0 <= low and high <= 1:
            fields[i], columns[i] = field.with_type(pa.int8()), columns[i].cast(pa.int8())
    return pa.Table.from_arrays(columns, schema=pa.schema(fields))


def _wider_type(current: str, value: str):
    """The narrowest of int64, float64, string holding both the column so far and ``value``."""
    import pyarrow as pa

    def fits(kind) -> bool:
        try:
            pa.array([value]).cast(kind)
            return True
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            return False

    ladder = {"null": [pa.int64(), pa.float64()], "int8": [pa.int64(), pa.float64()], "int64": [pa.float64()]}.get(current, [])
    for kind in ladder:
        if fits(kind):
            return kind
    return pa.string()


class ParquetSource(StreamSource):
    """A Parquet file, read one row group at a time."""

    def __init__(self, path: str, chunk_rows: int | None = None):
        import pyarrow as pa
        import pyarrow.parquet as pq

        self.size_bytes = os.path.getsize(path)
        try:
            self.file = pq.ParquetFile(path)
        except (pa.ArrowException, OSError) as exc:
            raise InputError(f"not a readable Parquet file ({_first_line(exc)})") from None
        if self.file.metadata.num_rows == 0:
            raise InputError("no data rows")
        self._done_groups = 0
        super().__init__(path, self.file.schema_arrow.names, self.file.metadata.num_rows, chunk_rows)

    def _batches(self, names):
        import pyarrow as pa

        metadata = self.file.metadata
        try:
            for group in range(self.file.num_row_groups):
                table = self.file.read_row_group(group, columns=list(names), use_threads=self.jobs > 1)
                self._done_groups = sum(metadata.row_group(g).total_byte_size for g in range(group + 1))
                yield from table.to_batches()
        except (pa.ArrowException, OSError) as exc:
            raise InputError(f"not a readable Parquet file ({_first_line(exc)})") from None

    def _bytes_read(self) -> int:
        total = sum(self.file.metadata.row_group(g).total_byte_size for g in range(self.file.num_row_groups))
        return int(self.size_bytes * self._done_groups / max(total, 1))


def read_table(path: str, *, encoding: str = "utf-8", stdin=None) -> TableSource:
    """Open a CSV/TSV/gzip CSV/Parquet file (or ``-`` for CSV on stdin) for streaming.

    The header (or Parquet schema) is read now; rows are read on each pass.

    Raises
    ------
    InputError
        With a one-line message for every way the file can be unreadable.
    """
    lower = path.lower()
    if path != "-":
        if not os.path.exists(path):
            raise InputError("file not found")
        if os.path.isdir(path):
            raise InputError("is a directory, not a table")
        if os.path.getsize(path) == 0:
            raise InputError("file is empty")
    if lower.endswith((".parquet", ".pq")):
        return ParquetSource(path)
    _codec(encoding)
    delimiter = "\t" if lower.endswith((".tsv", ".tab", ".tsv.gz", ".tab.gz")) else ","
    if path == "-":
        spool = spool_stdin(stdin or sys.stdin.buffer)
        return CsvSource(spool.name, delimiter, encoding, display="-", keep=spool)
    return CsvSource(path, delimiter, encoding)


def spool_stdin(stream) -> "tempfile._TemporaryFileWrapper":
    """Copy standard input to a temporary file (deleted with the returned object)."""
    spool = tempfile.NamedTemporaryFile(prefix="nblint-stdin-", suffix=".csv")
    weakref.finalize(spool, spool.close)
    shutil.copyfileobj(stream, spool, 1 << 20)
    spool.flush()
    if spool.tell() == 0:
        raise InputError("no data on standard input")
    return spool


def _codec(encoding: str) -> str:
    """pyarrow's name for an encoding (``utf8``), checking that Python knows it."""
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r}") from None
    return "utf8" if encoding.lower().replace("_", "-") in ("utf-8", "utf8") else encoding


def _check_utf8(batch, encoding: str, rows_before: int = 0) -> None:
    """pyarrow keeps undecodable bytes as a binary column; make that an error."""
    import pyarrow as pa

    for name, column in zip(batch.schema.names, batch.columns):
        if pa.types.is_binary(column.type) or pa.types.is_large_binary(column.type):
            for row, value in enumerate(column.to_pylist(), start=rows_before + 1):
                if value is None:
                    continue
                try:
                    value.decode("utf-8")
                except UnicodeDecodeError:
                    raise InputError(
                        f"bytes not valid in {encoding} in column {name!r} at data row {row}; "
                        "pass --encoding (for example --encoding latin-1)"
                    ) from None


def _explain_csv_error(message: str, path: str, delimiter: str, encoding: str) -> str:
    if "Empty CSV file" in message:
        return "file is empty"
    if "Expected" in message and "columns" in message:
        located = _locate_ragged_row(path, delimiter, encoding)
        if located:
            row, got, expected = located
            return f"ragged rows: data row {row} has {got} fields, the header has {expected}"
        return "ragged rows: " + message.split(":", 1)[-1].strip()
    if "UTF8" in message or "UTF-8" in message:
        return f"bytes not valid in {encoding}; pass --encoding (for example --encoding latin-1)"
    return _first_line(message)


def _locate_ragged_row(path: str, delimiter: str, encoding: str):
    """Find the first data row whose field count differs from the header's (error path only, streamed)."""
    opener = gzip.open if path.lower().endswith(".gz") else open
    with opener(path, "rt", encoding=encoding, errors="replace", newline="") as handle:
        reader = csv.reader(handle, delimiter=delimiter)
        header = next(reader, None)
        if header is None:
            return None
        for row_number, fields in enumerate(reader, start=1):
            if fields and len(fields) != len(header):
                return row_number, len(fields), len(header)
    return None


def _first_line(exc) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
