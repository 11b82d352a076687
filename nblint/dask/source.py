"""Read a table with Dask: a path or glob as a Dask DataFrame, its source, and the scheduler's client.

A :class:`DaskSource` is a table whose rows live on a Dask cluster: its passes run
where the partitions live (:class:`nblint.dask.backend.DaskBackend`, the source's
backend), and only fixed-size results travel to the client.

Needs the ``dask`` extra: ``pip install "naive-bayes-lint[dask]"``.
"""

from __future__ import annotations

import glob as globmod
import os
from collections.abc import Iterator, Sequence

from nblint.core.errors import ConfigError, InputError
from nblint.dask.backend import DaskBackend
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

    Its passes run on the workers (:class:`~nblint.dask.backend.DaskBackend`, its
    :attr:`~nblint.readers.TableSource.backend`): the profile, row reductions, NB401's passes.

    Parameters
    ----------
    frame : dask.dataframe.DataFrame
    path : str
        Display name in findings.
    client : distributed.Client, optional
        Where to compute (default: the current client, or dask's local scheduler).
    """

    backend: DaskBackend

    def __init__(self, frame, path: str = "<dask>", client=None, chunk_rows: int | None = None):
        self.frame = frame
        engine = DaskBackend(frame, client)
        super().__init__(path, [str(c) for c in frame.columns], 0, chunk_rows)
        engine.chunk_rows = self.chunk_rows
        self.backend = engine

    @property
    def n_rows(self) -> int:
        """The table's rows: 0 until the profile's pass has counted them, as a CSV's (:attr:`DaskBackend.lengths`)."""
        return sum(self.backend.lengths) if self.backend.counted else 0

    @n_rows.setter
    def n_rows(self, value: int) -> None:
        """(:class:`TableSource`'s constructor sets it; the rows are counted by the backend.)"""

    @property
    def memory_budget(self) -> int | None:
        """The run's memory budget (set by the runner): it also bounds what each worker keeps of its partitions."""
        return self.backend.memory_budget

    @memory_budget.setter
    def memory_budget(self, value: int | None) -> None:
        self.backend.memory_budget = value

    def chunks(self, columns: Sequence[str] | None = None) -> Iterator[Chunk]:
        """The rows in order, one partition at a time on the client, in chunks."""
        names = list(columns) if columns is not None else list(self.names)
        offset = 0
        selected = self.frame[names]
        for i, n in enumerate(self.backend.lengths):
            if not n:
                continue
            part = self.backend.compute(selected.get_partition(i)).reset_index(drop=True)
            for chunk in DataFrameSource(part, self.path, self.chunk_rows).chunks(names):
                yield Chunk(chunk.names, chunk.columns, offset + chunk.row_offset, chunk.n_rows)
            offset += n


def dask_client(scheduler: str | None):
    """A ``distributed.Client`` of the scheduler at ``scheduler``; None: Dask's default scheduler."""
    if not scheduler:
        return None
    from nblint.core.dependencies import missing_message

    try:
        from distributed import Client
    except ImportError:
        raise ConfigError(missing_message("distributed", "--scheduler")) from None
    try:
        return Client(scheduler, timeout="10s")
    except OSError as exc:
        raise ConfigError(f"cannot connect to the Dask scheduler at {scheduler}: {exc}") from None
