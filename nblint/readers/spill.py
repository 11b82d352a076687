"""The spill: a CSV's parsed rows kept in a temporary Arrow IPC file, so later passes need not parse again.

The spill is an optimisation, never a requirement: it is written during the
first full pass and dropped (deleted at once) when it would grow past the disk
budget (:func:`nblint.core.resources.disk_budget`), in which case the later passes
parse the CSV again.  Its file is removed when the source is collected, at exit,
and on SIGINT/SIGTERM (:mod:`nblint.core.interrupts`); after SIGKILL, by the next
run that makes a temporary file (:mod:`nblint.core.tempfiles`).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import weakref
from collections.abc import Iterator
from typing import Any

from nblint.core.resources import disk_budget
from nblint.core.tempfiles import owned_prefix


class SpillFile:
    """A temporary file known by its name only: no descriptor stays open between passes.

    A source keeps its spill for the run; holding a descriptor per spill ran a
    folder of 1,100 CSVs out of descriptors (``ulimit -n 1024``).  The file is
    deleted by :meth:`close`, when this object is collected, or at exit.
    """

    def __init__(self):
        fd, self.name = tempfile.mkstemp(prefix=owned_prefix("spill"), suffix=".arrow")
        os.close(fd)
        self._finalizer = weakref.finalize(self, _remove, self.name)

    def close(self) -> None:
        self._finalizer()


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


#: A spill of at most this many bytes of values is written uncompressed, a larger one
#: LZ4-compressed: compression saves disk at a CPU cost of about a third of parsing the rows
#: again (the 1M x 65 bench table's 128 MB spill took 0.32 s of CPU to write and 0.10 s to read
#: compressed, 0.09 s and 0.02 s uncompressed), worth paying only where the bytes matter (the
#: 10M-row table's 1.3 GB).
PLAIN_BYTES = 1 << 28


def spill_compression(first, text_bytes: int, text_per_row: float | None, plain_bytes: int = PLAIN_BYTES):
    """The compression of a spill whose first table is ``first``: None (uncompressed) or "lz4".

    The spill's size is estimated as ``first``'s bytes of values per row times the
    file's rows, ``text_bytes`` over ``text_per_row`` (bytes of text per row of
    the first parsed block); without that (None), the spill is compressed.
    """
    if text_per_row is None or not first.num_rows:
        return "lz4"
    expected = first.nbytes / first.num_rows * text_bytes / text_per_row
    return None if expected <= plain_bytes else "lz4"


class SpillWriter:
    """Writes tables (record batches of ``batch_rows`` rows at least) up to ``limit`` bytes.

    Attributes
    ----------
    dropped : bool
        The spill outgrew its limit and was deleted.
    compression : str or None
        The batches' IPC compression ("lz4", or None: written as they are), fixed
        by the first :meth:`add`; the reader reads either.
    """

    def __init__(self, batch_rows: int, limit: int | None = None, max_rows: int | None = None, max_bytes: int = 0):
        self.batch_rows = batch_rows
        #: With ``max_bytes``: batches of up to ``max_rows`` rows within that many bytes, sized from the
        #: first table's bytes per row (``batch_rows`` the least).
        self._sizing = (max_rows, max_bytes) if max_rows is not None and max_bytes else None
        self.limit = disk_budget() if limit is None else limit
        self.dropped = False
        self.compression: str | None = "lz4"
        try:
            self.file: SpillFile | None = SpillFile()
        except OSError:  # no writable temporary folder: no spill, the later passes parse again
            self.file, self.dropped = None, True
        # pyarrow ships no types: its IPC writer and native file are Any here
        self._writer: Any = None
        self._sink: Any = None
        self._pending: list = []  # tables not yet written: a record batch holds several

    def add(self, table) -> None:
        """Queue ``table``'s rows; write a batch once enough are queued."""
        import pyarrow as pa

        if self.dropped:
            return
        if self._writer is None:
            if self._sizing is not None and table.num_rows:
                max_rows, max_bytes = self._sizing
                per_row = max(table.nbytes / table.num_rows, 1.0)
                self.batch_rows = int(min(max_rows, max(self.batch_rows, max_bytes // per_row)))
            # Through a native file: a Python file object would take one call per buffer.
            assert self.file is not None  # no file means dropped, which returned above
            self._sink = pa.OSFile(self.file.name, "wb")
            self._writer = pa.ipc.new_file(
                self._sink, table.schema, options=pa.ipc.IpcWriteOptions(compression=self.compression)
            )
        self._pending.append(table)
        if sum(t.num_rows for t in self._pending) >= self.batch_rows:
            self._write()

    def finish(self):
        """The finished spill's file (to read with :func:`read_spill`), or None when it was dropped or empty."""
        if self.dropped or self._writer is None:
            self.close()
            return None
        if self._pending:
            self._write()
        if self.dropped:
            return None
        self._writer.close()
        self._sink.close()
        return self.file

    def close(self) -> None:
        """Delete the spill (an unfinished pass, or a dropped spill)."""
        if self._sink is not None:
            self._sink.close()
        if self.file is not None:
            self.file.close()

    def _write(self) -> None:
        import pyarrow as pa

        self._writer.write_table(pa.concat_tables(self._pending).combine_chunks())
        self._pending.clear()
        if self._sink.tell() > self.limit:
            self.dropped = True
            self._pending.clear()
            self.close()


def read_spill(file, names, all_names, jobs: int, progress: list) -> Iterator:
    """The spilled record batches of columns ``names``; ``progress[0]`` is set to (done, total) batches."""
    import pyarrow as pa

    wanted = [all_names.index(n) for n in names]
    # Plain reads, not a memory map: mapped pages would count as resident memory, growing with the rows.
    options = pa.ipc.IpcReadOptions(included_fields=sorted(wanted), use_threads=jobs > 1)
    with pa.OSFile(file.name) as handle:
        reader = pa.ipc.open_file(handle, options=options)
        for i in range(reader.num_record_batches):
            progress[0] = (i + 1, reader.num_record_batches)
            yield reader.get_batch(i)
