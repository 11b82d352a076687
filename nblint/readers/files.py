"""Opening a table file (or standard input) by its format."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import weakref

from nblint.errors import InputError
from nblint.readers.chunks import TableSource
from nblint.readers.csverrors import codec_name
from nblint.readers.csvfile import CsvSource
from nblint.readers.formats import TableFormat, table_format
from nblint.readers.parquet import ParquetSource


def read_table(path: str, *, encoding: str = "utf-8", stdin=None) -> TableSource:
    """Open a CSV/TSV/gzip CSV/Parquet file (or ``-`` for CSV on stdin) for streaming.

    The header (or Parquet schema) is read now; rows are read on each pass.

    Raises
    ------
    InputError
        With a one-line message for every way the file can be unreadable.
    """
    if path != "-":
        if not os.path.exists(path):
            raise InputError("file not found")
        if os.path.isdir(path):
            raise InputError("is a directory, not a table")
        if os.path.getsize(path) == 0:
            raise InputError("file is empty")
    form = table_format(path) or TableFormat("csv")  # any other name is read as CSV
    if form.kind == "parquet":
        return ParquetSource(path)
    codec_name(encoding)
    if path == "-":
        spool = spool_stdin(stdin or sys.stdin.buffer)
        return CsvSource(spool.name, form.delimiter, encoding, display="-", keep=spool)
    return CsvSource(path, form.delimiter, encoding)


def spool_stdin(stream) -> "tempfile._TemporaryFileWrapper":
    """Copy standard input to a temporary file (deleted with the returned object)."""
    spool = tempfile.NamedTemporaryFile(prefix="nblint-stdin-", suffix=".csv")
    weakref.finalize(spool, spool.close)
    shutil.copyfileobj(stream, spool, 1 << 20)
    spool.flush()
    if spool.tell() == 0:
        raise InputError("no data on standard input")
    return spool
