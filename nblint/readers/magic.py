"""What a file is, told from its first bytes (its name may say otherwise).

A table arrives as CSV text, compressed, as Parquet or Arrow, or as something
nblint does not read (an Excel workbook).  The first bytes decide: compressed
text is read through its codec, Arrow files are read as Arrow, a byte-order
mark decides the text encoding, and the rest is told in one line that says
what the file is and what to do.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from typing import IO

from nblint.core.errors import InputError

#: Compressions read as a stream of CSV text: magic bytes -> name (pyarrow's codec, or Python's module).
COMPRESSIONS = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bz2"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
)
#: Byte-order marks -> the encoding they decide (longest first: UTF-32 LE starts like UTF-16 LE).
BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32"),
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)


@dataclass(frozen=True)
class Magic:
    """``kind`` is ``"text"``, ``"parquet"`` or ``"arrow"``; ``compression`` of text; ``encoding`` a BOM decided."""

    kind: str
    compression: str | None = None
    encoding: str | None = None


def read_start(path: str, size: int = 8) -> bytes:
    """The first ``size`` bytes of ``path`` (InputError, one line, when it cannot be read)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(size)
    except OSError as exc:  # (unreadable: mode 000, a folder named *.csv...)
        raise InputError(f"cannot read the file: {exc.strerror or exc}") from None


def sniff(path: str, where: str = "the file holds") -> Magic:
    """What ``path`` holds (InputError for what nblint does not read, saying what it is and what to do)."""
    start = read_start(path)
    if start.startswith(b"PAR1"):
        return Magic("parquet")
    if start.startswith((b"ARROW1", b"FEA1", b"\xff\xff\xff\xff")):
        return Magic("arrow")
    if start.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        raise InputError(f"{where} an Excel 97-2003 workbook (.xls), not CSV text: save the sheet as CSV")
    if start.startswith(b"PK\x03\x04"):
        return _zip(path, where)
    for magic, name in COMPRESSIONS:
        if start.startswith(magic):
            return Magic("text", compression=name)
    for bom, encoding in BOMS:
        if start.startswith(bom):
            return Magic("text", encoding=encoding)
    return Magic("text")


def _zip(path: str, where: str) -> Magic:
    """A zip archive: an Excel workbook is told so; one member is read as compressed text."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if not n.endswith("/")]
    except (zipfile.BadZipFile, OSError) as exc:
        raise InputError(f"{where} a damaged zip archive ({exc})") from None
    if any(n.startswith("xl/") for n in names) or "[Content_Types].xml" in names and any("xl" in n for n in names):
        raise InputError(f"{where} an Excel workbook (.xlsx), not CSV text: save the sheet as CSV")
    if len(names) != 1:
        raise InputError(f"{where} a zip archive of {len(names)} files, not CSV text: extract the table first")
    return Magic("text", compression="zip")


def open_text(path: str, compression: str | None):
    """A pyarrow input stream over the (decompressed) bytes of ``path``; ``raw`` the file itself, for progress.

    Returns
    -------
    (stream, raw)
    """
    import os

    import pyarrow as pa

    if compression in ("xz", "zip"):  # codecs pyarrow lacks: Python's, wrapped
        handle: IO[bytes]
        if compression == "xz":
            import lzma

            handle = lzma.open(path, "rb")
        else:
            archive = zipfile.ZipFile(path)
            handle = archive.open(archive.namelist()[0])
        stream = pa.PythonFile(handle, mode="r")
        return stream, stream
    raw = pa.OSFile(os.fsencode(path), "rb")  # (bytes: a name that is not UTF-8 is still a name)
    if compression is None:
        return raw, raw
    return pa.CompressedInputStream(raw, compression), raw
