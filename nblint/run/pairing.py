"""A test table read the way its training table was, and compared to it (the NB6xx rules' one input).

A model fitted on the training table meets the rows of a test (or serving) table. What it
meets there is measured here, in **one pass over the test table**, in the chunks every
source yields, against the training table's profile (never read again for this, but for
the rows in both tables, NB603, which fingerprints the training rows once when asked):

* the **schema**: training features missing from the test table, extra test columns, and
  columns read as another kind (numbers in one, text in the other);
* the test **classes** (where the test table has the target);
* per discrete feature the test **levels never seen in training**, and the test rows they
  touch;
* per test row and class, whether a (level, class) cell of the row was **never seen in
  training** (NB201's zero cells, counted where they bite);
* per measurement column the test values **outside every class's training range** (more
  than ``support_sds`` standard deviations from every class mean, and outside the training
  minimum and maximum), and the test values of columns constant within a class in training;
* with ``--text``: each test document's tokens **outside the training vocabulary**;
* each test row's **fingerprint** (:class:`nblint.analysis.rows.RowFingerprints`, with the
  text columns added), for the rows found in both tables.

:func:`read_test` opens a test file the way its training table was opened (its encoding,
its text column counted with the training vocabulary); :func:`compare` makes the
:class:`TestComparison` the rules read as ``ctx.test``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import numpy as np

from nblint.analysis.rows import RowFingerprints
from nblint.core.errors import InputError
from nblint.core.hashing import mix64
from nblint.core.tails import binomial_sf
from nblint.engine.findings import EXAMPLE_ROWS
from nblint.readers import TableSource

#: Column kinds whose values are levels: a level the training table never had is "unseen" (a count
#: only where a categorical model reads it).
LEVEL_KINDS = ("binary", "group-member", "categorical", "count")
#: Event models that read a discrete column by its levels (their cells are (level, class) pairs).
LEVEL_MODELS = ("categorical", "bernoulli")
#: How far from every class mean, in that class's standard deviations, a value is "out of support".
SUPPORT_SDS = 6.0


# --------------------------------------------------------------------------- reading


def read_test(
    path: str,
    train: TableSource,
    *,
    encoding: str = "utf-8",
    text: str | None = None,
    target: str | None = None,
    sheet: str | None = None,
) -> TableSource:
    """Open the test table at ``path`` the way ``train`` was opened.

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
    from nblint.readers.files import read_table

    source = read_table(path, encoding=encoding, sheet=sheet)
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
    from nblint.readers.text import _documents, _whole

    if column not in source.names:
        raise InputError(f"text column {column!r} not found in the test table")
    words = [name for name in train.names if train.words is None or name in train.words]
    vocabulary = {_raw_word(name, column): j for j, name in enumerate(words)}

    def read(chunks):
        docs: list[str] = []
        labels = []
        for chunk in chunks:
            docs += _documents(chunk.column(column), column)
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
    y = _whole(labels) if labels else None
    counts = SparseSource(matrix, tuple(words), target if y is not None else None, y, source.path, words=words)
    counts.documents = docs
    counts.tokens, counts.unseen_tokens = tokens, unseen  # type: ignore[attr-defined]
    return counts


def _raw_word(name: str, column: str) -> str:
    """The token behind a vocabulary column (``body:word`` where the table had a column ``word``)."""
    prefix = f"{column}:"
    return name[len(prefix) :].split("~")[0] if name.startswith(prefix) else name


# --------------------------------------------------------------------------- the comparison


@dataclass
class LevelsMet:
    """One discrete column's test levels the training table never saw."""

    column: str
    #: level (as training keys it) -> test rows with it
    unseen: dict[Any, int] = field(default_factory=dict)
    #: test rows with an unseen level of this column
    rows: int = 0
    #: the largest level seen in training (numeric columns), for CategoricalNB's ``n_categories_``
    train_max: float | None = None
    #: for a one-hot or dummy group read as one variable: its member columns (``column`` is its label)
    members: tuple[str, ...] = ()


