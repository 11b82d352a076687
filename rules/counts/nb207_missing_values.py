from typing import Any

from nblint.analysis.columns import columns_with_missing
from nblint.analysis.context import TableContext
from nblint.engine import Rule, Severity


class MissingValues(Rule):
    """Missing values in a feature: most Naive Bayes implementations reject them.

    ## What it does
    Reports the feature columns with missing values (empty cells, NaN), with how many
    and what share of rows: one finding for the table, naming every such column (a
    table with gaps in 40 columns has one problem to decide, not 40). Columns missing on
    every row are NB204's finding; an identifier (a different value on nearly every row, read
    as no feature) is not a feature the model fills in, so its gaps are not reported.

    ## Why is this bad?
    scikit-learn's Naive Bayes classes raise an error on NaN. Other tools drop the
    rows or treat the value as 0, silently changing the data. Missingness is often
    informative and deserves an explicit decision.

    ## Severity
    A warning: scikit-learn's Naive Bayes estimators refuse missing values, so the
    table cannot be used as it is.

    ## Example
    ```
    age,income,label
    31,,a
    45,52000,b
    ```

    ## Use instead
    Impute (SimpleImputer), add a "missing" level for categorical columns, or drop the
    rows, as an explicit pipeline step.
    """

    code = "NB207"
    status = "stable"
    since = "0.1.0"
    name = "missing-values"
    severity = Severity.WARNING
    messages = {
        "one": "column {column!r} is missing on {missing} of {n_rows} rows ({share:.1%})",
        "one_model": "column {column!r} is missing on {missing} of {n_rows} rows ({share:.1%}); a {model} Naive Bayes "
        "model cannot take missing values",
        "many": "{columns:plural(column)} have missing values: {listed}",
        "many_model": "{columns:plural(column)} have missing values: {listed}; a {model} Naive Bayes model cannot "
        "take missing values",
    }

    def check(self, ctx: TableContext):
        n = ctx.n_rows
        kinds = ctx.kinds
        gaps: dict[str, int] = {}
        gappy = columns_with_missing(ctx.profile)
        for column in ctx.profile.features:
            if column not in gappy:  # (a numeric column with no missing value: a vocabulary's words, at once)
                continue
            missing = ctx.column(column).missing
            if missing and missing < n and kinds[column].kind not in ("constant", "identifier"):
                gaps[column] = missing
        if not gaps:
            return
        if len(gaps) == 1:
            ((column, missing),) = gaps.items()
            variant = "one"
            evidence: dict[str, Any] = {"missing": missing, "share": missing / n, "n_rows": n}
        else:
            worst = sorted(gaps.items(), key=lambda kv: (-kv[1], kv[0]))
            shown = ", ".join(f"{c} ({m / n:.1%})" for c, m in worst[:5])
            more = f" and {len(gaps) - 5} more" if len(gaps) > 5 else ""
            variant = "many"
            evidence = {"missing": gaps, "share": {c: m / n for c, m in gaps.items()}, "n_rows": n}
            evidence["listed"] = shown + more
        if ctx.model:
            variant += "_model"
            evidence["model"] = ctx.model
        severity = Severity.ERROR if ctx.model else self.severity
        fix = "Impute the values, add an explicit 'missing' level, or drop the rows, as a pipeline step."
        yield self.finding(ctx, variant, columns=list(gaps), evidence=evidence, fix=fix, severity=severity)
