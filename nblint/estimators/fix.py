"""``nblint fix``: write a table with its one-hot/dummy groups collapsed into categorical columns.

Each group found by nblint (exact on every row: the members of a one-hot group
sum to one, those of a dummy group to at most one) becomes one text column, at
the position of its first member, holding the level of each row: the name of the
member that is set, less the group's common stem (``colour_red`` -> ``red``), and
for a dummy group ``(reference)`` where none is.  Nothing is lost: a mapping file
written beside the output (``<output stem>.mapping.json``) records each group's
members, levels and type, and :func:`restore` (``nblint fix --restore``) writes
the bits back.  The rows are streamed chunk by chunk (CSV or Parquet out); the
input is never written.
"""

from __future__ import annotations

import json
import os

import numpy as np

from nblint.core.errors import InputError
from nblint.readers.formats import TableFormat, table_format

#: Version of the mapping file's layout.
MAPPING_VERSION = 1
#: Level of a dummy group's rows where no member is set.
REFERENCE = "(reference)"
_SEPARATORS = "_-.: "


def mapping_path(output: str) -> str:
    """Where the mapping of ``output`` is written: beside it, ``<stem>.mapping.json``."""
    root = os.path.splitext(output)[0]
    if _format(output).compression:  # data.csv.gz: data.mapping.json
        root = os.path.splitext(root)[0]
    return root + ".mapping.json"


def output_format(path: str) -> str:
    """``parquet`` or ``csv`` from the output's suffix, told as nblint tells a table's (InputError for anything else)."""
    form = table_format(path) if path != "-" else None
    if form is None or form.kind not in ("csv", "parquet"):
        raise InputError("the output must be a .parquet, .pq, .csv, .tsv or .tab file (CSV gzipped with .gz)")
    return form.kind


def _format(path: str) -> TableFormat:
    """How a table named ``path`` is written or read back (its delimiter and compression by suffix)."""
    return table_format(path) or TableFormat("csv")


def check_outputs(inputs: list[str], outputs: list[str]) -> None:
    """Refuse an output that names an input (InputError): nblint never writes its inputs."""
    for output in outputs:
        for path in inputs:
            if path == "-":
                continue
            same = os.path.exists(output) and os.path.exists(path) and os.path.samefile(output, path)
            if same or os.path.realpath(output) == os.path.realpath(path):
                raise InputError(f"refusing to write {output}: it is an input (nblint never overwrites its inputs)")


def group_mappings(ctx) -> list[dict]:
    """One entry per group: the collapsed column's name, kind, members, levels and member type."""
    taken = set(ctx.profile.names)
    numeric = ctx.profile.numeric
    order = ctx.source_order
    mappings = []
    for group in sorted(ctx.structure.groups, key=lambda g: min(order[m] for m in g.members)):
        members = sorted(group.members, key=order.__getitem__)
        column = _free_name(group.stem or group.label, taken)
        taken.add(column)
        levels = _levels(members, group.stem)
        if group.kind == "dummy":
            levels.append(REFERENCE if REFERENCE not in levels else f"{REFERENCE} of {column}")
        integer = all(bool(numeric.integer_dtype[numeric.names.index(m)]) for m in members)
        mappings.append(
            {
                "column": column,
                "kind": group.kind,
                "members": members,
                "levels": levels,
                "member_type": "int64" if integer else "double",
            }
        )
    return mappings


def _free_name(name: str, taken: set) -> str:
    while name in taken:
        name += "_collapsed"
    return name


def _levels(members: list[str], stem: str | None) -> list[str]:
    """Each member's level: its name less the common stem, when that leaves distinct non-empty names."""
    if stem:
        levels = [m[len(stem) :].lstrip(_SEPARATORS) if m.startswith(stem) else m for m in members]
        if all(levels) and len(set(levels)) == len(levels):
            return levels
    return list(members)


