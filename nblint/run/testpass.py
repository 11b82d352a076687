"""The one pass over a test table: what a model fitted on the training table meets there, chunk by chunk.

:class:`TestPass` fills a :class:`~nblint.run.pairing.TestComparison` (see that module's
docstring for the quantities) in row order, against the training table's profile;
:class:`LevelsMet` is one discrete column's unseen levels.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from nblint.analysis.rows import EXACT_INTEGERS
from nblint.engine.findings import EXAMPLE_ROWS

#: Column kinds whose values are levels: a level the training table never had is "unseen" (a count
#: only where a categorical model reads it).
LEVEL_KINDS = ("binary", "group-member", "categorical", "count")
#: Event models that read a discrete column by its levels (their cells are (level, class) pairs).
LEVEL_MODELS = ("categorical", "bernoulli")
#: How far from every class mean, in that class's standard deviations, a value is "out of support".
SUPPORT_SDS = 6.0


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


class TestPass:
    """The one pass over the test table: every quantity of :class:`TestComparison`, chunk by chunk, in row order."""

    def __init__(self, ctx, common: tuple[str, ...], result: Any):  # (a pairing.TestComparison: it imports this)
        self.ctx, self.result = ctx, result
        profile = ctx.profile
        self.target = ctx.target if result.has_target else None
        self.n_classes = len(profile.classes)
        self.class_index = {label: c for c, label in enumerate(result.classes)}
        self.class_rows = profile.class_count[: self.n_classes].astype(np.int64)
        kinds = ctx.kinds
        self.discrete: dict[str, tuple[LevelLookup, np.ndarray, bool]] = {}
        self.measured: dict[str, tuple[np.ndarray, np.ndarray, float, float]] = {}
        self.constants: dict[str, dict[int, float]] = {}
        text_columns = set(profile.text)
        numeric = profile.numeric
        counted = self._counted_cells(ctx, common)
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
                table = levels.table[:, : self.n_classes]
                # (a column whose every level was seen with every class has no zero cell for a test row to meet)
                cells = cells and bool((table[:, self.class_rows > 0] == 0).any())
                self.discrete[column] = (LevelLookup(keys), table, cells)
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
        self.prints = _row_prints(common, self.target)
        self.rows = 0
        self.unseen_mask: list[np.ndarray] = []
        self.veto_mask: list[np.ndarray] = []
        self.outside_rows: dict[str, list] = {c: [0, math.inf, -math.inf, []] for c in self.measured}
        self.constant_rows: dict[str, list] = {c: [0, []] for c in self.constants}
        self.kinds_seen: dict[str, str] = {}

    def _counted_cells(self, ctx, common: tuple[str, ...]) -> list[str]:
        """The common columns read by their counts; ``self.absent``: per such column, the classes that never had a count."""
        profile, kinds, numeric = ctx.profile, ctx.kinds, ctx.profile.numeric
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
        return counted

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
                lookup, table, cells = self.discrete[name]
                index, values, present = lookup.index(column)
                new = present & (index < 0)
                if new.any():
                    met = result.levels[name]
                    met.rows += int(new.sum())
                    unseen_values = values[new]
                    if unseen_values.dtype.kind in "biu":  # (numbers are keyed as floats, as training keys them)
                        unseen_values = unseen_values.astype(np.float64)
                    for value in unseen_values.tolist():
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
                    set_count += _is_set(chunk.column(member))
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


#: An integer column whose test values in a chunk span fewer than this many integers finds its training
#: levels through a table over that span (one gather per row), not one bisection per row.
MAX_CODED_VALUES = 1024


class LevelLookup:
    """One discrete column's training levels, and each test row's among them (:meth:`index`).

    Text is found by its label, numbers by their value (3 and 3.0 are one level): integers of a
    narrow range through a table of positions over their span, other numbers by bisection in the
    sorted numeric levels.
    """

    def __init__(self, keys: dict):
        self.keys = keys
        self.numbers = bool(keys) and all(isinstance(k, float) for k in keys)
        numeric = sorted((k, i) for k, i in keys.items() if isinstance(k, float) and not math.isnan(k))
        self.levels = np.array([k for k, _ in numeric], dtype=np.float64)
        self.positions = np.array([i for _, i in numeric], dtype=np.int64)

    def index(self, column) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each row's level position in the training table (-1: unseen), its value, and whether it is present."""
        if column.kind == "text":
            codes = np.asarray(column.values)
            labels = list(column.labels or ())
            lookup = [self.keys.get(_number(label) if self.numbers else label, -1) for label in labels]
            values = np.array([*(_number(v) if self.numbers else v for v in labels), None], dtype=object)[codes]
            positions = np.array([*lookup, -1], dtype=np.int64)[codes]
            return positions, values, codes >= 0
        values = np.asarray(column.values)
        if values.dtype == np.bool_:
            values = values.view(np.uint8)
        if values.dtype.kind in "iu" and column.missing is None and values.size:
            lo, hi = int(values.min()), int(values.max())
            if hi - lo < MAX_CODED_VALUES and -EXACT_INTEGERS <= lo and hi <= EXACT_INTEGERS:
                # (the values as read; the unseen ones are keyed as floats by the caller)
                span = self._find(np.arange(lo, hi + 1, dtype=np.float64))
                found = span.take(values.astype(np.int64) - lo if lo else values)
                return found, values, np.ones(len(values), dtype=bool)
        x = column.as_float()
        return self._find(x), x, ~np.isnan(x)  # (a missing value matches none)

    def _find(self, x: np.ndarray) -> np.ndarray:
        """The training position of each number in ``x`` (-1: not a training level), by bisection."""
        if not len(self.levels):
            return np.full(len(x), -1, dtype=np.int64)
        at = np.minimum(np.searchsorted(self.levels, x), len(self.levels) - 1)
        return np.where(self.levels[at] == x, self.positions[at], -1)


def _is_set(column) -> np.ndarray:
    """Which rows of a numeric column hold a value other than 0 (a missing value is not one)."""
    values = np.asarray(column.values)
    if values.dtype.kind in "biu":
        return values != 0 if column.missing is None else (values != 0) & ~column.missing
    return np.nan_to_num(column.as_float()) != 0


def _number(text: str):
    try:
        return float(text)
    except ValueError:
        return text


def _row_prints(common: tuple[str, ...], target: str | None):
    """The test rows' fingerprints over ``common``, from :mod:`nblint.run.overlap`, imported only here:
    NB605's module reads this module's ``SUPPORT_SDS`` on every check, with or without a test table."""
    from nblint.run.overlap import RowPrints

    return RowPrints(common, target)
