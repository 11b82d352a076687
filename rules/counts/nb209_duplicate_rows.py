from nblint.analysis.context import TableContext
from nblint.engine import Option, Rule, Severity
from nblint.readers.words import TERM_BLOCK

_COPIES = (
    "{copies:,} rows repeat an earlier row's word counts exactly ({sets:,} sets of identical rows, "
    "{share_of_rows:.1%} of the rows)"
)
_CONFLICTS = (
    "; {conflicting_sets:,} of the sets carry different labels ({conflicting_rows:,} rows): the same words under "
    "two classes"
)
#: What the documents themselves say of the identical sets: unknown (a matrix alone), all the same text, or
#: some made identical by the vectorizer's steps.
_TEXTS = {
    "counts": " (identical as counts: the documents themselves may differ in what the vectorizer dropped, such as "
    "case, punctuation, word order or words outside its vocabulary)",
    "same_text": "; every set is the same text",
    "vectorized": "; {same_text_sets:,} of the sets are the same text, {vectorized_sets:,} became identical only "
    "in vectorizing ({by_step})",
}
_FOR_INSTANCE = "; e.g. {example} (0-based positions{index})"
_EMPTY = "{empty_rows:plural(document):,} {empty_rows:choose(is,are)} empty, with no word of the vocabulary"
_BY_CLASS = " (by class: {by_class_listed})"
_POINTS = " (by chance {chance_heaviest:chance}): 'no words' points to that class"
_MESSAGES = {
    **{f"copies_{t}": _COPIES + text + _FOR_INSTANCE for t, text in _TEXTS.items()},
    **{f"conflicts_{t}": _COPIES + _CONFLICTS + text + _FOR_INSTANCE for t, text in _TEXTS.items()},
    "empty": _EMPTY + _FOR_INSTANCE,
    "empty_classes": _EMPTY + _BY_CLASS + _FOR_INSTANCE,
    "empty_one_class": _EMPTY + _BY_CLASS + ", all in one class" + _POINTS + _FOR_INSTANCE,
    "empty_heavy": _EMPTY
    + _BY_CLASS
    + ", far more in {heaviest_class!r} than its share of the rows"
    + _POINTS
    + _FOR_INSTANCE,
}


#: How many times its share of the rows a class must hold of the empty documents for them to point to it:
#: Rotten Tomatoes' plot summaries, 8% of the rows, held 14 of 17 (82%); the neutral Slovenian comments, a
#: third of the rows, half of those a 500-word vocabulary empties (short comments are often neutral).
EMPTY_SKEW = 2.0


