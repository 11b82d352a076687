"""CSV/TSV files (optionally gzip-compressed): cut into blocks of whole records, parsed, spilled once parsed.

The text (decompressed, for gzip) is cut into blocks of whole records
(:mod:`nblint.readers.csvblocks`: RFC 4180, so quoted line ends are no cut) and
parsed ``jobs`` blocks at a time.  Values and missing cells are pandas'
``read_csv`` ones: an empty cell, ``NA``, ``null``, ``None``, ``NaN``... is
missing in a text column as in a numeric one.  The first full pass keeps its
parsed rows in a spill (:mod:`nblint.readers.spill`), so later passes need not
parse the CSV again.  Column types are inferred from the first block; a later
value that does not fit restarts the pass once, with the types of every column
surveyed over the rest of the file (:mod:`nblint.readers.csvtypes`).  Text in
UTF-16 or UTF-32 (whose line ends are not single bytes) is streamed by
:func:`pyarrow.csv.open_csv` instead.
"""

from __future__ import annotations

import codecs
import io
import itertools
import os

from nblint.core.errors import InputError
from nblint.readers.chunks import Chunk, Restart
from nblint.readers.conversions import table_column_data
from nblint.readers.csvblocks import MAX_RECORD_BYTES, RecordError, in_order, record_blocks
from nblint.readers.csverrors import CsvErrors, check_utf8, codec_name
from nblint.readers.csvheader import Header, header_error, large_fields, read_header
from nblint.readers.csvtypes import (
    CONVERSION_ERROR,
    NULL_VALUES,
    beyond_int64,
    narrow_zero_one,
    narrowest_integer,
    never_negative,
    unify,
    wider_type,
)
from nblint.readers.digits import single_digits
from nblint.readers.kept import KEEP_BYTES, KeptChunks, keeper, kept_pass
from nblint.readers.magic import open_text, sniff
from nblint.readers.packed import MISSING, Packing, unpack_chunk, unpack_columns
from nblint.readers.sources import StreamSource, regroup
from nblint.readers.spill import PLAIN_BYTES, SpillWriter, read_spill, spill_compression


