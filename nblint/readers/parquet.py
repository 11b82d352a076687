"""Parquet files, read one row group at a time."""

from __future__ import annotations

import os

from nblint.core.errors import InputError, first_line
from nblint.readers.conversions import nested_arrow_type
from nblint.readers.sources import StreamSource


class ParquetSource(StreamSource):
    """A Parquet file, read one row group at a time."""

    def __init__(self, path: str, chunk_rows: int | None = None):
        import pyarrow as pa
        import pyarrow.parquet as pq

        self.size_bytes = os.path.getsize(path)
        try:
            self.file = pq.ParquetFile(_openable(path))
        except (pa.ArrowException, OSError) as exc:
            raise InputError(f"not a readable Parquet file ({first_line(exc)})") from None
        if self.file.metadata.num_rows == 0:
            raise InputError("no data rows")
        self._done_groups = 0
        schema = self.file.schema_arrow
        self.skipped = {
            f.name: f"nested values ({nested_arrow_type(f.type)})" for f in schema if nested_arrow_type(f.type)
        }
        super().__init__(
            path, [n for n in schema.names if n not in self.skipped], self.file.metadata.num_rows, chunk_rows
        )

    def _batches(self, names):
        import pyarrow as pa

        metadata = self.file.metadata
        try:
            for group in range(self.file.num_row_groups):
                table = self.file.read_row_group(group, columns=list(names), use_threads=self.jobs > 1)
                self._done_groups = sum(metadata.row_group(g).total_byte_size for g in range(group + 1))
                yield from table.to_batches()
        except (pa.ArrowException, OSError) as exc:
            raise InputError(f"not a readable Parquet file ({first_line(exc)})") from None

    def _bytes_read(self) -> int:
        total = sum(self.file.metadata.row_group(g).total_byte_size for g in range(self.file.num_row_groups))
        return int(self.size_bytes * self._done_groups / max(total, 1))


def _openable(path: str):
    """``path``, or for a name that is not valid UTF-8 (pyarrow takes UTF-8 names only) the file opened by its bytes."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        import pyarrow as pa

        return pa.OSFile(os.fsencode(path), "rb")
    return path
