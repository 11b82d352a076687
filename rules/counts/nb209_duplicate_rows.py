from nblint.analysis.context import TableContext
from nblint.engine import Option, Rule, Severity
from nblint.readers.words import TERM_BLOCK


class DuplicateRows(Rule):
    """Identical documents: rows of a document-term block that repeat another, above all with another label.

    ## What it does
    On a table that holds a document-term block (a bag of words, tf-idf; see the
    ``term-block`` option), finds rows whose non-zero cells are all the same as another row's:
    the same document twice (a repost, a forward, a quoted reply), and among them the
    sets whose copies carry different labels. Empty documents (no non-zero cell) are
    counted apart, not as copies. Rows are compared by a 64-bit fingerprint of their
    cells, so two different rows agree by accident with probability about 2^-64.

    ## Why is this bad?
    A document seen twice counts twice: its words weigh double in its class's estimates,
    and a copy that lands in both the training and the test split makes the test score
    optimistic. The same document under two labels cannot be classified right both times:
    it caps the accuracy, and usually means a labelling error or a document that belongs
    to both classes (a cross-post).

    ## Severity
    A warning: copies bias the estimates and the evaluation, and conflicting labels are
    certain errors of one copy or the other.

    ## Example
    ```
    text,label
    "win a free cruise now",spam
    "win a free cruise now",ham     # the same document, another label
    ```

    ## Use instead
    Drop exact duplicates before splitting (``df.drop_duplicates(subset="text")``), and
    review the documents that carry two labels; split by source so copies stay together.
    """

    code = "NB209"
    status = "stable"
    since = "0.1.0"
    name = "duplicate-rows"
    severity = Severity.WARNING
    options = (
        Option(
            "term-block",
            TERM_BLOCK,
            "Fewest non-negative columns, each zero on at least half of its rows, that make a document-term block "
            "(a vocabulary: a bag of words, tf-idf) when the input does not say so (a text vectorizer's output "
            "through check_pipeline, --text and check(words=True) are one block at any size); rules read its "
            "columns as text models do. 0/1 columns whose rows set one column per variable (one-hot "
            "indicators, however many levels) are not words.",
            shared=True,
            minimum=2,
        ),
    )

    def check(self, ctx: TableContext):
        found = ctx.duplicate_rows
        if found is None or not found.sets:
            return
        message = (
            f"{found.copies:,} rows repeat an earlier row exactly ({found.sets:,} sets of identical documents, "
            f"{found.copies / max(ctx.n_rows, 1):.1%} of the rows)"
        )
        if found.conflicting_sets:
            message += (
                f"; {found.conflicting_sets:,} of the sets carry different labels ({found.conflicting_rows:,} rows): "
                "the same document under two classes"
            )
        rows = [r for rows in found.examples for r in rows][:10]
        yield self.finding(
            ctx,
            message,
            rows=rows,
            evidence={
                "copies": found.copies,
                "share_of_rows": found.copies / max(ctx.n_rows, 1),
                "sets": found.sets,
                "conflicting_sets": found.conflicting_sets,
                "conflicting_rows": found.conflicting_rows,
                "empty_rows": found.empty_rows,
                "example_sets": found.examples,
            },
            fix="Drop exact duplicate documents before splitting, and review the ones with two labels.",
        )
