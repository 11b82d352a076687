"""Cutting CSV bytes into blocks of whole records (RFC 4180: quoted fields may hold line ends).

A block must end where a record ends, or pyarrow would parse half a record at
each side of the cut.  A line end inside a quoted field is not a record end, so
where the block holds a quote the cut is found by following the quoting rules
(:func:`record_ends`), vectorised over the block's runs of quote characters.
Blocks are pyarrow buffers read from the file (or from the gzip stream); the
bytes after a cut, the start of a record, are carried into the next block.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

#: The longest record (a header or a row) read, in bytes: a "line" longer than this
#: is not a table row (a newline-free stream such as /dev/zero or a gzip bomb, or
#: an unterminated quote) and is refused instead of being read into memory whole.
MAX_RECORD_BYTES = 32 << 20

_QUOTE, _NEWLINE, _RETURN = ord('"'), ord("\n"), ord("\r")


@dataclass(frozen=True)
class Block:
    """Whole records of a CSV: ``data`` (a pyarrow buffer) from byte ``offset`` of the (decompressed) text.

    ``quoted`` says whether the block holds a quote character at all, so that
    only such blocks ask pyarrow to look for line ends inside values.
    """

    data: Any  # a pyarrow Buffer (pyarrow ships no types)
    offset: int
    quoted: bool

    @property
    def size(self) -> int:
        return self.data.size


def record_ends(data: np.ndarray, delimiter: str) -> tuple[np.ndarray, int]:
    """Line ends of ``data`` that end a record, and where an unterminated quoted field starts.

    ``data`` (bytes as uint8) starts at a record boundary.  The quoting rules
    are pyarrow's and pandas': a quote opens a quoted field only at the start of
    a field (after a delimiter or a line end); inside one, ``""`` is a quote
    and a single quote closes it; elsewhere a quote is an ordinary character.
    For a maximal run of ``L`` quote characters this means: ``L`` even changes
    nothing; ``L`` odd at a field start toggles "inside"; ``L`` odd elsewhere
    leaves the field outside quotes (it closes one, or it is literal).  So the
    state after a run is the parity of the toggles since the last such reset:
    two cumulative sums, no loop over bytes.

    A line end is ``\\n``, or a ``\\r`` not followed by one (old Mac text, which
    pyarrow and pandas read too).

    Returns
    -------
    (ends, open_quote)
        Positions of the line ends that end records; the position of the quote that
        opens a field still open at the end of ``data``, or -1.
    """
    newlines = _line_ends(data)
    quotes = np.flatnonzero(data == _QUOTE)
    if not len(quotes):
        return newlines, -1
    first = np.ones(len(quotes), dtype=bool)
    first[1:] = quotes[1:] != quotes[:-1] + 1
    starts = quotes[first]
    odd = np.diff(np.append(np.flatnonzero(first), len(quotes))) % 2 == 1
    before = data[np.maximum(starts - 1, 0)]
    field_start = (starts == 0) | (before == ord(delimiter)) | (before == _NEWLINE) | (before == _RETURN)
    toggle, reset = odd & field_start, odd & ~field_start
    toggles = np.cumsum(toggle)
    last_reset = np.maximum.accumulate(np.where(reset, np.arange(len(starts)), -1))
    since_reset = toggles - np.where(last_reset >= 0, toggles[np.maximum(last_reset, 0)], 0)
    inside_after = since_reset % 2 == 1  # inside a quoted field after run i
    run = np.searchsorted(starts, newlines) - 1  # the last run before each line end
    inside = (run >= 0) & inside_after[np.maximum(run, 0)]
    open_quote = int(starts[np.flatnonzero(toggle)[-1]]) if inside_after[-1] else -1
    return newlines[~inside], open_quote


def _line_ends(data: np.ndarray) -> np.ndarray:
    """Positions of ``\\n``, and of ``\\r`` followed by something else (a last ``\\r`` may be half a ``\\r\\n``)."""
    ends = data == _NEWLINE
    returns = data == _RETURN
    if returns.any():
        returns[:-1] &= ~ends[1:]
        returns[-1] = False
        ends |= returns
    return np.flatnonzero(ends)


def record_blocks(
    stream, size: int, delimiter: str, offset: int = 0, max_record: int = MAX_RECORD_BYTES
) -> Iterator[Block]:
    """The bytes of ``stream`` (from its current position, byte ``offset`` of the text) in blocks of whole records.

    Each block holds about ``size`` bytes and ends at a record end (the last one
    at the end of the stream).  A record longer than ``size`` grows the block, up
    to ``max_record`` bytes.

    Raises
    ------
    RecordError
        A record longer than ``max_record`` bytes, or a quoted field that never ends.
    """
    import pyarrow as pa

    carry = b""  # the bytes after the last cut: the start of the next block
    want = size
    at_end = False
    while not at_end:
        wanted = max(want - len(carry), size)  # (carry holds no record end: always read more)
        # Read straight after the carried bytes: no copy of the block to join them (a wide
        # table's 64 MiB blocks were copied twice, a fifth of its first pass's own work).
        raw = bytearray(len(carry) + wanted)
        raw[: len(carry)] = carry
        whole = memoryview(raw)
        fresh = whole[len(carry) :]
        got = stream.readinto(fresh)
        fresh.release()
        whole.release()
        at_end = got < wanted
        if at_end:
            del raw[len(carry) + got :]
        data = pa.py_buffer(raw)
        view = np.frombuffer(data, dtype=np.uint8)
        quoted = raw.find(b'"') >= 0  # (a memchr: a tenth of the time of a comparison over the bytes)
        if quoted:
            ends, open_quote = record_ends(view, delimiter)
            last = int(ends[-1]) if len(ends) else -1
        else:
            last, open_quote = _last_newline(data), -1
        if at_end:
            if open_quote >= 0:
                raise RecordError(offset + open_quote, unterminated=True)
            cut = len(view)
        elif last >= 0:
            cut = last + 1
        else:  # no record ends in this block: read more of the record
            if len(view) > max_record:
                raise RecordError(offset + max(open_quote, 0), unterminated=open_quote >= 0, limit=max_record)
            carry, want = data.to_pybytes(), min(2 * max(want, len(view)), max_record + size)
            continue
        block = data.slice(0, cut)
        if not at_end or _has_content(block):  # (a last block of blank space holds no row)
            yield Block(block, offset, quoted)
        offset += cut
        carry = data.slice(cut).to_pybytes()
        want = size


def first_record(stream, delimiter: str, max_record: int = MAX_RECORD_BYTES) -> tuple[bytes, bytes]:
    """The bytes of the stream's first record (its header), reading no more than ``max_record`` bytes.

    Returns
    -------
    (record, read)
        The record, and every byte read (the record and what followed it in the last read).

    Raises
    ------
    RecordError
        As :func:`record_blocks`.
    """
    pieces: list[bytes] = []
    read = 0
    want = 1 << 16
    while True:
        fresh = stream.read_buffer(want).to_pybytes()
        pieces.append(fresh)
        read += len(fresh)
        at_end = len(fresh) < want
        if b"\n" in fresh or b"\r" in fresh or at_end:  # (no line end so far: no record end to look for)
            data = b"".join(pieces)
            pieces = [data]
            ends, open_quote = record_ends(np.frombuffer(data, dtype=np.uint8), delimiter)
            if len(ends):
                return data[: int(ends[0]) + 1], data
            if at_end:
                if open_quote >= 0:
                    raise RecordError(open_quote, unterminated=True)
                return data, data
        if read > max_record:
            open_quote = record_ends(np.frombuffer(b"".join(pieces), dtype=np.uint8), delimiter)[1]
            raise RecordError(max(open_quote, 0), unterminated=open_quote >= 0, limit=max_record)
        want = min(2 * want, 1 << 22)


class RecordError(Exception):
    """A record that never ends: an unterminated quote, or no line end within ``limit`` bytes.

    ``position`` is the byte offset (in the decompressed text) of the quote that
    opens the field, or of the record's start; the reader turns it into a line.
    """

    def __init__(self, position: int, unterminated: bool, limit: int | None = None):
        super().__init__(position)
        self.position, self.unterminated, self.limit = position, unterminated, limit

    def describe(self, line: int) -> str:
        """The one-line message, given the 1-based line of ``position``."""
        if self.unterminated:
            beyond = f" within {self.limit >> 20} MiB" if self.limit else ""
            return f"unterminated quote: the quoted field starting at line {line} does not end{beyond}"
        assert self.limit is not None  # a record with no open quote is cut only at a limit
        return f"line {line} is longer than {self.limit >> 20} MiB with no line end: not a CSV table"


def _has_content(block) -> bool:
    """Whether a last block holds more than blank space."""
    return bool(block.to_pybytes().strip()) if block.size <= 1 << 16 else True


def _last_newline(buffer, window: int = 1 << 16) -> int:
    """Index of the last line end (``\\n`` or ``\\r``) in ``buffer`` (-1: none), looking back a window at a time."""
    view = memoryview(buffer)
    end = len(view)
    while end > 0:
        begin = max(0, end - window)
        piece = bytes(view[begin:end])
        # (a \r that ends the buffer may be half a \r\n: not a line end yet)
        found = max(piece.rfind(b"\n"), piece.rfind(b"\r", 0, len(piece) - (end == len(view))))
        if found >= 0:
            return begin + found
        end = begin
    return -1


def in_order(blocks, parse, jobs: int):
    """``(block, parse(block), rest)`` for each block, in order, parsed ``jobs`` at a time.

    ``rest`` lists the blocks read ahead and not yet handed on (for a survey).
    """
    if jobs == 1:  # one thread in all: parse here, between the chunks' profiles
        for block in blocks:
            yield block, parse(block), []
        return
    with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="nblint-parse") as pool:
        in_flight: deque = deque()
        try:
            for block in blocks:
                in_flight.append((pool.submit(parse, block), block))
                if len(in_flight) > jobs:
                    future, done = in_flight.popleft()
                    yield done, future.result(), [b for _, b in in_flight]
            while in_flight:
                future, done = in_flight.popleft()
                yield done, future.result(), [b for _, b in in_flight]
        finally:
            for future, _ in in_flight:
                future.cancel()
