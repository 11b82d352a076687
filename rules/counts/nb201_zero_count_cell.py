from __future__ import annotations

import functools

import numpy as np

from nblint.engine import SUMMARIZE_ABOVE, Option, Rule, Severity
from nblint.report.figures import contingency

from . import DISCRETE_KINDS, class_table, fmt_class, fmt_value, zero_upper_bound


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
    not a defect. ``info`` as well when the column's kind is ambiguous.

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

    def check(self, ctx):
        classes = ctx.profile.classes
        class_rows = ctx.profile.class_count
        terms = ctx.term_columns  # tf-idf weights too: a word a class never has is a zero cell under any weighting
        deciding = set(ctx.deciding_columns)  # their zero cells are the leak NB208 reports
        columns = [
            column
            for column in ctx.profile.features
            if (ctx.kinds[column].kind in DISCRETE_KINDS or column in terms) and column not in deciding
        ]
        self._cells = _ClassCells(ctx)
        cells = self._cells.search(ctx, columns, self._model, self._level_cells)
        found = [(column, cells[column]) for column in columns if column in cells]
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
        if len(found) <= limit:
            for column, zero in found:
                yield self._column_finding(ctx, column, zero, pictures=True)
            return
        # A wide table: one finding per severity, as Rule.summarize would make it, but with
        # only the costliest columns' findings built (a bag of words has ten thousand).
        by_severity: dict = {}
        alpha_zero = ctx.alpha == 0
        for column, zero in found:
            severity = self._severity(ctx, column) if alpha_zero else Severity.INFO
            by_severity.setdefault(severity, []).append((column, zero))
        order = ctx.table_order
        for group in by_severity.values():
            if len(group) == 1:
                column, zero = group[0]
                yield self._column_finding(ctx, column, zero, pictures=False)
                continue
            # The cost of a column: the rows of the classes its zero cells would veto.
            group.sort(key=lambda item: (-item[1].vetoed, order.get(item[0], 0)))
            examples = [self._column_finding(ctx, column, zero, pictures=False) for column, zero in group[:10]]
            n_cells = sum(zero.count for _, zero in group)
            message = self._summary_message(ctx, len(group), n_cells, [column for column, _ in group[:5]])
            yield self.summary_finding(ctx, message, examples, [(column, float(zero.vetoed)) for column, zero in group])

    def _severity(self, ctx, column) -> Severity:
        return Severity.ERROR if ctx.alpha == 0 and not ctx.kinds[column].ambiguous else Severity.INFO

    def _column_finding(self, ctx, column, zero: _ZeroCells, pictures: bool):
        classes = ctx.profile.classes
        cells = zero.cells()
        kind = ctx.kinds[column]
        shown = cells[: self.settings["max-cells"] if pictures else 3]
        described = [{"value": fmt_value(v), **self._per_class[c]} for v, c in shown]
        first = described[0]
        more = f" and {len(cells) - 1} more" if len(cells) > 1 else ""
        message = (
            f"column {column!r}: value {first['value']} never seen with class {fmt_class(classes[shown[0][1]])} "
            f"({first['class_rows']} rows; true probability may still be up to {first['upper_95']:.1%}){more}"
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
        if pictures:
            keys, counts = self._table(ctx, column)
            index = {key: i for i, key in enumerate(keys)}
            names = ["total count" if k == "any count > 0" else fmt_value(k) for k in keys]
            figure = contingency(column, names, self._labels, counts, [(index[v], c) for v, c in cells])
        severity = self._severity(ctx, column)
        return self.finding(
            ctx, message, columns=[column], evidence=evidence, fix=fix, severity=severity, figure=figure
        )

    def _model(self, ctx, column) -> str | None:
        return ctx.model or ctx.kinds[column].model

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
        table = class_table(ctx, column)
        if table is None:
            return None
        keys, counts = table
        if model == "bernoulli" and column not in ctx.profile.text:
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
        self.counted = self.class_rows >= ctx.setting("min-class-rows")
        self.index = {name: j for j, name in enumerate(numeric.names)}
        class_n = numeric.class_n[:n_classes]
        self.totals = numeric.class_mean[:n_classes] * class_n
        self.absent = np.abs(self.totals) < 1e-9
        self.zero_one = numeric.zero_one
        self.zeros, self.ones = (counts[:n_classes] for counts in numeric.level_counts)

    def search(self, ctx, columns: list[str], model_of, level_cells) -> dict[str, _ZeroCells]:
        """The zero (value, class) cells of ``columns``, each read by the model ``model_of(ctx, column)`` gives.

        A column read by counts (Multinomial, Complement) has one cell per class its total
        misses; a 0/1 column, whatever reads it, one per (level, class) its level misses.
        Those are counted for all such columns at once (their lists are made when asked for);
        a column with a table of levels (categorical codes, counts read as Bernoulli) is read
        alone, by ``level_cells(ctx, column, model)``. Columns without a zero cell are left out.
        """
        found: dict[str, _ZeroCells] = {}
        if not self.counted.any():
            return found
        text = ctx.profile.text
        by_counts, zero_one, alone = [], [], []
        for column in columns:
            model = model_of(ctx, column)
            if model == "gaussian" or (column in text and model in ("multinomial", "complement")):
                continue
            if model in ("multinomial", "complement"):
                by_counts.append(column)
            elif column not in text and self.zero_one[self.index[column]]:
                zero_one.append(column)
            else:
                alone.append(column)
        self._gather(found, by_counts, [("any count > 0", self.absent)])
        # A level seen in one class beyond chance is NB202's finding, not a zero cell.
        separated = {(level.column, level.value) for levels in ctx.single_class_levels.values() for level in levels}
        mixed = {c for c, _ in separated}
        # A level's cells: the classes it misses, where it occurs in the column at all.
        level_masks = [
            (key, (counts == 0) & counts.any(axis=0)) for key, counts in ((0.0, self.zeros), (1.0, self.ones))
        ]
        self._gather(found, [c for c in zero_one if c not in mixed], level_masks)
        for column in zero_one:
            if column in mixed:
                j = self.index[column]
                masks = [(key, mask[:, j]) for key, mask in level_masks if (column, key) not in separated]
                cells = [(key, int(c)) for key, mask in masks for c in np.flatnonzero(mask & self.counted)]
                if cells:
                    found[column] = _ZeroCells.listed(cells, self.class_rows)
        for column in alone:
            cells = level_cells(ctx, column, model_of(ctx, column))
            if cells:
                found[column] = _ZeroCells.listed(cells, self.class_rows)
        return found

    def _gather(self, found, columns, masks) -> None:
        """Add ``columns``' cells: for each (key, mask[class, column]), in order, the counted classes where it holds."""
        if not columns:
            return
        j = np.array([self.index[c] for c in columns], dtype=np.int64)
        held = [(key, mask[:, j] & self.counted[:, None]) for key, mask in masks]
        count = sum(mask.sum(axis=0) for _, mask in held)
        vetoed = sum(self.class_rows @ mask for _, mask in held)
        for i in np.flatnonzero(count).tolist():
            found[columns[i]] = _ZeroCells(int(count[i]), int(vetoed[i]), functools.partial(_cells_in, held, i))


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

    @classmethod
    def listed(cls, cells: list[tuple[object, int]], class_rows) -> _ZeroCells:
        """Cells already listed (a column read alone)."""
        return cls(len(cells), int(sum(int(class_rows[c]) for _, c in cells)), cells.copy)


def _cells_in(held, i: int) -> list[tuple[object, int]]:
    """Column ``i``'s cells in the (key, mask[class, column]) pairs ``held``."""
    return [(key, int(c)) for key, mask in held for c in np.flatnonzero(mask[:, i])]
