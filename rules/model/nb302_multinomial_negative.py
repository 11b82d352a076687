from nblint.analysis.context import TableContext
from nblint.engine import SUMMARIZE_ABOVE, Rule, Severity

from . import estimator, fmt_number


class MultinomialOnNegative(Rule):
    """Multinomial or Complement NB declared over columns with negative values.

    ## What it does
    With ``model = multinomial`` or ``complement``, reports numeric features with a
    negative minimum.

    ## Why is this bad?
    The multinomial event model reads features as counts of events; a negative count
    has no meaning. scikit-learn's MultinomialNB and ComplementNB refuse negative input
    with an error, and tools that accept it produce negative "probabilities" before
    normalisation. Negative values usually come from a scaler or a centred feature.

    ## Severity
    An error: scikit-learn refuses negative input for these models.

    ## Example
    ```
    word_a,word_b,label     # model = "multinomial"
    2,-0.5,a
    ```

    ## Use instead
    Feed raw counts (no StandardScaler before the model); use GaussianNB for signed
    measurements.
    """

    code = "NB302"
    status = "stable"
    since = "0.1.0"
    name = "multinomial-negative"
    models = frozenset({"multinomial", "complement"})
    severity = Severity.ERROR
    options = (SUMMARIZE_ABOVE,)

    def check(self, ctx: TableContext):
        numeric = ctx.profile.numeric
        for column in ctx.profile.features:
            if column in ctx.profile.text or ctx.kinds[column].kind in ("constant", "identifier"):
                continue
            j = numeric.names.index(column)
            if numeric.minimum[j] < 0:
                message = (
                    f"column {column!r} has negative values (minimum {fmt_number(numeric.minimum[j])}): "
                    f"{estimator(ctx.model)} reads features as counts and rejects negatives"
                )
                yield self.finding(
                    ctx,
                    message,
                    columns=[column],
                    evidence={"minimum": float(numeric.minimum[j])},
                    fix=f"Use raw counts for {column!r}, or read it with GaussianNB.",
                )
