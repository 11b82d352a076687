"""Tables in memory (and a path given with them), and how each kind becomes a :class:`~nblint.readers.TableSource`.

Accepted: a path (CSV, TSV, Parquet), a pandas or polars DataFrame (or LazyFrame,
collected), a pyarrow Table or RecordBatch, a dict of equally
long arrays, and the scikit-learn pair ``(X, y)`` with ``X`` a 2-D numpy array or a
``scipy.sparse`` matrix (feature names optional: ``x0 .. x{p-1}``). ``y``, the classes,
may come with any in-memory table; it becomes the target column.

Types are recognised by the module that defines them (``polars``, ``pyarrow``,
``scipy.sparse``), so nblint imports those libraries only when it is given such an
object. polars frames are read through Arrow; sparse matrices are never densified
(:mod:`nblint.profile.sparse`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from nblint.readers import ColumnData, TableSource, arrow_column_data, series_column_data

ACCEPTED = (
    "a pandas, polars (DataFrame or LazyFrame) or Dask DataFrame, a pyarrow Table or RecordBatch, "
    "a 2-D numpy array or scipy.sparse matrix (with y), a dict of arrays, or the path of a "
    "CSV/TSV/Parquet file"
)


def _defined_in(obj, package: str, *names: str) -> bool:
    """Whether ``obj``'s class (or a base) is one of ``names`` from ``package`` (checked without importing it)."""
    for klass in type(obj).__mro__:
        module = klass.__module__ or ""
        if (module == package or module.startswith(package + ".")) and (not names or klass.__name__ in names):
            return True
    return False


def is_sparse(obj) -> bool:
    return _defined_in(obj, "scipy.sparse") and hasattr(obj, "tocsr")


def table_source(
    data,
    y=None,
    *,
    target: str | None = None,
    feature_names: Sequence[str] | None = None,
    encoding: str = "utf-8",
    notes: Sequence[str] = (),
    words=None,
) -> tuple[TableSource, str | None]:
    """The source to lint for ``data`` (and ``y``), and the name of its target column.

    Parameters
    ----------
    data
        Any of :data:`ACCEPTED`.
    y : array-like, optional
        The class of each row (a pandas/polars Series, a pyarrow or numpy array, a list).
    target : str, optional
        Without ``y``: the class column of ``data``. With ``y``: the name to give it
        (default: the Series' name, else ``y``).
    feature_names : sequence of str, optional
        Column names of a numpy array or sparse matrix (default ``x0`` .. ``x{p-1}``).
    notes : sequence of str, optional
        For a sparse matrix: sentences on how it was made that NB106 reports with what
        the profile leaves out (``check_pipeline``'s hash-bucket names).
    words : bool or sequence of str, optional
        The columns that are a document-term block (a text vectorizer's output): True for
        every feature, or their names. Without it the block is read from the values.

    Raises
    ------
    TypeError
        When ``data`` is none of the accepted kinds.
    ValueError
        When ``y`` or ``feature_names`` does not fit ``data``.
    """
    if isinstance(data, (str, os.PathLike)):
        if y is not None:
            raise ValueError("y goes with an in-memory table; for a file, name its class column with target=")
        no_names(feature_names, "a file")
        from nblint.readers import read_table

        return read_table(os.fspath(data), encoding=encoding), target
    if is_sparse(data) or isinstance(data, np.ndarray):
        return _matrix_source(data, y, target, feature_names, tuple(notes), words)
    no_names(feature_names, f"a {type(data).__name__}, which names its columns")
    source = _frame_source(data)
    if y is not None:
        name = _target_name(y, target, source.names)
        source, target = WithTarget(source, name, _column_of(y, source.n_rows)), name
    source.words = _declared_words(words, source.names, target)
    return source, target


def _declared_words(words, names: Sequence[str], target: str | None) -> frozenset[str] | None:
    """The columns ``words`` declares a document-term block (True: every feature), or None."""
    if words is None or words is False:
        return None
    if words is True:
        return frozenset(names) - {target}
    if isinstance(words, str):
        raise ValueError("words must be True or a list of column names, not one string")
    declared = frozenset(str(w) for w in words)
    unknown = sorted(declared - set(names))
    if unknown:
        raise ValueError(f"words names columns that are not in the table: {', '.join(map(repr, unknown[:5]))}")
    if target in declared:
        raise ValueError(f"words names the target {target!r}")
    return declared


def _frame_source(data) -> TableSource:
    import pandas as pd

    from nblint.readers.sources import ArrowSource, DataFrameSource  # (a frame's sources: no matrix needs them)

    if isinstance(data, pd.DataFrame):
        return DataFrameSource(data)
    if _defined_in(data, "polars", "LazyFrame"):
        data = data.collect()
    if _defined_in(data, "polars", "DataFrame"):
        return ArrowSource("<dataframe>", data.to_arrow())
    if _defined_in(data, "pyarrow", "RecordBatch"):
        import pyarrow as pa

        data = pa.Table.from_batches([data])
    if _defined_in(data, "pyarrow", "Table"):
        return ArrowSource("<dataframe>", data)
    if isinstance(data, dict):
        return _dict_source(data)
    raise TypeError(f"cannot lint a {type(data).__module__}.{type(data).__qualname__}; expected {ACCEPTED}")


