"""The header of a CSV file: what the file really is, its column names and its delimiter.

The header is the file's first record, which may itself hold quoted line ends;
it is read without reading past :data:`~nblint.readers.csvblocks.MAX_RECORD_BYTES`.
A file whose bytes say it is gzip-compressed or Parquet, whatever its name, is
told so.  When the delimiter the name implies (``,``, or a tab for ``.tsv``)
splits the header into one field, the few first records are tried with ``;``,
tab, ``|`` and ``,``: a delimiter that splits every one of them into the same
number of fields (two or more) is the file's.
"""

from __future__ import annotations

import csv
import io
import re
from contextlib import contextmanager
from dataclasses import dataclass

from nblint.core.errors import InputError, first_line
from nblint.readers.csvblocks import MAX_RECORD_BYTES, RecordError, first_record, record_ends

#: Delimiters tried when the expected one finds a single column, in this order.
CANDIDATE_DELIMITERS = (";", "\t", "|", ",")
#: Bytes (after the header) looked at to confirm another delimiter.
SNIFF_BYTES = 1 << 20
#: Records looked at to confirm another delimiter, at most.
SNIFF_RECORDS = 50


@dataclass(frozen=True)
class Header:
    """Column names, the header's length in bytes (of the decompressed text) and the delimiter in use."""

    names: list[str]
    length: int
    delimiter: str


def read_header(open_stream, delimiter: str, encoding: str, codec: str) -> Header:
    """Read the first record of the text ``open_stream()`` gives, and a few more if the delimiter is in doubt.

    Parameters
    ----------
    open_stream : callable
        Returns a fresh pyarrow input stream over the (decompressed) bytes.
    delimiter : str
        The delimiter the file's name implies.
    encoding, codec : str
        The text encoding, and pyarrow's name for it (``utf8`` for UTF-8).

    Raises
    ------
    InputError
    """
    blank = _blank_lines(open_stream)
    with open_stream() as stream:
        if blank:
            stream.read_buffer(blank)  # (past the blank lines)
        raw, read = first_record(stream, delimiter)
        declared = excel_sep_line(raw, encoding, codec)
        if declared is not None:  # Excel's "sep=;" line: the delimiter is said, the header is the next record
            import pyarrow as pa

            rest = pa.BufferReader(read[len(raw) :] + stream.read_buffer(MAX_RECORD_BYTES).to_pybytes())
            header, _ = first_record(rest, declared)
            names = _fields(header, declared, encoding, codec)
            if not names:
                raise InputError("file is empty")
            return Header(names, blank + len(raw) + len(header), declared)
        names = _fields(raw, delimiter, encoding, codec)
        if len(names) == 1 and names[0]:
            sample = read + stream.read_buffer(max(SNIFF_BYTES - len(read), 0)).to_pybytes()
            found = sniff_delimiter(sample, delimiter, encoding)
            if found is not None:
                delimiter = found
                names = _fields(raw, delimiter, encoding, codec)
    if not names:
        raise InputError("file is empty")
    return Header(names, blank + len(raw), delimiter)


def _blank_lines(open_stream) -> int:
    """The length of the empty lines before the header (pandas' ``read_csv`` skips them too).

    Raises
    ------
    InputError
        When the first :data:`MAX_RECORD_BYTES` are all line ends (no header to find).
    """
    blank = 0
    with open_stream() as stream:
        while True:
            piece = stream.read_buffer(1 << 16).to_pybytes()
            rest = piece.lstrip(b"\r\n")
            blank += len(piece) - len(rest)
            if rest or not piece:
                return blank
            if blank > MAX_RECORD_BYTES:
                raise InputError(f"the first {MAX_RECORD_BYTES >> 20} MiB are empty lines: no header")


def sniff_delimiter(sample: bytes, expected: str, encoding: str) -> str | None:
    """Another delimiter that splits the header and the sample's next records alike, or None.

    Only whole records count (the sample is cut at its last record end), so a
    record cut short by the sample's end does not vote.
    """
    import numpy as np

    for candidate in CANDIDATE_DELIMITERS:
        if candidate == expected:
            continue
        ends, _ = record_ends(np.frombuffer(sample, dtype=np.uint8), candidate)
        if not len(ends):
            continue
        text = sample[: int(ends[min(len(ends), SNIFF_RECORDS) - 1]) + 1].decode(encoding, "replace")
        try:
            with large_fields():
                widths = {len(row) for row in csv.reader(io.StringIO(text, newline=""), delimiter=candidate) if row}
        except csv.Error:
            continue
        if len(widths) == 1 and widths.pop() >= 2:
            return candidate
    return None


def header_error(exc: RecordError) -> InputError:
    """A record error met while reading the header."""
    return InputError(
        exc.describe(1) if exc.unterminated else exc.describe(1).replace("line 1 is", "the first line is")
    )


def excel_sep_line(raw: bytes, encoding: str, codec: str) -> str | None:
    """The delimiter an Excel ``sep=X`` first line declares, or None."""
    if len(raw) > 16 or not raw.lstrip(b"\xef\xbb\xbf").lower().startswith(b"sep="):
        return None
    match = re.fullmatch(r"\ufeff?sep=(.)\r?\n?", _decode(raw, encoding, codec), flags=re.IGNORECASE)
    return match.group(1) if match and match.group(1) not in '\r\n"' else None


@contextmanager
def large_fields():
    """Let Python's csv module read fields up to the record limit (its own is 128 KiB), then restore it."""
    previous = csv.field_size_limit()
    csv.field_size_limit(max(previous, MAX_RECORD_BYTES))
    try:
        yield
    finally:
        csv.field_size_limit(previous)


def _fields(raw: bytes, delimiter: str, encoding: str, codec: str) -> list[str]:
    try:
        with large_fields():
            return next(csv.reader(io.StringIO(_decode(raw, encoding, codec), newline=""), delimiter=delimiter), [])
    except csv.Error as exc:
        raise InputError(f"unreadable header ({first_line(exc)})") from None


def _decode(raw: bytes, encoding: str, codec: str) -> str:
    try:
        return raw.decode("utf-8-sig" if codec == "utf8" else encoding)
    except UnicodeDecodeError:
        raise InputError(
            f"bytes not valid in {encoding} in the header; pass --encoding (for example --encoding latin-1)"
        ) from None
