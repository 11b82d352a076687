from nblint.engine import Rule, Severity

from . import value_range


class BernoulliOnNonBinary(Rule):
    """Bernoulli NB declared over columns that are not binary: they are silently binarised.

    ## What it does
    With ``model = bernoulli``, reports feature columns that take more than two values:
    counts, continuous measurements, integer codes and multi-level text.

    ## Why is this bad?
    The Bernoulli event model reads each feature as present/absent. scikit-learn's
    BernoulliNB binarises its input at ``binarize=0.0`` by default without a warning:
    every positive count or measurement becomes 1 and every zero or negative value 0,
    so 1 visit and 300 visits are the same evidence, and a code 0..4 becomes "0 or
    not 0". Text columns cannot be fed at all.

    ## Severity
    An error: BernoulliNB certainly binarises the column at 0, so its values are lost.

    ## Example
    ```
    visits,income,label     # model = "bernoulli"
    0,31000.5,a
    12,52000.0,b
    ```

    ## Use instead
    ``nblint.MixedNB``, which reads each column with its own event model (multinomial
    for counts, Gaussian for measurements, categorical for codes); or MultinomialNB,
    GaussianNB (or binning + CategoricalNB) and CategoricalNB on their own columns; or
    an explicit, meaningful threshold per column.
    """

    code = "NB301"
    name = "bernoulli-non-binary"
    severity = Severity.ERROR

    def check(self, ctx):
        if ctx.model != "bernoulli":
            return
        for column in ctx.features_of_kind("count", "continuous", "categorical"):
            kind = ctx.kinds[column]
            if column in ctx.profile.text:
                message = f"column {column!r} is text ({value_range(ctx, column)}): BernoulliNB cannot read it, and one-hot bits of it are NB101's problem"
            else:
                message = (
                    f"column {column!r} is {kind.kind} ({value_range(ctx, column)}), not binary: BernoulliNB binarises "
                    "it at 0.0, so every positive value becomes the same 1"
                )
            yield self.finding(
                ctx,
                message,
                columns=[column],
                evidence={"kind": kind.kind, "range": value_range(ctx, column)},
                fix=f"Read {column!r} with the {kind.model} event model (nblint.MixedNB reads each column with its own), "
                "or binarise it explicitly at a meaningful threshold.",
            )
