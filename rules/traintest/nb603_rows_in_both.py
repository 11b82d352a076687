from __future__ import annotations

from nblint.engine import Option, Severity

from . import TestTableRule, at_test, share

#: Below this share of training rows repeating another, the training rows are mostly unique, and a
#: copy across the split is reported (as info) even where the table's own repeats explain its number.
UNIQUE_ROWS_CHANCE = 0.05

_BOTH = "{rows} of {test_rows} test WHAT ({share:.0%}) are also in the training table"
_CONFLICTING = ", {conflicting} of them with another label there"
#: Why copies within chance are still said: the relabelled ones are beyond it, or the training rows are mostly unique.
_WHY = {
    "": "",
    "_relabelled": " (the training table repeats its own rows about as often, but rarely under another label: the "
    "relabelled ones are beyond chance)",
    "_sourced": " (about as many as the training table's own repeats explain: {chance:.1%} of its rows repeat "
    "another; copies the source holds, not a leak made by the split)",
}
_MESSAGES = {
    f"{what}{conflicting}{why}": _BOTH.replace("WHAT", what) + (_CONFLICTING if conflicting else "") + text
    for what in ("rows", "documents")
    for conflicting in ("", "_conflicting")
    for why, text in _WHY.items()
}


class RowsInBoth(TestTableRule):
    """Rows or documents of the test table that are also in the training table.

    ## What it does
    Compares every test row with the training rows by the features both tables have (a
    64-bit fingerprint of each row; with ``--text``, the documents with case and spacing
    folded). Counts the test rows found in training and, where both tables have the
    target, those whose label differs from every training copy's; the first of each are
    the finding's rows. Only where chance does not explain them: the share of training rows
    another training row repeats is the chance that a fresh row equals a training row, and
    the count must be beyond it (one-sided binomial test, ``significance``). A narrow table of
    a few discrete columns repeats its rows by itself; documents and measurements do not. The
    test rows with another label are weighed the same way against the share of training rows
    repeated under another label, so a corpus whose copies are as common as its own (cross-posts)
    is still reported when the copies in both tables disagree on the class beyond chance.

    ## Why is this bad?
    A test row the model was trained on is not held out: the test score rewards memory, not
    generalisation (evaluation leakage), and Naive Bayes, which counts every training row,
    scores its own rows well. A copy with another label is a labelling conflict: one of the
    two is wrong, and the test score charges the model for it.

    ## Severity
    A warning: the rows are beyond chance, but whether they are copies (leakage) or a
    population that truly repeats is the user's knowledge; conflicting labels are said in the
    message. Info where the copies are no more than the training table's own repeats explain
    but its rows are mostly unique (fewer than 5% repeat another): the source holds copies (a
    corpus's cross-posts), which the split shares out; a narrow table of discrete values, whose
    rows repeat by themselves, stays quiet.

    ## Example
    ```
    # train.csv                 # test.csv
    text,y                      text,y
    "win a prize now",spam      "Win a prize NOW",ham   # the same document, another label
    ```

    ## Use instead
    Split after removing duplicates (or group the split by the duplicated key, such as
    scikit-learn's ``GroupShuffleSplit``), and resolve conflicting labels before training.
    """

    code = "NB603"
    status = "stable"
    since = "0.1.0"
    name = "rows-in-both"
    severity = Severity.WARNING
    options = (
        Option(
            "significance",
            0.001,
            "The binomial test's p-value below which the test rows found in training are beyond chance.",
            minimum=0.0,
            maximum=1.0,
        ),
    )
    messages = _MESSAGES

    def check(self, ctx):
        test = ctx.test
        if test is None or not test.n_rows:
            return
        both = test.overlap
        significance = self.option_values["significance"]
        copies, relabelled = both.p_value < significance, both.conflict_p_value < significance
        # Within chance, but the training rows are mostly unique (a corpus, measurements): the copies
        # are the source's own (cross-posts, repeated records), worth knowing but not a split's leak.
        sourced = both.chance < UNIQUE_ROWS_CHANCE
        if not both.rows or not (copies or relabelled or sourced):
            return
        what = "documents" if ctx.source.documents is not None else "rows"
        rows_share = share(both.rows, test.n_rows)
        why = "_relabelled" if not copies and relabelled else "_sourced" if not copies else ""
        variant = what + ("_conflicting" if both.conflicting else "") + why
        evidence = {
            "rows": both.rows,
            "test_rows": test.n_rows,
            "share": rows_share,
            "conflicting": both.conflicting,
            "conflicting_rows": both.conflicting_examples,
            "compared_by": list(test._common) if what == "rows" else "documents",
            "chance": both.chance,
            "p_value": both.p_value,
            "conflict_chance": both.conflict_chance,
            "conflict_p_value": both.conflict_p_value,
        }
        fix = "Remove the duplicates before splitting (or split by group), and settle conflicting labels."
        severity = Severity.WARNING if copies or relabelled else Severity.INFO
        finding = self.finding(ctx, variant, rows=both.examples, evidence=evidence, fix=fix, severity=severity)
        yield at_test(ctx, finding)
