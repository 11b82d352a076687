"""Arrow IPC files (Feather v2, ``.arrow``) and Feather v1, read one record batch at a time."""

from __future__ import annotations

import os

from nblint.core.errors import InputError, first_line
from nblint.readers.conversions import nested_arrow_type
from nblint.readers.sources import ArrowSource, StreamSource


class IpcSource(StreamSource):
    """An Arrow IPC file: its record batches, read again on every pass (no descriptor held between passes)."""

    def __init__(self, path: str, chunk_rows: int | None = None):
        import pyarrow as pa

        self.size_bytes = os.path.getsize(path)
        self.file = path
        try:
            with pa.OSFile(os.fsencode(path), "rb") as handle:
                reader = pa.ipc.open_file(handle)
                schema, n_rows = (
                    reader.schema,
                    sum(reader.get_batch(i).num_rows for i in range(reader.num_record_batches)),
                )
        except (pa.ArrowException, OSError) as exc:
            raise InputError(f"not a readable Arrow IPC file ({first_line(exc)})") from None
        if n_rows == 0:
            raise InputError("no data rows")
        self.skipped = {
            f.name: f"nested values ({nested_arrow_type(f.type)})" for f in schema if nested_arrow_type(f.type)
        }
        super().__init__(path, [n for n in schema.names if n not in self.skipped], n_rows, chunk_rows)

    def _batches(self, names):
        import pyarrow as pa

        try:
            with pa.OSFile(os.fsencode(self.file), "rb") as handle:
                reader = pa.ipc.open_file(handle)
                for i in range(reader.num_record_batches):
                    yield reader.get_batch(i).select(list(names))
        except (pa.ArrowException, OSError) as exc:
            raise InputError(f"not a readable Arrow IPC file ({first_line(exc)})") from None


def read_arrow_file(path: str):
    """An Arrow IPC file as a streamed source, or a Feather v1 file (which has no batches) held in memory."""
    import pyarrow as pa

    form = _arrow_form(path)
    if form == "feather":
        import pyarrow.feather as feather

        try:
            return ArrowSource(path, feather.read_table(path))
        except (pa.ArrowException, OSError) as exc:
            raise InputError(f"not a readable Feather file ({first_line(exc)})") from None
    if form == "file":
        return IpcSource(path)
    try:  # the IPC stream format (no footer): read whole
        return ArrowSource(path, _read_stream(path))
    except (pa.ArrowException, OSError) as exc:
        raise InputError(f"not a readable Arrow IPC stream ({first_line(exc)})") from None


def read_arrow_table(path: str):
    """The whole table of an Arrow IPC file, a Feather v1 file or an IPC stream (``pyarrow.Table``)."""
    if _arrow_form(path) == "stream":
        return _read_stream(path)
    import pyarrow.feather as feather

    return feather.read_table(path)  # (Feather v1, and v2, which is the IPC file format)


def _arrow_form(path: str) -> str:
    """``feather`` (v1), ``file`` (the IPC file format, Feather v2) or ``stream`` (no footer), by the first bytes."""
    with open(path, "rb") as handle:
        start = handle.read(6)
    if start.startswith(b"FEA1"):
        return "feather"
    return "file" if start.startswith(b"ARROW1") else "stream"


def _read_stream(path: str):
    import pyarrow as pa

    with pa.OSFile(os.fsencode(path), "rb") as handle:
        return pa.ipc.open_stream(handle).read_all()