@dataclass
class TestComparison:
    """What a model fitted on the training table meets in the test table (see the module docstring).

    Attributes
    ----------
    path : str
        The test table (findings about its rows are located there).
    n_rows : int
        Test rows.
    has_target : bool
        The test table has the training target (else it is a serving table).
    missing, extra : tuple of str
        Training features absent from the test table; test columns the training table lacks.
    other_kind : dict
        Column -> (training representation, test representation), where they differ.
    class_count : ndarray of int
        Test rows per training class (zeros without a target).
    new_classes : dict
        Test labels no training row has -> their rows.
    levels : dict of str to LevelsMet
        Discrete columns with unseen test levels.
    unseen_rows : int
        Test rows with at least one unseen level; ``unseen_examples`` the first (1-based).
    zero_cells : dict
        Column -> test rows carrying one of its (level, class) cells never seen in training.
    vetoed : ndarray of int
        Per training class: test rows with at least one such cell for the class.
    vetoed_any : int
        Test rows with such a cell for at least one class; ``vetoed_examples`` the first.
    outside : dict
        Measurement column -> (rows out of support, lowest and highest test value, first rows).
    constant_varies : dict
        Column -> (its constant per class in training, test rows that differ from it).
    tokens, unseen_tokens : ndarray of int or None
        With a text column: per test class slot (the last: no or unknown label), tokens and unseen tokens.
    """

    path: str
    n_rows: int = 0
    has_target: bool = False
    missing: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    other_kind: dict[str, tuple[str, str]] = field(default_factory=dict)
    classes: tuple[str, ...] = ()
    class_count: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    new_classes: dict[str, int] = field(default_factory=dict)
    levels: dict[str, LevelsMet] = field(default_factory=dict)
    unseen_rows: int = 0
    unseen_examples: list[int] = field(default_factory=list)
    zero_cells: dict[str, int] = field(default_factory=dict)
    vetoed: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    vetoed_any: int = 0
    vetoed_examples: list[int] = field(default_factory=list)
    outside: dict[str, tuple[int, float, float, list[int]]] = field(default_factory=dict)
    constant_varies: dict[str, tuple[dict[str, float], int, list[int]]] = field(default_factory=dict)
    tokens: np.ndarray | None = None
    unseen_tokens: np.ndarray | None = None
    #: the test documents as read (``--text``), compared as text with the training ones; else None
    documents: list[str] | None = None
    #: column -> the step of a followed pipeline that raises on a level it never saw (an encoder with
    #: ``handle_unknown='error'``), as ``OneHotEncoder (line 7) in pipeline.yaml``
    strict: dict[str, str] = field(default_factory=dict)
    #: the error a followed pipeline's steps raised on the test rows (nothing else could be compared)
    transform_error: str | None = None
    #: the declared CategoricalNB's ``min_categories`` where known (codes below it have room)
    min_categories: Any = None
    #: each test row's fingerprint and label (for the rows in both tables)
    _hashes: np.ndarray | None = field(default=None, repr=False)
    _labels: np.ndarray | None = field(default=None, repr=False)
    _train: Any = field(default=None, repr=False)
    _common: tuple[str, ...] = field(default=(), repr=False)
    #: the training rows' fingerprints made in the profile's pass (:func:`train_rows_for`), or None
    _train_rows: _RowPrints | None = field(default=None, repr=False)

    @cached_property
    def overlap(self) -> Overlap:
        """The test rows also in the training table, and those with another label there.

        The training rows' fingerprints are those the profile's pass made (:func:`train_rows_for`),
        else made in one more pass over the training features (only when a rule asks); a text
        table compares its documents as read.
        """
        ctx = self._train
        assert self._hashes is not None and self._labels is not None
        if ctx.source.documents is not None and self.documents is not None:
            train_keys = _document_hashes(ctx.source.documents)
            test_keys = _document_hashes(self.documents)
        else:
            prints = self._train_rows
            if prints is None and ctx.source.matrix is not None:
                # A sparse matrix: its own row blocks (read column by column, a vocabulary is dense chunks).
                prints = _RowPrints(self._common, ctx.target)
                for chunk in ctx.source.chunks():
                    prints.add(chunk)
            elif prints is None:
                columns = list(self._common) + ([ctx.target] if ctx.target else [])
                prints = ctx.reduce_rows(columns, _RowPrints(self._common, ctx.target))
            train_keys, test_keys = prints.hashes(), self._hashes
            train_labels = prints.labels() if ctx.target else None
            return overlap(train_keys, train_labels, test_keys, self._labels if self.has_target else None)
        train_labels = _train_labels(ctx) if ctx.target else None
        return overlap(train_keys, train_labels, test_keys, self._labels if self.has_target else None)


