"""Run nblint on a Dask DataFrame: every pass over the rows runs where the partitions live.

The profile is the only pass that touches every column of every row, and it
merges (:meth:`nblint.profile.table.TableProfile.merge`), so each partition is
profiled where it lives and only the profiles, a few kilobytes to megabytes
each, travel: pairs are merged on the workers, level by level, in a fixed
order, and the client receives one profile.

The passes after it run on the workers too, and send the client fixed-size
results, never rows:

* the candidate checks (example rows of a broken group, a code column decoding a
  group, hashes of possibly identical columns) and NB208's threshold histograms are
  accumulators (:meth:`nblint.analysis.context.TableContext.reduce_rows`): each partition
  fills its own, and the client merges them in partition order;
* NB401's two passes: each partition's rows are encoded on its worker and kept
  there; rows are scored in the same windows as on one machine (cut from the row
  stream, a window crossing partitions is assembled on a worker), each window sends
  back its sums (:class:`nblint.impact.comparison.InSample`, a few kilobytes) and the
  client adds them in window order, so every float sum is the local engine's, bit
  for bit; the excess-confidence histograms (integers) are summed on the workers.

Needs the ``dask`` extra: ``pip install "naive-bayes-lint[dask]"``.
"""

from __future__ import annotations

import glob as globmod
import os
from collections.abc import Iterator, Sequence

from nblint.core.errors import InputError
from nblint.core.suggest import missing_column
from nblint.readers import Chunk, DataFrameSource, TableFormat, TableSource, table_format
from nblint.readers.csverrors import codec_name
from nblint.readers.csvheader import excel_sep_line


def is_dask_frame(data) -> bool:
    """Whether ``data`` is a ``dask.dataframe.DataFrame`` (without importing dask when it is not loaded)."""
    import sys

    if "dask.dataframe" not in sys.modules:
        return False
    import dask.dataframe as dd

    return isinstance(data, dd.DataFrame)


def read_dask(path: str, *, encoding: str = "utf-8"):
    """A Dask DataFrame over a Parquet/CSV/TSV path or glob (one partition per file or block)."""
    from nblint.core.dependencies import require

    dd = require("dask.dataframe", "--engine dask")
    if "://" not in path and not globmod.glob(path):
        raise InputError("file not found")
    # A folder (named with or without its trailing slash) holds Parquet parts.
    folder = path.endswith("/") or ("://" not in path and os.path.isdir(path))
    form = table_format(path) or TableFormat("parquet" if folder else "csv")
    try:
        if form.kind == "parquet":
            return dd.read_parquet(path)
        declared = None if form.compression else _declared_delimiter(path, encoding)
        return dd.read_csv(
            path,
            sep=declared or form.delimiter,
            skiprows=1 if declared else None,
            encoding=encoding,
            compression=form.compression,
            blocksize=None if form.compression else "64MB",
            dtype_backend="numpy_nullable",
        )
    except (OSError, ValueError) as exc:
        raise InputError(
            f"cannot read with dask: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
        ) from None


def _declared_delimiter(path: str, encoding: str) -> str | None:
    """The delimiter an Excel ``sep=X`` first line declares in the (first) file, as the local engine reads it."""
    files = sorted(globmod.glob(path)) if "://" not in path else []
    if not files or os.path.isdir(files[0]):
        return None
    with open(files[0], "rb") as handle:
        first = handle.readline(32)
    return excel_sep_line(first, encoding, codec_name(encoding))


