"""Opening a table file (or standard input) by its format."""

from __future__ import annotations

import sys
import tempfile
import weakref

from nblint.core.errors import InputError
from nblint.core.fileguard import regular_file
from nblint.core.resources import disk_budget
from nblint.core.tempfiles import owned_prefix
from nblint.readers.chunks import TableSource
from nblint.readers.csvblocks import MAX_RECORD_BYTES
from nblint.readers.csverrors import codec_name
from nblint.readers.csvfile import CsvSource
from nblint.readers.excel import is_excel_path, spool_sheet
from nblint.readers.formats import TableFormat, table_format
from nblint.readers.ipc import read_arrow_file
from nblint.readers.magic import sniff
from nblint.readers.parquet import ParquetSource

#: Suffixes of JSON Lines (one JSON record per line), refused rather than read as CSV.
JSON_LINES = (".jsonl", ".ndjson", ".jsonl.gz", ".ndjson.gz")
#: Suffixes of OpenDocument spreadsheets, refused by name rather than read as CSV.
OPEN_DOCUMENT = (".ods", ".fods")


def read_table(path: str, *, encoding: str = "utf-8", stdin=None, sheet: str | None = None) -> TableSource:
    """Open a CSV/TSV/gzip CSV/Parquet file (or ``-`` for CSV on stdin) for streaming.

    The header (or Parquet schema) is read now; rows are read on each pass.  An
    Excel workbook is read as the CSV export of its first sheet, or of ``sheet``
    (:mod:`nblint.readers.excel`).

    Raises
    ------
    InputError
        With a one-line message for every way the file can be unreadable.
    """
    if path != "-" and regular_file(path, "table").st_size == 0:
        raise InputError("file is empty")
    if is_excel_path(path):
        spool = spool_sheet(path, sheet)
        source = CsvSource(spool.name, ",", "utf-8", display=path, keep=spool)
        source.missing_column_note = spool.sheet_note  # a missing column: maybe the sheet is not the data
        source.limits = spool.limits  # (cells outside the header's columns, left out)
        return source
    if path.lower().endswith(OPEN_DOCUMENT):
        raise InputError(
            "an OpenDocument spreadsheet: nblint reads CSV, TSV, Parquet, Arrow and Excel (.xlsx, .xls) files; "
            "export the sheet to CSV"
        )
    if path.lower().endswith(JSON_LINES):  # (not a CSV with one column of JSON text)
        raise InputError(
            "JSON Lines is not a table format nblint reads: convert it to CSV or Parquet "
            "(pandas.read_json(path, lines=True).to_parquet(...))"
        )
    form = table_format(path) or TableFormat("csv")  # any other name is read as CSV
    if form.kind == "parquet":
        return ParquetSource(path)
    if path != "-":
        kind = sniff(path).kind  # the bytes decide: a Parquet or Arrow file under another name is still read
        if kind == "arrow":
            return read_arrow_file(path)
        if kind == "parquet" and form.kind == "arrow":
            return ParquetSource(path)
    codec_name(encoding)
    if path == "-":
        spool = spool_stdin(stdin or sys.stdin.buffer)
        return CsvSource(spool.name, form.delimiter, encoding, display="-", keep=spool)
    return CsvSource(path, form.delimiter, encoding)


def spool_stdin(stream, limit: int | None = None) -> tempfile._TemporaryFileWrapper:
    """Copy standard input to a temporary file (deleted with the returned object), at most ``limit`` bytes.

    The copy stops, and the input is refused, past the disk budget
    (:func:`nblint.core.resources.disk_budget`), or when its first
    :data:`~nblint.readers.csvblocks.MAX_RECORD_BYTES` hold no line end (``/dev/zero``).
    """
    limit = disk_budget() if limit is None else limit
    try:
        spool = tempfile.NamedTemporaryFile(prefix=owned_prefix("stdin"), suffix=".csv")
    except OSError as exc:  # (no writable temporary folder at all: TMPDIR, /tmp, /var/tmp, . all refused)
        raise InputError(
            f"cannot copy standard input to a temporary file ({exc.strerror or exc}): set TMPDIR to a writable folder"
        ) from None
    weakref.finalize(spool, spool.close)
    copied, line_end = 0, False
    while True:
        piece = stream.read(1 << 20)
        if not piece:
            break
        copied += len(piece)
        line_end = line_end or b"\n" in piece
        if not line_end and copied > MAX_RECORD_BYTES:
            spool.close()
            raise InputError(
                f"the first line is longer than {MAX_RECORD_BYTES >> 20} MiB with no line end: not a CSV table"
            )
        if copied > limit:
            spool.close()
            raise InputError(
                f"standard input is larger than the {limit:,} bytes nblint may copy to the temporary "
                "folder (NBLINT_DISK_BUDGET); pass the file instead"
            )
        try:
            spool.write(piece)
        except OSError as exc:
            spool.close()
            raise InputError(f"cannot copy standard input to a temporary file: {exc.strerror or exc}") from None
    spool.flush()
    if copied == 0:
        raise InputError("no data on standard input")
    return spool