@dataclass(frozen=True)
class Overlap:
    """Test rows found in the training table (by the features the two share), and their chance.

    A narrow table of a few discrete columns repeats rows by itself: a test row equal to a
    training row is then what the values allow, not a copy. The chance that a fresh row equals
    some training row is estimated from the training table itself (leave one out: the share of
    training rows whose features another training row repeats); ``p_value`` is the one-sided
    binomial probability of at least ``rows`` such test rows at that chance. The rows whose
    label differs are weighed the same way against their own chance (``conflict_p_value``: the
    share of training rows whose features another training row repeats under another label),
    since a table that repeats rows by itself rarely repeats them under another class.
    """

    rows: int  # test rows whose features are a training row's
    conflicting: int  # of those, rows whose label is not among that training row's labels
    examples: list[int]  # first test rows (1-based), the conflicting ones first
    conflicting_examples: list[int]
    chance: float = 0.0  # the share of fresh rows expected to equal a training row
    p_value: float = 0.0
    conflict_chance: float = 0.0  # the share expected to equal a training row under another label
    conflict_p_value: float = 1.0


def overlap(train: np.ndarray, train_labels, test: np.ndarray, test_labels) -> Overlap:
    """:class:`Overlap` of two arrays of row keys (and labels, as text, where both tables have them)."""
    _, inverse, counts = np.unique(train, return_inverse=True, return_counts=True)
    chance = float((counts[inverse] > 1).mean()) if len(train) else 0.0
    found = np.isin(test, train)
    at = np.flatnonzero(found)
    p_value = binomial_sf(at.size - 1, len(test), chance) if at.size else 1.0
    conflicting: list[int] = []
    conflict_chance, conflict_p_value = 0.0, 1.0
    if test_labels is not None and train_labels is not None and at.size:
        train_pairs, test_pairs = _labelled_keys(train, train_labels, test, test_labels)
        # A found test row conflicts when no training row has its features under its label.
        conflicting = at[~np.isin(test_pairs[at], train_pairs)].tolist()
        # The training keys seen under two or more labels: their distinct (key, label) pairs repeat the key.
        keys, labels_per_key = np.unique(train[np.unique(train_pairs, return_index=True)[1]], return_counts=True)
        mixed = keys[labels_per_key > 1]
        conflict_chance = float(np.isin(train, mixed).mean()) if mixed.size else 0.0
        if conflicting:
            conflict_p_value = binomial_sf(len(conflicting) - 1, len(test), conflict_chance)
    first = [i + 1 for i in conflicting[:EXAMPLE_ROWS]]
    rest = [int(i) + 1 for i in at.tolist() if int(i) + 1 not in first]
    examples = (first + rest)[:EXAMPLE_ROWS]
    return Overlap(int(at.size), len(conflicting), examples, first, chance, p_value, conflict_chance, conflict_p_value)


def _labelled_keys(train: np.ndarray, train_labels, test: np.ndarray, test_labels) -> tuple[np.ndarray, np.ndarray]:
    """Each row's key with its label folded in (64-bit, wrapping), for both tables: equal only for equal pairs."""
    code: dict = {}
    for label in [*set(train_labels.tolist()), *set(test_labels.tolist())]:
        code.setdefault(label, len(code))

    def keyed(keys: np.ndarray, labels) -> np.ndarray:
        codes = np.fromiter(map(code.__getitem__, labels.tolist()), dtype=np.uint64, count=len(labels))
        with np.errstate(over="ignore"):
            return keys + mix64(codes + np.uint64(1))

    return keyed(train, train_labels), keyed(test, test_labels)


def failed(path: str, message: str) -> TestComparison:
    """The comparison of a test table the pipeline's own steps could not transform (``message``: what they raised)."""
    return TestComparison(path, transform_error=message)


def strict_encoders(spec) -> dict[str, str]:
    """Column -> the encoder of an nblint spec (or a followed pipeline) that raises on an unseen level.

    ``OneHotEncoder`` and ``OrdinalEncoder`` raise in ``transform`` with their default
    ``handle_unknown='error'``; ``LabelEncoder`` has no other way. A column whose encoder has a
    plan for unknown levels (any other ``handle_unknown``) maps to ``""``: known not to raise.
    """
    found: dict[str, str] = {}

    def visit(steps) -> None:
        for step in steps:
            for branch in getattr(step, "branches", ()) or ():
                visit(branch)
            raises = step.cls == "LabelEncoder" or (
                step.cls in ("OneHotEncoder", "OrdinalEncoder") and step.value("handle_unknown", "error") == "error"
            )
            planned = step.cls in ("OneHotEncoder", "OrdinalEncoder") and not raises
            if (raises or planned) and step.columns:
                for column in step.columns:
                    found.setdefault(str(column), f"{step.label()} in {spec.path}" if raises else "")

    visit(spec.steps)
    return found