def _dict_source(data: dict) -> TableSource:
    import pandas as pd

    from nblint.readers.sources import DataFrameSource

    lengths = {str(k): len(v) if hasattr(v, "__len__") else None for k, v in data.items()}
    if any(length is None for length in lengths.values()):
        bad = next(k for k, length in lengths.items() if length is None)
        raise TypeError(f"a dict of arrays: column {bad!r} is not an array")
    if len(set(lengths.values())) > 1:
        shown = ", ".join(f"{k}: {length}" for k, length in lengths.items())
        raise ValueError(f"a dict of arrays: columns have different lengths ({shown})")
    columns = {str(k): _as_1d(v, str(k)) for k, v in data.items()}
    return DataFrameSource(pd.DataFrame(columns))


def _as_1d(values, name: str):
    if _defined_in(values, "polars") or _defined_in(values, "pyarrow"):
        values = values.to_pandas()
    array = values if hasattr(values, "dtype") and getattr(values, "ndim", 1) == 1 else np.asarray(values)
    if getattr(array, "ndim", 1) != 1:
        raise ValueError(f"a dict of arrays: column {name!r} is not 1-D (shape {np.shape(values)})")
    return array


def _matrix_source(
    X, y, target, feature_names, notes: tuple[str, ...] = (), words=None
) -> tuple[TableSource, str | None]:
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (rows x features), got an array of shape {X.shape}")
    n, p = X.shape
    names = _feature_names(feature_names, p)
    name = _target_name(y, target, names) if y is not None else None
    if name is None and target is not None:
        raise ValueError("a numpy array or sparse matrix has no column to be the target: pass the classes as y")
    column = _column_of(y, n) if y is not None else None
    if is_sparse(X):
        from nblint.readers.sparse import SparseSource

        declared = True if words is True else _declared_words(words, names, name)  # (True: every column, unnamed)
        return SparseSource(X, names, name, column, words=declared, notes=notes), name  # (notes: what its maker did)
    source: TableSource = ArraySource(X, tuple(names))
    # (name and column are both set from y, or both None)
    if name is not None and column is not None:
        source = WithTarget(source, name, column)
    source.words = _declared_words(words, names, name)
    source.array = True
    return source, name if column is not None else None


class DefaultNames(Sequence[str]):
    """``x0 .. x{p-1}``, made one at a time as asked: a hashed matrix declares 2^20 columns and fills a few."""

    def __init__(self, p: int):
        self.p = p

    def __len__(self) -> int:
        return self.p

    def __getitem__(self, j):
        if isinstance(j, slice):
            return tuple(f"x{k}" for k in range(*j.indices(self.p)))
        if not -self.p <= j < self.p:
            raise IndexError(j)
        return f"x{j % self.p}"

    def take(self, positions: np.ndarray) -> tuple[str, ...]:
        """The names at ``positions`` (non-negative, under p): one ``str.format`` each, no look-up in Python."""
        return tuple(map("x{}".format, positions.tolist()))

    def __contains__(self, name) -> bool:
        digits = name[1:] if isinstance(name, str) and name.startswith("x") else ""
        return digits.isdigit() and digits == str(int(digits)) and int(digits) < self.p


def _feature_names(feature_names, p: int) -> Sequence[str]:
    if feature_names is None:
        return DefaultNames(p)
    if isinstance(feature_names, (str, bytes)):  # (its letters would be taken for names)
        raise ValueError(
            f"feature_names must be a sequence of names, one per column, not one string ({feature_names!r})"
        )
    names = tuple(map(str, feature_names))
    if len(names) != p:
        raise ValueError(f"feature_names has {len(names)} names for {p} columns")
    return names


def no_names(feature_names, what: str) -> None:
    if feature_names is not None:
        raise ValueError(f"feature_names is for numpy arrays and sparse matrices, not for {what}")


def _target_name(y, target: str | None, names) -> str:
    """``target`` if given, else the Series' own name, else ``y`` (never a feature's name).

    Unnamed classes are named ``y``, or ``y_1``, ``y_2``, ... where a feature already is: a vocabulary
    holds 'y' as soon as its tokens may be one letter long (Spanish 'y', a character n-gram), and a
    text user who passes ``check(X, y)`` named nothing. A name the caller chose (``target=``) that a
    feature has is an error.
    """
    if target is not None:
        if target in names:
            raise ValueError(f"X already has a column {target!r}; name the classes otherwise (target=...)")
        return target
    own = getattr(y, "name", None)
    # (a membership test each, never a set of the names: a hashed matrix's default names are 2^20, made as asked)
    if isinstance(own, str) and own and own not in names:
        return own
    name, suffix = "y", 0
    while name in names:
        suffix += 1
        name = f"y_{suffix}"
    return name


