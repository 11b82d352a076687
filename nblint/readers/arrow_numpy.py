"""Arrow arrays of numbers and booleans as numpy arrays, without importing pandas.

pyarrow's ``to_numpy`` goes through its pandas conversion layer, which imports
pandas on first use (half a second of a small table's check on a busy machine)
even when the result is a plain numpy array.  The types nblint converts (integers,
floats, booleans, dictionary indices) are fixed-width buffers, read here directly:
the same values, dtype and writability as ``to_numpy(zero_copy_only=False)``
(a view of the Arrow buffer for one chunk, a new array for several or for
booleans, whose Arrow form is one bit per value).
"""

from __future__ import annotations

import numpy as np


def to_numpy(array, fill=None) -> np.ndarray:
    """``array.to_numpy(zero_copy_only=False)`` for a (Chunked)Array of numbers or booleans.

    Null slots become ``fill`` when it is given (as ``pyarrow.compute.fill_null``
    would make them, whose scalar also imports pandas), else NaN in float arrays;
    any other type, or nulls in a non-float array without ``fill``, falls back to
    pyarrow's own conversion.
    """
    import pyarrow as pa

    if isinstance(array, pa.ChunkedArray):
        if array.num_chunks == 1:
            return _one(array.chunk(0), fill)
        if array.num_chunks == 0 or not _readable(array.type):
            import pyarrow.compute as pc

            return (pc.fill_null(array, fill) if fill is not None else array).to_numpy()
        return np.concatenate([_one(chunk, fill) for chunk in array.chunks])
    return _one(array, fill)


def _readable(kind) -> bool:
    import pyarrow as pa

    return pa.types.is_integer(kind) or pa.types.is_boolean(kind) or kind in (pa.float32(), pa.float64())


def _one(array, fill=None) -> np.ndarray:
    import pyarrow as pa

    kind = array.type
    if not _readable(kind) or (array.null_count and fill is None and not pa.types.is_floating(kind)):
        if fill is not None and array.null_count:
            import pyarrow.compute as pc

            array = pc.fill_null(array, fill)
        return array.to_numpy(zero_copy_only=False)
    n, offset = len(array), array.offset
    validity, data = array.buffers()[:2]
    if pa.types.is_boolean(kind):
        bits = np.frombuffer(data, dtype=np.uint8) if data is not None else np.zeros(0, dtype=np.uint8)
        values = np.unpackbits(bits, count=offset + n, bitorder="little")[offset:].astype(bool)
    else:
        dtype = np.dtype(kind.to_pandas_dtype())
        values = np.frombuffer(data, dtype=dtype, count=n, offset=offset * dtype.itemsize) if n else np.empty(0, dtype)
        values.flags.writeable = False  # a view of Arrow's immutable memory, as pyarrow gives it
    if array.null_count:  # null slots hold anything: ``fill``, or NaN as pyarrow gives
        valid = np.unpackbits(np.frombuffer(validity, dtype=np.uint8), count=offset + n, bitorder="little")[offset:]
        values = np.where(valid.astype(bool), values, np.nan if fill is None else fill).astype(values.dtype, copy=False)
    return values
