from nblint.engine import Rule
from nblint.findings import Severity


class MissingValues(Rule):
    """Missing values in a feature: most Naive Bayes implementations reject them.

    ## What it does
    Reports each feature column with missing values (empty cells, NaN), with how many
    and what share of rows. Columns missing on every row are NB204's finding.

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
    name = "missing-values"
    severity = Severity.WARNING

    def check(self, ctx):
        n = ctx.n_rows
        kinds = ctx.kinds
        for column in ctx.profile.features:
            missing = ctx.profile.n_missing(column)
            if not missing or missing == n or kinds[column].kind == "constant":
                continue
            message = f"column {column!r} is missing on {missing} of {n} rows ({missing / n:.1%})"
            if ctx.model:
                message += f"; a {ctx.model} Naive Bayes model cannot take missing values"
            severity = Severity.ERROR if ctx.model else self.severity
            evidence = {"missing": missing, "share": missing / n}
            fix = "Impute the values, add an explicit 'missing' level, or drop the rows, as a pipeline step."
            yield self.finding(ctx, message, columns=[column], evidence=evidence, fix=fix, severity=severity)
