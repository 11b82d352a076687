from nblint.analysis.collinear import CLUSTER_R, collinear_cases
from nblint.analysis.context import TableContext
from nblint.engine import Option, Rule, Severity

from ..wording import fmt_columns


class CollinearColumns(Rule):
    """Columns that are (nearly) linear combinations of others: VIF over the threshold.

    ## What it does
    Computes every numeric column's variance inflation factor in closed form,
    ``VIF_j = [R^{-1}]_jj`` from the correlation matrix (one pass over the data, no
    regression per column; equal to statsmodels' ``variance_inflation_factor`` with
    a constant column). Exact dependencies are found first: one level of each
    one-hot group is left out (its dependency is NB101's finding), then a pivoted
    Cholesky factorisation with tolerance ``1/VIF <= 1e-10`` finds columns that are
    exact linear combinations of others (VIF infinite, with the combination).
    Reports columns over ``vif-threshold`` that a one-hot or dummy group, a code
    column of a group or an identical copy (NB105) does not already explain.

    ## Why is this bad?
    Naive Bayes assumes features independent given the class. Two features that
    carry the same signal are counted twice: their evidence is multiplied in,
    posteriors become over-confident, and the model's ranking of features is
    meaningless. A column that is the sum of others (``total = a + b + c``) is the
    extreme case.

    Columns over the threshold with a finite VIF are reported by cluster: two such
    columns are in one cluster when their correlation is at least 0.9 (or one is the
    other's main partner), and each cluster is one finding with its members, their
    VIFs and the column to drop first (the highest VIF: the one the others explain
    best). The radius, perimeter and area columns of a table of cell measurements
    are one finding, not one per column.

    More than five such combinations in one table are reported once, as a rank
    deficiency. With as many independent columns as the rows allow (n - 1 after centring), every
    other column is a combination of them by arithmetic alone: NB104 then says so once
    (``info``) instead of listing dependencies that mean nothing. A combination of a few
    columns (at most five, and at most a tenth of the independent ones: a copy, a total
    of some parts) holds whatever the rows and is still reported; finite VIFs are not
    (a VIF needs more rows than columns). All dependent columns' combinations come from
    the one factorisation, so a table wider than it is long costs about as much as a
    square one.

    ## Severity
    A warning for an exact linear dependency (a column is a combination of others:
    certain redundancy, double-counted by Naive Bayes); ``info`` for a finite VIF over
    the threshold, which is a matter of degree (petal length and petal width).

    ## Example
    ```
    a,b,c,total
    1,2,0,3
    0,5,1,6
    ```

    ## Use instead
    Drop the derived column (keep ``a, b, c`` or ``total``), or combine the
    correlated columns into one feature.
    """

    code = "NB104"
    status = "stable"
    since = "0.1.0"
    name = "collinear-columns"
    severity = Severity.WARNING
    _BY_ROWS = (
        "{columns} numeric columns on {n_rows} rows: with as many independent columns as the rows allow, the other "
        "{dependent} are exact linear combinations of them by arithmetic alone, so exact dependencies say nothing here "
        "and are not listed"
    )
    messages = {
        "by_rows": _BY_ROWS,
        "by_rows_short": _BY_ROWS + ", except {short} short ones (at most {short_columns} columns each) that hold "
        "whatever the rows; variance inflation is not defined beyond them",
        "rank_deficient": "{dependent} of {columns} numeric columns are exact linear combinations of the others (e.g. "
        "{shown:names}): the table is rank deficient, often sparse indicators on few rows",
        "exact": "columns {columns:names} are exactly linearly dependent ({formula}): each has an infinite VIF",
        "vif": "column {column!r} has VIF {vif:.1f} (threshold {threshold:g}): the other columns explain "
        "{r_squared:.1%} of its variance, mostly {partners:names}",
        "cluster": "columns {columns:names} are one cluster of collinear columns (VIF over {threshold:g}: "
        "{vifs_listed}): each is mostly explained by the others; drop {drop_first!r} first (the highest VIF)",
    }
    options = (
        Option(
            "vif-threshold",
            10.0,
            "Report columns whose variance inflation factor exceeds this (10 is the usual rule of thumb).",
            minimum=1,
        ),
    )

    def check(self, ctx: TableContext):
        threshold = self.option_values["vif-threshold"]
        vif = ctx.vif
        cases = collinear_cases(ctx, threshold)
        if cases.by_rows is not None:
            by_rows = cases.by_rows
            yield self.finding(
                ctx,
                "by_rows_short" if by_rows.kept else "by_rows",
                severity=Severity.INFO,
                evidence={
                    "columns": len(vif.vif),
                    "n_rows": ctx.n_rows,
                    "independent": len(vif.independent),
                    "dependent": by_rows.dependent,
                    "by_shape": by_rows.dependent - by_rows.kept,
                    "short": by_rows.kept,
                    "short_columns": by_rows.short,
                },
                fix="Collect more rows than columns, or reduce the columns, before judging collinearity.",
            )
        if cases.rank_deficient:
            unexplained = list(cases.rank_deficient)
            yield self.finding(
                ctx,
                "rank_deficient",
                columns=unexplained,
                evidence={
                    "dependent": len(unexplained),
                    "columns": len(vif.vif),
                    "n_rows": ctx.n_rows,
                    "combinations": cases.rank_deficient,
                    "shown": unexplained[:5],
                },
                fix="Drop or merge the redundant columns (or collect more rows) before reading them as "
                "independent features.",
            )
        for exact in cases.exact:
            evidence = {
                "vif": exact.vif,
                "solved_for": exact.solved,
                "combination": exact.terms,
                "intercept": exact.intercept,
                "rank_tolerance": vif.tolerance,
                "threshold": threshold,
                "formula": _formula(exact.solved, exact.terms, exact.intercept),
            }
            fix = f"Drop {exact.solved!r} (or another column of the combination): it adds no information."
            yield self.finding(ctx, "exact", columns=exact.involved, evidence=evidence, fix=fix)
        for cluster in cases.clusters:
            yield self._cluster_finding(ctx, vif, cluster, threshold)

    def _cluster_finding(self, ctx, vif, cluster: list[str], threshold: float):
        if len(cluster) == 1:
            (column,) = cluster
            value = vif.vif[column]
            partners = vif.partners(column)
            r2 = 1.0 - 1.0 / value
            evidence = {"vif": value, "r_squared": r2, "threshold": threshold, "partners": partners, "column": column}
            fix = f"Drop {column!r} or one of {fmt_columns(partners)}, or combine them into one feature."
            # A finite VIF is a matter of degree (petal length and width), not a defect: info.
            return self.finding(
                ctx, "vif", columns=[column] + partners, evidence=evidence, fix=fix, severity=Severity.INFO
            )
        vifs = {c: vif.vif[c] for c in cluster}
        first = max(cluster, key=lambda c: (vifs[c], -ctx.table_order[c]))
        evidence = {"vifs": vifs, "drop_first": first, "threshold": threshold, "min_correlation": CLUSTER_R}
        evidence["vifs_listed"] = ", ".join(f"{c} {vifs[c]:.1f}" for c in cluster)
        fix = (
            f"Drop {first!r} first and check again (the other VIFs fall with it), or combine the cluster "
            "into one feature."
        )
        return self.finding(ctx, "cluster", columns=cluster, evidence=evidence, fix=fix, severity=Severity.INFO)


def _formula(column, combo, intercept) -> str:
    text = ""
    for name, coef in combo.items():
        magnitude = abs(coef)
        shown = f"{magnitude:.4g}"  # (a coefficient that shows as 1 is written as the bare name)
        term = name if shown == "1" else f"{shown}*{name}"
        if not text:
            text = ("-" if coef < 0 else "") + term
        else:
            text += f" {'-' if coef < 0 else '+'} {term}"
    if intercept:
        text += f" {'-' if intercept < 0 else '+'} {abs(intercept):.4g}"
    return f"{column} = {text}"
