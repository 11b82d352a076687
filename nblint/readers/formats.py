"""Which tables nblint reads, and how, told from a file's name: the one suffix-to-format helper."""

from __future__ import annotations

from typing import NamedTuple

#: Suffixes of the tables nblint reads (a folder is walked for these).
TABLE_SUFFIXES = (
    ".csv",
    ".tsv",
    ".tab",
    ".csv.gz",
    ".tsv.gz",
    ".tab.gz",
    ".parquet",
    ".pq",
    ".arrow",
    ".feather",
    ".ipc",
)


class TableFormat(NamedTuple):
    """How to read a table: ``kind`` ``"csv"`` (with its ``delimiter`` and ``compression``), ``"parquet"`` or ``"arrow"``."""

    kind: str
    delimiter: str = ","
    compression: str | None = None


def table_format(path: str) -> TableFormat | None:
    """The format a path's suffix names (``-`` is CSV on standard input); None: not a table suffix."""
    lower = path.lower()
    if path == "-":
        return TableFormat("csv")
    if not lower.endswith(TABLE_SUFFIXES):
        return None
    if lower.endswith((".parquet", ".pq")):
        return TableFormat("parquet")
    if lower.endswith((".arrow", ".feather", ".ipc")):
        return TableFormat("arrow")
    compression = "gzip" if lower.endswith(".gz") else None
    delimiter = "\t" if lower.removesuffix(".gz").endswith((".tsv", ".tab")) else ","
    return TableFormat("csv", delimiter, compression)


def is_table_path(path: str) -> bool:
    """Whether ``path`` names a table nblint reads (by suffix)."""
    return table_format(path) is not None