def compare(
    ctx,
    test: TableSource,
    strict: dict[str, str] | None = None,
    min_categories: Any = None,
    train_rows: _RowPrints | None = None,
) -> TestComparison:
    """Compare ``test`` with the training table of ``ctx`` (a :class:`~nblint.analysis.context.TableContext`).

    ``strict``: the columns whose encoder in a followed pipeline raises on an unseen level
    (:func:`strict_encoders`); ``min_categories``: the declared CategoricalNB's, where known;
    ``train_rows``: the training rows' fingerprints the profile's pass made (:func:`train_rows_for`).

    One pass over the test table's chunks (a CSV settles its types in it); the training table is
    read through its profile (the rows in both tables, :attr:`TestComparison.overlap`, read its
    features once more when a rule asks and ``train_rows`` does not hold them).

    Raises
    ------
    InputError
        The test table shares no feature with the training table.
    """
    profile = ctx.profile
    target = ctx.target
    features = list(profile.features)
    test_names = set(test.names)
    common = tuple(c for c in features if c in test_names)
    trained = set(features)
    if features and not common:
        raise InputError(
            f"the test table {test.path} shares no column with the training table "
            f"(training features: {', '.join(map(repr, features[:5]))}{', ...' if len(features) > 5 else ''})"
        )

    def attempt(chunks) -> _TestPass:
        # (restarted from the first row where a CSV widens a type: nothing is kept from an earlier attempt)
        result = TestComparison(test.path, strict=dict(strict or {}), min_categories=min_categories)
        result.has_target = target is not None and target in test_names
        result.missing = tuple(c for c in features if c not in test_names)
        result.extra = tuple(sorted(c for c in test.names if c not in trained and c != target))
        result.classes = tuple(_label(c) for c in profile.classes)
        result._train, result._common = ctx, common
        if (
            train_rows is not None
            and train_rows.shared == frozenset(common)
            and train_rows.n_rows == ctx.profile.n_rows
        ):
            result._train_rows = train_rows  # (made over the columns compared, every row: else made again)
        accumulator = _TestPass(ctx, common, result)
        for chunk in chunks:
            accumulator.add(chunk)
        return accumulator

    # One pass over every column, as the test table's own profile would read it (a CSV settles its
    # types in that pass, restarting where one widens, rather than reading the file twice).
    accumulator = test.settled_pass(attempt)
    result = accumulator.result
    accumulator.finish()
    tokens = getattr(test, "tokens", None)
    if tokens is not None:
        result.documents = test.documents
        slots = accumulator.slots()
        n = len(result.classes) + 1
        result.tokens = np.bincount(slots, weights=tokens, minlength=n).astype(np.int64)
        result.unseen_tokens = np.bincount(slots, weights=test.unseen_tokens, minlength=n).astype(np.int64)  # type: ignore[attr-defined]
    return result


def train_rows_for(train: TableSource, test: TableSource, target: str | None) -> _RowPrints | None:
    """An empty accumulator of the training rows' fingerprints, for the profile's pass to fill; None: not there.

    Over the columns the two tables share by name (the features compared, unless the profile
    leaves one out: :func:`compare` then reads the training rows again). Two tables of
    documents compare their documents instead; a Dask source profiles where its rows live.
    """
    if (train.documents is not None and test.documents is not None) or train.distributed:
        return None
    tested = set(test.names)
    shared = [name for name in train.names if name != target and name in tested]
    return _RowPrints(shared, target) if shared else None


