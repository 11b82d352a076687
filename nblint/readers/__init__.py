"""Read tables into a :class:`TableSource` that yields fixed-size column chunks.

Every input (CSV, TSV, gzip-compressed CSV, Parquet, stdin, a pandas DataFrame)
becomes the same chunks of two column representations, so the profile code sees
one kind of input.  Files are streamed, never loaded whole, and every pass over a
table reads the file again; standard input is spooled to a temporary file first,
so that it too can be read more than once.  Files are opened read-only and never
written.  Nothing is executed or unpickled: CSV is parsed by pyarrow's CSV
reader and Parquet by pyarrow.

The package, one idea a module:

* :mod:`~nblint.readers.chunks`: the chunk model (:class:`Chunk`, :class:`ColumnData`),
  the :class:`TableSource` interface and its restart protocol (:meth:`TableSource.settled_pass`),
  and the :class:`~nblint.readers.chunks.Backend` an engine implements (where the passes run);
* :mod:`~nblint.readers.conversions`: pyarrow arrays and pandas Series to :class:`ColumnData`;
* :mod:`~nblint.readers.sources`: in-memory sources and the streamed-file base class;
* :mod:`~nblint.readers.formats`: the one suffix-to-format helper (:func:`table_format`);
* :mod:`~nblint.readers.csvfile`, ``csvblocks``, ``csvtypes``, ``csverrors``: the CSV engine;
* :mod:`~nblint.readers.parquet`: Parquet by row groups;
* :mod:`~nblint.readers.files`: opening a path (or standard input) by its format;
* :mod:`~nblint.readers.memory`: tables in memory (pandas, polars, Arrow, numpy, scipy.sparse, dicts).
"""

from typing import TYPE_CHECKING

from nblint.core.lazy import lazy_exports
from nblint.readers.chunks import Chunk, ColumnData, Names, Restart, TableSource, chunk_rows_for, name_mask
from nblint.readers.conversions import arrow_column_data, series_column_data

if TYPE_CHECKING:
    from nblint.readers.csvfile import CsvSource
    from nblint.readers.files import read_table, spool_stdin
    from nblint.readers.formats import TABLE_SUFFIXES, TableFormat, is_table_path, table_format
    from nblint.readers.parquet import ParquetSource
    from nblint.readers.sources import ArrowSource, DataFrameSource, StreamSource, regroup

#: Names of the file readers, imported on first use: a DataFrame, an Arrow table or a sparse
#: matrix never needs the CSV engine, the workbook, Arrow IPC or Parquet readers (13 modules),
#: and a numpy or scipy.sparse matrix neither the file formats nor the frame and stream sources.
__getattr__ = lazy_exports(
    __name__,
    {
        "ArrowSource": "nblint.readers.sources",
        "DataFrameSource": "nblint.readers.sources",
        "StreamSource": "nblint.readers.sources",
        "regroup": "nblint.readers.sources",
        "TABLE_SUFFIXES": "nblint.readers.formats",
        "TableFormat": "nblint.readers.formats",
        "is_table_path": "nblint.readers.formats",
        "table_format": "nblint.readers.formats",
        "CsvSource": "nblint.readers.csvfile",
        "ParquetSource": "nblint.readers.parquet",
        "read_table": "nblint.readers.files",
        "spool_stdin": "nblint.readers.files",
    },
)


__all__ = [
    "ArrowSource",
    "Chunk",
    "ColumnData",
    "CsvSource",
    "DataFrameSource",
    "Names",
    "ParquetSource",
    "Restart",
    "StreamSource",
    "TABLE_SUFFIXES",
    "TableFormat",
    "TableSource",
    "arrow_column_data",
    "chunk_rows_for",
    "is_table_path",
    "name_mask",
    "read_table",
    "regroup",
    "series_column_data",
    "spool_stdin",
    "table_format",
]