class CsvSource(StreamSource):
    """A CSV/TSV (optionally gzip-compressed) file.

    Parameters
    ----------
    path : str
        The file to read (``display`` is shown in messages instead, e.g. ``-``).
    delimiter : str
        The delimiter the file's name implies; another one is used when the header
        says so (:mod:`nblint.readers.csvheader`).
    encoding : str
    display : str, optional
    keep : object, optional
        Kept alive with the source (the spooled copy of standard input).
    """

    #: Bytes parsed per block by the streaming reader (UTF-16/32 text; pyarrow's default).
    BLOCK_SIZE = 1 << 20
    #: Bytes of text parsed at once by the block reader.
    PARSE_BLOCK = 1 << 22
    #: Rows a parsed block holds at least (estimated from the header's length) ...
    BLOCK_ROWS = 1024
    #: ... within this many bytes (a 50,000-column header would ask for 300 MB blocks).
    MAX_PARSE_BLOCK = 1 << 26
    #: Keep the parsed rows of the first pass in a temporary Arrow IPC file
    #: so that later passes need not parse the CSV again.
    SPILL = True
    #: A spill of at most this many bytes of values is written uncompressed (:func:`spill_compression`).
    SPILL_PLAIN_BYTES = PLAIN_BYTES
    #: ... for a file of at least this many bytes: a smaller one parses again in less time (well under
    #: a millisecond) than its spill takes to make, write and delete (a temporary file per table was
    #: a tenth of a folder of 2 KB tables' run).
    SPILL_MIN_BYTES = 1 << 16
    #: Rows per record batch of the spill, at least: LZ4 compresses each column's
    #: buffer of a batch apart, and short buffers (a chunk of a 2,000-column table
    #: has ~1,000 rows) cost more in per-buffer set-up than in compression (measured
    #: 8x slower to write and read at one such chunk per batch than at eight).
    SPILL_BATCH_ROWS = 8192
    #: ... and at most this many bytes of values (a batch of 8,192 rows of 50,000 int64 columns would
    #: be 3 GB), taken from the first chunk's bytes per row: int8 0/1 columns take an eighth of int64's,
    #: so a 20,000-column bag of words gets batches of 1,670 rows, not 800 (LZ4 frames per column
    #: buffer: 12 batches of 20,000 small buffers took 7 s of a 10,000-row table's first pass).
    SPILL_BATCH_BYTES = 1 << 25
    #: Bytes of values a first full pass keeps in memory at most (:func:`~nblint.readers.kept.keep_limit`).
    KEEP_BYTES = KEEP_BYTES
    #: Pack a full pass's int8 columns when there are many (:mod:`nblint.readers.packed`).
    PACK = True

    def __init__(
        self,
        path: str,
        delimiter: str = ",",
        encoding: str = "utf-8",
        display: str | None = None,
        chunk_rows: int | None = None,
        keep=None,
    ):
        display = display or path
        where = "standard input holds" if display == "-" else "the file holds"
        magic = sniff(path, where)  # the bytes say what the file is, whatever its name
        if magic.kind != "text":
            name = "Parquet" if magic.kind == "parquet" else "Arrow IPC (Feather)"
            suffix = "*.parquet" if magic.kind == "parquet" else "*.arrow or *.feather"
            raise InputError(f"{where} {name} data, not CSV text: name the file {suffix}")
        self.file = path
        self.encoding = magic.encoding or encoding  # a byte-order mark decides
        self.codec = codec_name(self.encoding)
        self.compression = magic.compression
        self.size_bytes = os.path.getsize(path)
        self._keep = keep
        self._raw = None
        self._spill = None  # tempfile holding the parsed rows, once a full pass completed
        self._spill_progress = [(0, 1)]
        self._kept: KeptChunks | None = None  # the first full pass's chunks, when kept in memory instead
        self._keeping: KeptChunks | None = None  # (those of the full pass under way)
        self._consumed: int | None = None  # bytes of parsed blocks handed on (block reader)
        #: Bytes of text per row of the first parsed block, or None (not parsed in blocks).
        self._text_per_row: float | None = None
        #: How the last full pass packed its int8 columns (its spill holds them so), or None.
        self._packing: Packing | None = None
        #: Column name -> pyarrow type: fixed after a widening and after the first full pass.
        self.types: dict = {}
        if self.compression is not None:
            self._refuse_compressed_binary(where)
        #: UTF-16/32 text has multi-byte line ends: pyarrow's streaming reader cuts it.
        self.streamed = codecs.lookup(self.encoding).name.startswith(("utf-16", "utf-32"))
        with self._errors():
            header = self._text_header(delimiter) if self.streamed else self._header(delimiter)
        self.delimiter = header.delimiter
        self._header_length = header.length
        super().__init__(display, header.names, None, chunk_rows)
        self.settled = False  # the types are inferred block by block: settled by a full pass

    def _stream(self):
        """A fresh input stream over the file's text bytes (decompressed)."""
        stream, self._raw = open_text(self.file, self.compression)
        return stream

    def _refuse_compressed_binary(self, where: str) -> None:
        """Compressed Parquet or Arrow data is not compressed CSV text: say what it is."""
        with self._stream() as stream:
            try:
                start = stream.read_buffer(8).to_pybytes()
            except Exception as exc:  # (a damaged archive: the codec's own error)
                raise InputError(f"{where} damaged {self.compression} data ({exc})") from None
        if start.startswith((b"PAR1", b"ARROW1", b"FEA1")):
            name = "Parquet" if start.startswith(b"PAR1") else "Arrow IPC (Feather)"
            raise InputError(f"{where} {self.compression}-compressed {name} data, not CSV text: decompress it first")

    def _header(self, delimiter: str) -> Header:
        try:
            return read_header(self._stream, delimiter, self.encoding, self.codec)
        except RecordError as exc:
            raise header_error(exc) from None

    def _text_header(self, delimiter: str) -> Header:
        """The header of UTF-16/32 text, decoded in Python (pyarrow reads its own header from the stream)."""
        import csv

        with self._stream() as stream:
            text = stream.read_buffer(MAX_RECORD_BYTES).to_pybytes().decode(self.encoding, "replace")
        with large_fields():
            names = next(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter), None)
        if not names:
            raise InputError("file is empty")
        return Header(names, 0, delimiter)

    def _tables(self, names):
        """Parse the CSV (a first full pass keeps its chunks or spills its rows) or read the spill (later passes)."""
        if self._spill is not None:
            packing = self._packing
            spilled, layout = (
                (packing.spilled(names), (*packing.rest, *Packing.LISTS)) if packing else (names, self.names)
            )
            yield from regroup(
                read_spill(self._spill, spilled, layout, self.jobs, self._spill_progress), self.chunk_rows
            )
            return
        if names != self.names or self._kept is not None:  # (part of the columns, or the rows again for Arrow)
            yield from super()._tables(names)
            return
        spill = None
        try:
            for i, table in enumerate(super()._tables(names)):
                spill = self._keep_or_spill(table) if i == 0 else spill
                if spill is not None:
                    spill.add(table)
                yield table
            self._spill = spill.finish() if spill is not None else None
        finally:
            if spill is not None and self._spill is None:
                spill.close()

    def _keep_or_spill(self, first) -> SpillWriter | None:
        """The first full pass's spill, or None when its chunks are kept in memory (or the file is small)."""
        known = self._text_per_row if self.compression is None else None  # (compressed text: no estimate)
        self._keeping = keeper(first, self.size_bytes, known, self.KEEP_BYTES, self.memory_budget, self._packing)
        if self._keeping is not None or not (self.SPILL and self.size_bytes >= self.SPILL_MIN_BYTES):
            return None
        spill = SpillWriter(self.chunk_rows, max_rows=self.SPILL_BATCH_ROWS, max_bytes=self.SPILL_BATCH_BYTES)
        spill.compression = spill_compression(first, self.size_bytes, known, self.SPILL_PLAIN_BYTES)
        return spill

    def _pass(self, columns, sparse_except=None):
        """A pass over the file, or over the chunks a full pass kept (:mod:`nblint.readers.kept`)."""
        if self._kept is not None:
            yield from kept_pass(self, self._kept, columns)
            return
        self._keeping = keeping = None
        for chunk in super()._pass(columns, sparse_except):
            keeping, self._keeping = keeping or self._keeping, None  # (set by the first table of a full pass)
            if keeping is not None:
                keeping.add(chunk)
            yield chunk
        self._kept = keeping if keeping is not None and not keeping.dropped else None

    def arrow_tables(self):
        """The rows as Arrow tables of every column as read, typed for the whole file (packed columns unpacked)."""
        if not self.settled:
            self.settled_pass(lambda chunks: [None for _ in chunks])
        for table in self._tables(tuple(self.names)):
            packing = self._packing
            if packing is None or not table.num_columns or table.schema.names[-1] != MISSING:
                yield table
            else:
                yield packing.unpack_table(table, self.names)

    def _chunk(self, table, names, row_offset: int, sparse_except) -> Chunk:
        """A chunk of the rows of ``table``, which holds packed columns after a wide table's full pass."""
        packing = self._packing
        if packing is None or not table.num_columns or table.schema.names[-1] != MISSING:
            return super()._chunk(table, names, row_offset, sparse_except)
        if sparse_except is not None:
            return unpack_chunk(packing, table, names, row_offset, table_column_data, sparse_except)
        return Chunk(names, unpack_columns(packing, table, names, table_column_data), row_offset, table.num_rows)

    def _bytes_read(self) -> int:
        if self._kept is not None:
            return self._kept.progress(self.size_bytes)
        if self._spill is not None:
            done, total = self._spill_progress[0]
            return self.size_bytes * done // max(total, 1)
        if self._consumed is not None and self.compression is None:
            return self._consumed
        try:
            return self._raw.tell() if self._raw is not None else 0
        except Exception:  # a closed file: the pass is over
            return self.size_bytes

    def _batches(self, names):
        if self.streamed:
            return self._streamed_batches(names)
        return self._block_batches(names)

    def _block_batches(self, names):
        """Parse the text in blocks of whole records, ``jobs`` blocks at a time, in order.

        The first block's inferred types are fixed for the rest.  A later value
        that does not fit them makes this pass end in a restart (see
        :meth:`settled_pass`) after :meth:`_survey` has widened every column that needs it.
        Measured faster than pyarrow's streaming reader, even on one thread: each block
        is parsed and converted in one go.
        """
        import pyarrow as pa
        import pyarrow.csv as pacsv

        # The names are given, so a block needs no header line of its own.
        # One pyarrow block per block of ours: with pyarrow's 1 MiB default a 64 MiB block of a
        # 50,000-column table became 64 pieces of every column (3 million small arrays).
        read_options = pacsv.ReadOptions(
            encoding=self.codec,
            use_threads=False,
            column_names=list(self.names),
            block_size=max(self.MAX_PARSE_BLOCK, 1 << 20),
        )
        # Only a block that holds a quote can hold a line end inside a value.
        parse_options = {
            quoted: pacsv.ParseOptions(delimiter=self.delimiter, newlines_in_values=quoted) for quoted in (False, True)
        }

        def parse(block, types: dict | None):
            """The block's rows; None when a value does not fit ``types`` (None: infer every type)."""
            convert = pacsv.ConvertOptions(
                include_columns=list(names), column_types=types or {}, null_values=NULL_VALUES, strings_can_be_null=True
            )
            try:
                with self._errors():
                    return pacsv.read_csv(
                        pa.BufferReader(block.data),
                        read_options=read_options,
                        parse_options=parse_options[block.quoted],
                        convert_options=convert,
                    )
            except Restart:  # (a conversion error: see _widen)
                return None

        stream = self._stream()
        stream.read_buffer(self._header_length)  # (past the header)
        # Wide rows: a block holds at least BLOCK_ROWS rows (taking the header's length per
        # row), so that per-column costs are paid per thousand rows at least.
        size = min(max(self.PARSE_BLOCK, self._header_length * self.BLOCK_ROWS), self.MAX_PARSE_BLOCK)
        if self.compression is None and os.path.isfile(self.file):
            # A file shorter than a block is read in one block of its own length (one byte
            # more, so the first read meets the end): a 2 KB table zeroed a 4 MiB buffer,
            # the largest fixed cost of each file in a folder of small tables. (A pipe's
            # length is not known: its blocks keep their size.)
            size = min(size, max(self.size_bytes - self._header_length, 0) + 1)
        blocks = self._records(stream, size)
        try:
            first = next(blocks, None)
            if first is None:
                return
            fixed = {k: v for k, v in self.types.items() if k in names}
            # A full pass of a wide table packs its int8 columns (kept so in the spill), and
            # reads its blocks of single digits without parsing them (they are most of a 0/1 table's).
            full = self.PACK and names == self.names
            fast = self._digit_block(first, fixed) if full else None
            if fast is not None:
                types, packing, table = fast
            else:
                table = parse(first, fixed)
                if table is None:
                    self._survey(itertools.chain([first], blocks), {}, parse)
                unsigned = beyond_int64(table, self.types)
                if unsigned:  # whole numbers past int64, which pyarrow infers as float64: exact as uint64 if they fit
                    exact = parse(first, fixed | {name: pa.uint64() for name in unsigned})
                    table = table if exact is None else exact
                table = narrow_zero_one(table, self.types)
                types = {field.name: field.type for field in table.schema}
                packing = Packing.of(types, names) if full else None
                table = packing.pack(table) if packing is not None else table
            if names == self.names:
                self._packing = packing

            def convert(block):
                """The block's rows as the first block's types make them (packed); None: they do not fit."""
                if packing is None:
                    return parse(block, types)
                digits = self._digits(block)
                table = packing.pack_digits(digits, types) if digits is not None else None
                return table if table is not None else packing.pack(parse(block, types))

            rows = 0
            self._consumed = self._header_length

            def emit(table, block):
                nonlocal rows
                check_utf8(table, self.encoding, rows)
                rows += table.num_rows
                self._consumed = block.offset + block.size  # progress counts the bytes handed on, not those read ahead
                return table.to_batches()

            self._text_per_row = first.size / max(table.num_rows, 1)
            yield from emit(table, first)
            for block, table, rest in in_order(blocks, convert, max(1, self.jobs)):
                if table is None:
                    self._survey(itertools.chain([block], rest, blocks), types, parse)
                yield from emit(table, block)
            if names == self.names:
                self.types = types
                self.settled = True
        finally:
            blocks.close()
            stream.close()

    def _digits(self, block):
        """The block's values when every field is one digit (:mod:`nblint.readers.digits`), else None."""
        if block.quoted or self.codec.replace("-", "").lower() != "utf8":
            return None
        return single_digits(block.data, len(self.names), self.delimiter)

    def _digit_block(self, block, fixed: dict):
        """``(types, packing, packed table)`` of a wide table's first block of single digits, or None.

        The types are those pyarrow infers, narrowed as :func:`narrow_zero_one` narrows them:
        int8 for a column of 0 and 1, else int64, unless ``fixed``.
        """
        import pyarrow as pa

        digits = self._digits(block)
        if digits is None:
            return None
        zero_one = digits.max(axis=0) <= 1
        types = {
            name: fixed.get(name, pa.int8() if small else pa.int64())
            for name, small in zip(self.names, zero_one.tolist())
        }
        packing = Packing.of(types, self.names)
        table = packing.pack_digits(digits, types) if packing is not None else None
        return None if table is None else (types, packing, table)

    def _records(self, stream, size: int):
        """The blocks of whole records, with a record error made a one-line input error."""
        try:
            yield from record_blocks(stream, size, self.delimiter, offset=self._header_length)
        except RecordError as exc:
            raise InputError(exc.describe(self._line_at(exc.position))) from None

    def _survey(self, blocks, types: dict, parse) -> None:
        """Widen every column's type to hold the values of ``blocks`` too, then restart the pass.

        Each block's types are inferred on their own (whole numbers that fit int8
        taken as int8, as the first block's 0/1 columns are) and joined with the
        types so far (:func:`~nblint.readers.csvtypes.unify`).  The restarted pass
        then meets no value its types cannot hold: one restart in all, whatever
        the number of columns whose type changes.
        """
        import pyarrow as pa

        widened = dict(types or self.types)
        for block in blocks:
            table = parse(block, None)
            unsigned = set(beyond_int64(table, {}))  # whole numbers past int64, inferred float64
            for field, column in zip(table.schema, table.columns):
                seen = pa.uint64() if field.name in unsigned else narrowest_integer(field.type, column)
                if field.name in widened:
                    seen = unify(widened[field.name], seen, never_negative(seen, column))
                widened[field.name] = seen
        self.types.update(widened)
        raise Restart("column types widened")

    def _line_at(self, position: int) -> int:
        """The 1-based line of byte ``position`` of the text (an error path: read again to count)."""
        stream = self._stream()
        try:
            lines, left = 1, position
            while left > 0:
                piece = stream.read_buffer(min(left, 1 << 22)).to_pybytes()
                if not piece:
                    break
                lines += piece.count(b"\n")
                left -= len(piece)
            return lines
        finally:
            stream.close()

    def _streamed_batches(self, names):
        import pyarrow.csv as pacsv

        stream = self._stream()
        convert = pacsv.ConvertOptions(
            include_columns=list(names),
            column_types={k: v for k, v in self.types.items() if k in names},
            null_values=NULL_VALUES,
            strings_can_be_null=True,
        )
        with self._errors():
            reader = pacsv.open_csv(
                stream,
                read_options=pacsv.ReadOptions(
                    encoding=self.codec, block_size=self.BLOCK_SIZE, use_threads=self.jobs > 1
                ),
                parse_options=pacsv.ParseOptions(delimiter=self.delimiter, newlines_in_values=True),
                convert_options=convert,
            )
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
        """Whether ``message`` is a conversion error (a value its column's type cannot hold).

        The streaming reader widens that one column here (and restarts); the block
        reader surveys every column instead (:meth:`_survey`).
        """
        found = CONVERSION_ERROR.search(message)
        if not found or "UTF8" in message:
            return False
        if not self.streamed:
            return True
        column = self.names[int(found.group("column"))]
        wider = wider_type(found.group("type"), found.group("value"))
        if wider is None:
            return False
        self.types[column] = wider
        return True
