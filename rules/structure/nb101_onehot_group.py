from nblint.analysis.context import TableContext
from nblint.engine import Rule, Severity

from . import COLLAPSE_FIX

_ONEHOT = "columns {columns:names} form a one-hot group{variable:likely}, K={k}: every one of the {n_rows} rows "
_SUMS = "sums to exactly 1"
_KNOWN = "where they are known " + _SUMS + " (all of them are missing on {missing_rows} rows)"
_SO = ", so each column is 1 minus the others (VIF infinite with an intercept)"
_AMBIGUOUS = "; ambiguous: {alternatives[0]:names} also sum to one on every row (chosen by {chosen_by})"


class OneHotGroup(Rule):
    """0/1 columns that sum to exactly one on every row: a one-hot encoded variable.

    ## What it does
    Finds sets of two or more 0/1 columns where every row has exactly one column
    set. The search uses the values only (exact co-occurrence counts: the columns
    are pairwise exclusive and their counts add up to the number of rows), so it
    works whatever the columns are called and wherever they are in the table.
    Names (``color_red``, ``x0_red``, ``color=red``, ``color[T.red]``) only rank
    candidates and label the likely source variable.

    ## Why is this bad?
    A Naive Bayes model that reads the K bits as K independent features (Bernoulli,
    Gaussian, Multinomial, or CategoricalNB over the bits) uses a product of
    Bernoullis instead of one categorical distribution: each observed level picks
    up an extra factor prod_{k != j} (1 - theta_k) per class, which over-counts the
    evidence, makes posteriors over-confident and can flip the predicted class
    (Williams, eqs. 1-3). For linear models the group is perfectly collinear with
    the intercept: every member's variance inflation factor is infinite.

    ## Severity
    A warning: the group is exact, but whether it misleads depends on the model that
    reads it. A declared model that reads the bits as separate features is NB307's
    error, and NB401 measures the cost.

    ## Example
    ```
    color_red,color_green,color_blue,label
    1,0,0,spam
    0,0,1,ham
    ```

    ## Use instead
    One categorical column (``color``) with ordinal codes for CategoricalNB, or drop
    one level for a linear model with an intercept.
    """

    code = "NB101"
    status = "stable"
    since = "0.1.0"
    name = "one-hot-group"
    severity = Severity.WARNING
    messages = {
        "onehot": _ONEHOT + _SUMS + _SO,
        "onehot_known": _ONEHOT + _KNOWN + _SO,
        "onehot_ambiguous": _ONEHOT + _SUMS + _SO + _AMBIGUOUS,
        "onehot_known_ambiguous": _ONEHOT + _KNOWN + _SO + _AMBIGUOUS,
    }
    message_constants = frozenset({1})

    def check(self, ctx: TableContext):
        structure = ctx.structure
        known = [g for g in structure.missing_together if g.kind == "one-hot"]
        for group in structure.onehot + known:
            missing = group.evidence.get("missing_rows")
            variant = "onehot_known" if missing else "onehot"
            evidence = {
                "k": len(group.members),
                "variable": group.stem,
                "row_sum": 1,
                "rows_summing_to_one": group.n_rows,
                "n_rows": group.n_rows,
                "level_counts": dict(zip(group.members, group.counts)),
                "vif": float("inf"),
            }
            if structure.capped:
                evidence["search_capped"] = True
            if "missing_rows" in group.evidence:
                evidence["missing_rows"] = missing
            if group.evidence.get("ambiguous"):
                evidence.update({k: group.evidence[k] for k in ("ambiguous", "alternatives", "chosen_by")})
                variant += "_ambiguous"
            from nblint.report.figures import group_pattern  # (a figure's module: only where a finding draws one)

            # (members with missing values, or written as yes/no, are outside the co-occurrence counts the figure draws)
            figure = None if "missing_rows" in group.evidence else group_pattern(ctx, group.members, {1: group.n_rows})
            yield self.finding(ctx, variant, columns=group.members, evidence=evidence, fix=COLLAPSE_FIX, figure=figure)
