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

    def check(self, ctx: TableContext):
        for column in ctx.features_of_kind("constant"):
            record = ctx.column(column)
            levels = record.levels
            if record.missing == ctx.n_rows:
                message = f"column {column!r} is missing on every one of the {ctx.n_rows} rows"
                evidence: dict[str, Any] = {"missing": ctx.n_rows}
            else:
                value = levels.keys[0] if levels is not None and levels.keys else None
                shown = int(value) if isinstance(value, float) and value.is_integer() else value
                missing = record.missing
                message = f"column {column!r} has the same value ({shown}) on every row" + (
                    f" that has one ({missing} missing)" if missing else ""
                )
                evidence = {"value": shown, "missing": missing}
            yield self.finding(
                ctx,
                message,
                columns=[column],
                evidence=evidence,
                fix=f"Drop {column!r}: it cannot change a prediction.",
            )
