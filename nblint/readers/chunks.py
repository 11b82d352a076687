"""The chunk model: a table is a :class:`TableSource` that yields :class:`Chunk` s of rows.

Every input (CSV, TSV, gzip-compressed CSV, Parquet, stdin, a pandas DataFrame)
becomes the same two column representations (:class:`ColumnData`), so the
profile code sees only:

* ``numeric``: float64 values with NaN for missing (integers and booleans are
  cast; ``integer_dtype`` remembers that they were whole numbers by type);
* ``text``: int64 codes into a list of string labels, -1 for missing.

Rows are grouped into chunks of a fixed number of rows (:func:`chunk_rows_for`),
so the chunk boundaries (and therefore every merged statistic) do not depend
on how the bytes of a file happened to be split.

Where the passes over a table run is its :class:`Backend`'s business: here, chunk
after chunk (:class:`LocalBackend`), or where the rows live (the Dask engine's).

The restart protocol
--------------------
A source that learns its column types only by reading every row (a CSV file)
may find, deep in the file, a value its column's type cannot hold; the chunks
it has handed out then have the wrong type and the pass must start again.  This
is one documented method, :meth:`TableSource.settled_pass`, not an exception
for callers to know about: the consumer of the first full pass is called once
per attempt with a fresh iterator, and the last (complete) attempt's result is
kept.  Once a pass has settled the types, :meth:`TableSource.chunks` never
restarts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple, Protocol, TypeVar

import numpy as np

from nblint.core.errors import InputError
from nblint.core.records import Record

R = TypeVar("R")


class RowAccumulator(Protocol):
    """What :meth:`Backend.reduce_rows` folds the rows into: chunks added in order, parts merged in order."""

    def add(self, chunk: Chunk) -> None: ...

    def merge(self, other: Any) -> None: ...


A = TypeVar("A", bound=RowAccumulator)  # an accumulator of rows (add, merge)


#: Cells (rows x columns) in one chunk of a table that is not wide.  1M float64
#: cells are 8 MiB: large enough for efficient matrix products, small enough to
#: bound memory (measured on the 1M x 65 bench table, --jobs 2: peak 269 MiB at 1M
#: cells, 321 MiB at 2M, same output).
CHUNK_CELLS = 1 << 20
#: Rows per chunk are clamped to this range whatever the width of the table (256 rows
#: of a 20,000-column table are 41 MB as float64; 1024 were 164 MB, times the chunks in flight).
MIN_CHUNK_ROWS, MAX_CHUNK_ROWS = 256, 1 << 17
#: Wide tables: rows per chunk wanted, and the cells a chunk may then take.
WIDE_CHUNK_ROWS, WIDE_CHUNK_CELLS = 4096, 1 << 23


class Names(tuple):
    """A tuple of column names whose ``index`` is a dictionary look-up.

    Rules and analyses look columns up by name; on a 20,000-column table a linear
    ``tuple.index`` per look-up makes every per-column loop quadratic.
    """

    _by_name: dict

    def positions(self) -> dict:
        """Name -> position (the first, for a repeated name): one dictionary, made once; read it, never change it."""
        try:
            return self._by_name
        except AttributeError:
            # Built back to front, so that a repeated name keeps its first position (in C: no per-name Python).
            positions: dict = dict(zip(reversed(self), range(len(self) - 1, -1, -1)))
            self._by_name = positions
            return positions

    def index(self, name, *args):  # noqa: D102 - tuple.index, in O(1)
        # The hottest look-up of a wide table (a few per column per analysis): one attribute, one dict.
        if args:
            return super().index(name, *args)
        try:
            positions = self._by_name
        except AttributeError:
            positions = self.positions()
        try:
            return positions[name]
        except (KeyError, TypeError):
            return super().index(name)

    def __contains__(self, name) -> bool:  # ``in``, in O(1) too
        try:
            return name in self.positions()
        except TypeError:
            return super().__contains__(name)

    def __reduce__(self):
        return (Names, (tuple(self),))


def name_mask(names, chosen) -> np.ndarray:
    """Which of ``names`` are in the set ``chosen``, as a boolean array.

    Asked of a vocabulary (is each column a word, a term, held?): the set's own methods
    answer in C, with no Python per name, and where ``chosen`` holds every name (a
    vectorizer's matrix is all words) one superset test answers for all.
    """
    n = len(names)
    if not chosen:
        return np.zeros(n, dtype=bool)
    if isinstance(chosen, (set, frozenset)) and chosen.issuperset(names):
        return np.ones(n, dtype=bool)
    return np.fromiter(map(chosen.__contains__, names), dtype=bool, count=n)


def _repeated(names) -> list[str]:
    """The names given more than once, sorted."""
    return sorted(n for n, count in Counter(names).items() if count > 1)


class ColumnData(NamedTuple):
    """One column of one chunk, in one of the two representations.

    For ``numeric`` columns ``values`` keeps the source dtype (int64, bool or
    float64) so that the profile can copy it straight into its own buffers;
    missing values are NaN (float columns) or flagged in ``missing``.
    """

    kind: str  # "numeric" or "text"
    values: np.ndarray  # int/bool/float (numeric) or int64 codes (text)
    labels: tuple[str, ...] | None = None  # text only
    integer_dtype: bool = False  # numeric stored as int/bool by its type
    missing: np.ndarray | None = None  # numeric only: boolean mask, when values cannot hold NaN
    #: Text from a bytes column with a value that is not UTF-8: (its first such row in the chunk, what it
    #: holds). Its levels stay apart (bytes escaped); read as words, the escapes would become words.
    undecodable: tuple[int, str] | None = None

    def as_float(self) -> np.ndarray:
        """The values as float64 with NaN for missing (numeric columns)."""
        values = self.values.astype(np.float64, copy=self.missing is not None)
        if self.missing is not None:
            values[self.missing] = np.nan
        return values


class SparseBlock(Record):
    """Rows ``[row_offset, row_offset + n)`` of the sparse feature columns, as CSR.

    ``matrix`` has sorted indices and no stored zeros; ``integer_dtype`` says the
    matrix holds integers (or booleans) by type; ``binary`` marks the columns that
    hold only 0 and 1 in the whole matrix (not just in these rows).

    ``table_columns``: the block holds columns of a dense table (a wide CSV's complete
    0/1 columns of these rows, :mod:`nblint.readers.packed`) beside the chunk's other
    columns, to be profiled exactly as those columns would be one by one
    (:mod:`nblint.profile.sparse`), not as a matrix input.

    ``by_column``: the same entries as CSC (rows sorted), where the source made them already
    (a vectorizer's matrix is put in canonical form through them); None: made where needed.

    (Written out: a named tuple's class costs a fresh process ~0.4 ms to create; none reads this as a tuple.)
    """

    __slots__ = ("names", "matrix", "integer_dtype", "binary", "table_columns", "words", "by_column")

    def __init__(
        self,
        names: tuple[str, ...],
        matrix: Any,
        integer_dtype: bool,
        binary: np.ndarray,
        table_columns: bool = False,
        words: np.ndarray | None = None,
        by_column: Any = None,
    ) -> None:
        self.names = names
        self.matrix = matrix  # scipy.sparse.csr_matrix (n, p)
        self.integer_dtype = integer_dtype
        self.binary = binary  # (p,) bool
        self.table_columns = table_columns
        #: (p,) bool: the words of a document-term block, which take no co-moments (VIF leaves words out).
        self.words = words
        self.by_column = by_column  # scipy.sparse.csc_matrix (n, p), or None


class Chunk:
    """A run of consecutive rows; ``row_offset`` is the 0-based index of its first row.

    A frozen record written out rather than a dataclass: every check makes its chunks, and a
    dataclass's generated methods cost ~2 ms of a first check in a fresh process (issue 34).
    """

    __slots__ = ("names", "columns", "row_offset", "n_rows", "sparse")

    names: Names
    columns: tuple[ColumnData, ...]
    row_offset: int
    n_rows: int
    #: Feature columns held as a sparse row block (:class:`nblint.readers.sparse.SparseBlock`), before ``names``.
    sparse: SparseBlock | None

    def __init__(
        self,
        names: tuple[str, ...],
        columns: tuple[ColumnData, ...],
        row_offset: int,
        n_rows: int,
        sparse: SparseBlock | None = None,
    ) -> None:
        record = object.__setattr__
        record(self, "names", names if isinstance(names, Names) else Names(names))
        record(self, "columns", columns)
        record(self, "row_offset", row_offset)
        record(self, "n_rows", n_rows)
        record(self, "sparse", sparse)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a Chunk is frozen: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Chunk is frozen: cannot delete {name!r}")

    def __reduce__(self):
        # (to another process, e.g. a dask worker: rebuilt through __init__, as __setattr__ refuses)
        return Chunk, (self.names, self.columns, self.row_offset, self.n_rows, self.sparse)

    def __repr__(self) -> str:
        return f"Chunk(rows {self.row_offset}..{self.row_offset + self.n_rows}, {len(self.names)} columns)"

    def column(self, name: str) -> ColumnData:
        return self.columns[self.names.index(name)]


def chunk_rows_for(n_columns: int) -> int:
    """Rows per chunk for a table of ``n_columns`` columns (deterministic).

    ``CHUNK_CELLS`` cells, but at least ``WIDE_CHUNK_ROWS`` rows while that stays
    within ``WIDE_CHUNK_CELLS``: a chunk costs some Python work per column, which
    a 2,000-column table should pay per 4,096 rows rather than per 1,048.
    """
    columns = max(n_columns, 1)
    rows = max(CHUNK_CELLS // columns, min(WIDE_CHUNK_ROWS, WIDE_CHUNK_CELLS // columns))
    return int(min(MAX_CHUNK_ROWS, max(MIN_CHUNK_ROWS, rows)))


class TableSource:
    """A table that can be scanned, in chunks, as often as a rule needs.

    Parameters
    ----------
    path : str
        Display name used in findings (the file path, ``-`` or ``<dataframe>``).
    names : sequence of str
        Column names, in order.
    n_rows : int
    chunk_rows : int, optional
        Rows per chunk; by default :func:`chunk_rows_for` the width.
    """

    #: Threads that work at once (reading, profiling, scoring), set from ``--jobs``
    #: by the runner: with 1, nblint computes on one thread in all.
    jobs: int = 1
    #: The run's memory budget in bytes (``memory-budget``), set by the runner; None: ``NBLINT_MEMORY_BUDGET``,
    #: else the machine's share (:class:`~nblint.core.resources.MemoryBudget`). What a pass keeps stays within it.
    memory_budget: int | None = None
    #: What the profile of this source leaves out, as sentences (reported by NB106).
    limits: tuple[str, ...] = ()
    #: The table row of this source's first row (a part of a table, a Dask partition, numbers its rows
    #: as the whole table does): chunks carry it in their ``row_offset``.
    row_offset: int = 0
    #: The ``scipy.sparse`` matrix of a sparse input (:class:`~nblint.readers.sparse.SparseSource`), else None.
    matrix: Any = None
    #: Said after "column not found": where the columns came from when that may be why (an Excel
    #: workbook's first sheet, read by default, is often not the data: ``--sheet`` reads another).
    missing_column_note: str = ""
    #: The columns that are a document-term block, where the source knows (a text vectorizer's output,
    #: ``--text``'s words, ``check(words=...)``, a sparse matrix read by its values); None: the profile tells.
    words: frozenset[str] | None = None
    #: A 2-D numpy array given as such (``check(X, y)``): like a sparse matrix, a document-term block in it is
    #: one block whatever its words' frequencies ('the' in every long document), not columns of a table.
    array: bool = False
    #: A vectorized text column's (``--text``): the raw documents one per row, and the table of the
    #: columns linted beside the words.
    documents: list[str] | None = None
    #: How a live pipeline's vectorizer made the documents words (:class:`nblint.readers.text.Recipe`);
    #: None with ``documents``: ``CountVectorizer()``'s defaults (``--text``).
    recipe: Any = None
    beside: TableSource | None = None

    def __init__(self, path: str, names: Sequence[str], n_rows: int, chunk_rows: int | None = None):
        self.path = path
        #: Columns left out, and why (nested values: lists, structs, maps); NB106 lists them.
        self.skipped: dict[str, str] = getattr(self, "skipped", {})
        self.names = Names(names)
        self.n_rows = int(n_rows)
        self.chunk_rows = int(chunk_rows or chunk_rows_for(len(self.names)))
        #: Where the rows live and the passes run (:class:`Backend`): here, unless an engine's source says otherwise.
        self.backend: Backend = LocalBackend(self)
        # (a repeated name leaves fewer positions than names: counted only then, a wide table's names once)
        duplicated = [] if len(self.names.positions()) == len(self.names) else _repeated(self.names)
        if duplicated:
            raise InputError(f"duplicate column names: {', '.join(map(repr, duplicated))}")

    def chunks(self, columns: Sequence[str] | None = None) -> Iterator[Chunk]:
        """Yield the table in row order, restricted to ``columns`` if given (never restarts)."""
        names = tuple(columns) if columns is not None else self.names
        for offset in range(0, self.n_rows, self.chunk_rows):
            length = min(self.chunk_rows, self.n_rows - offset)
            yield Chunk(names, tuple(self._column(n, offset, length) for n in names), self.row_offset + offset, length)

    def settled_pass(self, consume: Callable[[Iterator[Chunk]], R], sparse_except: Sequence[str] | None = None) -> R:
        """``consume(chunks)`` over one full pass of every column, restarted until the types settle.

        With ``sparse_except`` (the profile's: the target), a source may hand a chunk's complete
        0/1 columns but those as a sparse block (:attr:`Chunk.sparse`, ``table_columns``) instead
        of one :class:`ColumnData` each: a wide CSV does (:mod:`nblint.readers.packed`).

        The restart protocol (see the module docstring): ``consume`` receives an
        iterator over every chunk of the table, in row order.  A source whose
        column types are known only once every row has been read may abandon
        that iterator part way (the consumer sees it raise :class:`Restart`,
        which it must let through) and call ``consume`` again from the first row
        with the widened types, so ``consume`` must keep nothing from an earlier
        attempt.  The result of the one attempt that saw every row is returned.
        A source whose types are known up front (a DataFrame, a Parquet file)
        makes exactly one attempt, as here.  After this, :meth:`chunks` never restarts.
        """
        return consume(self.chunks())

    def _column(self, name: str, offset: int, length: int) -> ColumnData:  # pragma: no cover
        raise NotImplementedError

    def settle_words(self, term_block: int, share: float) -> None:
        """Decide, before the profile pass, which columns are a document-term block, where the source can.

        A sparse matrix reads it from its values (its words then take no co-moments); other
        sources leave it to the profile (``words`` stays as declared, or None).
        """

    def row_labels(self, positions: Sequence[int]) -> list | None:
        """The labels the table gives the rows at these 0-based positions (a DataFrame's index), or None."""
        return None


P = TypeVar("P")  # a profile of rows: made for one part of a table, merged with the next part's


class Backend(Protocol):
    """Where a table's rows live and the passes over them run: the one interface an engine implements.

    :class:`LocalBackend` runs every pass here, chunk after chunk; the Dask engine
    (:class:`nblint.dask.backend.DaskBackend`) runs them where the partitions live and
    merges the parts here in row order, so that both give the same results, bit for bit.
    A source's backend is chosen where the source is made (:func:`nblint.run.tables.open_table`).
    """

    #: The rows live elsewhere: what needs every row in one process (a wide binary table's packed
    #: fingerprints, a test table's rows beside the training ones) is computed another way.
    distributed: bool

    def reduce_rows(self, columns: Sequence[str], accumulator: A) -> A:
        """``accumulator.add(chunk)`` over the rows in order (restricted to ``columns``), returned.

        Where the rows live elsewhere, each part's chunks go to a copy of the empty
        accumulator there and the copies are merged here in row order (``accumulator.merge``).
        """
        ...

    def profile(self, target: str | None, part: Callable[[TableSource], P], merge: Callable[[P, P], P]) -> P | None:
        """The table's profile made where the rows live: ``part`` of each part there, merged in a fixed order.

        None: the rows are here, and the caller profiles them in one pass (with its threads and
        the row accumulator that pass feeds).
        """
        ...

    def impact_passes(self, plan: object, comparisons: object, fold_counts: object, points: list) -> bool:
        """NB401's two scoring passes (:func:`nblint.impact.measure.measure_impact`'s objects) where the rows
        live; False: the caller runs them here."""
        ...


class LocalBackend:
    """The rows are here: every pass reads the source's chunks in this process (:class:`Backend`)."""

    distributed = False

    def __init__(self, source: TableSource):
        self.source = source

    def reduce_rows(self, columns: Sequence[str], accumulator: A) -> A:
        for chunk in self.source.chunks(list(columns)):
            accumulator.add(chunk)
        return accumulator

    def profile(self, target: str | None, part: Callable[[TableSource], P], merge: Callable[[P, P], P]) -> P | None:
        return None

    def impact_passes(self, plan: object, comparisons: object, fold_counts: object, points: list) -> bool:
        return False


class Restart(Exception):
    """A pass must start again from the first row: its source widened a column's type.

    Part of the restart protocol of :meth:`TableSource.settled_pass`, which alone
    handles it; raised from a source's pass iterator, never from :meth:`TableSource.chunks`.
    """
