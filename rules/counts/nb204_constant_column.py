from typing import Any

from nblint.analysis.context import TableContext
from nblint.engine import SUMMARIZE_ABOVE, Rule, Severity
from nblint.engine.messages import fmt_columns

#: Why the block's words the same in every document are one info finding (the rule's docstring).
_NO_EVIDENCE = (
    ": a word the same in every document carries no evidence (the text models weigh it alike in every class), "
    "a fact of the vocabulary, not a flaw of the data"
)


class ConstantColumn(Rule):
    """A column with one value on every row, or no value at all.

    ## What it does
    Finds feature columns whose non-missing values are all the same, and columns with
    every value missing.

    ## Why is this bad?
    A constant feature has the same likelihood under every class, so it cannot change a
    prediction; it only costs time and, for Gaussian NB, has zero variance. An
    all-missing column is usually a broken join or export.

    The words of a document-term block are one finding for the block, at info: a word in
    every document (``and`` in every speech, once each is read as present or absent) or in
    none (a vocabulary fitted on other documents) is a fact of the vocabulary, not of the
    data's collection, and the text models weigh it alike in every class.

    ## Severity
    A warning: the column carries no information (and a Gaussian fit to it has zero
    variance); it never helps the model. Info for the words of a block.

    ## Example
    ```
    country,age,label
    FR,31,a
    FR,45,b
    ```

    ## Use instead
    Drop the column, or fix the step that should have filled it. For words, a vectorizer's
    ``max_df`` (below 1.0) or ``stop_words`` drops those in every document.
    """

    code = "NB204"
    status = "stable"
    since = "0.1.0"
    name = "constant-column"
    severity = Severity.WARNING
    options = (SUMMARIZE_ABOVE,)
    messages = {
        "all_missing": "column {column!r} is missing on every one of the {missing} rows",
        "constant": "column {column!r} has the same value ({value}) on every row",
        "constant_missing": "column {column!r} has the same value ({value}) on every row that has one ({missing} missing)",
        "words_everywhere": "{everywhere:plural(word)} of the document-term block {everywhere:choose(is,are)} in every "
        "document ({listed})" + _NO_EVIDENCE,
        "words_nowhere": "{nowhere:plural(word)} of the document-term block {nowhere:choose(is,are)} in no document "
        "({listed})" + _NO_EVIDENCE,
        "words_both": "{everywhere:plural(word)} of the document-term block {everywhere:choose(is,are)} in every "
        "document and {nowhere:plural(word)} in none ({listed})" + _NO_EVIDENCE,
    }

    def check(self, ctx: TableContext):
        words: list[str] = []
        for column in ctx.features_of_kind("constant"):
            if column in ctx.term_columns:
                words.append(column)  # (the block's words are one finding, below)
                continue
            record = ctx.column(column)
            levels = record.levels
            if record.missing == ctx.n_rows:
                variant = "all_missing"
                evidence: dict[str, Any] = {"missing": ctx.n_rows}
            else:
                value = levels.keys[0] if levels is not None and levels.keys else None
                shown = int(value) if isinstance(value, float) and value.is_integer() else value
                variant = "constant_missing" if record.missing else "constant"
                evidence = {"value": shown, "missing": record.missing}
            yield self.finding(
                ctx,
                variant,
                columns=[column],
                evidence=evidence,
                fix=f"Drop {column!r}: it cannot change a prediction.",
            )
        if words:
            yield self._words(ctx, words)

    def _words(self, ctx: TableContext, words: list[str]):
        """One info finding for the block's words that are the same in every document (``words``, in table order)."""
        absent = {w for w in words if ctx.column(w).maximum == 0}
        nowhere = [w for w in words if w in absent]
        everywhere = [w for w in words if w not in absent]
        variant = "words_both" if everywhere and nowhere else "words_everywhere" if everywhere else "words_nowhere"
        return self.finding(
            ctx,
            variant,
            columns=words,
            evidence={
                "everywhere": len(everywhere),
                "nowhere": len(nowhere),
                "listed": fmt_columns(everywhere + nowhere),
            },
            severity=Severity.INFO,
            fix="Leave them, or drop them with the vectorizer's max_df (below 1.0) or stop_words.",
        )
