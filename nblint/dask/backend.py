"""The Dask engine's :class:`~nblint.readers.chunks.Backend`: every pass over the rows runs where the partitions live.

The profile is the only pass that touches every column of every row, and it
merges (:meth:`nblint.profile.table.TableProfile.merge`), so each partition is
profiled where it lives and only the profiles, a few kilobytes to megabytes
each, travel: pairs are merged on the workers, level by level, in a fixed
order, and the client receives one profile.

Each partition is parsed once: the task that reads it keeps its chunks on its worker,
compact, within the worker's share of the memory budget (:mod:`nblint.dask.parts`), and
every pass, the profile's first, reads them there (a partition that did not fit is read
again). The passes after the profile send the client fixed-size results, never rows:

* the candidate checks (example rows of a broken group, a code column decoding a
  group, hashes of possibly identical columns) and NB208's threshold histograms are
  accumulators (:meth:`DaskBackend.reduce_rows`): each partition fills its own, and
  the client merges them in partition order;
* NB401's two passes (:mod:`nblint.dask.impact`): each partition's rows are encoded on
  its worker, pass by pass; rows are scored in the same windows as on one machine, each
  window sends back its sums and the client adds them in window order, so every float
  sum is the local engine's, bit for bit.

Needs the ``dask`` extra: ``pip install "naive-bayes-lint[dask]"``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from itertools import accumulate
from typing import TypeVar

from nblint.core.errors import InputError
from nblint.core.suggest import missing_column
from nblint.dask.parts import keep, part_chunks, profile_part
from nblint.readers import TableSource
from nblint.readers.chunks import A
from nblint.readers.kept import KEEP_BYTES, keep_limit

P = TypeVar("P")


class DaskBackend:
    """Passes over a ``dask.dataframe.DataFrame``'s partitions, run on its cluster (:class:`~nblint.readers.chunks.Backend`).

    Parameters
    ----------
    frame : dask.dataframe.DataFrame
    client : distributed.Client, optional
        Where to compute (default: the current client, or dask's local scheduler).

    Attributes
    ----------
    chunk_rows : int
        Rows per chunk in each partition (the table's, so chunks are cut as on one machine).
    """

    distributed = True

    def __init__(self, frame, client=None):
        self.frame = frame
        self.client = client
        self._lengths: list[int] | None = None
        self.chunk_rows = 0  # (set by the source, from its width)
        #: The run's memory budget in bytes (None: the machine's share), set with the source's: it bounds
        #: what each worker keeps of its partitions (:func:`~nblint.readers.kept.keep_limit`).
        self.memory_budget: int | None = None
        #: What each partition's worker kept of it when it was read (persisted there), or None where
        #: nothing was: every pass reads a partition from it, or else reads the partition again.
        self._kept: list | None = None

    @property
    def counted(self) -> bool:
        """Whether the rows per partition are known (:attr:`lengths` costs no pass)."""
        return self._lengths is not None

    @property
    def lengths(self) -> list[int]:
        """Rows per partition, in order.

        Counted in the profile's pass (:meth:`profile`), which reads every partition
        anyway; asked for before it, they cost a pass of their own (for a CSV, a whole
        parse of the file just to count its rows: 37 s of ``--engine dask``'s 111 s
        on the 1M-row bench table under load, when it was made up front).
        """
        if self._lengths is None:
            self._lengths = [int(n) for n in self.compute(self.frame.map_partitions(len))]
        return self._lengths

    # ------------------------------------------------------------ the cluster's operations

    def compute(self, collection):
        """One Dask collection computed; its result on the client."""
        if self.client is not None:
            return self.client.compute(collection).result()
        return collection.compute()

    def compute_all(self, tasks: list) -> list:
        """Compute Dask delayed objects together; their results, in order, on the client."""
        import dask

        if self.client is not None:
            return self.client.gather(self.client.compute(tasks))
        return list(dask.compute(*tasks))

    def persist(self, tasks: list) -> list:
        """Compute Dask delayed objects, keeping the results where they were computed."""
        import dask

        if not tasks:  # (no partition kept: Dask refuses to persist nothing)
            return []
        if self.client is not None:
            return self.client.persist(tasks)
        return list(dask.persist(*tasks))

    def partitions(self, columns: Sequence[str] | None = None) -> list[tuple]:
        """(partition, its first row's number) for each partition with rows, ``columns`` only if given.

        The partition is what its worker kept of it when it was read (read with
        :func:`~nblint.dask.parts.part_chunks`), or the delayed partition itself where nothing was.
        """
        parts = (self.frame if columns is None else self.frame[list(columns)]).to_delayed()
        kept = self._kept if self._kept is not None else [None] * len(parts)
        offsets = [sum(self.lengths[:i]) for i in range(len(self.lengths))]
        return [
            (held if held is not None else part, offset)
            for part, held, offset, n in zip(parts, kept, offsets, self.lengths)
            if n
        ]

    # ------------------------------------------------------------ the Backend protocol

    def profile(self, target: str | None, part: Callable[[TableSource], P], merge: Callable[[P, P], P]) -> P | None:
        """The table's profile: ``part`` of each partition on the workers, merged pairwise up a fixed tree.

        Each partition's chunks are kept on its worker as soon as it is read, where they fit
        (:func:`~nblint.dask.parts.keep`): this pass and the ones after it read them there.
        """
        import dask

        names = [str(c) for c in self.frame.columns]
        if target is not None and target not in names:
            raise InputError(missing_column("target column", target, names))
        # Each partition is read once, by the task that keeps its chunks and counts its rows; its
        # first row's number is then the sum of the rows before it, and its profile is made from
        # what was kept (a partition that did not fit is read again).
        import pandas as pd

        frames = self.frame.to_delayed()
        limit = keep_limit(KEEP_BYTES, self.memory_budget)
        # (a map over the partitions, so that Dask fuses the read and the keeping in one task: the
        # parsed partition is never a result of its own, held while the worker reads the next)
        kept = self.persist(
            self.frame.map_partitions(
                _keep_in_series, self.chunk_rows, limit, meta=pd.Series([], dtype=object), enforce_metadata=False
            ).to_delayed()
        )
        counted = self.compute_all([dask.delayed(_count)(part) for part in kept])
        self._lengths = [n for n, _ in counted]
        # (the kept chunks alone, persisted where they are: each later graph names them, and the
        # counts are let go)
        held = iter(self.persist([dask.delayed(_kept_part)(p) for p, (_, k) in zip(kept, counted) if k]))
        self._kept = [next(held) if k else None for _, k in counted]
        del kept
        offsets = [0, *accumulate(self._lengths)]
        level = [
            dask.delayed(profile_part)(held if held is not None else frame, offset, self.chunk_rows, part)
            for frame, held, offset, n in zip(frames, self._kept, offsets, self._lengths)
            if n
        ]
        merge_parts = partial(_merge_parts, merge)
        while len(level) > 1:
            merged = [dask.delayed(merge_parts)(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
            level = merged + ([level[-1]] if len(level) % 2 else [])
        profile = self.compute_all(level[:1])[0] if level else None
        if profile is None:
            raise InputError("no data rows")
        return profile

    def reduce_rows(self, columns: Sequence[str], accumulator: A) -> A:
        """One accumulator per partition, filled where it lives, merged here in partition order."""
        import dask

        tasks = [
            dask.delayed(_reduce_partition)(part, offset, self.chunk_rows, list(columns), accumulator)
            for part, offset in self.partitions(columns)
        ]
        if not tasks:
            return accumulator
        first, *rest = self.compute_all(tasks)
        for part in rest:
            first.merge(part)
        return first

    def impact_passes(self, plan: object, comparisons: object, fold_counts: object, points: list) -> bool:
        """NB401's two passes (:func:`nblint.impact.measure.measure_impact`) on the workers."""
        from nblint.dask.impact import impact_passes

        impact_passes(self, plan, comparisons, fold_counts, points)
        return True


# --------------------------------------------------------------------------- run on the workers


def _keep_in_series(frame, chunk_rows: int, limit: int):
    """:func:`~nblint.dask.parts.keep` of one partition, in a Series of one value (what a map over partitions returns)."""
    import pandas as pd

    return pd.Series([keep(frame, chunk_rows, limit)], dtype=object)


def _count(kept) -> tuple[int, bool]:
    """A partition's rows, and whether its worker kept its chunks (:func:`~nblint.dask.parts.keep`)."""
    n, part = kept.iloc[0]
    return n, part is not None


def _kept_part(kept):
    """What a partition's worker kept of it (:func:`~nblint.dask.parts.keep`)."""
    return kept.iloc[0][1]


def _merge_parts(merge: Callable[[P, P], P], a: P | None, b: P | None) -> P | None:
    """``merge(a, b)``, where a part with no rows (None) is left out."""
    if a is None:
        return b
    if b is None:
        return a
    return merge(a, b)


def _reduce_partition(part, offset: int, chunk_rows: int, columns, accumulator):
    """Fill a copy of ``accumulator`` with one partition's chunks (runs on a worker)."""
    import copy

    accumulator = copy.deepcopy(accumulator)  # (the threaded scheduler shares the argument)
    for chunk in part_chunks(part, offset, chunk_rows, columns):
        accumulator.add(chunk)
    return accumulator
