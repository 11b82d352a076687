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
        found = []
        terms = ctx.term_columns  # tf-idf weights too: a word a class never has is a zero cell under any weighting
        for column in ctx.profile.features:
            if ctx.kinds[column].kind not in DISCRETE_KINDS and column not in terms:
                continue
            if column in ctx.deciding_columns:
                continue  # its zero cells are the leak NB208 reports
            cells, table = self._zero_cells(ctx, column)
            if cells:
                found.append((column, cells, table))
        # Past the summary limit the findings become one (Rule.summarize): no picture per column.
        pictures = len(found) <= self.settings["summarize-above"]
        for column, cells, table in found:
            severity = Severity.ERROR if ctx.alpha == 0 and not ctx.kinds[column].ambiguous else Severity.INFO
            shown = cells[: self.settings["max-cells"] if pictures else 3]
            described = [
                {
                    "value": fmt_value(v),
                    "class": fmt_value(classes[c]),
                    "class_rows": int(class_rows[c]),
                    "upper_95": zero_upper_bound(int(class_rows[c])),
                    "rule_of_three": 3 / int(class_rows[c]),
                }
                for v, c in shown
            ]
            first = described[0]
            more = f" and {len(cells) - 1} more" if len(cells) > 1 else ""
            message = (
                f"column {column!r}: value {first['value']} never seen with class {fmt_class(classes[shown[0][1]])} "
                f"({first['class_rows']} rows; true probability may still be up to {first['upper_95']:.1%}){more}"
            )
            if ctx.alpha == 0:
                message += "; with alpha = 0 each such cell vetoes its class"
            evidence = {
                "zero_cells": len(cells),
                "vetoed_rows": int(sum(class_rows[c] for _, c in cells)),
                "cells": described,
                "alpha": ctx.alpha,
                "model": ctx.model,
                "kind": ctx.kinds[column].kind,
                "ambiguous_kind": ctx.kinds[column].ambiguous,
            }
            fix = "Keep smoothing on (alpha > 0), collect more rows for the small classes, or merge rare levels."
            figure = None
            if pictures:
                keys, counts = table
                index = {key: i for i, key in enumerate(keys)}
                labels = ["total count" if k == "any count > 0" else fmt_value(k) for k in keys]
                figure = contingency(
                    column, labels, [fmt_value(c) for c in classes], counts, [(index[v], c) for v, c in cells]
                )
            yield self.finding(
                ctx, message, columns=[column], evidence=evidence, fix=fix, severity=severity, figure=figure
            )

    def _zero_cells(self, ctx, column) -> tuple[list[tuple[object, int]], tuple | None]:
        """The zero (value, class) cells, and the table they are cells of: (keys, counts[key, class])."""
        profile = ctx.profile
        n_classes = len(profile.classes)
        # Classes too small to say anything are NB206's finding, not a source of zero cells.
        counted = profile.class_count[:n_classes] >= ctx.setting("min-class-rows")
        model = ctx.model or ctx.kinds[column].model
        if model == "gaussian" or not counted.any():
            return [], None
        if model in ("multinomial", "complement"):
            if column in profile.text:
                return [], None
            j = profile.numeric.names.index(column)
            totals = profile.numeric.class_mean[:n_classes, j] * profile.numeric.class_n[:n_classes, j]
            # No count at all (weights such as tf-idf sum to less than 0.5 without being zero).
            cells = [("any count > 0", c) for c in np.flatnonzero((np.abs(totals) < 1e-9) & counted)]
            return cells, (("any count > 0",), np.rint(totals)[None, :])
        table = class_table(ctx, column)
        if table is None:
            return [], None
        keys, counts = table
        if model == "bernoulli" and column not in profile.text:
            # Bernoulli reads x > 0 as 1 (scikit-learn's binarize=0.0): cells of that split,
            # for the sides that occur in the column.
            positive = np.array([float(k) > 0 for k in keys])
            split = np.vstack([counts[~positive].sum(axis=0), counts[positive].sum(axis=0)])
            occurs = split.sum(axis=1) > 0
            keys, counts = tuple(k for k, o in zip((0.0, 1.0), occurs) if o), split[occurs]
        separated = {level.value for level in ctx.single_class_levels.get(column, ())}
        cells = []
        for key, row in zip(keys, counts):
            if key in separated or row.sum() == 0:
                continue
            cells += [(key, int(c)) for c in np.flatnonzero((row == 0) & counted)]
        return cells, (keys, counts)

    def cost(self, finding):
        """The rows of the classes a column's zero cells would veto."""
        return float(finding.evidence["vetoed_rows"])

    def summary_message(self, ctx, findings, share):
        cells = sum(int(f.evidence["zero_cells"]) for f in findings)
        examples = ", ".join(repr(f.columns[0]) for f in findings[:5])
        what = (
            f"{len(findings):,} of {len(ctx.profile.features):,} features ({share:.0%}) have values never seen with at "
            f"least one class ({cells:,} zero cells; the costliest: {examples})"
        )
        if ctx.alpha == 0:
            return what + ": with alpha = 0 each cell vetoes its class for every row that has the value"
        smoothing = "scikit-learn's default alpha = 1" if ctx.alpha is None else f"alpha = {ctx.alpha:g}"
        return what + f": normal for sparse data with smoothing ({smoothing}); with alpha = 0 each would veto its class"
