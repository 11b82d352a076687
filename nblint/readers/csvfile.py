"""CSV/TSV files (optionally gzip-compressed): parsed in blocks or streamed, spilled once parsed.

An uncompressed UTF-8 file is cut into blocks of whole rows and parsed ``jobs``
blocks at a time; anything else streams through :func:`pyarrow.csv.open_csv`.
The first full pass keeps its parsed rows in a temporary Arrow IPC file (the
spill), so later passes need not parse the CSV again.  Column types are
inferred from the first block and widened when a later value does not fit
(:mod:`nblint.readers.csvtypes`), which restarts the pass.
"""

from __future__ import annotations

import csv
import gzip
import os
import tempfile
import weakref
import zlib
from collections import deque
from concurrent.futures import ThreadPoolExecutor

from nblint.errors import InputError, first_line
from nblint.readers.csvblocks import line_blocks
from nblint.readers.csverrors import CsvErrors, check_utf8, codec_name
from nblint.readers.csvtypes import CONVERSION_ERROR, narrow_zero_one, wider_type
from nblint.readers.formats import TableFormat, table_format
from nblint.readers.sources import StreamSource, regroup


class CsvSource(StreamSource):
    """A CSV/TSV (optionally gzip-compressed) file, streamed by :func:`pyarrow.csv.open_csv`.

    Parameters
    ----------
    path : str
        The file to read (``display`` is shown in messages instead, e.g. ``-``).
    delimiter, encoding : str
    display : str, optional
    keep : object, optional
        Kept alive with the source (the spooled copy of standard input).
    """

    #: Bytes parsed per block by the streaming reader (pyarrow's default; measured
    #: faster than 8 MiB blocks, which leave less room to overlap reading and parsing).
    BLOCK_SIZE = 1 << 20
    #: Bytes of an uncompressed UTF-8 file parsed at once by the block reader.
    PARSE_BLOCK = 1 << 22
    #: Rows a parsed block holds at least (estimated from the header's length).
    BLOCK_ROWS = 1024
    #: Keep the parsed rows of the first pass in a temporary Arrow IPC file
    #: (LZ4-compressed) so that later passes need not parse the CSV again.
    SPILL = True
    #: Rows per record batch of the spill, at least: LZ4 compresses each column's
    #: buffer of a batch apart, and short buffers (a chunk of a 2,000-column table
    #: has ~1,000 rows) cost more in per-buffer set-up than in compression (measured
    #: 8x slower to write and read at one such chunk per batch than at eight).
    SPILL_BATCH_ROWS = 8192

    def __init__(self, path: str, delimiter: str = ",", encoding: str = "utf-8", display: str | None = None,
                 chunk_rows: int | None = None, keep=None):
        self.file = path
        self.delimiter = delimiter
        self.encoding = encoding
        self.codec = codec_name(encoding)
        self.gz = (table_format(path) or TableFormat("csv")).compression == "gzip"
        self.size_bytes = os.path.getsize(path)
        self._keep = keep
        self._raw = None
        self._spill = None  # tempfile holding the parsed rows, once a full pass completed
        self._spill_progress = (0, 1)
        self._consumed: int | None = None  # bytes of parsed blocks handed on (block reader)
        #: Column name -> pyarrow type: fixed after a widening and after the first full pass.
        self.types: dict = {}
        display = display or path
        super().__init__(display, self._header(), None, chunk_rows)
        self.settled = False  # the types are inferred block by block: settled by a full pass

    def _header(self) -> list[str]:
        """The column names, from the first line alone (pyarrow would parse a whole block)."""
        opener = gzip.open if self.gz else open
        encoding = "utf-8-sig" if self.codec == "utf8" else self.encoding
        try:
            with opener(self.file, "rt", encoding=encoding, newline="") as handle:
                header = next(csv.reader(handle, delimiter=self.delimiter), None)
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"not a readable {'gzip file' if self.gz else 'file'} ({first_line(exc)})") from None
        except UnicodeDecodeError:
            raise InputError(f"bytes not valid in {self.encoding} in the header; "
                             "pass --encoding (for example --encoding latin-1)") from None
        except csv.Error as exc:
            raise InputError(f"unreadable header ({first_line(exc)})") from None
        if not header:
            raise InputError("file is empty")
        return header

    def _open(self, names):
        import pyarrow as pa
        import pyarrow.csv as pacsv

        self._raw = pa.OSFile(self.file, "rb")
        stream = pa.CompressedInputStream(self._raw, "gzip") if self.gz else self._raw
        convert = pacsv.ConvertOptions(
            include_columns=list(names) if names is not None else None,
            column_types={k: v for k, v in self.types.items() if names is None or k in names},
        )
        with self._errors():
            return pacsv.open_csv(
                stream,
                read_options=pacsv.ReadOptions(encoding=self.codec, block_size=self.BLOCK_SIZE, use_threads=self.jobs > 1),
                parse_options=pacsv.ParseOptions(delimiter=self.delimiter),
                convert_options=convert,
            )

    def _tables(self, names):
        """Parse the CSV (first pass, spilling the parsed rows) or read the spill (later passes)."""
        import pyarrow as pa

        if self._spill is not None:
            yield from regroup(self._spilled_batches(names), self.chunk_rows)
            return
        spilling = self.SPILL and names == self.names
        if not spilling:
            yield from super()._tables(names)
            return
        spill = tempfile.NamedTemporaryFile(prefix="nblint-spill-", suffix=".arrow")
        weakref.finalize(spill, spill.close)
        writer = sink = None
        pending: list = []  # chunks not yet written: the spill's record batches hold several

        def write():
            writer.write_table(pa.concat_tables(pending).combine_chunks())
            pending.clear()

        try:
            for table in super()._tables(names):
                if writer is None:
                    # Through a native file: a Python file object would take one call per buffer.
                    sink = pa.OSFile(spill.name, "wb")
                    writer = pa.ipc.new_file(sink, table.schema, options=pa.ipc.IpcWriteOptions(compression="lz4"))
                pending.append(table)
                if sum(t.num_rows for t in pending) >= self.SPILL_BATCH_ROWS:
                    write()
                yield table
            if writer is not None:
                if pending:
                    write()
                writer.close()
                self._spill = spill
        finally:
            if sink is not None:
                sink.close()
            if self._spill is None:
                spill.close()

    def _spilled_batches(self, names):
        import pyarrow as pa

        wanted = [self.names.index(n) for n in names]
        # Plain reads, not a memory map: mapped pages would count as resident memory, growing with the rows.
        options = pa.ipc.IpcReadOptions(included_fields=sorted(wanted), use_threads=self.jobs > 1)
        reader = pa.ipc.open_file(pa.OSFile(self._spill.name), options=options)
        for i in range(reader.num_record_batches):
            self._spill_progress = (i + 1, reader.num_record_batches)
            yield reader.get_batch(i)

    def _bytes_read(self) -> int:
        if self._spill is not None:
            done, total = self._spill_progress
            return self.size_bytes * done // max(total, 1)
        if self._consumed is not None:
            return self._consumed
        try:
            return self._raw.tell() if self._raw is not None else 0
        except Exception:  # a closed file: the pass is over
            return self.size_bytes

    def _batches(self, names):
        if self.gz or self.codec != "utf8":
            return self._streamed_batches(names)
        return self._block_batches(names)

    def _block_batches(self, names):
        """Parse an uncompressed UTF-8 file in blocks cut at line ends, ``jobs`` blocks at a time.

        pyarrow's CSV reader assumes no newline inside a quoted value unless told
        otherwise (``newlines_in_values``), so a block cut just after a newline
        holds whole rows.  The first block's inferred types are fixed for the
        rest; a later value that does not fit widens its column (a restart: :meth:`settled_pass`).
        Measured faster than the streaming reader, even on one thread: each block
        is parsed and converted in one go.
        """
        import pyarrow as pa
        import pyarrow.csv as pacsv

        parse_options = pacsv.ParseOptions(delimiter=self.delimiter)
        # The names are given, so a block needs no header line of its own.
        read_options = pacsv.ReadOptions(encoding="utf8", use_threads=False, column_names=list(self.names))

        def parse(block, types: dict):
            convert = pacsv.ConvertOptions(include_columns=list(names), column_types=types)
            with self._errors():
                return pacsv.read_csv(pa.BufferReader(block), read_options=read_options,
                                      parse_options=parse_options, convert_options=convert)

        with open(self.file, "rb") as handle:
            start = len(handle.readline())
        # Wide rows: a block holds at least BLOCK_ROWS rows (taking the header's length per
        # row), so that per-column costs are paid per thousand rows at least.
        blocks = line_blocks(self.file, start, max(self.PARSE_BLOCK, start * self.BLOCK_ROWS))
        try:
            first = next(blocks, None)
            if first is None:
                return
            table = narrow_zero_one(parse(first, {k: v for k, v in self.types.items() if k in names}), self.types)
            types = {field.name: field.type for field in table.schema}
            rows = 0
            self._consumed = start

            def emit(table, size: int):
                nonlocal rows
                check_utf8(table, self.encoding, rows)
                rows += table.num_rows
                self._consumed += size  # progress counts the bytes handed on, not those read ahead
                return table.to_batches()

            yield from emit(table, first.size)
            jobs = max(1, self.jobs)
            if jobs == 1:  # one thread in all: parse here, between the chunks' profiles
                for block in blocks:
                    yield from emit(parse(block, types), block.size)
            else:
                with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="nblint-parse") as pool:
                    in_flight: deque = deque()
                    try:
                        for block in blocks:
                            in_flight.append((pool.submit(parse, block, types), block.size))
                            if len(in_flight) > jobs:
                                future, size = in_flight.popleft()
                                yield from emit(future.result(), size)
                        while in_flight:
                            future, size = in_flight.popleft()
                            yield from emit(future.result(), size)
                    finally:
                        for future, _ in in_flight:
                            future.cancel()
            if names == self.names:
                self.types = types
                self.settled = True
        finally:
            blocks.close()

    def _streamed_batches(self, names):
        reader = self._open(names)
        rows = 0
        try:
            while True:
                with self._errors():
                    try:
                        batch = reader.read_next_batch()
                    except StopIteration:
                        break
                check_utf8(batch, self.encoding, rows)
                rows += batch.num_rows
                yield batch
        finally:
            reader.close()
        if names == self.names:
            # The first full pass fixes every column's type for the passes after it.
            self.types = {field.name: field.type for field in reader.schema}
            self.settled = True

    def _errors(self):
        return CsvErrors(self)

    def _widen(self, message: str) -> bool:
        """Widen the column named in a conversion error; False when it is not one."""
        found = CONVERSION_ERROR.search(message)
        if not found or "UTF8" in message:
            return False
        column = self.names[int(found.group("column"))]
        wider = wider_type(found.group("type"), found.group("value"))
        if wider is None:
            return False
        self.types[column] = wider
        return True
