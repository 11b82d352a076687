"""One-line messages for every way a CSV file can fail to read (pyarrow's errors explained)."""

from __future__ import annotations

import codecs
import csv
import gzip
import zlib

from nblint.core.errors import InputError, first_line
from nblint.readers.chunks import Restart


class CsvErrors:
    """Turn pyarrow's CSV errors into one-line :class:`InputError` s (or a restart)."""

    def __init__(self, source):
        self.source = source

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        import pyarrow as pa

        if exc is None or isinstance(exc, (StopIteration, GeneratorExit, InputError, Restart)):
            return False
        s = self.source
        if isinstance(exc, pa.ArrowInvalid):
            message = str(exc)
            if s._widen(message):
                raise Restart(message) from None
            if s.compression and (
                "gzip" in message.lower() or "compress" in message.lower() or "zlib" in message.lower()
            ):
                raise InputError(f"not a readable gzip file ({first_line(exc)})") from None
            raise InputError(
                explain_csv_error(message, s.file, s.delimiter, s.encoding, s.compression is not None)
            ) from None
        if isinstance(exc, (OSError, EOFError, zlib.error)):
            what = f"{s.compression} file" if s.compression else "file"
            raise InputError(f"not a readable {what} ({first_line(exc)})") from None
        if isinstance(exc, (UnicodeDecodeError, ValueError)):
            raise InputError(f"cannot decode as {s.encoding}: {first_line(exc)}") from None
        return False


def codec_name(encoding: str) -> str:
    """pyarrow's name for an encoding (``utf8``), checking that Python knows it."""
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r}") from None
    return "utf8" if encoding.lower().replace("_", "-") in ("utf-8", "utf8") else encoding


def check_utf8(batch, encoding: str, rows_before: int = 0) -> None:
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


def explain_csv_error(message: str, path: str, delimiter: str, encoding: str, gz: bool = False) -> str:
    if "Empty CSV file" in message:
        return "file is empty"
    if "Expected" in message and "columns" in message:
        located = locate_ragged_row(path, delimiter, encoding, gz)
        if located:
            row, got, expected = located
            return f"ragged rows: data row {row} has {got} fields, the header has {expected}"
        return "ragged rows: " + message.split(":", 1)[-1].strip()
    if "UTF8" in message or "UTF-8" in message:
        return f"bytes not valid in {encoding}; pass --encoding (for example --encoding latin-1)"
    return first_line(message)


def locate_ragged_row(path: str, delimiter: str, encoding: str, gz: bool = False):
    """Find the first data row whose field count differs from the header's (error path only, streamed)."""
    opener = gzip.open if gz else open
    with opener(path, "rt", encoding=encoding, errors="replace", newline="") as handle:
        reader = csv.reader(handle, delimiter=delimiter)
        try:
            header = next(reader, None)
            if header is None:
                return None
            for row_number, fields in enumerate(reader, start=1):
                if fields and len(fields) != len(header):
                    return row_number, len(fields), len(header)
        except csv.Error:  # (a field past the csv module's size limit: no row number then)
            return None
    return None
