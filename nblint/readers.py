"""Read tables into a :class:`TableSource` that yields fixed-size column chunks.

Every input (CSV, TSV, gzip-compressed CSV, Parquet, stdin, a pandas DataFrame)
is turned into the same two column representations, so the profile code sees
only:

* ``numeric``: float64 values with NaN for missing (integers and booleans are
  cast; ``integer_dtype`` remembers that they were whole numbers by type);
* ``text``: int64 codes into a list of string labels, -1 for missing.

Files are opened read-only and never written.  Nothing is executed or
unpickled: CSV is parsed by pyarrow's CSV reader and Parquet by pyarrow.
"""

from __future__ import annotations

import csv
import gzip
import io
import os
import sys
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from nblint.errors import InputError

#: Largest number of cells (rows x columns) in one chunk.  8M float64 cells is
#: 64 MiB: large enough for efficient matrix products, small enough to bound memory.
CHUNK_CELLS = 1 << 23
#: Rows per chunk are clamped to this range whatever the width of the table.
MIN_CHUNK_ROWS, MAX_CHUNK_ROWS = 1024, 1 << 17

TABLE_SUFFIXES = (".csv", ".tsv", ".tab", ".csv.gz", ".tsv.gz", ".parquet", ".pq")


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

    def column(self, name: str) -> ColumnData:
        return self.columns[self.names.index(name)]


def chunk_rows_for(n_columns: int) -> int:
    """Rows per chunk for a table of ``n_columns`` columns (deterministic)."""
    rows = CHUNK_CELLS // max(n_columns, 1)
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

    def __init__(self, path: str, names: Sequence[str], n_rows: int, chunk_rows: int | None = None):
        self.path = path
        self.names = tuple(names)
        self.n_rows = int(n_rows)
        self.chunk_rows = int(chunk_rows or chunk_rows_for(len(self.names)))
        duplicated = sorted({n for n in self.names if self.names.count(n) > 1})
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

    kind = array.type
    if pa.types.is_dictionary(kind):
        array = array.cast(kind.value_type)
        kind = kind.value_type
    if pa.types.is_null(kind):
        return ColumnData("numeric", np.full(len(array), np.nan))
    if pa.types.is_integer(kind) or pa.types.is_boolean(kind):
        if array.null_count:
            missing = array.is_null().to_numpy(zero_copy_only=False)
            values = pc.fill_null(array, 0).to_numpy(zero_copy_only=False)
            return ColumnData("numeric", values, None, True, missing)
        return ColumnData("numeric", array.to_numpy(zero_copy_only=False), None, True)
    if pa.types.is_floating(kind) or pa.types.is_decimal(kind):
        values = array.cast(pa.float64()).to_numpy(zero_copy_only=False)
        return ColumnData("numeric", _finite_or_nan(values))
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    encoded = pc.dictionary_encode(array)
    codes = pc.fill_null(encoded.indices, -1).to_numpy(zero_copy_only=False).astype(np.int64)
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


def read_table(path: str, *, encoding: str = "utf-8", stdin=None) -> TableSource:
    """Read a CSV/TSV/gzip CSV/Parquet file (or ``-`` for CSV on stdin).

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
        return ArrowSource(path, _read_parquet(path))
    if path == "-":
        data = (stdin or sys.stdin.buffer).read()
        if not data:
            raise InputError("no data on standard input")
        raw = data
    else:
        raw = None
    delimiter = "\t" if lower.endswith((".tsv", ".tab", ".tsv.gz", ".tab.gz")) else ","
    table = _read_csv(path, raw, delimiter, encoding)
    return ArrowSource(path, table)


def _read_parquet(path: str):
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except (pa.ArrowException, OSError) as exc:
        raise InputError(f"not a readable Parquet file ({_first_line(exc)})") from None
    if table.num_rows == 0:
        raise InputError("no data rows")
    return table


def _read_csv(path: str, raw: bytes | None, delimiter: str, encoding: str):
    import pyarrow as pa
    import pyarrow.csv as pacsv

    try:
        codec = "utf8" if encoding.lower().replace("_", "-") in ("utf-8", "utf8") else encoding
        "".encode(encoding)
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r}") from None
    gz = path.lower().endswith(".gz")
    # pyarrow reads the file itself (multi-threaded, and it undoes gzip by the suffix).
    source = io.BytesIO(raw) if raw is not None else path
    try:
        table = pacsv.read_csv(
            source,
            read_options=pacsv.ReadOptions(encoding=codec),
            parse_options=pacsv.ParseOptions(delimiter=delimiter),
        )
    except pa.ArrowInvalid as exc:
        message = str(exc)
        if gz and ("gzip" in message.lower() or "compress" in message.lower() or "zlib" in message.lower()):
            raise InputError(f"not a readable gzip file ({_first_line(exc)})") from None
        raise InputError(_explain_csv_error(message, path, raw, delimiter, encoding)) from None
    except (OSError, EOFError, zlib.error) as exc:
        what = "gzip file" if gz else "file"
        raise InputError(f"not a readable {what} ({_first_line(exc)})") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"cannot decode as {encoding}: {_first_line(exc)}") from None
    if table.num_rows == 0:
        raise InputError("no data rows (header only)")
    _check_utf8(table, encoding)
    return table


def _check_utf8(table, encoding: str) -> None:
    """pyarrow keeps undecodable bytes as a binary column; make that an error."""
    import pyarrow as pa

    for name, column in zip(table.column_names, table.columns):
        if pa.types.is_binary(column.type) or pa.types.is_large_binary(column.type):
            for row, value in enumerate(column.to_pylist(), start=1):
                if value is None:
                    continue
                try:
                    value.decode("utf-8")
                except UnicodeDecodeError:
                    raise InputError(
                        f"bytes not valid in {encoding} in column {name!r} at data row {row}; "
                        "pass --encoding (for example --encoding latin-1)"
                    ) from None


def _explain_csv_error(message: str, path: str, raw: bytes | None, delimiter: str, encoding: str) -> str:
    if "Empty CSV file" in message:
        return "file is empty"
    if "Expected" in message and "columns" in message:
        located = _locate_ragged_row(path, raw, delimiter, encoding)
        if located:
            row, got, expected = located
            return f"ragged rows: data row {row} has {got} fields, the header has {expected}"
        return "ragged rows: " + message.split(":", 1)[-1].strip()
    if "UTF8" in message or "UTF-8" in message:
        return f"bytes not valid in {encoding}; pass --encoding (for example --encoding latin-1)"
    return _first_line(message)


def _locate_ragged_row(path: str, raw: bytes | None, delimiter: str, encoding: str):
    """Find the first data row whose field count differs from the header's (error path only)."""
    if raw is None:
        opener = gzip.open if path.lower().endswith(".gz") else open
        with opener(path, "rb") as handle:
            raw = handle.read()
    reader = csv.reader(io.StringIO(raw.decode(encoding, "replace")), delimiter=delimiter)
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
