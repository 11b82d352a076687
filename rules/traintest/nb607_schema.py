from __future__ import annotations

from nblint.engine import Severity

from . import TestTableRule, at_test


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

    def check(self, ctx):
        test = ctx.test
        if test is None or not (test.missing or test.extra or test.other_kind):
            return
        parts = []
        if test.missing:
            parts.append(f"{len(test.missing)} training feature(s) missing ({_names(test.missing)})")
        if test.other_kind:
            described = ", ".join(
                f"{c!r}: {a} in training, {b} here" for c, (a, b) in sorted(test.other_kind.items())[:5]
            )
            parts.append(f"{len(test.other_kind)} read as another kind ({described})")
        if test.extra:
            parts.append(f"{len(test.extra)} column(s) training did not have ({_names(test.extra)})")
        message = "the test table's columns differ from the training features: " + "; ".join(parts)
        evidence = {
            "n_missing": len(test.missing),
            "n_other_kind": len(test.other_kind),
            "n_extra": len(test.extra),
            "missing": list(test.missing),
            "extra": list(test.extra),
            "other_kind": {c: {"train": a, "test": b} for c, (a, b) in sorted(test.other_kind.items())},
        }
        severity = Severity.ERROR if test.missing or test.other_kind else Severity.WARNING
        columns = sorted({*test.missing, *test.extra, *test.other_kind})
        fix = "Produce both tables with the same export, or select the training columns from the test table."
        yield at_test(ctx, self.finding(ctx, message, columns=columns, evidence=evidence, fix=fix, severity=severity))


def _names(columns) -> str:
    shown = ", ".join(map(repr, list(columns)[:5]))
    return shown + (", ..." if len(columns) > 5 else "")