def write_fixed(ctx, output: str, force: bool = False) -> list[dict]:
    """Write the table of ``ctx`` to ``output`` with its groups collapsed, and the mapping beside it.

    Every column that is not a group's member is written as it was read
    (:func:`_raw_tables`): its exact values and type.  Both files are written
    as one unit (:func:`nblint.core.atomic.atomic_outputs`): both in full, then moved
    into place together, so a run's table is never left beside another run's mapping
    and a failure leaves the previous pair; neither replaces an existing file unless
    ``force``.

    Returns
    -------
    list of dict
        The groups' mappings (empty: nothing written).
    """
    from nblint.core.atomic import atomic_outputs, refuse_existing

    mappings = group_mappings(ctx)
    if not mappings:
        return []
    fmt = output_format(output)
    refuse_existing([output, mapping_path(output)], force)
    first = {m["members"][0]: m for m in mappings}
    members = {name for m in mappings for name in m["members"]}
    raw = _raw_tables(ctx.source)
    if raw is None:  # a source without its own Arrow rows (Dask): the chunks nblint read
        raw = _chunk_tables(ctx)
    types: dict[str, str] = {}

    def tables():
        import pyarrow as pa

        for table in raw:
            columns, out_names = [], []
            for name, column in zip(table.column_names, table.columns):
                if name in members and not types.get(name):
                    types[name] = str(column.type)
                if name in first:
                    mapping = first[name]
                    columns.append(_collapsed(table, mapping))
                    out_names.append(mapping["column"])
                elif name not in members:
                    columns.append(column)
                    out_names.append(name)
            result = pa.table(columns, names=out_names)
            yield result.replace_schema_metadata(_metadata(table.schema.metadata, out_names))

    with atomic_outputs([output, mapping_path(output)], force) as (table_file, mapping_file):
        _write(tables(), table_file, fmt, output)
        for mapping in mappings:
            mapping["member_types"] = [types.get(m, mapping["member_type"]) for m in mapping["members"]]
        document = {"nblint_fix_mapping": MAPPING_VERSION, "source": ctx.path, "groups": mappings}
        text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
        with open(mapping_file, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    return mappings


def _raw_tables(source):
    """The source's rows as Arrow tables with every column as it was read, or None (no such rows).

    A DataFrame's columns keep their pandas types through Arrow (time zones,
    ordered categories, nullable integers and booleans, decimals); a Parquet
    file's and an Arrow table's are passed on untouched, nested columns too; a
    CSV's are its parsed columns, once the types are settled for the whole file.
    """
    import pyarrow as pa

    from nblint.readers.csvfile import CsvSource
    from nblint.readers.parquet import ParquetSource
    from nblint.readers.sources import ArrowSource, DataFrameSource

    step = source.chunk_rows
    if isinstance(source, DataFrameSource):
        frame = source.frame

        def frames():
            for start in range(0, len(frame), step):
                part = frame.iloc[start : start + step]
                part = part.set_axis([str(c) for c in part.columns], axis=1)
                yield pa.Table.from_pandas(part, preserve_index=False)

        return frames()
    if isinstance(source, ArrowSource):
        return (source.table.slice(start, step) for start in range(0, source.table.num_rows, step))
    if isinstance(source, ParquetSource):
        return (pa.Table.from_batches([b]) for b in source.file.iter_batches(batch_size=step))
    if isinstance(source, CsvSource):  # (a wide table's 0/1 columns are packed in its spill: unpacked here)
        return source.arrow_tables()
    return None


def _chunk_tables(ctx):
    names = list(ctx.source.names)
    import pyarrow as pa

    for chunk in ctx.scan(names):
        yield pa.table([arrow_array(chunk.column(n)) for n in names], names=names)


def _metadata(metadata, names: list[str]):
    """The schema metadata with pandas' column list cut to the columns written (the rest is kept as is)."""
    if not metadata or b"pandas" not in metadata:
        return metadata
    document = json.loads(metadata[b"pandas"])
    kept = set(names)
    document["columns"] = [c for c in document.get("columns", []) if c.get("name") in kept]
    return {**metadata, b"pandas": json.dumps(document).encode()}


def _collapsed(table, mapping: dict):
    """The group's level on every row of the table (as text)."""
    import pyarrow as pa

    from nblint.readers.conversions import arrow_column_data

    levels = np.array(mapping["levels"], dtype=object)
    code = np.full(table.num_rows, len(mapping["members"]), dtype=np.int64)  # the reference (dummy groups)
    for k, member in enumerate(mapping["members"]):
        code[arrow_column_data(table.column(member)).as_float() == 1] = k
    return pa.array(levels[code].tolist(), type=pa.string())


def arrow_array(col):
    """A chunk's column as an Arrow array: text, integers, booleans or floats, missing as null."""
    import pyarrow as pa

    if col.kind == "text":
        labels = np.array(list(col.labels) + [None], dtype=object)
        return pa.array(labels[col.values].tolist(), type=pa.string())
    missing = col.missing if col.missing is not None else None
    values = col.values
    if values.dtype.kind == "f":
        missing = np.isnan(values)
    return pa.array(values, mask=missing if missing is not None and missing.any() else None)


def write_tables(tables, output: str, force: bool = False) -> None:
    """Write Arrow tables, one after the other, to ``output`` (CSV or Parquet by its suffix), atomically."""
    from nblint.core.atomic import atomic_output

    fmt = output_format(output)
    with atomic_output(output, force) as temporary:
        _write(iter(tables), temporary, fmt, output)


def _write(tables, path: str, fmt: str, name: str) -> None:
    """Stream Arrow tables to ``path`` (in the format ``name`` says); each later chunk cast to the first's schema."""
    import pyarrow as pa

    writer, schema = None, None
    try:
        for table in tables:
            if fmt == "csv":
                table = _csv_ready(table)
            if writer is None:
                schema = pa.schema(
                    [pa.field(f.name, pa.float64() if pa.types.is_null(f.type) else f.type) for f in table.schema],
                    metadata=table.schema.metadata,
                )
                writer = _writer(path, fmt, schema, name)
            writer.write_table(_cast(table, schema))
        if writer is None:
            raise InputError("the table has no rows")
    finally:
        if writer is not None:
            writer.close()


def _csv_ready(table):
    """Columns a CSV cannot write as they are, as text: durations with their unit, nested values as JSON-like text."""
    import pyarrow as pa

    from nblint.readers.conversions import nested_arrow_type

    columns = []
    for column in table.columns:
        kind = column.type
        if pa.types.is_duration(kind):  # pyarrow writes a bare count, without its unit
            text = [None if v is None else str(v) for v in column.to_pandas()]
            column = pa.array([None if v in ("NaT", None) else v for v in text], type=pa.string())
        elif nested_arrow_type(kind) or isinstance(kind, pa.BaseExtensionType):
            column = pa.array([None if v is None else str(v) for v in column.to_pylist()], type=pa.string())
        columns.append(column)
    return pa.table(columns, names=table.column_names)


def _cast(table, schema):
    """``table`` in ``schema``'s types; an integer column that meets a float in a later chunk stays float."""
    import pyarrow as pa

    columns = []
    for column, field in zip(table.columns, schema):
        columns.append(column.cast(field.type) if column.type != field.type else column)
    return pa.table(columns, schema=schema)


def _writer(path: str, fmt: str, schema, name: str):
    if fmt == "parquet":
        import pyarrow.parquet as pq

        return pq.ParquetWriter(path, schema)
    return MinimalCsvWriter(path, schema, _format(name))


class MinimalCsvWriter:
    """A CSV writer that quotes a name or value only where it must: a delimiter, a quote or a line end in it.

    pyarrow's own writer quotes every header name and every string value, so a fixed
    table, or ``--restore``'s output, differed from its source on every line although
    the values were equal.  Values are rendered by pyarrow (numbers, dates, times as it
    writes them) without quotes; a chunk holding a value that needs them is rendered
    with pyarrow's quoting and re-quoted minimally by :mod:`csv` (only such chunks pay
    for Python's parsing).  Numbers are pyarrow's rendering: an integral float comes out
    as ``74``, not ``74.0``.

    Parameters
    ----------
    path : str
    schema : pyarrow.Schema
    form : nblint.readers.TableFormat
        The delimiter, and gzip compression.
    """

    def __init__(self, path: str, schema, form):
        import pyarrow as pa

        self.delimiter = form.delimiter
        self.stream = pa.CompressedOutputStream(path, "gzip") if form.compression else pa.OSFile(path, "wb")
        self.stream.write(self._requoted([list(schema.names)]))

    def _requoted(self, rows) -> bytes:
        import csv
        import io

        text = io.StringIO()
        csv.writer(text, delimiter=self.delimiter, lineterminator="\n", quoting=csv.QUOTE_MINIMAL).writerows(rows)
        return text.getvalue().encode("utf-8")

    def write_table(self, table) -> None:
        import csv
        import io

        import pyarrow as pa
        import pyarrow.csv as pacsv

        def rendered(quoting: str) -> bytes:
            buffer = pa.BufferOutputStream()
            options = pacsv.WriteOptions(include_header=False, delimiter=self.delimiter, quoting_style=quoting)
            pacsv.write_csv(table, buffer, write_options=options)
            return buffer.getvalue().to_pybytes()

        try:
            self.stream.write(rendered("none"))  # pyarrow refuses a value that would need quotes
        except pa.ArrowInvalid:
            text = io.StringIO(rendered("needed").decode("utf-8"), newline="")
            self.stream.write(self._requoted(csv.reader(text, delimiter=self.delimiter)))

    def close(self) -> None:
        self.stream.close()


def read_mapping(path: str) -> dict:
    """A mapping file written by :func:`write_fixed` (InputError when it is not one)."""
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read the mapping {path}: {exc}") from None
    if not isinstance(document, dict) or document.get("nblint_fix_mapping") != MAPPING_VERSION:
        raise InputError(f"{path} is not a mapping written by nblint fix")
    return document


def restore(table, mapping: dict):
    """The table with each collapsed group written back as its 0/1 member columns (the inverse of fix).

    Parameters
    ----------
    table : pyarrow.Table
        A table written by ``nblint fix``.
    mapping : dict
        Its mapping (:func:`read_mapping`).

    Returns
    -------
    pyarrow.Table
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    by_column = {m["column"]: m for m in mapping["groups"]}
    missing = sorted(set(by_column) - set(table.column_names))
    if missing:
        raise InputError(f"the table has no column {missing[0]!r} of the mapping")
    columns, names = [], []
    for name, column in zip(table.column_names, table.columns):
        group = by_column.get(name)
        if group is None:
            columns.append(column)
            names.append(name)
            continue
        default = pa.int64() if group["member_type"] == "int64" else pa.float64()
        kinds = [_member_type(t, default) for t in group.get("member_types", [None] * len(group["members"]))]
        text = column.cast(pa.string())
        known = pc.is_in(text, value_set=pa.array(group["levels"], type=pa.string()))
        if not pc.all(known).as_py():
            raise InputError(f"column {name!r} has a value that is no level of the mapping")
        for member, level, kind in zip(group["members"], group["levels"], kinds):
            columns.append(pc.equal(text, level).cast(kind))
            names.append(member)
    return pa.table(columns, names=names).replace_schema_metadata(_metadata(table.schema.metadata, names))


def _member_type(name, default):
    """The Arrow type a member had (its name in the mapping), or ``default`` for a name not understood."""
    import re

    import pyarrow as pa

    if not name:
        return default
    decimal = re.fullmatch(r"decimal(128|256)\((\d+), (-?\d+)\)", name)
    if decimal:
        bits, precision, scale = decimal.groups()
        return (pa.decimal128 if bits == "128" else pa.decimal256)(int(precision), int(scale))
    try:
        kind = pa.type_for_alias(name)
    except (ValueError, KeyError):
        return default
    return kind if pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_boolean(kind) else default


def read_arrow(path: str):
    """A CSV/TSV or Parquet table as Arrow (for ``--restore``; InputError when unreadable)."""
    import pyarrow as pa

    try:
        if output_format(path) == "parquet":
            import pyarrow.parquet as pq

            return pq.read_table(path)
        import pyarrow.csv as pacsv

        return pacsv.read_csv(path, parse_options=pacsv.ParseOptions(delimiter=_format(path).delimiter))
    except (OSError, pa.ArrowInvalid) as exc:
        raise InputError(f"cannot read the table: {exc}") from None
