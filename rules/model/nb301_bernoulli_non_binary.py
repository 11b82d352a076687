from nblint.analysis.context import TableContext
from nblint.engine import SUMMARIZE_ABOVE, Rule, Severity

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

    A document-term block is different: binarising word counts or tf-idf weights at 0 is
    exactly the multivariate Bernoulli model of word presence (McCallum & Nigam, 1998), a
    standard text classifier. The columns of such a block (see NB209's ``term-block``) are
    reported once for the table, as ``info``, saying what the model does with the weights.

    ## Severity
    An error: BernoulliNB certainly binarises the column at 0, so its values are lost.
    ``info`` (one finding for the table) for the columns of a document-term block, whose
    presence is what the Bernoulli text model reads.

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
    status = "stable"
    since = "0.1.0"
    name = "bernoulli-non-binary"
    models = frozenset({"bernoulli"})
    severity = Severity.ERROR
    options = (SUMMARIZE_ABOVE,)
    #: BernoulliNB's default threshold (binarize=0.0) and the bit it makes: explained, not measured.
    message_constants = frozenset({0.0, 1.0})
    messages = {
        "text": "column {column!r} is text ({range}): BernoulliNB cannot read it, and one-hot bits of it are NB101's problem",
        "not_binary": "column {column!r} is {kind} ({range}), not binary: BernoulliNB binarises it at 0.0, so every "
        "positive value becomes the same 1",
        "presence_weights": "{term_columns} columns of a document-term block hold weights (tf-idf), not 0/1: "
        "BernoulliNB binarises them at 0.0 and reads word presence (the multivariate Bernoulli text model); how often "
        "or how strongly a word occurs is not used",
        "presence_counts": "{term_columns} columns of a document-term block hold counts, not 0/1: BernoulliNB "
        "binarises them at 0.0 and reads word presence (the multivariate Bernoulli text model); how often or how "
        "strongly a word occurs is not used",
    }

    def check(self, ctx: TableContext):
        terms = ctx.term_columns
        binarised = []
        for column in ctx.features_of_kind("count", "continuous", "categorical"):
            kind = ctx.kinds[column]
            if column in terms:
                binarised.append(column)
                continue
            yield self.finding(
                ctx,
                "text" if column in ctx.profile.text else "not_binary",
                columns=[column],
                evidence={"kind": kind.kind, "range": value_range(ctx, column)},
                fix=f"Read {column!r} with the {kind.model} event model (nblint.MixedNB reads each column with its own), "
                "or binarise it explicitly at a meaningful threshold.",
            )
        if binarised:
            yield self.presence_finding(ctx, binarised)

    def presence_finding(self, ctx, columns: list[str]):
        """One info for the table: the term columns BernoulliNB reads as presence."""
        weights = sum(not ctx.column(c).integral for c in columns)
        return self.finding(
            ctx,
            "presence_weights" if weights * 2 > len(columns) else "presence_counts",
            columns=columns,
            evidence={"term_columns": len(columns), "non_integer": weights, "binarize": 0.0},
            fix="This is the Bernoulli text model, and fine as such; to use the counts or weights, fit MultinomialNB or "
            "ComplementNB instead (or CountVectorizer(binary=True) to make the presence explicit).",
            severity=Severity.INFO,
        )
