from __future__ import annotations

import functools
from operator import attrgetter

import numpy as np

from nblint.analysis.context import TableContext
from nblint.engine import SUMMARIZE_ABOVE, Option, Rule, Severity
from nblint.profile.levels import counts_below, level_sizes
from nblint.report.figures import contingency

from . import DISCRETE_KINDS, class_table, fmt_class, fmt_share, fmt_value, zero_upper_bound


class ZeroCountCell(Rule):
    """A feature value never seen with a class: its estimated probability is zero.

    ## What it does
    For every discrete feature, finds the (value, class) cells with no row, for values
    that occur in the column. What a cell is follows the event model that reads the
    column (the declared model, or with none declared the one ``nblint columns``
    recommends for it): a level of a categorical column, integer codes included
    (Categorical); the 1 or the 0 of a 0/1 column, or of a column binarised at 0
    (Bernoulli); a feature whose total count is zero in a class (Multinomial,
    Complement). Gaussian features have no cells (see NB205). Each cell comes with the
    class size and an exact one-sided 95% upper bound on the true probability
    (Clopper-Pearson; about 3/n, the rule of three). Classes with fewer rows than
    NB206's ``min-class-rows`` are left to NB206 (in a class of one row, every other
    level is a zero cell), and levels seen in one class beyond chance are NB202's.

    ## Why is this bad?
    Without smoothing, a zero estimate vetoes the class: any row with that value gets
    posterior 0 for the class, whatever the other features say. With Laplace or
    Lidstone smoothing the estimate is alpha / (n_c + alpha K) instead, which for small
    classes is still driven by alpha rather than by data.

    On a wide table (a bag of words: most words never occur in some class) the columns
    are one finding for the table, with the count, the share of the features and the
    costliest columns: those whose zero cells fall in the largest classes.

    ## Severity
    An error when the smoothing is known to be off (``alpha = 0`` in the config or a
    pipeline): each cell then certainly vetoes its class. Otherwise ``info``:
    scikit-learn smooths by default (alpha = 1), so the cell is worth knowing about,
    not a defect. ``info`` as well when no model is declared and the column's kind is
    ambiguous: the cell is then only one reading's; a declared model reads the column its
    own way, so there the cell is an error whatever the kind.

    ## Example
    ```
    weather,label
    rain,stay
    sun,go
    rain,stay     # weather=sun never seen with stay
    ```

    ## Use instead
    Keep smoothing on (alpha = 1 is Laplace), collect more rows for small classes, or
    merge rare levels so every level is seen with every class.
    """

    code = "NB201"
    status = "stable"
    since = "0.1.0"
    name = "zero-count-cell"
    severity = Severity.INFO
    needs_target = True
    options = (
        Option(
            "max-cells",
            20,
            "Most zero cells listed in one finding's evidence (the count is always complete).",
            minimum=0,
        ),
        SUMMARIZE_ABOVE,
    )

    def check(self, ctx: TableContext):
        classes = ctx.profile.classes
        class_rows = ctx.profile.class_count
        kinds = ctx.kinds
        terms = ctx.term_columns  # tf-idf weights too: a word a class never has is a zero cell under any weighting
        deciding = set(ctx.deciding_columns)  # their zero cells are the leak NB208 reports
        columns = [
            column
            for column in ctx.profile.features
            if (column in terms or kinds[column].kind in DISCRETE_KINDS) and column not in deciding
        ]
        self._cells = _ClassCells(ctx)
        found = self._cells.search(ctx, columns, self._models, self._level_cells)
        self._labels = [fmt_value(c) for c in classes]
        # What a cell of class c says does not depend on the column: said once per class.
        self._per_class = [
            {
                "class": self._labels[c],
                "class_rows": int(n),
                "upper_95": zero_upper_bound(int(n)),
                "rule_of_three": 3 / int(n),
            }
            if n > 0
            else None
            for c, n in enumerate(class_rows[: len(classes)])
        ]
        limit = self.settings["summarize-above"]
        if limit == SUMMARIZE_ABOVE.default and terms and len(found.names) > 1 and all(c in terms for c in found.names):
            limit = 0  # the words of a document-term block: one finding for the block, whatever its size (unless set)
        if len(found.names) <= limit:
            for k, column in enumerate(found.names):
                yield self._column_finding(ctx, column, found.zero(k), pictures=True)
            return
        # A wide table: one finding per severity, as Rule.summarize would make it, but with
        # only the costliest columns' findings built (a bag of words has ten thousand).
        by_severity: dict = {}
        if ctx.alpha == 0:
            for k, column in enumerate(found.names):
                by_severity.setdefault(self._severity(ctx, column), []).append(k)
        else:
            by_severity[Severity.INFO] = list(range(len(found.names)))
        order = ctx.table_order
        position = np.fromiter(map(order.__getitem__, found.names), dtype=np.int64, count=len(found.names))
        names = np.asarray(found.names, dtype=object)
        for members in by_severity.values():
            if len(members) == 1:
                k = members[0]
                yield self._column_finding(ctx, found.names[k], found.zero(k), pictures=False)
                continue
            # The cost of a column: the rows of the classes its zero cells would veto.
            group = np.array(members, dtype=np.int64)
            ranked = group[np.lexsort((position[group], -found.vetoed[group]))].tolist()
            examples = [self._column_finding(ctx, found.names[k], found.zero(k), pictures=False) for k in ranked[:10]]
            n_cells = int(found.count[group].sum())
            message = self._summary_message(ctx, len(ranked), n_cells, [found.names[k] for k in ranked[:5]])
            yield self.summary_finding(ctx, message, examples, names[ranked].tolist(), found.vetoed[ranked])

    def _severity(self, ctx, column) -> Severity:
        # A declared model reads the column its own way, so the cell certainly vetoes its class;
        # with none declared, an ambiguous kind means the cell is only one reading's.
        certain = ctx.model is not None or not ctx.kinds[column].ambiguous
        return Severity.ERROR if ctx.alpha == 0 and certain else Severity.INFO

    def _column_finding(self, ctx, column, zero: _ZeroCells, pictures: bool):
        classes = ctx.profile.classes
        cells = zero.cells()
        kind = ctx.kinds[column]
        shown = cells[: self.settings["max-cells"] if pictures else 3]
        described = [{"value": fmt_value(v), **self._per_class[c]} for v, c in shown]
        first = described[0]
        more = f" and {zero.count - 1} more" if zero.count > 1 else ""
        message = (
            f"column {column!r}: value {first['value']} never seen with class {fmt_class(classes[shown[0][1]])} "
            f"({first['class_rows']} rows; true probability may still be up to {fmt_share(first['upper_95'])}){more}"
        )
        if ctx.alpha == 0:
            message += "; with alpha = 0 each such cell vetoes its class"
        evidence = {
            "zero_cells": zero.count,
            "vetoed_rows": zero.vetoed,
            "cells": described,
            "alpha": ctx.alpha,
            "model": ctx.model,
            "kind": kind.kind,
            "ambiguous_kind": kind.ambiguous,
        }
        fix = "Keep smoothing on (alpha > 0), collect more rows for the small classes, or merge rare levels."
        figure = None
        table = self._table(ctx, column) if pictures else None
        if table is not None:
            keys, counts = table
            index = {key: i for i, key in enumerate(keys)}
            names = ["total count" if k == "any count > 0" else fmt_value(k) for k in keys]
            figure = contingency(column, names, self._labels, counts, [(index[v], c) for v, c in cells])
        severity = self._severity(ctx, column)
        return self.finding(
            ctx, message, columns=[column], evidence=evidence, fix=fix, severity=severity, figure=figure
        )

    def _model(self, ctx, column) -> str | None:
        return ctx.model or ctx.kinds[column].model

    def _models(self, ctx, columns: list[str]) -> list[str | None]:
        """:meth:`_model` of each column (a vocabulary has tens of thousands)."""
        if ctx.model:
            return [ctx.model] * len(columns)
        return list(map(attrgetter("model"), map(ctx.kinds.__getitem__, columns)))

    def _level_cells(self, ctx, column, model) -> list[tuple[object, int]]:
        """The zero cells of a column read through its contingency table (levels, or Bernoulli's split)."""
        table = self._table(ctx, column, model)
        if table is None:
            return []
        separated = {level.value for level in ctx.single_class_levels.get(column, ())}
        cells = []
        for key, row in zip(*table):
            if key in separated or row.sum() == 0:
                continue
            cells += [(key, int(c)) for c in np.flatnonzero((row == 0) & self._cells.counted)]
        return cells

    def _table(self, ctx, column, model=None) -> tuple | None:
        """The table the zero cells are cells of: (keys, counts[key, class]), as the model reads the column."""
        model = model or self._model(ctx, column)
        if model in ("multinomial", "complement"):
            totals = self._cells.totals[:, self._cells.index[column]]
            return ("any count > 0",), np.rint(totals)[None, :]
        bernoulli = model == "bernoulli" and column not in ctx.profile.text
        table = class_table(ctx, column)
        pairs = ctx.level_pairs(column) if table is None and bernoulli else None
        if pairs is not None:
            # Past the cap on levels: the split below, from the non-empty cells.
            positive = np.array([float(k) > 0 for k in pairs.keys], dtype=np.int64)[pairs.level]
            split = np.zeros((2, len(ctx.profile.classes)), dtype=np.int64)
            np.add.at(split, (positive, pairs.klass), pairs.rows)
            occurs = split.sum(axis=1) > 0
            return tuple(k for k, o in zip((0.0, 1.0), occurs) if o), split[occurs]
        if table is None:
            return None
        keys, counts = table
        if bernoulli:
            # Bernoulli reads x > 0 as 1 (scikit-learn's binarize=0.0): cells of that split,
            # for the sides that occur in the column.
            positive = np.array([float(k) > 0 for k in keys])
            split = np.vstack([counts[~positive].sum(axis=0), counts[positive].sum(axis=0)])
            occurs = split.sum(axis=1) > 0
            keys, counts = tuple(k for k, o in zip((0.0, 1.0), occurs) if o), split[occurs]
        return keys, counts

    def _summary_message(self, ctx, n_columns: int, cells: int, costliest: list[str]) -> str:
        features = len(ctx.profile.features)
        examples = ", ".join(repr(column) for column in costliest)
        what = (
            f"{n_columns:,} of {features:,} features ({n_columns / max(1, features):.0%}) have values never seen with at "
            f"least one class ({cells:,} zero cells; the costliest: {examples})"
        )
        if ctx.alpha == 0:
            return what + ": with alpha = 0 each cell vetoes its class for every row that has the value"
        smoothing = "scikit-learn's default alpha = 1" if ctx.alpha is None else f"alpha = {ctx.alpha:g}"
        return what + f": normal for sparse data with smoothing ({smoothing}); with alpha = 0 each would veto its class"


