"""A text column of a table as word counts: what ``--text COLUMN`` (``text = "..."`` in the config) lints.

The column's documents are vectorised as scikit-learn's ``CountVectorizer()`` does
with its defaults (lower case, tokens of two or more word characters), so the
table nblint lints is the one ``make_pipeline(CountVectorizer(), MultinomialNB())``
would give its model; a missing document is an empty one. The words become
columns named by the vocabulary (a word spelt like another column of the table
is written ``COLUMN:word``); the target is kept, and so are the other numeric
columns, beside the words, so that metadata one-hot groups are still found. The
counts are a sparse matrix, never densified; a column that is not numeric cannot
join it and is left out, said as a column not checked.

scikit-learn is the ``sklearn`` extra; without it this is one error line.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from nblint.core.errors import InputError
from nblint.readers.chunks import Chunk, ColumnData, TableSource

#: Why a non-numeric column is left out beside the word counts (shown by NB106).
NOT_NUMERIC = "text, and only the --text column is read as words beside the word counts"


@dataclass
class WordCounts:
    """A table with its text column vectorised.

    Attributes
    ----------
    matrix : scipy.sparse.csr_matrix (n, p)
        The word counts, then the other numeric columns (float64 with NaN for missing
        when one of them needs it, else int64).
    names : tuple of str
        The p column names: the vocabulary, then the numeric columns.
    target : str or None
    y : ColumnData or None
        The classes, one per row (with ``target``).
    skipped : dict of str to str
        Columns left out, and why.
    """

    matrix: object
    names: tuple[str, ...]
    target: str | None
    y: ColumnData | None
    skipped: dict[str, str] = field(default_factory=dict)


def word_counts(source: TableSource, column: str, target: str | None) -> WordCounts:
    """Read ``source`` once and vectorise its text ``column`` (see the module docstring).

    Raises
    ------
    InputError
        When the column is missing, is the target or holds no words at all.
    MissingDependency
        When scikit-learn (a dependency) is not installed.
    """
    from scipy import sparse

    from nblint.core.dependencies import require

    CountVectorizer = require("sklearn.feature_extraction.text", "--text").CountVectorizer
    if column not in source.names:
        raise InputError(f"text column {column!r} not found (columns: {_listed(source.names)})")
    if column == target:
        raise InputError(f"text column {column!r} is also the target")
    if target is not None and target not in source.names:
        raise InputError(f"target column {target!r} not found (columns: {_listed(source.names)})")

    def read(chunks: Iterator[Chunk]) -> tuple[list[str], dict[str, list[ColumnData]]]:
        docs: list[str] = []  # fresh on every attempt of the restart protocol
        parts: dict[str, list[ColumnData]] = {name: [] for name in source.names if name != column}
        for chunk in chunks:
            docs += _documents(chunk.column(column), column)
            for name, kept in parts.items():
                kept.append(chunk.column(name))
        return docs, parts

    docs, parts = source.settled_pass(read)
    vectorizer = CountVectorizer()
    try:
        words = vectorizer.fit_transform(docs)
    except ValueError as exc:  # "empty vocabulary; perhaps the documents only contain stop words"
        raise InputError(f"text column {column!r} holds no words ({exc})") from None
    y = _whole(parts.pop(target)) if target is not None else None
    numeric = {name: _whole(chunks) for name, chunks in sorted(parts.items())}
    skipped = {name: NOT_NUMERIC for name, col in numeric.items() if col.kind != "numeric"}
    numeric = {name: col for name, col in numeric.items() if col.kind == "numeric"}
    vocabulary = _word_names(vectorizer.get_feature_names_out(), column, source.names)
    if numeric:
        floats = any(not col.integer_dtype or col.missing is not None for col in numeric.values())
        dense = np.column_stack([col.as_float() if floats else col.values.astype(np.int64) for col in numeric.values()])
        words = sparse.hstack([words.astype(dense.dtype), sparse.csr_matrix(dense)], format="csr")
    return WordCounts(words, vocabulary + tuple(numeric), target, y, skipped)


def _documents(col: ColumnData, column: str) -> list[str]:
    """The documents of one chunk of the text column; a missing value is an empty document."""
    if col.kind == "text":
        assert col.labels is not None  # a text chunk carries its labels
        labels = np.array([*col.labels, ""], dtype=object)  # code -1 (missing) picks the ""
        return labels[col.values].tolist()
    values = col.as_float()
    if not np.isnan(values).all():
        raise InputError(f"text column {column!r} holds numbers, not documents")
    return [""] * len(values)  # an empty (all-missing) stretch of documents


def _whole(chunks: list[ColumnData]) -> ColumnData:
    """One column of the whole table from its chunks (codes of text chunks brought to one list of labels)."""
    if all(col.kind == "numeric" for col in chunks):
        integer = all(col.integer_dtype for col in chunks)
        if integer and all(col.missing is None for col in chunks):
            return ColumnData("numeric", np.concatenate([col.values for col in chunks]), None, True)
        values = np.concatenate([col.as_float() for col in chunks])
        if integer:  # whole numbers with gaps: the values as they were, the gaps flagged
            missing = np.isnan(values)
            return ColumnData("numeric", np.where(missing, 0, values).astype(np.int64), None, True, missing)
        return ColumnData("numeric", values)
    labels: dict[str, int] = {}
    codes = []
    for col in chunks:
        if col.kind == "text":
            assert col.labels is not None  # a text chunk carries its labels
            local = np.array([labels.setdefault(label, len(labels)) for label in col.labels] + [-1], dtype=np.int64)
            codes.append(local[col.values])
        else:  # a stretch read as numbers in a text column: only an all-missing one can be
            codes.append(np.full(len(col.values), -1, dtype=np.int64))
    return ColumnData("text", np.concatenate(codes), tuple(labels))


def _listed(names) -> str:
    shown = ", ".join(map(repr, list(names)[:10]))
    return shown + (f", ... ({len(names)} in all)" if len(names) > 10 else "")


def _word_names(words, column: str, names) -> tuple[str, ...]:
    """Column names for the words: the word, or ``column:word`` where a column of the table has that name.

    Should ``column:word`` be taken too, ``column:word~2``, ``~3``... is the first free
    name, so a word never lands on an existing column (which would refuse the table).
    """
    words = [str(word) for word in words]
    columns = set(names)
    taken = columns | set(words)
    out = []
    for word in words:
        if word in columns:
            name, k = f"{column}:{word}", 1
            while name in taken:
                k += 1
                name = f"{column}:{word}~{k}"
            taken.add(name)
            word = name
        out.append(word)
    return tuple(out)
