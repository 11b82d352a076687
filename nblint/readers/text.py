"""A text column of a table as word counts: what ``--text COLUMN`` (``text = "..."`` in the config) lints.

The column's documents are vectorised as scikit-learn's ``CountVectorizer()`` does
with its defaults (lower case, tokens of two or more word characters), so the
table nblint lints is the one ``make_pipeline(CountVectorizer(), MultinomialNB())``
would give its model; a missing document is an empty one. The words become
columns named by the vocabulary (a word spelt like another column of the table
is written ``COLUMN:word``); the target is kept, and so are the other numeric
columns, beside the words, so that metadata one-hot groups are still found. The
counts are a sparse matrix, never densified; a column that is not numeric cannot
join it: those columns (metadata such as a posting client) are kept apart, with the
target, as a table of their own (:class:`ColumnsSource`) that is linted beside the words,
so that a leak in the metadata is still found.

scikit-learn is the ``sklearn`` extra; without it this is one error line.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from nblint.core.errors import InputError
from nblint.readers.chunks import Chunk, ColumnData, TableSource


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
    beside : dict of str to ColumnData
        The columns that are not numeric (and not the text column), whole: linted apart.
    numeric : int
        How many of ``names`` (the last ones) are the table's numeric columns, not words.
    """

    matrix: object
    names: tuple[str, ...]
    target: str | None
    y: ColumnData | None
    beside: dict[str, ColumnData] = field(default_factory=dict)
    numeric: int = 0
    #: The documents as read (a missing one is ""), one per row.
    documents: list[str] = field(default_factory=list)


class ColumnsSource(TableSource):
    """A table of whole columns held in memory (the columns beside a text column's words)."""

    def __init__(self, path: str, columns: dict[str, ColumnData]):
        self.columns = columns
        n_rows = len(next(iter(columns.values())).values) if columns else 0
        super().__init__(path, list(columns), n_rows)

    def _column(self, name: str, offset: int, length: int) -> ColumnData:
        from nblint.readers.sparse import slice_column

        return slice_column(self.columns[name], offset, length)


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
            docs += chunk_documents(chunk.column(column), column, chunk.row_offset)
            for name, kept in parts.items():
                kept.append(chunk.column(name))
        return docs, parts

    docs, parts = source.settled_pass(read)
    vectorizer = CountVectorizer()
    try:
        words = vectorizer.fit_transform(docs)
    except ValueError as exc:  # "empty vocabulary; perhaps the documents only contain stop words"
        raise InputError(f"text column {column!r} holds no words ({exc})") from None
    y = whole_column(parts.pop(target)) if target is not None else None
    numeric = {name: whole_column(chunks) for name, chunks in sorted(parts.items())}
    beside = {name: col for name, col in numeric.items() if col.kind != "numeric"}
    numeric = {name: col for name, col in numeric.items() if col.kind == "numeric"}
    vocabulary = _word_names(vectorizer.get_feature_names_out(), column, source.names)
    if numeric:
        floats = any(not col.integer_dtype or col.missing is not None for col in numeric.values())
        dense = np.column_stack([col.as_float() if floats else col.values.astype(np.int64) for col in numeric.values()])
        words = sparse.hstack([words.astype(dense.dtype), sparse.csr_matrix(dense)], format="csr")
    return WordCounts(words, vocabulary + tuple(numeric), target, y, beside, len(numeric), docs)


#: What CountVectorizer() does to a document before counting, in order, and what each step makes
#: alike: the first step after which two different documents are the same tokens is what made them one.
_STEPS = ("lower-casing", "the token pattern (punctuation, spacing, one-character tokens)", "word order")
#: scikit-learn's default ``token_pattern``.
DEFAULT_TOKEN_PATTERN = r"(?u)\b\w\w+\b"


@dataclass(frozen=True)
class Recipe:
    """What a word vectorizer does to a document before counting, read from its parameters (plain data).

    Attributes
    ----------
    lowercase : bool
    strip_accents : str or None
        ``"ascii"`` or ``"unicode"`` (scikit-learn's two), or None.
    token_pattern : str
    stop_words : frozenset of str or None
    ngram_range : tuple of int
    vocabulary : frozenset of str or None
        The terms kept (a fitted vocabulary); None: every term is counted (a hash).
    cut : str
        How the vocabulary was cut, as the user wrote it (``min_df=2, max_features=1000``), or "".
    """

    lowercase: bool = True
    strip_accents: str | None = None
    token_pattern: str = DEFAULT_TOKEN_PATTERN
    stop_words: frozenset | None = None
    ngram_range: tuple[int, int] = (1, 1)
    vocabulary: frozenset | None = None
    cut: str = ""


