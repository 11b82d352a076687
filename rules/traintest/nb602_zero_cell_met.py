from __future__ import annotations

from nblint.engine import Severity

from . import TestTableRule, at_test, share

#: What a cell does to its class on a test row: with alpha = 0 it vetoes the class, else only the smoothing speaks.
_EFFECT = {"": "leaves only the smoothing to speak for", "_vetoes": "vetoes"}
_MET = (
    "{rows} of {test_rows} test rows ({share:.0%}) carry a value never seen with a class in training; it EFFECT class "
    "{classes[0][class]!r} on {classes[0][rows]} rows ({classes[0][share]:.0%})"
)
_MESSAGES = {
    f"met{others}{more}{vetoes}": _MET.replace("EFFECT", effect)
    + (" and {other_classes} other class(es) on fewer" if others else "")
    + " (columns: {shown_columns:quoted}"
    + (" ...)" if more else ")")
    + ("; with alpha = 0 the class's posterior on those rows is zero" if vetoes else "")
    for vetoes, effect in _EFFECT.items()
    for others in ("", "_others")
    for more in ("", "_more")
}


class ZeroCellMet(TestTableRule):
    """Test rows that carry a (level, class) pair the training table never had.

    ## What it does
    For every test row and every training class, checks whether one of the row's levels
    (of a column read by its levels: Categorical, Bernoulli) was never seen with that class
    in training: NB201's zero cells, counted on the test rows where they bite. Reports, per
    class, the test rows that meet such a cell, and the columns whose cells they are.

    ## Why is this bad?
    Without smoothing (``alpha = 0``) the model estimates that probability as zero, so the
    class's posterior on such a row is zero whatever the other features say: the class is
    *vetoed* on that row. With smoothing the estimate there is ``alpha / (n_c + alpha K)``:
    only the smoothing speaks for the class, and the row's prediction for it rests on alpha.

    ## Severity
    An error when the smoothing is known to be off (``alpha = 0``): the class is certainly
    vetoed on those test rows (scikit-learn's ``predict_proba`` gives it 0, or a warning and
    a tiny floor where ``force_alpha`` bumps alpha to 1e-10). Otherwise ``info``: with the
    smoothing on, the rows are worth knowing about, not a defect.

    ## Example
    ```
    # train.csv          # test.csv
    weather,y            weather,y
    rain,stay            sun,stay     # sun was never seen with stay
    sun,go
    rain,stay
    ```

    ## Use instead
    Keep smoothing on (``alpha = 1`` is Laplace), collect training rows for the pairs the
    test table meets, or merge rare levels.
    """

    code = "NB602"
    status = "stable"
    since = "0.1.0"
    name = "zero-cell-met"
    severity = Severity.INFO
    needs_target = True
    messages = _MESSAGES
    message_constants = frozenset({0})

    def check(self, ctx):
        test = ctx.test
        if test is None or not test.vetoed_any:
            return
        classes = test.classes
        per_class = [
            {"class": classes[c], "rows": int(n), "share": share(int(n), test.n_rows)}
            for c, n in enumerate(test.vetoed.tolist())
            if n
        ]
        per_class.sort(key=lambda item: (-item["rows"], item["class"]))
        columns = sorted(test.zero_cells)
        vetoed = ctx.alpha == 0
        rows_share = share(test.vetoed_any, test.n_rows)
        variant = "met" + ("_others" if len(per_class) > 1 else "") + ("_more" if len(columns) > 5 else "")
        variant += "_vetoes" if vetoed else ""
        evidence = {
            "rows": test.vetoed_any,
            "test_rows": test.n_rows,
            "share": rows_share,
            "classes": per_class,
            "columns": {column: test.zero_cells[column] for column in columns},
            "alpha": ctx.alpha,
            "other_classes": len(per_class) - 1,
            "shown_columns": columns[:5],
        }
        fix = (
            "Keep smoothing on (alpha > 0), collect training rows for these (level, class) pairs, or merge rare levels."
        )
        severity = Severity.ERROR if vetoed else Severity.INFO
        finding = self.finding(
            ctx, variant, columns=columns, rows=test.vetoed_examples, evidence=evidence, fix=fix, severity=severity
        )
        yield at_test(ctx, finding)
