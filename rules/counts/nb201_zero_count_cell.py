from __future__ import annotations

import numpy as np

from nblint.analysis.context import TableContext
from nblint.analysis.zerocells import ZeroCells
from nblint.engine import SUMMARIZE_ABOVE, Option, Rule, Severity

from . import fmt_value, zero_upper_bound


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
            minimum=1,  # the message names the first cell
        ),
        SUMMARIZE_ABOVE,
    )
    #: The first cell, the count of the others, and what a cell does with alpha = 0; the wide table's summary
    #: by what the smoothing is (off, scikit-learn's default, set).
    _CELL = (
        "column {column!r}: value {cells[0][value]} never seen with class {cells[0][class]!r} "
        "({cells[0][class_rows]} rows; true probability may still be up to {cells[0][upper_95]:share})"
    )
    _MORE = " and {more_cells} more"
    _VETOES = "; with alpha = 0 each such cell vetoes its class"
    _WIDE = (
        "{instances:,} of {features:,} features ({features_share:.0%}) have values never seen with at least one "
        "class ({zero_cells:,} zero cells; the costliest: {costliest:quoted})"
    )
    _SMOOTHED = "; with alpha = 0 each would veto its class"
    messages = {
        "cell": _CELL,
        "cells": _CELL + _MORE,
        "cell_vetoes": _CELL + _VETOES,
        "cells_vetoes": _CELL + _MORE + _VETOES,
        "wide_vetoes": _WIDE + ": with alpha = 0 each cell vetoes its class for every row that has the value",
        "wide_default": _WIDE
        + ": normal for sparse data with smoothing (scikit-learn's default alpha = 1)"
        + _SMOOTHED,
        "wide_alpha": _WIDE + ": normal for sparse data with smoothing (alpha = {alpha:g})" + _SMOOTHED,
    }
    message_constants = frozenset({0, 1})

    def check(self, ctx: TableContext):
        classes = ctx.profile.classes
        class_rows = list(ctx.class_rows.values())
        terms = ctx.term_columns
        found = ctx.zero_cells
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
        limit = self.option_values["summarize-above"]
        if limit == SUMMARIZE_ABOVE.default and terms and len(found.names) > 1 and terms.issuperset(found.names):
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
            features = len(ctx.profile.features)
            extra = {
                "features": features,
                "features_share": len(ranked) / max(1, features),
                "zero_cells": n_cells,
                "costliest": [found.names[k] for k in ranked[:5]],
                "alpha": ctx.alpha,
            }
            variant = "wide_vetoes" if ctx.alpha == 0 else "wide_default" if ctx.alpha is None else "wide_alpha"
            yield self.summary_finding(ctx, variant, examples, names[ranked].tolist(), found.vetoed[ranked], extra)

    def _severity(self, ctx, column) -> Severity:
        # A declared model reads the column its own way, so the cell certainly vetoes its class;
        # with none declared, an ambiguous kind means the cell is only one reading's.
        certain = ctx.model is not None or not ctx.kinds[column].ambiguous
        return Severity.ERROR if ctx.alpha == 0 and certain else Severity.INFO

    def _column_finding(self, ctx, column, zero: ZeroCells, pictures: bool):
        cells = zero.cells()
        kind = ctx.kinds[column]
        shown = cells[: self.option_values["max-cells"] if pictures else 3]
        described = [{"value": fmt_value(v), **self._per_class[c]} for v, c in shown]
        evidence = {
            "zero_cells": zero.count,
            "vetoed_rows": zero.vetoed,
            "cells": described,
            "alpha": ctx.alpha,
            "model": ctx.model,
            "kind": kind.kind,
            "ambiguous_kind": kind.ambiguous,
            "more_cells": zero.count - 1,
        }
        fix = "Keep smoothing on (alpha > 0), collect more rows for the small classes, or merge rare levels."
        figure = None
        table = ctx.zero_cells.table(column) if pictures else None
        if table is not None:
            keys, counts = table
            index = {key: i for i, key in enumerate(keys)}
            names = ["total count" if k == "any count > 0" else fmt_value(k) for k in keys]
            from nblint.report.figures import contingency  # (a figure's module: only where a finding draws one)

            figure = contingency(column, names, self._labels, counts, [(index[v], c) for v, c in cells])
        severity = self._severity(ctx, column)
        variant = ("cells" if zero.count > 1 else "cell") + ("_vetoes" if ctx.alpha == 0 else "")
        return self.finding(
            ctx, variant, columns=[column], evidence=evidence, fix=fix, severity=severity, figure=figure
        )