class _ClassCells:
    """The class counts behind every numeric column's cells, for the whole table at once (classes x columns).

    Attributes
    ----------
    index : dict
        Column name to its position in the matrices.
    counted : ndarray of bool
        The classes with at least ``min-class-rows`` rows: smaller ones are NB206's finding,
        not a source of zero cells (in a class of one row, every other level is a zero cell).
    totals : ndarray
        ``totals[c, j]``: the sum of column j over the rows of class c (its count, for counts).
    absent : ndarray of bool
        ``|totals| < 1e-9``: the column never occurs in the class (weights such as tf-idf sum to
        less than 0.5 without being zero, so this is not a rounding of the totals).
    zero_one : ndarray of bool
        The 0/1 columns, whose level counts are ``zeros`` and ``ones`` (rows of each class with 0, with 1).
    """

    def __init__(self, ctx):
        numeric = ctx.profile.numeric
        n_classes = len(ctx.profile.classes)
        self.class_rows = ctx.profile.class_count[:n_classes].astype(np.int64)
        self.counted = self.class_rows >= ctx.settings.min_class_rows
        self.index = numeric.names.positions()
        class_n = numeric.class_n[:n_classes]
        self.totals = numeric.class_mean[:n_classes] * class_n
        self.absent = np.abs(self.totals) < 1e-9
        self.zero_one = numeric.zero_one
        self.zeros, self.ones = (counts[:n_classes] for counts in numeric.level_counts)
        self._numeric, self._n = numeric, class_n

    def search(self, ctx, columns: list[str], models_of, level_cells) -> _Found:
        """The zero (value, class) cells of ``columns``, each read by its model in ``models_of(ctx, columns)``.

        A column read by counts (Multinomial, Complement) has one cell per class its total
        misses; a 0/1 column, whatever reads it, one per (level, class) its level misses.
        Those are counted for all such columns at once, as matrices (their lists are made
        when asked for: a vocabulary shows ten); a column with a table of levels
        (categorical codes, counts read as Bernoulli) is read alone, by
        ``level_cells(ctx, column, model)``. Columns without a zero cell are left out.
        """
        n = len(columns)
        count, vetoed = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
        where = np.array([self.index.get(column, -1) for column in columns], dtype=np.int64)  # (text: -1)
        listed: dict[int, list] = {}
        routes = np.zeros(n, dtype=np.int8)
        if self.counted.any():
            text = ctx.profile.text
            # A level seen in one class beyond chance is NB202's finding, not a zero cell.
            separated = {(level.column, level.value) for levels in ctx.single_class_levels.values() for level in levels}
            mixed = {c for c, _ in separated}
            # (plain lists in the loop: a vocabulary is tens of thousands of columns)
            flags = np.zeros(n, dtype=bool)
            flags[where >= 0] = self.zero_one[where[where >= 0]]
            zero_one = flags.tolist()
            splits = np.zeros(n, dtype=bool)
            splits[where >= 0] = self.splits[where[where >= 0]]
            split = splits.tolist()
            route = [0] * n
            for k, (column, model) in enumerate(zip(columns, models_of(ctx, columns))):
                if model == "gaussian" or (column in text and model in ("multinomial", "complement")):
                    continue
                if model in ("multinomial", "complement"):
                    route[k] = _BY_COUNTS
                elif column not in text and zero_one[k]:
                    route[k] = _MIXED if column in mixed else _ZERO_ONE
                elif model == "bernoulli" and split[k] and column not in mixed:
                    route[k] = _SPLIT
                elif (model != "bernoulli" or column in text) and ctx.level_pairs(column) is not None:
                    # Past the cap on levels: counted from the non-empty cells, a few listed.
                    skip = {value for c, value in separated if c == column}
                    count[k], vetoed[k], listed[k] = ctx.level_pairs(column).zero_cells(
                        self.counted, self.class_rows, skip, LISTED_CELLS
                    )
                else:
                    cells = level_cells(ctx, column, model)
                    if cells:
                        listed[k] = cells
            routes = np.array(route, dtype=np.int8)
            for counted_route in (_BY_COUNTS, _ZERO_ONE, _SPLIT):
                at = np.flatnonzero(routes == counted_route)
                held = [mask[:, where[at]] & self.counted[:, None] for _, mask in self._masks[counted_route]]
                count[at] = sum((mask.sum(axis=0) for mask in held), np.zeros(len(at), dtype=np.int64))
                vetoed[at] = sum((self.class_rows @ mask for mask in held), np.zeros(len(at), dtype=np.int64))
            for k in np.flatnonzero(routes == _MIXED).tolist():
                column, j = columns[k], where[k]
                masks = [(key, mask[:, j]) for key, mask in self._masks[_ZERO_ONE] if (column, key) not in separated]
                cells = [(key, int(c)) for key, mask in masks for c in np.flatnonzero(mask & self.counted)]
                if cells:
                    listed[k] = cells
            for k, cells in listed.items():
                if not count[k]:
                    count[k], vetoed[k] = len(cells), sum(int(self.class_rows[c]) for _, c in cells)
        keep = np.flatnonzero(count)
        return _Found(
            [columns[k] for k in keep.tolist()],
            count[keep],
            vetoed[keep],
            functools.partial(self._cells_of, [listed.get(k) for k in keep.tolist()], routes[keep], where[keep]),
        )

    @functools.cached_property
    def _masks(self) -> dict[int, list]:
        """(key, mask[class, column]) pairs whose counted classes are a column's cells, by route."""
        # A level's cells: the classes it misses, where it occurs in the column at all.
        levels = [(key, (counts == 0) & counts.any(axis=0)) for key, counts in ((0.0, self.zeros), (1.0, self.ones))]
        # Bernoulli's split of a column with a table (x > 0 against x = 0, :meth:`ZeroCountCell._table`), for
        # every such column at once: the rows at levels up to 0, and the others (see :attr:`splits`).
        numeric, n_classes = self._numeric, len(self.class_rows)
        at_zero = counts_below(numeric.levels, 0.0, numeric.class_n.shape[0], inclusive=True)[:n_classes]
        split = [
            (key, (counts == 0) & counts.any(axis=0)) for key, counts in ((0.0, at_zero), (1.0, self._n - at_zero))
        ]
        return {_BY_COUNTS: [("any count > 0", self.absent)], _ZERO_ONE: levels, _SPLIT: split}

    @functools.cached_property
    def splits(self) -> np.ndarray:
        """The columns whose Bernoulli split is read from the matrices: a table of levels, none missing.

        A vocabulary's words seen at a few weights each (tf-idf, hashed and normed counts) are
        thousands of such tables; their cells are the same as each table's split, read alone.
        """
        numeric = self._numeric
        return ~self.zero_one & (level_sizes(numeric.levels) >= 0) & (numeric.n_missing == 0)

    def _cells_of(self, listed: list, routes: np.ndarray, where: np.ndarray, k: int) -> list[tuple[object, int]]:
        """The ``k``-th found column's cells: listed already, or read from its route's masks."""
        if listed[k] is not None:
            return listed[k]
        j = where[k]
        return [
            (key, int(c))
            for key, mask in self._masks[int(routes[k])]
            for c in np.flatnonzero(mask[:, j] & self.counted)
        ]


