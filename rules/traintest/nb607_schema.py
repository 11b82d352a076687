from __future__ import annotations

from nblint.engine import Severity

from . import TestTableRule, at_test

#: What differs, each said when it does: training features missing, columns read as another kind, extra columns.
_PARTS = {
    "missing": "{n_missing} training feature(s) missing ({missing_listed})",
    "other_kind": "{n_other_kind} read as another kind ({other_kind_listed})",
    "extra": "{n_extra} column(s) training did not have ({extra_listed})",
}
_MESSAGES = {
    "_".join(shape): "the test table's columns differ from the training features: "
    + "; ".join(_PARTS[part] for part in shape)
    for shape in [
        [part for part, on in zip(_PARTS, (missing, other, extra)) if on]
        for missing in (True, False)
        for other in (True, False)
        for extra in (True, False)
    ]
    if shape
}


class TestSchema(TestTableRule):
    """Columns of the test table that are missing, extra, or of another kind than in training.

    ## What it does
    Compares the columns of the test table with the training features: features the test
    table lacks, test columns training did not have (the target aside), and columns read as
    numbers in one table and as text in the other. One finding for the table.

    ## Why is this bad?
    A model fitted on the training columns needs every one of them at prediction:
    scikit-learn refuses a frame whose feature names differ from those seen in ``fit``, and a
    column read as text in one table and numbers in the other is encoded differently, so its
    levels do not match. Extra columns are dropped or, worse, passed positionally.

    ## Severity
    An error when training features are missing or read as another kind: the model cannot
    take the test table as it is. A warning when the test table only has extra columns.

    ## Example
    ```
    # train.csv          # test.csv
    age,colour,y         age,y        # colour is missing
    ```

    ## Use instead
    Produce both tables with the same export (the same columns, types and encodings), or
    select the training columns from the test table before predicting.
    """

    code = "NB607"
    status = "stable"
    since = "0.1.0"
    name = "test-schema"
    severity = Severity.ERROR
    messages = _MESSAGES

    def check(self, ctx):
        test = ctx.test
        if test is None or not (test.missing or test.extra or test.other_kind):
            return
        evidence = {
            "n_missing": len(test.missing),
            "n_other_kind": len(test.other_kind),
            "n_extra": len(test.extra),
            "missing": list(test.missing),
            "extra": list(test.extra),
            "other_kind": {c: {"train": a, "test": b} for c, (a, b) in sorted(test.other_kind.items())},
            "missing_listed": _names(test.missing),
            "extra_listed": _names(test.extra),
            "other_kind_listed": ", ".join(
                f"{c!r}: {a} in training, {b} here" for c, (a, b) in sorted(test.other_kind.items())[:5]
            ),
        }
        shape = [part for part, on in zip(_PARTS, (test.missing, test.other_kind, test.extra)) if on]
        severity = Severity.ERROR if test.missing or test.other_kind else Severity.WARNING
        columns = sorted({*test.missing, *test.extra, *test.other_kind})
        fix = "Produce both tables with the same export, or select the training columns from the test table."
        yield at_test(
            ctx, self.finding(ctx, "_".join(shape), columns=columns, evidence=evidence, fix=fix, severity=severity)
        )


def _names(columns) -> str:
    shown = ", ".join(map(repr, list(columns)[:5]))
    return shown + (", ..." if len(columns) > 5 else "")
