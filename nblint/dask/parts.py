"""A partition's rows kept on its worker by the profile's pass, so that no later pass parses it again.

The local engine keeps a CSV's first-pass chunks in memory, compact
(:class:`~nblint.readers.kept.KeptChunks`: 0/1 columns as bits, small whole numbers in
one byte), when they fit a share of the memory budget (:func:`~nblint.readers.kept.keep_limit`),
and its later passes (the row checks, NB401's two passes) read them rather than the file.
A Dask partition does the same on its worker: the task that profiles it keeps its chunks
(:func:`profile_and_keep`), that result stays where it was made (a persisted Dask result,
so the tasks of the later passes run there), and each later pass reads the columns it
needs from it (:func:`part_chunks`).

What one worker process keeps is bounded by the same limit whatever the rows: the bytes
of the parts alive in the process are counted (and given back when Dask lets a part go),
and a partition that would take its worker past the limit is not kept: its later passes
read it again from its source (a CSV block parsed again), as the local engine's passes
do past its limit.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from nblint.readers import Chunk, DataFrameSource, TableSource
from nblint.readers.kept import KeptChunks

P = TypeVar("P")

#: Bytes of kept parts alive in this process (a worker's, or the client's with Dask's local scheduler).
_held = [0]
_held_lock = threading.Lock()


class _KeepingPart(DataFrameSource):
    """A partition whose one full pass (the profile's) keeps its chunks in :attr:`kept` as they go by."""

    kept: KeptChunks

    def settled_pass(self, consume, sparse_except=None):
        def keeping(chunks: Iterator[Chunk]) -> Iterator[Chunk]:
            for chunk in chunks:
                self.kept.add(chunk)
                yield chunk

        return consume(keeping(self.chunks()))


def profile_and_keep(
    frame, offset: int, chunk_rows: int, part: Callable[[TableSource], P], limit: int
) -> tuple[P | None, KeptChunks | None]:
    """Profile one partition (runs on a worker) and keep its chunks, if they fit its worker's ``limit``.

    Row numbers count from the table's first row (``offset``). The profile is None for a
    partition with no rows: it adds nothing (not even its column types) to the table's profile.
    The kept chunks are None where the worker's kept parts would pass ``limit`` bytes.
    """
    if not len(frame):
        return None, None
    source = _KeepingPart.part(frame, offset, chunk_rows)
    source.kept = KeptChunks(max(limit - _held[0], 0))  # (let go as soon as they cannot fit)
    profile = part(source)
    return profile, _claim(source.kept, limit)


def _claim(kept: KeptChunks, limit: int) -> KeptChunks | None:
    """``kept``, counted among this process's kept parts until it is collected; None if it would pass ``limit``."""
    with _held_lock:
        if kept.dropped or _held[0] + kept.nbytes > limit:
            return None
        _held[0] += kept.nbytes
    weakref.finalize(kept, _release, kept.nbytes)
    return kept


def _release(nbytes: int) -> None:
    with _held_lock:
        _held[0] -= nbytes


def part_chunks(part, offset: int, chunk_rows: int, columns: Sequence[str]) -> Iterator[Chunk]:
    """One partition's chunks, ``columns`` only, in row order (runs on a worker).

    ``part`` is what the profile's pass kept of it (:class:`KeptChunks`), or, where nothing
    was kept, the partition itself read again (a pandas DataFrame whose first row is the
    table's row ``offset``): the same chunks either way.
    """
    if isinstance(part, KeptChunks):
        return part.read(columns)
    return DataFrameSource.part(part, offset, chunk_rows).chunks(columns)
