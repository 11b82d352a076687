"""Column types of a streamed CSV: narrowing 0/1 columns to int8 and widening a type a later value breaks.

pyarrow's streaming reader infers each column's type from the first block; the
whole-file reader would infer it from every value.  A later value that does not
fit (``1.5`` in a column of integers, ``abc`` in a column that was empty so far)
widens that column to the type the whole-file reader would have chosen, and the
pass restarts (:meth:`nblint.readers.chunks.TableSource.settled_pass`).
"""

from __future__ import annotations

import re

#: Cells pandas' ``read_csv`` reads as missing (its default ``na_values``), in every column.
NULL_VALUES = [
    "",
    "#N/A",
    "#N/A N/A",
    "#NA",
    "-1.#IND",
    "-1.#QNAN",
    "-NaN",
    "-nan",
    "1.#IND",
    "1.#QNAN",
    "<NA>",
    "N/A",
    "NA",
    "NULL",
    "NaN",
    "None",
    "n/a",
    "nan",
    "null",
]

#: pyarrow's message for a value its column's type cannot hold.
CONVERSION_ERROR = re.compile(
    r"In CSV column #(?P<column>\d+): (?:Row #\d+: )?CSV conversion error to (?P<type>[\w\[\], ]+?): invalid value '(?P<value>.*)'"
)


def narrow_zero_one(table, fixed: dict):
    """``table`` with its inferred int64 columns that hold only 0 and 1 cast to int8.

    0/1 indicator columns are most of a one-hot table's cells: int8 makes every
    later step (regrouping blocks into chunks, the spill, conversion to numpy)
    move an eighth of the bytes.  The values are unchanged, and the type is fixed
    for the rest of the file like any inferred type; a later value past int8's
    range widens the column to int64 (:func:`wider_type`) and restarts the pass.
    Columns whose type is already ``fixed`` are left alone.
    """
    import pyarrow as pa

    fields = list(table.schema)
    candidates = [i for i, field in enumerate(fields) if field.name not in fixed and field.type == pa.int64()]
    narrowed = _zero_one(table, candidates)
    for i in narrowed:
        fields[i] = fields[i].with_type(pa.int8())
    # One cast of the table (a bag of words' first block has 20,000 such columns: one call each took seconds).
    return table.cast(pa.schema(fields, metadata=table.schema.metadata)) if narrowed else table


#: Columns whose bounds are read from one 2-D copy at a time (of the first block's rows).
_BOUNDS_COLUMNS = 1024


def _zero_one(table, candidates: list[int]) -> list[int]:
    """The int64 columns of ``candidates`` whose values (missing ones aside, some present) are all 0 or 1."""
    import numpy as np
    import pyarrow.compute as pc

    found = []
    complete = [i for i in candidates if not table.column(i).null_count]
    if table.num_rows:
        for start in range(0, len(complete), _BOUNDS_COLUMNS):
            part = complete[start : start + _BOUNDS_COLUMNS]
            values = np.asarray(table.select(part).combine_chunks().to_batches()[0].to_tensor(row_major=False))
            low, high = values.min(axis=0), values.max(axis=0)
            found += [i for i, ok in zip(part, (low >= 0) & (high <= 1)) if ok]
    for i in sorted(set(candidates) - set(complete)):
        bounds = pc.min_max(table.column(i))
        low, high = bounds["min"].as_py(), bounds["max"].as_py()
        if low is not None and 0 <= low and high <= 1:
            found.append(i)
    return sorted(found)


def beyond_int64(table, fixed: dict) -> list[str]:
    """The inferred float64 columns of ``table`` whose values are all whole, none negative, some past int64.

    pyarrow infers float64 for an integer past 2^63 - 1 (a 64-bit hashed id, a uint64
    count), and float64 merges neighbours there (2^63 and 2^63 + 1 are one value): such
    a column is read again as uint64, which holds them exactly when the text is integers.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    found = []
    for field, column in zip(table.schema, table.columns):
        if field.name in fixed or field.type != pa.float64() or column.null_count == len(column):
            continue
        bounds = pc.min_max(column)
        low, high = bounds["min"].as_py(), bounds["max"].as_py()
        if (
            low is not None
            and low >= 0
            # (uint64's largest, 2^64 - 1, is 2^64 in float64: the uint64 parse decides which it was)
            and 2.0**63 <= high <= 2.0**64
            and pc.all(pc.equal(pc.floor(column), column)).as_py()
        ):
            found.append(field.name)
    return found


def wider_type(current: str, value: str):
    """The narrowest of int64, float64, string holding both the column so far and ``value``."""
    import pyarrow as pa

    def fits(kind) -> bool:
        try:
            pa.array([value]).cast(kind)
            return True
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            return False

    ladder = {
        "null": [pa.int64(), pa.float64()],
        "int8": [pa.int64(), pa.float64()],
        "int64": [pa.float64()],
        "uint64": [pa.float64()],
    }.get(current, [])
    for kind in ladder:
        if fits(kind):
            return kind
    return pa.string()


def unify(a, b, b_never_negative: bool = False):
    """The narrowest type holding the values of types ``a`` and ``b``: up the ladder null, int8, int64, float64; else text.

    uint64 (whole numbers past int64, see :func:`beyond_int64`) holds integers known not to be
    negative (``b_never_negative`` for ``b``), and joins negative ones and floats at float64.
    """
    import pyarrow as pa

    if a == b:
        return a
    ladder = [pa.null(), pa.int8(), pa.int64(), pa.float64()]
    if a == pa.null():
        return b
    if b == pa.null():
        return a
    if pa.uint64() in (a, b) and {a, b} <= {pa.uint64(), *ladder}:
        integers = {pa.int8(), pa.int64()}
        if b == pa.uint64() and a in integers:
            # Whole numbers past int64 in this block, smaller ones before: uint64 holds them if the
            # earlier ones were not negative; a negative one makes the restarted pass widen again (below).
            return pa.uint64()
        if a == pa.uint64() and b in integers and b_never_negative:
            return pa.uint64()
        return pa.float64()  # (uint64 beside negative integers or floats: only float64 holds both)
    if a in ladder and b in ladder:
        return max(a, b, key=ladder.index)
    return pa.string()


def never_negative(kind, column) -> bool:
    """Whether an integer column of a block has no negative value (it then fits uint64 too)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if kind not in (pa.int8(), pa.int64()):
        return False
    low = pc.min(column).as_py()
    return low is None or low >= 0


def narrowest_integer(kind, column):
    """int8 for a column of whole numbers within int8's range, else its own type."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if kind != pa.int64():
        return kind
    bounds = pc.min_max(column)
    low, high = bounds["min"].as_py(), bounds["max"].as_py()
    return pa.int8() if low is not None and -128 <= low and high <= 127 else kind