class DuplicateRows(Rule):
    """Identical documents, above all with another label; empty documents.

    ## What it does
    On a table that holds a document-term block (a bag of words, tf-idf; see the
    ``term-block`` option), finds rows whose non-zero cells are all the same as another row's:
    the same document twice (a repost, a forward, a quoted reply), and among them the
    sets whose copies carry different labels. Rows are compared by a 64-bit fingerprint
    of their cells, so two different rows agree by accident with probability about 2^-64.
    Identical rows are identical *as word counts*: where the raw documents are known
    (``--text``, or ``check_pipeline`` on documents), the finding says how many sets are the
    same text and how many became one only in vectorizing, and by which step (lower-casing,
    the token pattern, stop words, the vocabulary's cut by ``min_df``/``max_features``, word
    order; read from the pipeline's vectorizer's parameters); from a matrix alone it says
    that the documents may differ in what the vectorizer dropped. Example rows are given as 0-based positions (the DataFrame's
    ``iloc``), said as such.

    Empty documents (no non-zero cell: an empty text, or one whose words all fell out of
    the vocabulary through ``min_df``, ``max_features`` or stop words) are one finding of
    their own, with their classes.

    ## Why is this bad?
    A document seen twice counts twice: its words weigh double in its class's estimates,
    and a copy that lands in both the training and the test split makes the test score
    optimistic. The same document under two labels cannot be classified right both times:
    it caps the accuracy, and usually means a labelling error or a document that belongs
    to both classes (a cross-post). An empty document carries no evidence: Naive Bayes
    gives it the prior; empty documents that all fall in one class are an artefact of how
    that class was collected, and teach the model that "no words" means that class.

    ## Severity
    Copies under two labels are a warning at any number: one copy or the other is certainly
    labelled wrong. Copies under one label are a warning when they are at least
    ``copy-share`` of the rows (1%): a copy that lands in the test split is classified as its
    twin in training, so copies can make a held-out score look better by about their share,
    a point of accuracy at 1%. Fewer are info: a handful of short documents that read the
    same as counts (two comments that say only "bravo" and a name) is what real text holds,
    not a flaw of the data, and the documents themselves may differ.

    Empty documents are a warning when one class holds far more of them than its share of
    the rows (at least twice its share) beyond chance (hypergeometric tail over the classes,
    NB202's ``separation-max-chance``), else info: spread in proportion to the classes, or
    tilted towards a class whose documents are shorter, they are noise, not an artefact of
    one class.

    ## Example
    ```
    text,label
    "win a free cruise now",spam
    "Win a FREE cruise now!",ham     # the same words, another label
    ```

    ## Use instead
    Drop duplicate documents before splitting (``df.drop_duplicates(subset="text")`` for
    identical texts; for documents identical only as counts, deduplicate the matrix's
    rows), and review the ones that carry two labels; split by source so copies stay
    together. Drop empty documents, or find why one class has them.
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
        Option(
            "copy-share",
            0.01,
            "Share of the rows, copies of an earlier row under the same label, at which the copies are a warning "
            "(below it, info); copies under two labels are a warning at any share.",
            minimum=0.0,
            maximum=1.0,
        ),
    )

    messages = _MESSAGES
    message_constants = frozenset({0})

    def check(self, ctx: TableContext):
        found = ctx.duplicate_rows
        if found is None:
            return
        if found.sets:
            yield self._copies(ctx, found)
        empty = ctx.empty_documents
        if empty is not None and empty.empty_rows:
            yield self._empty(ctx, empty)

    def _copies(self, ctx: TableContext, found):
        documents = ctx.source.documents
        share_of_rows = found.copies / max(ctx.n_rows, 1)
        # Under two labels one copy is certainly wrong; under one, copies matter as the share of a test split
        # they can score for free (the Severity section).
        material = found.conflicting_sets > 0 or share_of_rows >= self.option_values["copy-share"]
        evidence = {
            "copies": found.copies,
            "share_of_rows": share_of_rows,
            "sets": found.sets,
            "conflicting_sets": found.conflicting_sets,
            "conflicting_rows": found.conflicting_rows,
            "empty_rows": found.empty_rows,
            "example_positions": [rows[:4] for rows in found.groups[:5]],
            "positions": "0-based",
        }
        if documents is not None:
            from nblint.readers.text import made_identical

            steps: dict[str, int] = {}
            for rows in found.groups:
                step = made_identical([documents[r] for r in rows], ctx.source.recipe)
                steps["the same text" if step is None else step] = (
                    steps.get("the same text" if step is None else step, 0) + 1
                )
            same = steps.pop("the same text", 0)
            evidence["same_text_sets"] = same
            evidence["made_identical_by"] = dict(sorted(steps.items()))
            texts = "vectorized" if steps else "same_text"
            if steps:
                ranked = sorted(steps.items(), key=lambda kv: -kv[1])
                evidence["vectorized_sets"] = sum(steps.values())
                evidence["by_step"] = "; ".join(f"{step}: {count:,}" for step, count in ranked)
        else:
            texts = "counts"
        first = found.groups[0][:4]
        evidence |= {"example": _positions(first), "index": _index(ctx, first)}
        return self.finding(
            ctx,
            f"{'conflicts' if found.conflicting_sets else 'copies'}_{texts}",
            rows=[r for rows in found.examples for r in rows][:10],
            evidence=evidence,
            severity=Severity.WARNING if material else Severity.INFO,
            fix=(
                "Drop duplicate documents before splitting (identical texts with drop_duplicates, documents identical "
                "only as counts by their matrix rows), and review the ones with two labels."
            ),
        )

    def _empty(self, ctx: TableContext, found):
        by_label = found.empty_by_label
        classes = [label for label in by_label if label not in ("", "None")]
        n = found.empty_rows
        severity = Severity.INFO
        chance, heavy = None, None
        if ctx.target is not None and classes:
            heavy, chance, share = _heaviest_class(ctx, by_label, n)
            if (
                heavy is not None
                and by_label[heavy] >= ctx.settings.separation_min_rows
                and chance <= ctx.settings.separation_max_chance
                and by_label[heavy] >= EMPTY_SKEW * share * n  # (far more than its share, not a tilt)
            ):
                severity = Severity.WARNING
        variant = "empty"
        if ctx.target is not None and classes:
            variant = "empty_classes"
            if severity is Severity.WARNING and chance is not None:
                variant = "empty_one_class" if len(classes) == 1 else "empty_heavy"
        evidence = {
            "empty_rows": n,
            "classes_with_empty": len(classes),
            "by_class": by_label,
            "heaviest_class": heavy,
            "chance_heaviest": chance,
            "one_in": 1 / chance if chance else None,
            "example_positions": found.empty_positions,
            "positions": "0-based",
            "by_class_listed": ", ".join(
                f"{label!r}: {count:,}" for label, count in by_label.items() if label in classes
            ),
            "example": _positions(found.empty_positions[:5]),
            "index": _index(ctx, found.empty_positions[:5]),
        }
        return self.finding(
            ctx,
            variant,
            rows=[r + 1 for r in found.empty_positions[:10]],
            evidence=evidence,
            severity=severity,
            fix=(
                "Drop empty documents before training, or find why they are empty (a failed extraction, text that "
                "min_df / max_features / stop words removed entirely)."
            ),
        )


def _heaviest_class(ctx: TableContext, by_label: dict, n: int) -> tuple[str | None, float, float]:
    """The class holding the most empty documents beyond its share of the rows, the chance of that, and its share.

    The chance that a class of ``n_c`` of the ``N`` rows holds ``k_c`` or more of ``n`` empty
    documents drawn at random is the hypergeometric upper tail; the smallest over the classes,
    times the number of classes (Bonferroni), is how likely so uneven a spread is by chance.
    Empty documents spread in proportion to the classes are not an artefact of one class.
    """
    from scipy.stats import hypergeom

    class_rows = {_label_key(c): k for c, k in ctx.class_rows.items()}
    total = sum(class_rows.values())
    tails = {
        label: float(hypergeom.sf(count - 1, total, class_rows[_label_key(label)], n))
        for label, count in by_label.items()
        if _label_key(label) in class_rows and count > 0
    }
    if not tails:  # (no empty row under a known class)
        return None, 1.0, 0.0
    heavy = min(tails, key=lambda label: (tails[label], label))
    return heavy, min(1.0, tails[heavy] * len(class_rows)), class_rows[_label_key(heavy)] / max(total, 1)


def _label_key(label) -> str:
    """A class as the profile and the row pass both write it: ``1``, ``1.0`` and ``'1'`` are one class."""
    text = str(label)
    try:
        number = float(text)
    except ValueError:
        return text
    return repr(number) if number == number else text


def _positions(rows) -> str:
    """``row 3`` or ``rows 0, 4 and 599``."""
    shown = [f"{r:,}" for r in rows]
    return f"row {shown[0]}" if len(shown) == 1 else "rows " + ", ".join(shown[:-1]) + " and " + shown[-1]


def _index(ctx, rows) -> str:
    """``; DataFrame index 'a', 'b'`` where the table is a DataFrame with an index of its own (not 0, 1, 2, ...)."""
    labels = ctx.source.row_labels(rows)
    return "" if labels is None else "; DataFrame index " + ", ".join(map(repr, labels))
