"""Open the tables of a run: a text column read as word counts, and the test table beside its training one.

:func:`text_source` makes a table's column of documents (``--text``) a block of word
counts beside its numeric columns; :func:`open_test` reads the test (or serving)
table a training table is compared with (``--test``), the way the training table was
read, and says in one line naming the test file why it cannot.
"""

from __future__ import annotations

import os

from nblint.core.errors import NblintError
from nblint.readers import TableSource
from nblint.run.config import Overrides, Settings


class TestError(NblintError):
    """A test table that cannot be read: its error line is whole (it names the test file)."""


def open_test(
    path: str, train: TableSource, settings: Settings, overrides: Overrides, engine: str = "local"
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
    from nblint.run.pairing import read_test

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
