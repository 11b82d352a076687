from nblint.engine import Rule, Severity

from . import ESTIMATOR, value_range


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

    ## Severity
    A warning: the model runs, but the column's scale decides its weight.

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
    name = "multinomial-continuous"
    severity = Severity.WARNING

    def check(self, ctx):
        if ctx.model not in ("multinomial", "complement"):
            return
        numeric = ctx.profile.numeric
        for column in ctx.features_of_kind("continuous"):
            j = numeric.names.index(column)
            if numeric.minimum[j] < 0 or numeric.integral[j]:
                continue
            message = (
                f"column {column!r} has non-integer values ({value_range(ctx, column)}): "
                f"{ESTIMATOR[ctx.model]} weighs them as counts, so their scale decides their evidence"
            )
            yield self.finding(
                ctx,
                message,
                columns=[column],
                evidence={"range": value_range(ctx, column)},
                fix=f"Read {column!r} with GaussianNB, or bin it into categories.",
            )
