from typing import Any

from nblint.analysis.context import TableContext
from nblint.engine import SUMMARIZE_ABOVE, Rule, Severity


class ConstantColumn(Rule):
    """A column with one value on every row, or no value at all.

    ## What it does
    Finds feature columns whose non-missing values are all the same, and columns with
    every value missing.

    ## Why is this bad?
    A constant feature has the same likelihood under every class, so it cannot change a
    prediction; it only costs time and, for Gaussian NB, has zero variance. An
    all-missing column is usually a broken join or export.

    ## Severity
    A warning: the column carries no information (and a Gaussian fit to it has zero
    variance); it never helps the model.

    ## Example
    ```
    country,age,label
    FR,31,a
    FR,45,b
    ```

    ## Use instead
    Drop the column, or fix the step that should have filled it.
    """

    code = "NB204"
    status = "stable"
    since = "0.1.0"
    name = "constant-column"
    severity = Severity.WARNING
    options = (SUMMARIZE_ABOVE,)
    messages = {
        "all_missing": "column {column!r} is missing on every one of the {missing} rows",
        "constant": "column {column!r} has the same value ({value}) on every row",
        "constant_missing": "column {column!r} has the same value ({value}) on every row that has one ({missing} missing)",
    }

    def check(self, ctx: TableContext):
        for column in ctx.features_of_kind("constant"):
            record = ctx.column(column)
            levels = record.levels
            if record.missing == ctx.n_rows:
                variant = "all_missing"
                evidence: dict[str, Any] = {"missing": ctx.n_rows}
            else:
                value = levels.keys[0] if levels is not None and levels.keys else None
                shown = int(value) if isinstance(value, float) and value.is_integer() else value
                variant = "constant_missing" if record.missing else "constant"
                evidence = {"value": shown, "missing": record.missing}
            yield self.finding(
                ctx,
                variant,
                columns=[column],
                evidence=evidence,
                fix=f"Drop {column!r}: it cannot change a prediction.",
            )