#: Zero cells listed for a column past the cap on levels (its count is complete; findings show fewer).
LISTED_CELLS = 1000

#: How :meth:`_ClassCells.search` reads a column: by its total count, by its 0/1 levels as matrices,
#: by its 0/1 levels alone (some of them are NB202's), or by Bernoulli's split of its levels as matrices.
_BY_COUNTS, _ZERO_ONE, _MIXED, _SPLIT = 1, 2, 3, 4


class _Found:
    """The columns with zero cells, in the order searched: counts and costs as arrays, cells listed when asked.

    Attributes
    ----------
    names : list of str
    count, vetoed : ndarray of int
        Each column's zero cells, and the rows of the classes they would veto.
    """

    def __init__(self, names: list[str], count: np.ndarray, vetoed: np.ndarray, cells_of):
        self.names, self.count, self.vetoed, self._cells_of = names, count, vetoed, cells_of

    def zero(self, k: int) -> _ZeroCells:
        """The ``k``-th column's zero cells."""
        return _ZeroCells(int(self.count[k]), int(self.vetoed[k]), functools.partial(self._cells_of, k))


class _ZeroCells:
    """One column's zero cells: how many, the rows of the classes they would veto, and (when asked) the list.

    Parameters
    ----------
    count, vetoed : int
    make : callable
        Returns the (value, class) cells, by value then class: a wide table lists only the
        cells of the columns it shows.
    """

    __slots__ = ("count", "vetoed", "cells")

    def __init__(self, count: int, vetoed: int, make):
        self.count, self.vetoed, self.cells = count, vetoed, make