class _RowPrints:
    """Row fingerprints over numeric, sparse and text columns (numeric ones: :class:`RowFingerprints`)."""

    def __init__(self, common: Sequence[str], target: str | None):
        self.common, self.target = tuple(common), target
        self.shared = frozenset(common)  # (membership per column: a vocabulary is tens of thousands)
        self.numeric = RowFingerprints(self.shared, target)
        self.text: list[np.ndarray] = []
        self.label_parts: list[np.ndarray] = []

    def empty(self) -> _RowPrints:
        """A fresh accumulator over the same columns."""
        return _RowPrints(self.common, self.target)

    @property
    def n_rows(self) -> int:
        return sum(len(part) for part in self.text)

    def add(self, chunk) -> None:
        block = chunk.sparse
        if block is not None and not self.shared.issuperset(block.names):
            # (the profile's pass holds every column of a wide table's 0/1 block: the others are not compared)
            keep = [k for k, name in enumerate(block.names) if name in self.shared]
            names = tuple(block.names[k] for k in keep)
            chunk = replace(
                chunk,
                sparse=replace(block, names=names, matrix=block.matrix[:, keep], binary=block.binary[keep], words=None),
            )
        self.numeric.add(chunk)
        if self.target is not None and self.target in chunk.names:
            self.label_parts.append(_labels_of(chunk.column(self.target)))
        extra = np.zeros(chunk.n_rows, dtype=np.uint64)
        with np.errstate(over="ignore"):
            for name, column in zip(chunk.names, chunk.columns):
                if name == self.target or name not in self.shared or column.kind != "text":
                    continue
                labels = np.array([*column.labels, "\0missing"], dtype=object)
                import pandas as pd

                values = pd.util.hash_array(labels)[np.asarray(column.values)]
                extra += mix64(_salt(name) + values)
        self.text.append(extra)

    def merge(self, other: _RowPrints) -> None:
        self.numeric.merge(other.numeric)
        self.text += other.text
        self.label_parts += other.label_parts

    def labels(self) -> np.ndarray:
        """Each row's label as text (None: missing), in row order (an object array)."""
        return np.concatenate(self.label_parts) if self.label_parts else np.zeros(0, dtype=object)

    def hashes(self) -> np.ndarray:
        numeric = np.concatenate(self.numeric.hashes) if self.numeric.hashes else np.zeros(0, np.uint64)
        if self.numeric.held is not None:
            numeric = numeric + self.numeric.held[0]
        text = np.concatenate(self.text) if self.text else np.zeros_like(numeric)
        with np.errstate(over="ignore"):
            return numeric + text


def _salt(name: str) -> np.uint64:
    import zlib

    return mix64(np.array([zlib.crc32(name.encode("utf-8", "surrogatepass"))], dtype=np.uint64))[0]


def _document_hashes(documents: Sequence[str]) -> np.ndarray:
    """A key per document: its text with case and spacing folded (a copy re-typed is still a copy)."""
    import pandas as pd

    folded = np.array([" ".join(str(d).lower().split()) for d in documents], dtype=object)
    return pd.util.hash_array(folded) if len(folded) else np.zeros(0, dtype=np.uint64)


def _label(value) -> str:
    """A class label as text, as users wrote it (1 and 1.0 are one class)."""
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return str(int(value))
    return str(value)


def _labels_of(column) -> np.ndarray:
    """A target column's labels as text (None: missing), an object array (each distinct value written once)."""
    if column.kind == "text":
        return np.array([*column.labels, None], dtype=object)[np.asarray(column.values)]
    distinct, inverse = np.unique(column.as_float(), return_inverse=True)  # (NaN last, as one value)
    names = np.empty(len(distinct), dtype=object)
    names[:] = [None if math.isnan(v) else _label(v) for v in distinct.tolist()]
    return names[inverse.reshape(-1)]


def _train_labels(ctx) -> np.ndarray:
    class _Labels:
        def __init__(self):
            self.parts: list[np.ndarray] = []

        def add(self, chunk):
            self.parts.append(_labels_of(chunk.column(ctx.target)))

        def merge(self, other):
            self.parts += other.parts

    parts = ctx.reduce_rows([ctx.target], _Labels()).parts
    return np.concatenate(parts) if parts else np.zeros(0, dtype=object)


