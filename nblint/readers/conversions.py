"""Conversions of pyarrow arrays and pandas Series to the chunk model's :class:`ColumnData`."""

from __future__ import annotations

import numpy as np

from nblint.readers.chunks import ColumnData


def arrow_column_data(array) -> ColumnData:
    """Convert a pyarrow (Chunked)Array to :class:`ColumnData`."""
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = array.type
    if pa.types.is_dictionary(kind):
        array = array.cast(kind.value_type)
        kind = kind.value_type
    if pa.types.is_null(kind):
        return ColumnData("numeric", np.full(len(array), np.nan))
    if pa.types.is_integer(kind) or pa.types.is_boolean(kind):
        if array.null_count:
            missing = array.is_null().to_numpy(zero_copy_only=False)
            values = pc.fill_null(array, 0).to_numpy(zero_copy_only=False)
            return ColumnData("numeric", values, None, True, missing)
        return ColumnData("numeric", array.to_numpy(zero_copy_only=False), None, True)
    if pa.types.is_floating(kind) or pa.types.is_decimal(kind):
        values = array.cast(pa.float64()).to_numpy(zero_copy_only=False)
        return ColumnData("numeric", _finite_or_nan(values))
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    encoded = pc.dictionary_encode(array)
    codes = pc.fill_null(encoded.indices, -1).to_numpy(zero_copy_only=False).astype(np.int64)
    labels = tuple(_label(v) for v in encoded.dictionary.to_pylist())
    return ColumnData("text", codes, labels)


def series_column_data(series) -> ColumnData:
    """Convert a pandas Series to :class:`ColumnData`."""
    import pandas as pd
    from pandas.api import types as ptypes

    dtype = series.dtype
    if ptypes.is_bool_dtype(dtype) or (ptypes.is_numeric_dtype(dtype) and not ptypes.is_complex_dtype(dtype)):
        integer = bool(ptypes.is_integer_dtype(dtype) or ptypes.is_bool_dtype(dtype))
        values = series.to_numpy(dtype=np.float64, na_value=np.nan)
        return ColumnData("numeric", _finite_or_nan(values), None, integer)
    codes, uniques = pd.factorize(series, use_na_sentinel=True)
    return ColumnData("text", np.asarray(codes, dtype=np.int64), tuple(_label(v) for v in uniques))


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
