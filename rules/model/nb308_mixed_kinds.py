from nblint.analysis.context import TableContext
from nblint.engine import MODELS, Rule, Severity

from . import estimator, recommendation


class MixedKinds(Rule):
    """One declared model over columns of different kinds: each kind wants its own event model.

    ## What it does
    With a model declared, reports (as information) tables whose feature columns call for
    more than one event model, and lists the model nblint recommends per column (see
    ``nblint columns``).

    ## Why is this bad?
    A single scikit-learn Naive Bayes class applies one event model to every column.
    Flags, codes, counts and measurements each have their own likelihood; forcing one
    model over all of them mis-reads most columns. Naive Bayes factorises over features,
    so the per-column models can be fitted separately and their log likelihoods summed.

    The columns of a document-term block (NB209's ``term-block``) count as one kind under a
    text model: a word seen at most once per document is 0/1, and still a count.

    ## Severity
    Always ``info``: a summary of what the other NB3xx rules report column by column.

    ## Example
    ```
    is_member,region_code,visits,income,label   # model = "gaussian"
    ```

    ## Use instead
    ``nblint.MixedNB``: one Naive Bayes reading flags as Bernoulli, codes and collapsed
    groups as categorical, counts as multinomial and measurements as Gaussian, each
    column with its own model; ``nblint columns --pipeline`` prints the code.
    """

    code = "NB308"
    status = "stable"
    since = "0.1.0"
    name = "mixed-kinds"
    models = frozenset(MODELS)
    severity = Severity.INFO
    messages = {
        "mixed": "{estimator} is declared for every column, but the columns call for {models_called_for} event models "
        "({columns_per_model:pairs})",
    }

    def check(self, ctx: TableContext):
        # A document-term block is one kind of input, whatever single words look like (a word seen at
        # most once per document is 0/1): text models read the block as a whole.
        terms = ctx.term_columns if ctx.model in ("multinomial", "complement", "bernoulli") else frozenset()
        features = [c for c in ctx.profile.features if c not in terms and ctx.kinds[c].model]  # (words: never asked)
        wanted = sorted({model for c in features if (model := ctx.kinds[c].model) is not None})
        if len(wanted) < 2:
            return
        per_model = {m: [c for c in features if ctx.kinds[c].model == m] for m in wanted}
        fix = (
            "Fit nblint.MixedNB, which reads each column with its own event model (`nblint columns --pipeline` "
            "prints the code): " + ", ".join(recommendation(ctx, c) for c in features)
        )
        yield self.finding(
            ctx,
            "mixed",
            columns=features,
            evidence={
                "declared": ctx.model,
                "recommended": per_model,
                "models_called_for": len(wanted),
                "columns_per_model": {m: len(cols) for m, cols in per_model.items()},
                "estimator": estimator(ctx.model),
            },
            fix=fix,
        )
