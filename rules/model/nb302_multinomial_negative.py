import numpy as np

from nblint.analysis.columns import negative_columns
from nblint.analysis.context import TableContext
from nblint.engine import SUMMARIZE_ABOVE, Rule, Severity

from . import estimator, fmt_number


class MultinomialOnNegative(Rule):
    """Negative values where counts are expected: under Multinomial or Complement NB, or in a block of words.

    ## What it does
    With ``model = multinomial`` or ``complement``, reports numeric features with a
    negative minimum. The words of a document-term block are one finding for the block,
    whatever their number: how many words and cells are negative, in how many documents,
    with the words holding most of them as examples. With no model declared, negative
    cells in a block of words are still reported (as a warning): every text model reads
    words as counts or presence.

    ## Why is this bad?
    The multinomial event model reads features as counts of events; a negative count
    has no meaning. scikit-learn's MultinomialNB and ComplementNB refuse negative input
    with an error, and tools that accept it produce negative "probabilities" before
    normalisation. Negative values usually come from a scaler or a centred feature; in
    a bag of words, from a corrupted count or a ``HashingVectorizer`` with
    ``alternate_sign=True`` (its default).

    ## Severity
    An error under a declared Multinomial or Complement model: scikit-learn refuses
    negative input for these models. A warning for a block of words with no model
    declared: the counts are certainly wrong for a text model, but which model reads
    them is not known.

    ## Example
    ```
    word_a,word_b,label     # model = "multinomial"
    2,-0.5,a
    ```

    ## Use instead
    Feed raw counts (no StandardScaler before the model); use GaussianNB for signed
    measurements; ``HashingVectorizer(alternate_sign=False)`` for hashed words.
    """

    code = "NB302"
    status = "stable"
    since = "0.1.0"
    name = "multinomial-negative"
    models = frozenset({"multinomial", "complement", None})
    severity = Severity.ERROR
    options = (SUMMARIZE_ABOVE,)
    messages = {
        "negative": "column {column!r} has negative values (minimum {minimum:number}): {model} reads features as "
        "counts and rejects negatives",
        "block_model": "{words:,} of the {block_words:,} words of the document-term block have {negative_cells:,} "
        "negative cells ({model} reads words as counts and rejects negatives); the most: {most}",
        "block_model_uncounted": "{words:,} of the {block_words:,} words of the document-term block have negative "
        "cells ({model} reads words as counts and rejects negatives); the most: {most}",
        "block": "{words:,} of the {block_words:,} words of the document-term block have {negative_cells:,} negative "
        "cells (a text model reads words as counts or presence: a negative cell is a corrupted count or a signed "
        "hash); the most: {most}",
        "block_uncounted": "{words:,} of the {block_words:,} words of the document-term block have negative cells (a "
        "text model reads words as counts or presence: a negative cell is a corrupted count or a signed hash); the "
        "most: {most}",
    }

    def check(self, ctx: TableContext):
        terms = ctx.term_columns
        if ctx.model is not None:
            for column in ctx.profile.features:
                if (
                    column in terms
                    or column in ctx.profile.text
                    or ctx.kinds[column].kind in ("constant", "identifier")
                ):
                    continue
                minimum = ctx.column(column).minimum
                if minimum < 0:
                    yield self.finding(
                        ctx,
                        "negative",
                        columns=[column],
                        evidence={"minimum": float(minimum), "model": estimator(ctx.model)},
                        fix=f"Use raw counts for {column!r}, or read it with GaussianNB.",
                    )
        if terms:
            yield from self._block(ctx, terms)

    def _block(self, ctx: TableContext, terms):
        """One finding for the words of a document-term block that have negative cells."""
        order = ctx.table_order
        found = negative_columns(ctx.profile, terms, order)
        negative = found.names
        if not negative:
            return
        # The words with the most negative cells first (past the level cap: counted as 0), then the lowest
        # minimum, then table order (they come in it).
        ranked = np.lexsort((np.arange(len(negative)), found.minimum, -found.cells))[:20].tolist()
        counted = bool(found.counted.all())

        def cells(k: int) -> int | None:
            return int(found.cells[k]) if found.counted[k] else None

        evidence = {
            "words": len(negative),
            "block_words": len(terms),
            "negative_cells": int(found.cells.sum()) if counted else None,
            "examples": [
                {"word": negative[k], "minimum": float(found.minimum[k]), "negative_cells": cells(k)} for k in ranked
            ],
            # (the five with the most, as the message lists them)
            "most": ", ".join(f"{negative[k]!r} (minimum {fmt_number(found.minimum[k])})" for k in ranked[:5]),
        }
        if ctx.model is not None:
            evidence["model"] = estimator(ctx.model)
        variant = ("block_model" if ctx.model is not None else "block") + ("" if counted else "_uncounted")
        yield self.finding(
            ctx,
            variant,
            columns=negative,
            evidence=evidence,
            severity=self.severity if ctx.model is not None else Severity.WARNING,
            fix=(
                "Feed the vectorizer's raw counts (nothing that centres or scales them before the model); "
                "HashingVectorizer(alternate_sign=False) for hashed words."
            ),
        )
