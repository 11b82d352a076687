"""One-line messages for every way a CSV file can fail to read (pyarrow's errors explained)."""

from __future__ import annotations

import codecs
import csv
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
            if "UTF8" in message or "UTF-8" in message:
                raise InputError(_bad_bytes_message(s)) from None
            raise InputError(explain_csv_error(message, s._stream, s.delimiter, s.encoding)) from None
        if isinstance(exc, (OSError, EOFError, zlib.error)):
            what = f"{s.compression} file" if s.compression else "file"
            raise InputError(f"not a readable {what} ({first_line(exc)})") from None
        if isinstance(exc, (UnicodeDecodeError, ValueError)):
            raise InputError(f"cannot decode as {s.encoding}: {first_line(exc)}") from None
        return False


def codec_name(encoding: str) -> str:
    """pyarrow's name for an encoding (``utf8``), checking that Python knows it as a text encoding.

    ``hex``, ``rot13``, ``base64``... are codecs too, but between bytes and bytes or text and
    text: no CSV is read through them.
    """
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r}") from None
    if not getattr(info, "_is_text_encoding", True):
        raise InputError(f"{encoding!r} is not a text encoding (a text encoding is, for example, utf-8 or latin-1)")
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


def explain_csv_error(message: str, open_stream, delimiter: str, encoding: str) -> str:
    """A one-line message for pyarrow's CSV error ``message``; ``open_stream()`` gives the text's bytes again."""
    if "Empty CSV file" in message:
        return "file is empty"
    if "Expected" in message and "columns" in message:
        located = locate_ragged_row(open_stream, delimiter, encoding)
        if located:
            row, got, expected = located
            return f"ragged rows: data row {row} has {got} fields, the header has {expected}"
        return "ragged rows: " + message.split(":", 1)[-1].strip()
    if "UTF8" in message or "UTF-8" in message:
        return f"bytes not valid in {encoding}; pass --encoding (for example --encoding latin-1)"
    return first_line(message)


def _lines(open_stream, encoding: str, errors: str = "replace"):
    """The text's lines (line ends kept), decoded as read: bounded memory, any compression."""
    decoder = codecs.getincrementaldecoder(encoding)(errors=errors)
    pending = ""
    with open_stream() as stream:
        while True:
            piece = stream.read_buffer(1 << 20).to_pybytes()
            text = pending + decoder.decode(piece, final=not piece)
            lines = text.splitlines(keepends=True)
            pending = lines.pop() if lines and piece else ""
            yield from lines
            if not piece:
                if pending:
                    yield pending
                return


def locate_ragged_row(open_stream, delimiter: str, encoding: str):
    """Find the first data row whose field count differs from the header's (error path only, streamed)."""
    from nblint.readers.csvheader import large_fields

    reader = csv.reader(_lines(open_stream, encoding), delimiter=delimiter)
    try:
        with large_fields():
            header = next(reader, None)
            if header is None:
                return None
            for row_number, fields in enumerate(reader, start=1):
                if fields and len(fields) != len(header):
                    return row_number, len(fields), len(header)
    except csv.Error:  # (a field past the record limit: no row number then)
        return None
    return None


def _bad_bytes_message(source) -> str:
    """Where the first byte not valid in the source's encoding is: its data row and column (error path only)."""
    where = ""
    try:
        located = locate_bad_bytes(source._stream, source.encoding, source.delimiter, source.names)
    except Exception:  # (the error message must come out whatever the file holds)
        located = None
    if located is not None:
        row, column = located
        where = f" in column {column!r} at data row {row}" if column is not None else f" at data row {row}"
    return f"bytes not valid in {source.encoding}{where}; pass --encoding (for example --encoding latin-1)"


def locate_bad_bytes(open_stream, encoding: str, delimiter: str, names) -> tuple[int, str | None] | None:
    """(data row, column name) of the first undecodable byte, counting lines (streamed, bounded memory)."""
    decoder = codecs.getincrementaldecoder(encoding)(errors="strict")
    lines_before, line_start = 0, b""
    with open_stream() as stream:
        while True:
            piece = stream.read_buffer(1 << 20).to_pybytes()
            try:
                decoder.decode(piece, final=not piece)
            except UnicodeDecodeError as exc:
                head = line_start + piece[: exc.start]
                line = lines_before + head.count(b"\n")
                current = head[head.rfind(b"\n") + 1 :]
                field = current.count(delimiter.encode(encoding, "replace"))  # (quoted delimiters aside)
                return line, (names[field] if field < len(names) else None)
            if not piece:
                return None
            lines_before += piece.count(b"\n")
            line_start = (line_start + piece)[(line_start + piece).rfind(b"\n") + 1 :]
