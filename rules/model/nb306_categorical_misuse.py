from nblint.analysis.context import TableContext
from nblint.engine import SUMMARIZE_ABOVE, Narrowing, Option, Rule, Severity

from . import value_range


class CategoricalMisuse(Rule):
    """Categorical NB over continuous or high-cardinality columns, or negative or fractional codes.

    ## What it does
    With ``model = categorical``, reports: continuous features (every distinct value
    becomes a category); features with more than ``max-levels`` levels; and negative or
    non-integer numeric values (CategoricalNB needs codes 0..K-1). (A one-hot or dummy
    group's bits under CategoricalNB are NB307's finding, as under every declared model.)

    ## Why is this bad?
    A category per measured value gives each one a handful of rows and every new value
    at prediction time is unseen. scikit-learn's CategoricalNB rejects negative values
    and truncates fractional ones.

    ## Severity
    An error where CategoricalNB certainly fails or misreads: fractional values (it
    truncates them to whole codes) and negative codes (it refuses them). A warning where
    the reading rests on evidence or a threshold: a whole-valued measurement (each value
    its own category) and more levels than ``max-levels``.

    ## Example
    ```
    price,store_code,label    # model = "categorical"
    19.99,-1,a
    5.49,2,b
    ```

    ## Use instead
    Bin continuous columns, merge rare levels and encode with OrdinalEncoder, or fit
    ``nblint.MixedNB``, which reads each column with its own model.
    """

    code = "NB306"
    status = "stable"
    since = "0.1.0"
    name = "categorical-misuse"
    models = frozenset({"categorical"})
    severity = Severity.ERROR
    narrowed = (Narrowing("one-hot and dummy groups", "NB307", "0.1.0"),)
    options = (
        Option("max-levels", 50, "More levels than this make a column high-cardinality for CategoricalNB.", minimum=1),
        SUMMARIZE_ABOVE,
    )
    messages = {
        "fractional": "column {column!r} is continuous with fractional values ({range}): CategoricalNB truncates "
        "them to whole codes, merging values that differ",
        "continuous": "column {column!r} is continuous ({range}): every distinct value would become a category",
        "levels": "column {column!r} has {levels:.0f} levels (more than {max_levels}): most are rare and unseen at "
        "prediction time",
        "negative": "column {column!r} has negative codes ({range}): CategoricalNB needs codes 0..K-1",
    }

    def check(self, ctx: TableContext):
        for column in ctx.profile.features:
            kind = ctx.kinds[column]
            problem, severity = None, Severity.WARNING
            extra: dict = {}  # the numbers a message shows beyond the kind and the range
            record = ctx.column(column)
            numeric = not record.text
            if kind.kind == "continuous" and numeric and not record.integral:
                problem, severity = "fractional", self.severity
            elif kind.kind == "continuous":
                problem = "continuous"
            elif (
                kind.kind in ("categorical", "count")
                and kind.n_distinct
                and kind.n_distinct > self.option_values["max-levels"]
            ):
                problem = "levels"
                extra = {"levels": kind.n_distinct, "max_levels": self.option_values["max-levels"]}
            elif numeric and kind.kind not in ("constant", "identifier", "group-member"):
                if record.minimum < 0:
                    problem, severity = "negative", self.severity
            if problem:
                yield self.finding(
                    ctx,
                    problem,
                    columns=[column],
                    evidence={"kind": kind.kind, "range": value_range(ctx, column), **extra},
                    fix=f"Bin or re-encode {column!r} with OrdinalEncoder (merging rare levels).",
                    severity=severity,
                )
