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

:func:`nblint.run.tables.read_test` opens a test file the way its training table was opened
(its encoding, its text column counted with the training vocabulary); :func:`compare` makes the
:class:`TestComparison` the rules read as ``ctx.test``. The pass itself is
:mod:`nblint.run.testpass`; the rows in both tables, :mod:`nblint.run.overlap`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from nblint.core.errors import InputError
from nblint.readers import TableSource
from nblint.run.overlap import Overlap, RowPrints, document_hashes, label_text, overlap, training_labels
from nblint.run.testpass import LevelsMet, TestPass

# --------------------------------------------------------------------------- the comparison


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
    #: the columns whose encoder in a followed pipeline has a plan for levels it never saw (any other
    #: ``handle_unknown``): known not to raise
    planned: frozenset[str] = frozenset()
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
    _train_rows: RowPrints | None = field(default=None, repr=False)

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
            train_keys = document_hashes(ctx.source.documents)
            test_keys = document_hashes(self.documents)
        else:
            prints = self._train_rows
            if prints is None and ctx.source.matrix is not None:
                # A sparse matrix: its own row blocks (read column by column, a vocabulary is dense chunks).
                prints = RowPrints(self._common, ctx.target)
                for chunk in ctx.source.chunks():
                    prints.add(chunk)
            elif prints is None:
                columns = list(self._common) + ([ctx.target] if ctx.target else [])
                prints = ctx.reduce_rows(columns, RowPrints(self._common, ctx.target))
            train_keys, test_keys = prints.hashes(), self._hashes
            train_labels = prints.labels() if ctx.target else None
            return overlap(train_keys, train_labels, test_keys, self._labels if self.has_target else None)
        train_labels = training_labels(ctx) if ctx.target else None
        return overlap(train_keys, train_labels, test_keys, self._labels if self.has_target else None)


def failed(path: str, message: str) -> TestComparison:
    """The comparison of a test table the pipeline's own steps could not transform (``message``: what they raised)."""
    return TestComparison(path, transform_error=message)


def strict_encoders(spec) -> tuple[dict[str, str], frozenset[str]]:
    """Column -> the encoder of an nblint spec (or a followed pipeline) that raises on an unseen level; and the planned.

    ``OneHotEncoder`` and ``OrdinalEncoder`` raise in ``transform`` with their default
    ``handle_unknown='error'``; ``LabelEncoder`` has no other way. The columns whose encoder has
    a plan for unknown levels (any other ``handle_unknown``), known not to raise, come second.
    A column's first encoder decides.
    """
    found: dict[str, str] = {}
    planned: set[str] = set()

    def visit(steps) -> None:
        for step in steps:
            for branch in getattr(step, "branches", ()) or ():
                visit(branch)
            raises = step.cls == "LabelEncoder" or (
                step.cls in ("OneHotEncoder", "OrdinalEncoder") and step.value("handle_unknown", "error") == "error"
            )
            plan = step.cls in ("OneHotEncoder", "OrdinalEncoder") and not raises
            for column in map(str, step.columns or ()) if raises or plan else ():
                if column in found or column in planned:
                    continue
                if raises:
                    found[column] = f"{step.label()} in {spec.path}"
                else:
                    planned.add(column)

    visit(spec.steps)
    return found, frozenset(planned)


def compare(
    ctx,
    test: TableSource,
    strict: dict[str, str] | None = None,
    min_categories: Any = None,
    train_rows: RowPrints | None = None,
    planned: frozenset[str] = frozenset(),
) -> TestComparison:
    """Compare ``test`` with the training table of ``ctx`` (a :class:`~nblint.analysis.context.TableContext`).

    ``strict``, ``planned``: the columns whose encoder in a followed pipeline raises on an unseen
    level, and those whose encoder has a plan for one (:func:`strict_encoders`); ``min_categories``: the declared CategoricalNB's, where known;
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

    def attempt(chunks) -> TestPass:
        # (restarted from the first row where a CSV widens a type: nothing is kept from an earlier attempt)
        result = TestComparison(test.path, strict=dict(strict or {}), planned=planned, min_categories=min_categories)
        result.has_target = target is not None and target in test_names
        result.missing = tuple(c for c in features if c not in test_names)
        result.extra = tuple(sorted(c for c in test.names if c not in trained and c != target))
        result.classes = tuple(label_text(c) for c in profile.classes)
        result._train, result._common = ctx, common
        if (
            train_rows is not None
            and train_rows.shared == frozenset(common)
            and train_rows.n_rows == ctx.profile.n_rows
        ):
            result._train_rows = train_rows  # (made over the columns compared, every row: else made again)
        accumulator = TestPass(ctx, common, result)
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
