from __future__ import annotations

from nblint.engine import SUMMARIZE_ABOVE, Severity
from nblint.run.testpass import SUPPORT_SDS

from . import TestTableRule, at_test, share


class OutOfSupport(TestTableRule):
    """Test values of a measurement far outside what every class had in training.

    ## What it does
    For every measurement column read by a Gaussian (declared, or the model nblint
    recommends for it), counts the test values that lie outside the training range and more
    than six standard deviations from every class's training mean. Columns constant within
    a class in training (zero variance there) whose test values differ from that constant
    are said too.

    ## Why is this bad?
    A Gaussian's log-likelihood falls with the square of the distance: six standard
    deviations cost 18 nats, more than any ordinary feature gives back, so on such a row the
    one column decides the class alone (the class with the widest spread wins), whatever
    the other features say. A class with zero variance in training has a spike for a
    density (scikit-learn adds ``var_smoothing`` times the largest variance): any other test
    value all but vetoes that class.

    ## Severity
    A warning: the rows are predicted from one feature, which misleads the model, but
    whether the value is an error or a real new regime is the user's knowledge.

    ## Example
    ```
    # train.csv (height in metres)   # test.csv (in centimetres)
    height,y                         height,y
    1.62,a                           175,a
    1.80,b                           160,b
    ```

    ## Use instead
    Fix the unit or the export that produced the values, clip or transform the column
    the same way in both tables, or bin it into levels read by a categorical model.
    """

    code = "NB605"
    status = "stable"
    since = "0.1.0"
    name = "out-of-support"
    severity = Severity.WARNING
    options = (SUMMARIZE_ABOVE,)
    messages = {
        "outside": "column {column!r}: {rows} of {test_rows} test rows ({share:.0%}) lie more than {sds:g} standard "
        "deviations from every class's training mean and outside the training range (test values from {lowest:level} "
        "to {highest:level}): a Gaussian then decides those rows on this column alone",
        "constant_varies": "column {column!r} is {value:level} on every training row of class {class!r} (zero "
        "variance) but differs from it on {rows} of {test_rows} test rows: the class is all but vetoed there",
        "summary": "{instances} measurement columns ({share:.0%} of the features) have test values out of their "
        "training support; the costliest: {examples[0][message]}",
    }

    def check(self, ctx):
        test = ctx.test
        if test is None or not test.n_rows:
            return
        for column in sorted(set(test.outside) | set(test.constant_varies)):
            if column in test.outside:
                rows, low, high, first = test.outside[column]
                rows_share = share(rows, test.n_rows)
                evidence = {
                    "rows": rows,
                    "test_rows": test.n_rows,
                    "share": rows_share,
                    "lowest": low,
                    "highest": high,
                    "sds": SUPPORT_SDS,
                }
                fix = "Check the unit or export of the column; transform it the same way in both tables, or bin it."
                finding = self.finding(ctx, "outside", columns=[column], rows=first, evidence=evidence, fix=fix)
                yield at_test(ctx, finding)
            if column in test.constant_varies:
                constant, rows, first = test.constant_varies[column]
                label, value = sorted(constant.items())[0]
                evidence = {
                    "rows": rows,
                    "test_rows": test.n_rows,
                    "constant": constant,
                    "class": label,
                    "value": value,
                }
                fix = "Collect training rows where the column varies in every class, or drop or bin the column."
                finding = self.finding(ctx, "constant_varies", columns=[column], rows=first, evidence=evidence, fix=fix)
                yield at_test(ctx, finding)