class DaskSource(TableSource):
    """A ``dask.dataframe.DataFrame``: profiled on its cluster, re-read partition by partition.

    It provides :class:`~nblint.readers.TableSource`'s engine operations (the profile,
    row reductions, NB401's passes) on the workers.

    Parameters
    ----------
    frame : dask.dataframe.DataFrame
    path : str
        Display name in findings.
    client : distributed.Client, optional
        Where to compute (default: the current client, or dask's local scheduler).
    """

    distributed = True

    def __init__(self, frame, path: str = "<dask>", client=None, chunk_rows: int | None = None):
        self.frame = frame
        self.client = client
        lengths = self._compute(frame.map_partitions(len))
        self.lengths = [int(n) for n in lengths]
        super().__init__(path, [str(c) for c in frame.columns], sum(self.lengths), chunk_rows)

    def _compute(self, collection):
        if self.client is not None:
            return self.client.compute(collection).result()
        return collection.compute()

    def remote_profile(self, target: str | None, wide_binary: int | None = None, budget=None):
        """The table's profile: one per partition on the workers, merged pairwise up a fixed tree.

        ``wide_binary`` and ``budget`` (a :class:`~nblint.core.resources.MemoryBudget`, resolved on
        the client from the settings) are :meth:`nblint.profile.table.TableProfile.from_source`'s,
        so a configured memory budget caps each partition's profile as it caps a local one.
        """
        import dask

        if target is not None and target not in self.names:
            raise InputError(missing_column("target column", target, list(self.names)))
        parts = self.frame.to_delayed()
        offsets = [sum(self.lengths[:i]) for i in range(len(self.lengths))]
        level = [
            dask.delayed(_partition_profile)(part, offset, target, self.chunk_rows, wide_binary, budget)
            for part, offset, n in zip(parts, offsets, self.lengths)
            if n
        ]
        if not level:
            raise InputError("no data rows")
        while len(level) > 1:
            merged = [dask.delayed(_merge)(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
            level = merged + ([level[-1]] if len(level) % 2 else [])
        profile = self._compute(level[0])
        return profile

    def _compute_all(self, tasks: list) -> list:
        """Compute Dask delayed objects together; their results, in order, on the client."""
        import dask

        if self.client is not None:
            return self.client.gather(self.client.compute(tasks))
        return list(dask.compute(*tasks))

    def _persist(self, tasks: list) -> list:
        """Compute Dask delayed objects, keeping the results where they were computed."""
        import dask

        if self.client is not None:
            return self.client.persist(tasks)
        return list(dask.persist(*tasks))

    def _partitions(self, columns: list[str]) -> list[tuple]:
        """(delayed partition restricted to ``columns``, its first row's number) for each partition with rows."""
        parts = self.frame[columns].to_delayed()
        offsets = [sum(self.lengths[:i]) for i in range(len(self.lengths))]
        return [(part, offset) for part, offset, n in zip(parts, offsets, self.lengths) if n]

    def reduce_rows(self, columns: list[str], accumulator):
        """:meth:`nblint.analysis.context.TableContext.reduce_rows` on the workers: one accumulator per
        partition, filled where it lives, merged here in partition order."""
        import dask

        tasks = [
            dask.delayed(_reduce_partition)(part, offset, self.chunk_rows, columns, accumulator)
            for part, offset in self._partitions(columns)
        ]
        if not tasks:
            return accumulator
        first, *rest = self._compute_all(tasks)
        for part in rest:
            first.merge(part)
        return first

    def impact_passes(self, plan, comparisons, fold_counts, points: list) -> bool:
        """NB401's two passes (:func:`nblint.impact.measure.measure_impact`) on the workers."""
        from nblint.dask.impact import impact_passes

        impact_passes(self, plan, comparisons, fold_counts, points)
        return True

    def chunks(self, columns: Sequence[str] | None = None) -> Iterator[Chunk]:
        """The rows in order, one partition at a time on the client, in chunks."""
        names = list(columns) if columns is not None else list(self.names)
        offset = 0
        selected = self.frame[names]
        for i, n in enumerate(self.lengths):
            if not n:
                continue
            part = self._compute(selected.get_partition(i)).reset_index(drop=True)
            for chunk in DataFrameSource(part, self.path, self.chunk_rows).chunks(names):
                yield Chunk(chunk.names, chunk.columns, offset + chunk.row_offset, chunk.n_rows)
            offset += n


def _partition_profile(frame, offset: int, target, chunk_rows: int, wide_binary, budget=None):
    """Profile one partition (runs on a worker); row numbers count from the table's first row."""
    from nblint.profile.table import TableProfile

    source = DataFrameSource.part(frame, offset, chunk_rows)
    return TableProfile.from_source(source, target, 1, wide_binary, budget)


def _merge(a, b):
    return a.merge(b)


def _reduce_partition(frame, offset: int, chunk_rows: int, columns, accumulator):
    """Fill a copy of ``accumulator`` with one partition's chunks (runs on a worker)."""
    import copy

    accumulator = copy.deepcopy(accumulator)  # (the threaded scheduler shares the argument)
    for chunk in DataFrameSource.part(frame, offset, chunk_rows).chunks(columns):
        accumulator.add(chunk)
    return accumulator
