"""Cutting an uncompressed CSV file into blocks of whole rows, read straight into pyarrow buffers."""

from __future__ import annotations

from collections.abc import Iterator


def line_blocks(path: str, start: int, size: int) -> Iterator:
    """The bytes of ``path`` from offset ``start`` in blocks of about ``size`` bytes.

    Each block ends at a line end (the last at the end of the file) and is a
    pyarrow buffer read straight from the file: no copy passes through Python
    bytes objects, which would hold a block's size several times over.  The next
    block is read from where the last one was cut.
    """
    import pyarrow as pa

    with pa.OSFile(path) as handle:
        total = handle.size()
        position = start
        while position < total:
            want = size
            while True:
                handle.seek(position)
                buffer = handle.read_buffer(min(want, total - position))
                if position + buffer.size >= total:
                    cut = buffer.size
                    break
                cut = _last_newline(buffer) + 1
                if cut:
                    break
                want *= 2  # a line longer than the block: read more of it
            block = buffer.slice(0, cut)
            position += cut
            if position < total or bytes(block).strip():  # (a last block of blank space holds no row)
                yield block


def _last_newline(buffer, window: int = 1 << 16) -> int:
    """Index of the last ``\\n`` in ``buffer`` (-1: none), looking back a window at a time."""
    view = memoryview(buffer)
    end = len(view)
    while end > 0:
        begin = max(0, end - window)
        found = bytes(view[begin:end]).rfind(b"\n")
        if found >= 0:
            return begin + found
        end = begin
    return -1

