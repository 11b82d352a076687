"""Open the tables of a run: any table (:func:`open_table`), a text column read as word counts, and the test table.

:func:`open_table` is the one place every face opens a table and so chooses its backend;
:func:`text_source` makes a table's column of documents (``--text``) a block of word
counts beside its numeric columns; :func:`open_test` reads the test (or serving)
table a training table is compared with (``--test``), the way the training table was
read, and says in one line naming the test file why it cannot.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, BinaryIO

import numpy as np

from nblint.core.errors import ConfigError, InputError, NblintError
from nblint.readers import TableSource
from nblint.run.config import FileSettings

if TYPE_CHECKING:
    from nblint.run.overrides import Overrides


class TestError(NblintError):
    """A test table that cannot be read: its error line is whole (it names the test file)."""


def open_test(
    path: str, train: TableSource, settings: FileSettings, overrides: Overrides, engine: str = "local"
) -> TableSource | None:
    """The test table of the table at ``path`` (``--test``, ``test = ...``), read the way ``train`` was; None: none.

    A table is not compared with itself (a configuration's ``test`` applies to every table,
    the test table included). A path the configuration names is confined as a spec's
    ``data:`` is (:mod:`nblint.run.confine`).

    Raises
    ------
    TestError
        One line naming the test file: it is refused, missing or unreadable, or the engine cannot take it.
    """
    test_path = settings.test
    if not test_path or (path != "-" and os.path.abspath(test_path) == os.path.abspath(path)):
        return None
    if engine == "dask" and not os.path.isfile(test_path):
        raise TestError(
            f"{test_path}: error: with --engine dask the test table is one file, read in chunks beside the "
            f"training table's partitions (the test table of {path})"
        )
    if settings.test_named_by is not None:
        from nblint.run.confine import refusal

        refused = refusal(
            test_path, settings.test_named_by, settings.test_line, allow_outside=overrides.allow_outside_data
        )
        if refused is not None:
            raise TestError(refused)
    try:
        return read_test(
            test_path,
            train,
            encoding=settings.encoding,
            text=settings.text,
            target=settings.target,
            sheet=overrides.sheet,
        )
    except NblintError as exc:
        raise TestError(f"{test_path}: error: {exc} (the test table of {path})") from None


def text_source(source: TableSource, column: str, target: str | None) -> TableSource:
    """``source`` with its text ``column`` as word counts beside its numeric columns (:mod:`nblint.readers.text`)."""
    from nblint.readers.sparse import SparseSource
    from nblint.readers.text import ColumnsSource, word_counts

    table = word_counts(source, column, target)
    # (the vocabulary is one block of words whatever its size; the table's numeric columns beside it are not)
    vocabulary = table.names[: len(table.names) - table.numeric]  # (the vocabulary, then the numeric columns)
    counts = SparseSource(table.matrix, table.names, table.target, table.y, source.path, words=vocabulary)
    counts.skipped = dict(source.skipped)
    counts.documents = table.documents
    if table.beside:
        with_target = {**table.beside, **({target: table.y} if target is not None and table.y is not None else {})}
        counts.beside = ColumnsSource(source.path, with_target)
    return counts


def open_table(
    data: Any,
    y: Any = None,
    *,
    target: str | None = None,
    text: str | None = None,
    encoding: str = "utf-8",
    sheet: str | None = None,
    stdin: BinaryIO | None = None,
    engine: str = "local",
    client: Any = None,
    **in_memory: Any,
) -> tuple[TableSource, str | None]:
    """The table ``data`` as a source, and the name of its target column: the one place a table is opened.

    Every face opens its tables here (the command line's runs, the Python API, the pandera
    checks and schemas), so a table is read, and its :class:`~nblint.readers.chunks.Backend`
    chosen, the same way whichever face is given it: a Dask DataFrame, or any path with
    ``engine="dask"``, is a :class:`~nblint.dask.source.DaskSource` whose passes run on the
    cluster; everything else is read here (:func:`nblint.readers.read_table` for a path,
    :func:`nblint.readers.memory.table_source` for a table in memory).

    Parameters
    ----------
    data
        A path (``-``: CSV on standard input), or any table :data:`nblint.readers.memory.ACCEPTED` names.
    y : array-like, optional
        The classes of an in-memory table's rows (its target column, named ``target``).
    target : str, optional
        The class column.
    text : str, optional
        A column of documents, read as its word counts beside the other columns (:func:`text_source`).
    encoding, sheet, stdin
        How a file is read (its text encoding, an Excel workbook's sheet, what ``-`` reads).
    engine : {"local", "dask"}
        ``"dask"``: a path (a file, a glob, a Parquet folder) is read as a Dask DataFrame.
    client : distributed.Client, optional
        The Dask scheduler's client (default: Dask's current one).
    **in_memory
        :func:`~nblint.readers.memory.table_source`'s ``feature_names``, ``notes`` and ``words``.

    Raises
    ------
    NblintError
        The file cannot be read, or a text column is asked of the Dask engine.
    TypeError, ValueError
        An in-memory table of a kind not accepted, or with ``y`` or names that do not fit it.
    """
    if engine == "dask" or _is_dask_frame(data):
        return _dask_table(data, y, target, text, encoding, client, in_memory.get("feature_names")), target
    if isinstance(data, (str, os.PathLike)) and y is None and in_memory.get("feature_names") is None:
        from nblint.readers.files import read_table  # (the file readers: only when a file is read)

        source = read_table(os.fspath(data), encoding=encoding, stdin=stdin, sheet=sheet)
    else:
        from nblint.readers.memory import table_source

        source, target = table_source(data, y, target=target, encoding=encoding, **in_memory)
    return (text_source(source, text, target) if text else source), target


def _is_dask_frame(data: Any) -> bool:
    if "dask.dataframe" not in sys.modules:  # (a Dask frame is possible only once dask is loaded)
        return False
    from nblint.dask.source import is_dask_frame

    return is_dask_frame(data)


def _dask_table(data, y, target, text, encoding: str, client, feature_names) -> TableSource:
    """A Dask DataFrame, or the one a path names, as a source profiled on its cluster."""
    from nblint.dask.source import DaskSource, is_dask_frame, read_dask
    from nblint.readers.memory import no_names

    if text:
        raise ConfigError("a text column (--text, text = ...) is read with the local engine only")
    if not is_dask_frame(data):
        return DaskSource(read_dask(os.fspath(data), encoding=encoding), os.fspath(data), client)
    if y is not None:
        raise ValueError("y cannot be joined to a Dask DataFrame; add it as a column and pass target=")
    no_names(feature_names, "a Dask DataFrame")
    return DaskSource(data, client=client)  # (the current distributed client, if any, without one)


# --------------------------------------------------------------------------- the test table


def read_test(
    path: str,
    train: TableSource,
    *,
    encoding: str = "utf-8",
    text: str | None = None,
    target: str | None = None,
    sheet: str | None = None,
) -> TableSource:
    """Open the test table at ``path`` the way ``train`` was opened (through :func:`open_table`, as every table).

    Parameters
    ----------
    path : str
        A file nblint reads (CSV, TSV, Parquet, Excel).
    train : TableSource
        The training table's source (with ``--text``: its word counts).
    encoding, sheet : str
        As the training table was read.
    text : str, optional
        The text column: the test documents are counted with the training vocabulary
        (:func:`test_words`).
    target : str, optional
        The training target: a test table without it is a serving table.

    Raises
    ------
    InputError
        The file cannot be read (one line, said as the training table's would be).
    """
    from nblint.readers.csvfile import CsvSource

    source, _ = open_table(path, encoding=encoding, sheet=sheet)
    if isinstance(source, CsvSource):
        source.SPILL = False  # (read in one pass: a spill of its parsed rows would never be read)
    if text is not None:
        return test_words(source, text, target, train)
    return source


def test_words(source: TableSource, column: str, target: str | None, train: TableSource) -> TableSource:
    """The test documents of ``column`` as counts over the training vocabulary, with each document's unseen tokens.

    Tokens are made as the training documents' were (scikit-learn's ``CountVectorizer()``
    analyzer); a token outside the training vocabulary is what the model drops. The result
    is a source of the training vocabulary's columns, its ``unseen_tokens`` and
    ``tokens`` attributes one count per document.
    """
    from scipy import sparse

    from nblint.core.dependencies import require
    from nblint.readers.sparse import SparseSource
    from nblint.readers.text import chunk_documents, whole_column

    if column not in source.names:
        raise InputError(f"text column {column!r} not found in the test table")
    words = [name for name in train.names if train.words is None or name in train.words]
    vocabulary = {_raw_word(name, column): j for j, name in enumerate(words)}

    def read(chunks):
        docs: list[str] = []
        labels = []
        for chunk in chunks:
            docs += chunk_documents(chunk.column(column), column)
            if target is not None and target in chunk.names:
                labels.append(chunk.column(target))
        return docs, labels

    docs, labels = source.settled_pass(read)
    analyzer = require("sklearn.feature_extraction.text", "--text").CountVectorizer().build_analyzer()
    rows, cols, tokens, unseen = [], [], np.zeros(len(docs), np.int64), np.zeros(len(docs), np.int64)
    for i, doc in enumerate(docs):
        found = analyzer(doc)
        tokens[i] = len(found)
        for token in found:
            j = vocabulary.get(token)
            if j is None:
                unseen[i] += 1
            else:
                rows.append(i)
                cols.append(j)
    matrix = sparse.csr_matrix(
        (np.ones(len(rows), dtype=np.int64), (rows, cols)), shape=(len(docs), len(words)), dtype=np.int64
    )
    matrix.sum_duplicates()
    y = whole_column(labels) if labels else None
    counts = SparseSource(matrix, tuple(words), target if y is not None else None, y, source.path, words=words)
    counts.documents = docs
    counts.tokens, counts.unseen_tokens = tokens, unseen  # type: ignore[attr-defined]
    return counts


def _raw_word(name: str, column: str) -> str:
    """The token behind a vocabulary column (``body:word`` where the table had a column ``word``)."""
    prefix = f"{column}:"
    return name[len(prefix) :].split("~")[0] if name.startswith(prefix) else name
