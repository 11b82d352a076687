from nblint.engine import Option, Rule
from nblint.findings import Severity

from . import DISCRETE_KINDS, fmt_class, fmt_value, separating_levels


class SingleClassLevel(Rule):
    """A value seen with one class only: the feature alone decides the class (likely leakage).

    ## What it does
    Finds levels of discrete features that occur in at least ``min-rows`` rows, all of
    them in the same class, while the target has other classes.

    ## Why is this bad?
    Perfect separation makes Naive Bayes certain: the other classes' estimates for the
    value are zero (or only alpha), so the value overrides every other feature. When a
    value is that predictive it is often the label leaking into a feature (a status
    written after the outcome, an ID range per class), and the model will fail on data
    collected before the label is known.

    ## Example
    ```
    refund_status,churned
    issued,yes
    issued,yes
    none,no
    ```

    ## Use instead
    Check how the column is produced; drop it if it is set after the label, otherwise
    keep smoothing on so one value cannot veto the other classes.
    """

    code = "NB202"
    name = "single-class-level"
    severity = Severity.WARNING
    needs_target = True
    options = (Option("min-rows", 5, "Rows a level needs before its single class counts as separation.", minimum=1),)

    def check(self, ctx):
        classes = ctx.profile.classes
        for column in ctx.features_of_kind(*DISCRETE_KINDS):
            found = separating_levels(ctx, column, self.settings["min-rows"])
            if not found:
                continue
            value, c, rows = found[0]
            more = f"; {len(found) - 1} more such values" if len(found) > 1 else ""
            message = (
                f"column {column!r}: value {fmt_value(value)} appears only with class {fmt_class(classes[c])} "
                f"({rows} rows): the feature alone decides the class{more}"
            )
            evidence = {"levels": [{"value": fmt_value(v), "class": fmt_value(classes[k]), "rows": r} for v, k, r in found]}
            fix = f"Check whether {column!r} is known before the label; drop it if it leaks the label."
            yield self.finding(ctx, message, columns=[column], evidence=evidence, fix=fix)
