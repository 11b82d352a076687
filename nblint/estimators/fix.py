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

#: Version of the mapping file's layout.
MAPPING_VERSION = 1
#: Level of a dummy group's rows where no member is set.
REFERENCE = "(reference)"
_SEPARATORS = "_-.: "


def mapping_path(output: str) -> str:
    """Where the mapping of ``output`` is written: beside it, ``<stem>.mapping.json``."""
    root, ext = os.path.splitext(output)
    if ext == ".gz":
        root = os.path.splitext(root)[0]
    return root + ".mapping.json"


def output_format(path: str) -> str:
    """``parquet`` or ``csv`` from the output's suffix (InputError for anything else)."""
    lower = path.lower()
    if lower.endswith((".parquet", ".pq")):
        return "parquet"
    if lower.endswith((".csv", ".tsv", ".csv.gz", ".tsv.gz")):
        return "csv"
    raise InputError("the output must be a .parquet, .pq, .csv or .tsv file")


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


def write_fixed(ctx, output: str) -> list[dict]:
    """Write the table of ``ctx`` to ``output`` with its groups collapsed, and the mapping beside it.

    Returns
    -------
    list of dict
        The groups' mappings (empty: nothing written).
    """
    mappings = group_mappings(ctx)
    if not mappings:
        return []
    fmt = output_format(output)
    first = {m["members"][0]: m for m in mappings}
    members = {name for m in mappings for name in m["members"]}
    names = list(ctx.source.names)

    def tables():
        import pyarrow as pa

        for chunk in ctx.scan(names):
            columns, out_names = [], []
            for name in names:
                if name in first:
                    mapping = first[name]
                    columns.append(_collapsed(chunk, mapping))
                    out_names.append(mapping["column"])
                elif name not in members:
                    columns.append(_arrow(chunk.column(name)))
                    out_names.append(name)
            yield pa.table(columns, names=out_names)

    _write(tables(), output, fmt)
    document = {"nblint_fix_mapping": MAPPING_VERSION, "source": ctx.path, "groups": mappings}
    with open(mapping_path(output), "w", encoding="utf-8", newline="\n") as handle:
        json.dump(document, handle, indent=2, ensure_ascii=False)
        handle.write("\n")
    return mappings


def _collapsed(chunk, mapping: dict):
    """The group's level on every row of the chunk (as text)."""
    import pyarrow as pa

    levels = np.array(mapping["levels"], dtype=object)
    code = np.full(chunk.n_rows, len(mapping["members"]), dtype=np.int64)  # the reference (dummy groups)
    for k, member in enumerate(mapping["members"]):
        code[chunk.column(member).as_float() == 1] = k
    return pa.array(levels[code].tolist(), type=pa.string())


def _arrow(col):
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


def write_tables(tables, output: str) -> None:
    """Write Arrow tables, one after the other, to ``output`` (CSV or Parquet by its suffix)."""
    _write(iter(tables), output, output_format(output))


def _write(tables, output: str, fmt: str) -> None:
    """Stream Arrow tables to ``output``; each later chunk cast to the first one's schema."""
    import pyarrow as pa

    writer, schema = None, None
    try:
        for table in tables:
            if writer is None:
                schema = pa.schema(
                    [pa.field(f.name, pa.float64() if pa.types.is_null(f.type) else f.type) for f in table.schema]
                )
                writer = _writer(output, fmt, schema)
            writer.write_table(_cast(table, schema))
        if writer is None:
            raise InputError("the table has no rows")
    finally:
        if writer is not None:
            writer.close()


def _cast(table, schema):
    """``table`` in ``schema``'s types; an integer column that meets a float in a later chunk stays float."""
    import pyarrow as pa

    columns = []
    for column, field in zip(table.columns, schema):
        columns.append(column.cast(field.type) if column.type != field.type else column)
    return pa.table(columns, schema=schema)


def _writer(output: str, fmt: str, schema):
    if fmt == "parquet":
        import pyarrow.parquet as pq

        return pq.ParquetWriter(output, schema)
    import pyarrow as pa
    import pyarrow.csv as pacsv

    sink = pa.CompressedOutputStream(output, "gzip") if output.lower().endswith(".gz") else output
    delimiter = "\t" if output.lower().endswith((".tsv", ".tsv.gz")) else ","
    return pacsv.CSVWriter(sink, schema, write_options=pacsv.WriteOptions(delimiter=delimiter))


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
        kind = pa.int64() if group["member_type"] == "int64" else pa.float64()
        text = column.cast(pa.string())
        known = pc.is_in(text, value_set=pa.array(group["levels"], type=pa.string()))
        if not pc.all(known).as_py():
            raise InputError(f"column {name!r} has a value that is no level of the mapping")
        for member, level in zip(group["members"], group["levels"]):
            columns.append(pc.equal(text, level).cast(kind))
            names.append(member)
    return pa.table(columns, names=names)


def read_arrow(path: str):
    """A CSV/TSV or Parquet table as Arrow (for ``--restore``; InputError when unreadable)."""
    import pyarrow as pa

    try:
        if output_format(path) == "parquet":
            import pyarrow.parquet as pq

            return pq.read_table(path)
        import pyarrow.csv as pacsv

        delimiter = "\t" if path.lower().endswith((".tsv", ".tsv.gz")) else ","
        return pacsv.read_csv(path, parse_options=pacsv.ParseOptions(delimiter=delimiter))
    except (OSError, pa.ArrowInvalid) as exc:
        raise InputError(f"cannot read the table: {exc}") from None
