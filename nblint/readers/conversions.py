"""Conversions of pyarrow arrays and pandas Series to the chunk model's :class:`ColumnData`."""

from __future__ import annotations

import numpy as np

from nblint.readers.chunks import ColumnData


def arrow_column_data(array, name: str | None = None) -> ColumnData:
    """Convert a pyarrow (Chunked)Array (the column ``name``, for messages) to :class:`ColumnData`.

    Raises
    ------
    InputError
        When a string column holds bytes that are not UTF-8 (the type says they are).
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    from nblint.readers.arrow_numpy import to_numpy  # (pyarrow's own to_numpy imports pandas)

    if isinstance(array.type, pa.BaseExtensionType):
        array = _extension_storage(array)
    kind = array.type
    if pa.types.is_dictionary(kind):
        array = array.cast(kind.value_type)
        kind = kind.value_type
    if pa.types.is_null(kind):
        return ColumnData("numeric", np.full(len(array), np.nan))
    if pa.types.is_integer(kind) or pa.types.is_boolean(kind):
        if array.null_count:
            missing = to_numpy(array.is_null())
            values = to_numpy(array, fill=0)
            return ColumnData("numeric", values, None, True, missing)
        return ColumnData("numeric", to_numpy(array), None, True)
    if pa.types.is_floating(kind) or pa.types.is_decimal(kind):
        values = to_numpy(array.cast(pa.float64()))
        return ColumnData("numeric", _finite_or_nan(values))
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    encoded = pc.dictionary_encode(array)
    codes = to_numpy(encoded.indices, fill=-1).astype(np.int64)
    try:
        labels = encoded.dictionary.to_pylist()
    except UnicodeDecodeError as exc:  # a string column is UTF-8 by its type; a writer broke that
        from nblint.core.errors import InputError

        bad = exc.object[max(exc.start - 20, 0) : exc.end + 20] if isinstance(exc.object, bytes) else b""
        what = f"column {name!r}" if name is not None else "a text column"
        raise InputError(
            f"{what} holds bytes not valid in UTF-8 (byte 0x{exc.object[exc.start]:02x} in {bad!r}): "
            "its writer stored them in a string column"
        ) from None
    column = _text_column(codes, [_label(v) for v in labels])
    if _is_bytes(kind):
        return column._replace(undecodable=_first_undecodable(codes, labels))
    return column


def _is_bytes(kind) -> bool:
    """A binary Arrow type: bytes whose encoding the file does not record."""
    import pyarrow as pa

    return any(
        check(kind)
        for check in (pa.types.is_binary, pa.types.is_large_binary, pa.types.is_fixed_size_binary)
        + ((pa.types.is_binary_view,) if hasattr(pa.types, "is_binary_view") else ())
    )


def _first_undecodable(codes: np.ndarray, labels: list) -> tuple[int, str] | None:
    """The first row whose bytes are not UTF-8 and what they hold (None: every value decodes)."""
    bad = {}
    for k, value in enumerate(labels):
        try:
            value.decode("utf-8")
        except UnicodeDecodeError as exc:
            bad[k] = f"byte 0x{value[exc.start]:02x} in {value[max(exc.start - 20, 0) : exc.end + 20]!r}"
    if not bad:
        return None
    row = int(np.flatnonzero(np.isin(codes, list(bad)))[0])
    return row, bad[int(codes[row])]


#: Columns of one integer type, none missing, from which a table's chunk converts them as one
#: 2-D array (one pyarrow call) instead of one call per column: a bag of words' 20,000 0/1
#: columns took about 20 us each, per chunk of 418 rows, in every pass.
BULK_COLUMNS = 256


def table_column_data(table, names) -> tuple[ColumnData, ...]:
    """The columns ``names`` of a pyarrow Table as :class:`ColumnData`, as :func:`arrow_column_data` makes them.

    Many columns of one integer type without a missing value are copied out as one
    Fortran-ordered array (``RecordBatch.to_tensor``), each column a contiguous view
    of it: the same values and dtype, in one call.
    """
    import pyarrow as pa

    position = {name: i for i, name in enumerate(table.column_names)}
    out: list = [None] * len(names)
    if len(names) >= BULK_COLUMNS and table.num_rows:
        # (types from the schema: asking each column for its type and nulls cost more than converting it)
        types = table.schema.types
        by_type: dict = {}
        for k, name in enumerate(names):
            kind = types[position[name]]
            if pa.types.is_integer(kind):
                by_type.setdefault(kind, []).append(k)
        for ks in by_type.values():
            if len(ks) < BULK_COLUMNS:
                continue
            part = table.select([position[names[k]] for k in ks]).combine_chunks().to_batches()
            try:
                block = np.asarray(part[0].to_tensor(row_major=False)) if len(part) == 1 else None
            except (pa.ArrowTypeError, pa.ArrowInvalid):  # a missing value among them: one column at a time
                block = None
            if block is None:
                continue
            for j, k in enumerate(ks):
                out[k] = ColumnData("numeric", block[:, j], None, True)
    return tuple(
        col if col is not None else arrow_column_data(table.column(position[name]), name)
        for name, col in zip(names, out)
    )


def _extension_storage(array):
    """An extension array (``arrow.bool8``, ``arrow.uuid``, ``arrow.json``, ...) as the plain array it stands for.

    ``bool8`` is booleans (stored as int8), ``uuid`` its canonical text, anything
    else its storage (``json`` is text).  Arrow's kernels refuse extension types.
    """
    import pyarrow as pa

    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    name = getattr(array.type, "extension_name", "")
    if name == "arrow.bool8":
        import pyarrow.compute as pc

        return pc.not_equal(array.storage, 0)
    if name == "arrow.uuid":
        return pa.array([None if v is None else str(v) for v in array.to_pylist()], type=pa.string())
    return array.storage


def series_column_data(series) -> ColumnData:
    """Convert a pandas Series to :class:`ColumnData`."""
    import pandas as pd
    from pandas.api import types as ptypes

    numbers = numeric_array_column_data(series.array)
    if numbers is not None:
        return numbers
    if ptypes.is_object_dtype(series.dtype) and ptypes.infer_dtype(series, skipna=True) == "decimal":
        # decimal.Decimal objects: numbers, as Parquet's decimal columns are read.
        values = np.array([np.nan if v is None or v != v else float(v) for v in series], dtype=np.float64)
        return ColumnData("numeric", _finite_or_nan(values), None, False)
    codes, uniques = pd.factorize(series, use_na_sentinel=True)
    return _text_column(np.asarray(codes, dtype=np.int64), [_label(v) for v in uniques])


def numeric_array_column_data(array) -> ColumnData | None:
    """A pandas array of integers, booleans or real numbers (a Series' ``.array``) as :class:`ColumnData`; None for others.

    Each value is converted on its own, so a slice of the array gives the slice of the
    whole array's conversion: a DataFrame's chunks are cut from its columns' arrays
    (:meth:`~nblint.readers.sources.DataFrameSource._column`) rather than through a
    Series per chunk and column (the pandas indexing then took most of a Dask partition's profile).
    """
    from pandas.api import types as ptypes

    dtype = array.dtype
    if ptypes.is_integer_dtype(dtype) and not ptypes.is_bool_dtype(dtype):
        # Kept as integers (int64/uint64, exact past 2^53), missing ones masked, as a Parquet column's are.
        kind = np.dtype(getattr(dtype, "numpy_dtype", dtype))
        missing = np.asarray(array.isna(), dtype=bool)
        if missing.any():
            values = array.to_numpy(dtype=kind, na_value=0)
            return ColumnData("numeric", values, None, True, missing)
        return ColumnData("numeric", array.to_numpy(dtype=kind), None, True)
    if ptypes.is_bool_dtype(dtype) or (ptypes.is_numeric_dtype(dtype) and not ptypes.is_complex_dtype(dtype)):
        integer = bool(ptypes.is_integer_dtype(dtype) or ptypes.is_bool_dtype(dtype))
        values = array.to_numpy(dtype=np.float64, na_value=np.nan)
        return ColumnData("numeric", _finite_or_nan(values), None, integer)
    return None


def array_column_data(values: np.ndarray) -> ColumnData | None:
    """A 1-D numpy array as :class:`ColumnData`, as :func:`series_column_data` makes it, without pandas; None where it needs pandas.

    The classes a scikit-learn user passes (integers, booleans, floats, or strings with none
    missing) are read here: pandas costs a third of a second to import, more than a first
    lint of a small matrix. Strings take their codes in order of first appearance, as
    ``pandas.factorize`` gives them. Anything else (objects of mixed types, missing values
    among strings, dates) is None: the caller reads it through pandas.
    """
    kind = values.dtype.kind
    if kind in "iu":
        return ColumnData("numeric", values, None, True)
    if kind == "b":
        return ColumnData("numeric", values.astype(np.float64), None, True)
    if kind == "f":
        return ColumnData("numeric", _finite_or_nan(values), None, False)
    if kind not in "OU":
        return None
    strings = values.tolist()
    if kind == "O" and not set(map(type, strings)) <= {str}:  # (the types at once: a label per row)
        return None
    # Each label's code is its rank among the distinct labels by first appearance: one dictionary of the
    # labels in that order, read once per row (in C: no Python per row, and no sort of the strings).
    position = {label: code for code, label in enumerate(dict.fromkeys(strings))}
    codes = np.fromiter(map(position.__getitem__, strings), dtype=np.int64, count=len(strings))
    return _text_column(codes, list(position))


def nested_arrow_type(kind) -> str | None:
    """What nested values a pyarrow type holds (``"lists"``, ``"structs"``, ``"maps"``), or None: a flat type.

    A nested column is not a feature nblint reads.
    """
    import pyarrow as pa

    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    if not pa.types.is_nested(kind):
        return None
    if pa.types.is_map(kind):
        return "maps"
    if pa.types.is_struct(kind):
        return "structs"
    return "unions" if pa.types.is_union(kind) else "lists"


def nested_values(series) -> str | None:
    """The type name of the first nested value (a list, dict, set, tuple, array) in an object Series, or None."""
    from pandas.api import types as ptypes

    if series.dtype != object or ptypes.infer_dtype(series, skipna=True) not in (
        "mixed",
        "mixed-integer",
        "unknown-array",
    ):
        return None
    for value in series:
        if isinstance(value, (list, tuple, dict, set, frozenset, np.ndarray)):
            return type(value).__name__
    return None


def _text_column(codes: np.ndarray, labels: list[str]) -> ColumnData:
    """A text column; values that print alike (``1`` and ``'1'``) are one level, as they are in a CSV of them."""
    unique = dict.fromkeys(labels)
    if len(unique) < len(labels):
        position = {label: i for i, label in enumerate(unique)}
        codes = np.array([position[label] for label in labels] + [-1], dtype=np.int64)[codes]
    return ColumnData("text", codes, tuple(unique))


def _finite_or_nan(values: np.ndarray) -> np.ndarray:
    """Float values with infinities made NaN: they cannot enter counts or moments."""
    values = np.asarray(values, dtype=np.float64)
    infinite = np.isinf(values)
    if infinite.any():
        values = np.where(infinite, np.nan, values)
    return values


def _label(value) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "backslashreplace")
    return str(value)
