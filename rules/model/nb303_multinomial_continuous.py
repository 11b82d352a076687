from nblint.analysis.context import TableContext
from nblint.engine import SUMMARIZE_ABOVE, Rule, Severity

from . import estimator, value_range


class MultinomialOnContinuous(Rule):
    """Multinomial or Complement NB declared over non-integer values: they are not counts.

    ## What it does
    With ``model = multinomial`` or ``complement``, reports non-negative features whose
    values are not whole numbers (negative ones are NB302's).

    ## Why is this bad?
    The multinomial likelihood is a product of per-feature probabilities raised to the
    feature's count. Fractional values are accepted by scikit-learn (tf-idf weights are
    the intended case) but a measurement such as a price or a temperature is not a
    count of anything: its scale, not its meaning, sets how much evidence it carries.

    The weights of a document-term block (tf-idf, see NB209's ``term-block``) are the
    intended case and work well in practice (scikit-learn's documentation): they are
    reported once for the table, as ``info``, saying how the model reads them.

    ## Severity
    A warning: the model runs, but the column's scale decides its weight. ``info`` (one
    finding for the table) for the weights of a document-term block.

    ## Example
    ```
    price,weight,label      # model = "multinomial"
    19.99,0.25,a
    ```

    ## Use instead
    GaussianNB for measurements (or bin them and use CategoricalNB); keep multinomial for
    counts and tf-idf weights.
    """

    code = "NB303"
    status = "stable"
    since = "0.1.0"
    name = "multinomial-continuous"
    models = frozenset({"multinomial", "complement"})
    severity = Severity.WARNING
    options = (SUMMARIZE_ABOVE,)
    messages = {
        "not_integer": "column {column!r} has non-integer values ({range}): {model} weighs them as counts, so their "
        "scale decides their evidence",
        "weights": "{term_columns} columns of a document-term block hold non-integer weights (tf-idf): {model} reads "
        "them as fractional counts; this works well for text in practice, though the likelihood is no longer one of "
        "counts",
    }

    def check(self, ctx: TableContext):
        terms = ctx.term_columns
        weights = []
        for column in ctx.features_of_kind("continuous"):
            record = ctx.column(column)
            if record.minimum < 0 or record.integral:
                continue
            if column in terms:
                weights.append(column)
                continue
            yield self.finding(
                ctx,
                "not_integer",
                columns=[column],
                evidence={"range": value_range(ctx, column), "model": estimator(ctx.model)},
                fix=f"Read {column!r} with GaussianNB, or bin it into categories.",
            )
        if weights:
            yield self.finding(
                ctx,
                "weights",
                columns=weights,
                evidence={"term_columns": len(weights), "model": estimator(ctx.model)},
                fix="Nothing to do for tf-idf into MultinomialNB or ComplementNB; to read the counts as counts, feed "
                "CountVectorizer's output instead.",
                severity=Severity.INFO,
            )