def _column_of(y, n_rows: int) -> ColumnData:
    """The classes ``y`` as one whole column of ``n_rows`` values."""
    from nblint.readers.conversions import array_column_data

    plain = np.asarray(y) if isinstance(y, (list, tuple, np.ndarray)) else None
    column = array_column_data(plain) if plain is not None and plain.ndim == 1 else None
    if column is not None:  # (numbers or strings: no pandas to import, as a text user's labels are)
        if len(column.values) != n_rows:
            raise ValueError(f"y has {len(column.values)} values for {n_rows} rows")
        return column
    import pandas as pd

    if is_sparse(y):
        raise ValueError(f"y must be 1-D (one class per row), got a sparse matrix of shape {y.shape}")
    shape = getattr(y, "shape", None)
    if shape is not None and len(shape) == 2 and shape[1] == 1:
        y = y.iloc[:, 0] if hasattr(y, "iloc") else np.asarray(y).ravel()  # a column vector, as scikit-learn ravels it
    elif shape is not None and len(shape) != 1:
        raise ValueError(f"y must be 1-D (one class per row), got shape {tuple(shape)}")
    if _defined_in(y, "polars"):
        y = y.to_arrow()
    if _defined_in(y, "pyarrow"):
        column = arrow_column_data(y)
    else:
        values = y if isinstance(y, pd.Series) else pd.Series(np.asarray(y) if not isinstance(y, list) else y)
        if values.ndim != 1 or (isinstance(y, np.ndarray) and y.ndim != 1):
            raise ValueError(f"y must be 1-D (one class per row), got shape {np.shape(y)}")
        column = series_column_data(values.reset_index(drop=True))
    if len(column.values) != n_rows:
        raise ValueError(f"y has {len(column.values)} values for {n_rows} rows")
    return column


class ArraySource(TableSource):
    """A 2-D numpy array (rows x features), column by column."""

    def __init__(self, X: np.ndarray, names: Sequence[str], path: str = "<array>"):
        self.X = X
        super().__init__(path, names, X.shape[0])

    def _column(self, name, offset, length):
        values = self.X[offset : offset + length, self.names.index(name)]
        kind = values.dtype.kind
        if kind in "biu":
            return ColumnData("numeric", values, None, True)
        if kind == "f":
            values = values.astype(np.float64)
            return ColumnData("numeric", np.where(np.isinf(values), np.nan, values))
        import pandas as pd

        return series_column_data(pd.Series(values, dtype=object if kind == "O" else None))


class WithTarget(TableSource):
    """An in-memory source with the classes ``y`` added as its last column, ``name``."""

    def __init__(self, inner: TableSource, name: str, y: ColumnData):
        self.inner, self.target, self.y = inner, name, y
        super().__init__(inner.path, tuple(inner.names) + (name,), inner.n_rows, inner.chunk_rows)

    def _column(self, name, offset, length):
        if name == self.target:
            from nblint.readers.sparse import slice_column

            return slice_column(self.y, offset, length)
        return self.inner._column(name, offset, length)


def through_training_vocabulary(matrix, names, vocabulary) -> tuple[Any, tuple[np.ndarray, np.ndarray]]:
    """A test matrix over its own vocabulary ``names``, as the training ``vocabulary`` reads it; each row's tokens.

    A column of the training vocabulary takes the test column of its name (zeros where the
    test documents never have it); a test word outside the training vocabulary is dropped,
    as a vectorizer fitted on the training documents drops it. The second value is, per test
    document, its tokens and those of them outside the training vocabulary: counts where the
    matrix holds whole numbers (a count vectorizer's), else distinct words (tf-idf, weights).

    Raises
    ------
    ValueError
        ``names`` does not name each column once.
    """
    from scipy import sparse

    names = [str(name) for name in names]
    width = matrix.shape[1]
    if len(names) != width or len(set(names)) != width:
        raise ValueError(
            f"test_feature_names must name each of the test matrix's {width} columns once (got {len(names)} names"
            f"{', some repeated' if len(set(names)) != len(names) else ''})"
        )
    at = {name: j for j, name in enumerate(vocabulary)}
    kept = [k for k, name in enumerate(names) if name in at]
    # (test column -> training column: a 0/1 matrix of test words by training words)
    moved = sparse.csr_matrix(
        (np.ones(len(kept)), (kept, [at[names[k]] for k in kept])), shape=(width, len(vocabulary))
    )
    X = sparse.csr_matrix(matrix) if sparse.issparse(matrix) else np.asarray(matrix)
    values = np.asarray(X.data if sparse.issparse(X) else X)
    whole = values.dtype.kind in "biu" or bool(np.all(np.mod(values[np.isfinite(values)], 1) == 0))
    cells = X if whole else (X != 0).astype(np.int64)
    unseen_columns = np.ones(width, dtype=bool)
    unseen_columns[kept] = False
    tokens = np.asarray(cells.sum(axis=1)).ravel().astype(np.int64)
    unseen = np.asarray(cells[:, unseen_columns].sum(axis=1)).ravel().astype(np.int64)
    aligned = (moved.T @ X.T).T
    if sparse.issparse(aligned):
        aligned = sparse.csr_matrix(aligned, dtype=X.dtype)
    else:
        aligned = np.asarray(aligned).astype(X.dtype, copy=False)
    return aligned, (tokens, unseen)