class _TestPass:
    """The one pass over the test table: every quantity of :class:`TestComparison`, chunk by chunk, in row order."""

    def __init__(self, ctx, common: tuple[str, ...], result: TestComparison):
        self.ctx, self.result = ctx, result
        profile = ctx.profile
        self.target = ctx.target if result.has_target else None
        self.n_classes = len(profile.classes)
        self.class_index = {label: c for c, label in enumerate(result.classes)}
        self.class_rows = profile.class_count[: self.n_classes].astype(np.int64)
        kinds = ctx.kinds
        self.discrete: dict[str, tuple[dict, np.ndarray, bool]] = {}
        self.measured: dict[str, tuple[np.ndarray, np.ndarray, float, float]] = {}
        self.constants: dict[str, dict[int, float]] = {}
        text_columns = set(profile.text)
        numeric = profile.numeric
        # Columns read by their counts (words; counts under Multinomial or Complement): a (feature, class)
        # cell is one the class never had a count of; a test row with the feature present meets it.
        counted = [
            column
            for column in common
            if column in numeric.names
            and column in kinds
            and column not in profile.text
            and (
                (column in ctx.term_columns and (ctx.model or kinds[column].model) != "gaussian")
                or (ctx.model or kinds[column].model) in ("multinomial", "complement")
            )
        ]
        positions = np.array([numeric.names.index(c) for c in counted], dtype=np.int64)
        totals = numeric.class_mean[: self.n_classes][:, positions] * numeric.class_n[: self.n_classes][:, positions]
        absent = np.abs(totals) < 1e-9
        absent[self.class_rows == 0] = False
        self.absent = {c: absent[:, k] for k, c in enumerate(counted) if absent[:, k].any()}
        by_counts = set(counted)
        for column in common:
            kind = kinds.get(column)
            if kind is None or column in ctx.term_columns or column in by_counts:
                continue
            model = ctx.model or kind.model
            # (a count read by its magnitude, Gaussian or Multinomial, has values rather than levels: a new
            # one is no unseen level)
            if kind.kind in LEVEL_KINDS and (kind.kind != "count" or model == "categorical"):
                levels = profile.levels(column)
                if levels is None:
                    continue
                keys = {_key(k): i for i, k in enumerate(levels.keys)}
                cells = model in LEVEL_MODELS and (kind.kind != "count" or model == "categorical")
                self.discrete[column] = (keys, levels.table[:, : self.n_classes], cells)
                met = LevelsMet(column)
                numbers = [float(k) for k in levels.keys if isinstance(k, (int, float))]
                met.train_max = max(numbers) if numbers and column not in text_columns else None
                self.result.levels[column] = met
            elif column not in text_columns and column in numeric.names and model in ("gaussian", None):
                j = numeric.names.index(column)
                n = numeric.class_n[: self.n_classes, j].astype(np.float64)
                mean = numeric.class_mean[: self.n_classes, j]
                with np.errstate(invalid="ignore", divide="ignore"):
                    sd = np.sqrt(numeric.class_m2[: self.n_classes, j] / np.maximum(n - 1, 1))
                lo, hi = float(numeric.minimum[j]), float(numeric.maximum[j])
                if not (math.isfinite(lo) and math.isfinite(hi)):
                    continue
                constant = {c: float(mean[c]) for c in range(self.n_classes) if n[c] >= 2 and sd[c] == 0}
                if constant:
                    self.constants[column] = constant
                self.measured[column] = (mean, np.where(n >= 2, sd, np.nan), lo, hi)
        # One-hot and dummy groups, read as the one variable they encode: a test row setting no member of
        # a one-hot group (an encoder's unknown category), or two members of any group, is a level
        # training never had, where training had no such row.
        self.groups: dict[str, tuple[list[str], bool]] = {}
        for group in ctx.structure.groups:
            if not set(group.members) <= set(common):
                continue
            label = group.stem or "+".join(group.members)
            none_seen = group.kind == "one-hot" and group.reference_count == 0
            self.groups[label] = (list(group.members), none_seen)
            self.result.levels[label] = LevelsMet(label, members=tuple(group.members))
        self.prints = _RowPrints(common, self.target)
        self.rows = 0
        self.unseen_mask: list[np.ndarray] = []
        self.veto_mask: list[np.ndarray] = []
        self.outside_rows: dict[str, list] = {c: [0, math.inf, -math.inf, []] for c in self.measured}
        self.constant_rows: dict[str, list] = {c: [0, []] for c in self.constants}
        self.kinds_seen: dict[str, str] = {}

    def add(self, chunk) -> None:
        n, offset = chunk.n_rows, chunk.row_offset
        result = self.result
        self.prints.add(chunk)
        unseen = np.zeros(n, dtype=bool)
        veto = np.zeros((n, self.n_classes), dtype=bool)
        for name, column in zip(chunk.names, chunk.columns):
            if name == self.target:
                continue
            self.kinds_seen.setdefault(name, column.kind)
            if name in self.discrete:
                keys, table, cells = self.discrete[name]
                index, values, present = _level_index(column, keys)
                new = present & (index < 0)
                if new.any():
                    met = result.levels[name]
                    met.rows += int(new.sum())
                    for value in values[new].tolist():
                        met.unseen[value] = met.unseen.get(value, 0) + 1
                    unseen |= new
                if cells and self.n_classes:
                    known = present & (index >= 0)
                    zero = np.zeros((n, self.n_classes), dtype=bool)
                    zero[known] = table[index[known]] == 0
                    zero[:, self.class_rows == 0] = False
                    if zero.any():
                        result.zero_cells[name] = result.zero_cells.get(name, 0) + int(zero.any(axis=1).sum())
                        veto |= zero
            elif name in self.absent and column.kind == "numeric":
                self._meet(name, np.nan_to_num(column.as_float()) > 0, veto)
            elif name in self.measured and column.kind == "numeric":
                self._measure(name, column.as_float(), offset)
        if self.groups:
            unseen |= self._group_levels(chunk)
        block = chunk.sparse
        if block is not None and self.absent and self.n_classes:
            self._meet_block(block, veto)
        self.unseen_mask.append(unseen)
        self.veto_mask.append(veto)
        self.rows += n

    def _group_levels(self, chunk) -> np.ndarray:
        """Rows of the chunk whose one-hot or dummy group pattern training never had (see ``__init__``)."""
        n = chunk.n_rows
        new = np.zeros(n, dtype=bool)
        block = chunk.sparse
        where = {name: k for k, name in enumerate(block.names)} if block is not None else {}
        for label, (members, none_seen) in self.groups.items():
            set_count = np.zeros(n, dtype=np.int64)
            for member in members:
                if member in chunk.names:
                    set_count += np.nan_to_num(chunk.column(member).as_float()) != 0
                elif member in where:
                    set_count += np.asarray((block.matrix[:, where[member]] != 0).todense()).ravel()
            met = self.result.levels[label]
            for pattern, rows in (("no member set", (set_count == 0) & none_seen), ("two or more set", set_count > 1)):
                if rows.any():
                    met.unseen[pattern] = met.unseen.get(pattern, 0) + int(rows.sum())
            row_new = ((set_count == 0) & none_seen) | (set_count > 1)
            met.rows += int(row_new.sum())
            new |= row_new
        return new

    def _meet_block(self, block, veto: np.ndarray) -> None:
        """:meth:`_meet` for every word of a sparse block at once (one product, not a slice per word).

        With ``P`` the rows x words presence and ``A`` the words x classes "never had it", a row is
        vetoed for class ``c`` where some present word has ``A[w, c]``: ``(P @ A)[row, c] > 0``; a
        word's zero cells met are its present rows when any class never had it.
        """
        at = [k for k, name in enumerate(block.names) if name in self.absent]
        if not at:
            return
        names = [block.names[k] for k in at]
        absent = np.array([self.absent[name] for name in names], dtype=np.float64).reshape(len(at), -1)
        present = (block.matrix[:, at] > 0).astype(np.float64)
        veto |= np.asarray(present @ absent) > 0
        rows = np.asarray(present.sum(axis=0)).ravel().astype(np.int64)
        any_absent = np.count_nonzero(absent, axis=1).tolist()  # (per word: some class never had it)
        for name, met, some in zip(names, rows.tolist(), any_absent):
            if met and some:
                self.result.zero_cells[name] = self.result.zero_cells.get(name, 0) + met

    def _meet(self, name: str, present: np.ndarray, veto: np.ndarray) -> None:
        """The rows where a column read by its counts is present, against the classes that never had it."""
        if not present.any():
            return
        zero = present[:, None] & self.absent[name][None, :]
        met = zero.any(axis=1)
        if met.any():
            self.result.zero_cells[name] = self.result.zero_cells.get(name, 0) + int(met.sum())
            veto |= zero

    def _measure(self, name: str, x: np.ndarray, offset: int) -> None:
        mean, sd, lo, hi = self.measured[name]
        kept = ~np.isnan(x)
        with np.errstate(invalid="ignore", divide="ignore"):
            distance = np.abs(x[:, None] - mean[None, :]) / sd[None, :]
        far = np.all(~(distance <= SUPPORT_SDS), axis=1) & ((x < lo) | (x > hi)) & kept
        far &= bool(np.isfinite(sd).any() and (sd > 0).any())
        state = self.outside_rows[name]
        if far.any():
            state[0] += int(far.sum())
            state[1], state[2] = min(state[1], float(x[far].min())), max(state[2], float(x[far].max()))
            state[3] += (np.flatnonzero(far)[:EXAMPLE_ROWS] + offset + 1).tolist()
        if name in self.constants:
            values = set(self.constants[name].values())
            differs = kept & ~np.isin(x, list(values))
            if len(values) == 1 and differs.any():
                kept_state = self.constant_rows[name]
                kept_state[0] += int(differs.sum())
                kept_state[1] += (np.flatnonzero(differs)[:EXAMPLE_ROWS] + offset + 1).tolist()

    def slots(self) -> np.ndarray:
        """Each test row's training class slot (the last: no label, or one training never had)."""
        labels = self.prints.labels()  # (the labels the row fingerprints read with the rows)
        if self.target is None or not labels.size:
            return np.full(self.rows, self.n_classes, dtype=np.int64)
        slot = {label: self.class_index.get(label, self.n_classes) for label in set(labels.tolist())}
        return np.fromiter(map(slot.__getitem__, labels.tolist()), dtype=np.int64, count=len(labels))

    def finish(self) -> None:
        result = self.result
        result.n_rows = self.rows
        for name, kind in self.kinds_seen.items():
            trained = self.ctx.profile.kinds.get(name)
            if trained is not None and trained != kind:
                result.other_kind[name] = (trained, kind)
        result.levels = {c: met for c, met in result.levels.items() if met.rows}
        unseen = np.concatenate(self.unseen_mask) if self.unseen_mask else np.zeros(0, dtype=bool)
        result.unseen_rows = int(unseen.sum())
        result.unseen_examples = (np.flatnonzero(unseen)[:EXAMPLE_ROWS] + 1).tolist()
        veto = np.concatenate(self.veto_mask) if self.veto_mask else np.zeros((0, self.n_classes), dtype=bool)
        result.vetoed = veto.sum(axis=0).astype(np.int64)
        hit = veto.any(axis=1) if veto.size else np.zeros(len(veto), dtype=bool)
        result.vetoed_any = int(hit.sum())
        result.vetoed_examples = (np.flatnonzero(hit)[:EXAMPLE_ROWS] + 1).tolist()
        for name, (rows, low, high, first) in self.outside_rows.items():
            if rows:
                result.outside[name] = (rows, low, high, first[:EXAMPLE_ROWS])
        for name, (rows, first) in self.constant_rows.items():
            if rows:
                constant = {result.classes[c]: v for c, v in self.constants[name].items()}
                result.constant_varies[name] = (constant, rows, first[:EXAMPLE_ROWS])
        slots = self.slots()
        result.class_count = np.bincount(slots, minlength=self.n_classes + 1)[: self.n_classes].astype(np.int64)
        labels = self.prints.labels() if self.target is not None else np.zeros(0, dtype=object)
        for label, rows in Counter(labels.tolist()).items():
            if label is not None and label not in self.class_index:
                result.new_classes[label] = rows
        result._hashes = self.prints.hashes()
        result._labels = labels if labels.size else np.zeros(self.rows, dtype=object)


def _key(value):
    """A level key as the test pass compares it: numbers as floats (3 and 3.0 are one level), text as text."""
    if isinstance(value, (bool, np.bool_)):
        return float(value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        return float(value)
    return str(value)


def _level_index(column, keys: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each row's level position in the training table (-1: unseen), its value, and whether it is present."""
    if column.kind == "text":
        codes = np.asarray(column.values)
        labels = list(column.labels or ())
        numbers = all(isinstance(k, float) for k in keys) and keys
        lookup = [keys.get(_number(label) if numbers else label, -1) for label in labels]
        values = np.array([*(_number(v) if numbers else v for v in labels), None], dtype=object)[codes]
        positions = np.array([*lookup, -1], dtype=np.int64)[codes]
        return positions, values, codes >= 0
    x = column.as_float()
    present = ~np.isnan(x)
    uniques, inverse = np.unique(np.where(present, x, 0.0), return_inverse=True)
    found = np.array([keys.get(float(u), -1) for u in uniques.tolist()], dtype=np.int64)
    return found[inverse.reshape(-1)], x, present  # (the values as floats: only the unseen ones are read)


def _number(text: str):
    try:
        return float(text)
    except ValueError:
        return text
