"""A partition's rows kept on its worker as soon as it is read, so that no later pass parses it again.

The local engine keeps a CSV's first-pass chunks in memory, compact
(:class:`~nblint.readers.kept.KeptChunks`: 0/1 columns as bits, small whole numbers in
one byte), when they fit a share of the memory budget (:func:`~nblint.readers.kept.keep_limit`),
and its later passes (the row checks, NB401's two passes) read them rather than the file.
A Dask partition does the same on its worker: the task that takes the partition from its
read keeps its chunks (:func:`keep`; its rows counted, numbered from its own first row,
since the rows before it are not yet counted), that result stays where it was made (a
persisted Dask result, so the tasks of the later passes run there), and every pass, the
profile's first (:func:`profile_part`), reads the columns it needs from it (:func:`part_chunks`).
The parsed partition itself lives only as long as that one task: it never waits, and never
travels to another worker, while the partitions before it are counted.

What one worker process keeps is bounded by the same limit whatever the rows: the bytes
of the parts alive in the process are counted (and given back when Dask lets a part go),
and a partition that would take its worker past the limit is not kept: each pass reads it
again from its source (a CSV block parsed again), as the local engine's passes do past
its limit.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from nblint.readers import Chunk, DataFrameSource, TableSource
from nblint.readers.kept import KeptChunks

P = TypeVar("P")

#: Bytes of kept parts alive in this process (a worker's, or the client's with Dask's local scheduler).
_held = [0]
_held_lock = threading.Lock()


@dataclass
class KeptPart:
    """What a partition's worker keeps of it: its chunks, compact, rows numbered from the partition's first.

    The table's row numbers are the partition's first row's (known once the partitions
    before it have been counted) plus these: the chunks are kept before that is known.
    """

    names: tuple[str, ...]
    n_rows: int
    skipped: dict[str, str]
    chunks: KeptChunks

    def read(self, columns: Sequence[str], offset: int) -> Iterator[Chunk]:
        """The chunks, ``columns`` only, numbered from the table's row ``offset``."""
        for chunk in self.chunks.read(columns):
            yield Chunk(chunk.names, chunk.columns, offset + chunk.row_offset, chunk.n_rows)


class _KeptSource(TableSource):
    """A kept partition as a source: its one pass (the profile's) reads the kept chunks."""

    def __init__(self, part: KeptPart, offset: int, chunk_rows: int):
        self.part = part
        self.skipped = dict(part.skipped)
        super().__init__("<partition>", part.names, part.n_rows, chunk_rows)
        self.row_offset = offset

    def chunks(self, columns: Sequence[str] | None = None) -> Iterator[Chunk]:
        return self.part.read(list(columns) if columns is not None else list(self.names), self.row_offset)


def keep(frame, chunk_rows: int, limit: int) -> tuple[int, KeptPart | None]:
    """One partition's rows and its chunks, kept (runs on a worker, as soon as it is read).

    None for the chunks where the worker's kept parts would pass ``limit`` bytes: the
    partition is then read again by each pass (its profile's included).
    """
    n = len(frame)
    if not n:
        return 0, None
    source = DataFrameSource.part(frame, 0, chunk_rows)
    kept = KeptChunks(max(limit - _held[0], 0))  # (let go as soon as they cannot fit)
    for chunk in source.chunks():
        kept.add(chunk)
        if kept.dropped:
            return n, None
    if not _claim(kept, limit):
        return n, None
    return n, KeptPart(tuple(source.names), n, dict(source.skipped), kept)


def profile_part(part, offset: int, chunk_rows: int, profile: Callable[[TableSource], P]) -> P | None:
    """``profile`` of one partition (runs on a worker): of its kept chunks, else of the partition read again.

    Row numbers count from the table's first row (``offset``). None for a partition with no
    rows: it adds nothing (not even its column types) to the table's profile.
    """
    if isinstance(part, KeptPart):
        return profile(_KeptSource(part, offset, chunk_rows))
    if not len(part):
        return None
    return profile(DataFrameSource.part(part, offset, chunk_rows))


def _claim(kept: KeptChunks, limit: int) -> bool:
    """Count ``kept`` among this process's kept parts until it is collected; False if it would pass ``limit``."""
    with _held_lock:
        if kept.dropped or _held[0] + kept.nbytes > limit:
            return False
        _held[0] += kept.nbytes
    weakref.finalize(kept, _release, kept.nbytes)
    return True


def held_bytes() -> int:
    """Bytes of the kept parts alive in this process."""
    return _held[0]


def _release(nbytes: int) -> None:
    with _held_lock:
        _held[0] -= nbytes


def part_chunks(part, offset: int, chunk_rows: int, columns: Sequence[str]) -> Iterator[Chunk]:
    """One partition's chunks, ``columns`` only, in row order, numbered from the table's row ``offset`` (runs on a worker).

    ``part`` is what its worker kept of it (:class:`KeptPart`), or, where nothing was kept,
    the partition itself read again (a pandas DataFrame): the same chunks either way.
    """
    if isinstance(part, KeptPart):
        return part.read(columns, offset)
    return DataFrameSource.part(part, offset, chunk_rows).chunks(columns)