def _stripped(doc: str, how: str | None) -> str:
    """scikit-learn's ``strip_accents_ascii`` / ``strip_accents_unicode``."""
    import unicodedata

    if how == "ascii":
        return unicodedata.normalize("NFKD", doc).encode("ASCII", "ignore").decode("ASCII")
    if how == "unicode":
        return "".join(c for c in unicodedata.normalize("NFKD", doc) if not unicodedata.combining(c))
    return doc


def _ngrams(tokens: list[str], low: int, high: int) -> list[str]:
    """scikit-learn's word n-grams of ``tokens`` (``_word_ngrams``), in its order."""
    if high == 1:
        return tokens
    grams = list(tokens) if low == 1 else []
    for n in range(max(low, 2), high + 1):
        grams += [" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]
    return grams


def made_identical(documents: list[str], recipe: Recipe | None = None) -> str | None:
    """Which step of the vectorizer made these documents (identical as counts) one; None: the same text.

    ``recipe``: the vectorizer's steps (:class:`Recipe`); None is ``CountVectorizer()``'s
    defaults (``--text``). The steps are tried in the vectorizer's order (accents,
    lower-casing, the token pattern, stop words, the vocabulary's cut) and the first after
    which the documents are the same sequence of terms is named. Raises nothing: documents
    identical as counts are the same multiset of terms, so the last step (counting forgets
    word order) always makes them one.
    """
    import re

    if len(set(documents)) == 1:
        return None
    if recipe is None:
        lowered = [doc.lower() for doc in documents]
        if len(set(lowered)) == 1:
            return _STEPS[0]
        token = re.compile(DEFAULT_TOKEN_PATTERN)
        tokens = [tuple(token.findall(doc)) for doc in lowered]
        if len(set(tokens)) == 1:
            return _STEPS[1]
        return _STEPS[2]
    docs = documents
    if recipe.strip_accents:
        docs = [_stripped(doc, recipe.strip_accents) for doc in docs]
        if len(set(docs)) == 1:
            return f"accent stripping (strip_accents={recipe.strip_accents!r})"
    if recipe.lowercase:
        docs = [doc.lower() for doc in docs]
        if len(set(docs)) == 1:
            return _STEPS[0]
    pattern = re.compile(recipe.token_pattern)
    terms = [pattern.findall(doc) for doc in docs]
    if len({tuple(t) for t in terms}) == 1:
        return (
            _STEPS[1]
            if recipe.token_pattern == DEFAULT_TOKEN_PATTERN
            else f"the token pattern {recipe.token_pattern!r}"
        )
    if recipe.stop_words:
        terms = [[t for t in doc if t not in recipe.stop_words] for doc in terms]
        if len({tuple(t) for t in terms}) == 1:
            return "stop words"
    if recipe.vocabulary is not None:
        kept = [tuple(g for g in _ngrams(doc, *recipe.ngram_range) if g in recipe.vocabulary) for doc in terms]
        if len(set(kept)) == 1:
            return f"the vocabulary ({recipe.cut}: terms outside it)" if recipe.cut else "the vocabulary"
    return _STEPS[2]


def chunk_documents(col: ColumnData, column: str, offset: int = 0) -> list[str]:
    """The documents of one chunk of the text column (its first row ``offset``); a missing value is an empty one.

    Bytes that are not UTF-8 (a Parquet binary column) are refused: any other decoding
    would guess the words, and the escapes of the bytes would be counted as words.
    """
    if col.undecodable is not None:
        row, what = col.undecodable
        raise InputError(
            f"text column {column!r} holds bytes, and row {offset + row} (0-based) is not valid UTF-8 ({what}): "
            "store the documents as text (decoded with their encoding) to lint their words"
        )
    if col.kind == "text":
        assert col.labels is not None  # a text chunk carries its labels
        labels = np.array([*col.labels, ""], dtype=object)  # code -1 (missing) picks the ""
        return labels[col.values].tolist()
    values = col.as_float()
    if not np.isnan(values).all():
        raise InputError(f"text column {column!r} holds numbers, not documents")
    return [""] * len(values)  # an empty (all-missing) stretch of documents


def whole_column(chunks: list[ColumnData]) -> ColumnData:
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
